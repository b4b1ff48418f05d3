"""The token seams as lines of text: what ``render --format tokens`` writes and the app's
token seams screen (``k``) shows.

A token is drawn as its characters in quotes, whitespace made visible (``·`` a space, ``↵`` a
newline, ``→`` a tab), then its id: ``":" 25 ┃ "·C" 356``. ``┃`` is the seam; a token that holds
characters of both sides is drawn astride it, bracketed: ``⟦": C" 3⟧``.

May import: the core (through its public modules); no loading, no Textual.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..core.inert_text import visible
from ..core.seam_report import TOKENIZER_FAILURES, pair_tokenizer, sample_seams, tokenizer_failed
from ..core.tokens.counting import Piece
from ..core.tokens.seams import MARKS, SEVERITY, RequestSeams, SeamTally, SeamTokens, Split

SEAM = "┃"
#: Control tokens from the data listed for one request (a row of thousands says the rest as a count).
MOST_CONTROLS = 5


def piece_label(piece: Piece) -> str:
    """One token: its characters, whitespace visible, and its id."""
    text = visible(piece.text).replace(" ", "·").replace("\n", "↵").replace("\t", "→")
    return f'"{text}" {piece.id}'


def _pieces(pieces: Sequence[Piece]) -> str:
    return " ".join(piece_label(p) for p in pieces) if pieces else "(none)"


def seam_line(found: SeamTokens) -> str:
    """The tokens around one seam: ``… before ┃ after …`` (a token across it bracketed)."""
    before = " ".join(piece_label(p) for p in found.before)
    after = " ".join(piece_label(p) for p in found.after)
    if found.across is not None:
        middle = f"⟦{piece_label(found.across)}⟧"
        return " ".join(part for part in (before, middle, after) if part)
    return " ".join(part for part in (before, SEAM, after) if part)


def _marks(marks: Sequence[str]) -> list[str]:
    return [f"  {'!' if SEVERITY[mark] == 'warning' else '·'} {mark}: {MARKS[mark]}" for mark in marks]


def _split_lines(split: Split) -> list[str]:
    out = [f"  {split.seam.seam.kind} at character {split.seam.seam.at:,}: {seam_line(split.seam)}"]
    context = len(split.apart_context)
    out.append(f"    OpenCompass (apart): the context alone is {context} token{'s' * (context != 1)}, so the "
               f"whole's tokens past them are scored: {_pieces(split.apart_scored)}; the continuation alone "
               f"is {_pieces(split.apart_continuation)}")
    out.append("    lm-eval (together, then split): the continuation is "
               f"{_pieces(split.together_continuation)}")
    out += ["  " + line for line in _marks(split.seam.marks)]
    return out


def request_lines(heading: str, found: RequestSeams) -> list[str]:
    """A request's seams: a heading, one line per seam and its marks, then the whole text's marks."""
    out = [f"{heading} · {found.tokens:,} token{'s' * (found.tokens != 1)}"]
    for seam in found.seams:
        s = seam.seam
        out.append(f"  {s.kind} at character {s.at:,} ({visible(s.left)} → {visible(s.right)}): "
                   f"{seam_line(seam)}")
        out += ["  " + line for line in _marks(seam.marks)]
    if found.split is not None:
        out += _split_lines(found.split)
    for mark in found.marks:
        if mark == "control-in-data":
            for piece, where in found.controls[:MOST_CONTROLS]:
                out.append(f"  ! control-in-data: {piece_label(piece)} at character {piece.start:,} comes "
                           f"from {visible(where)}: {MARKS[mark]}")
            more = len(found.controls) - MOST_CONTROLS
            if more > 0:
                tokens = f"token{'s' * (more != 1)}"
                out.append(f"  ! control-in-data: and {more:,} more control {tokens} from the data")
        else:
            out += _marks([mark])
    if not found.seams and found.split is None:
        out.append("  (no seams: the text has one origin)")
    return out


def pair_heading(pair: Any, method: str | None) -> str:
    return (f"{visible(pair.dataset_abbr)} × {visible(pair.model_abbr or 'no model')}"
            + (f" · {visible(method)}" if method else ""))


def request_heading(sample: Any, request: Any) -> str:
    """``sample 3 · label A · turn 0``: which request the lines are of."""
    tags = [f"sample {sample.index}"]
    if request.label is not None:
        label = request.label if isinstance(request.label, str) else json.dumps(request.label)
        tags.append(f"label {visible(label)}")
    if request.turn is not None:
        tags.append(f"turn {request.turn}")
    return " · ".join(tags)


def sample_lines(pair: Any, sample: Any, selected: int | None = None) -> list[str]:
    """One sample's token seams (``selected``: that request's only), with the pair's heading and
    the sample's summary; a pair with no tokenizer, or one that fails, says why instead."""
    chosen = pair_tokenizer(pair)
    out = [pair_heading(pair, chosen.source.method if chosen.source else None)]
    if chosen.source is None:
        return [*out, visible(chosen.why_not or "")]
    try:
        found = sample_seams(pair, sample, chosen.source)
    except TOKENIZER_FAILURES as exc:
        return [*out, visible(tokenizer_failed(chosen.source.method, "this sample", exc))]
    tally = SeamTally()
    tally.add_row(found)
    for n, (request, seams) in enumerate(zip(sample.requests, found)):
        if selected is None or n == selected:
            out += request_lines(request_heading(sample, request), seams)
    return [*out, *(f"summary: {visible(line)}" for line in tally.lines())]
