"""The token seams: the tokens on both sides of every place where two kinds of text meet.

A prompt is glued from pieces (the template's literals, a row's values, the in-context
examples, the chat template's markup, a scored continuation), and a BPE tokenizer does not see
the glue: ``"Answer:" + " C"`` may become the one token ``": C"``, a space that ends the context
may become a token of its own the model never saw in training. Provenance
(:mod:`workbench.core.provenance`) knows where every character came from, so the seams are the
places where the origin changes; a real tokenizer's pieces (``counting.Piece``) say what happens
there.

Context/continuation pairs (PPL labels, loglikelihood continuations) are encoded both ways the
frameworks do it:

- **apart** (OpenCompass): the context is encoded on its own and its token count cuts the whole
  text's tokens (PPL with ``normalizing_str``: ``mask_length`` is
  ``get_token_len_from_template(context)``; ``HuggingFaceCausalLM.get_loglikelihood``: the
  context is the input with the continuation removed): the tokens past it are scored, whatever
  the whole text's tokens at the cut are;
- **together, then split** (lm-eval 0.4.13 ``_encode_pair``, causal models): the context's
  trailing whitespace is moved into the continuation, the whole is encoded, and the tokens past
  the context's own count are the continuation's.

Each mark has a stable id (``MARKS``) and a severity (``SEVERITY``): :func:`seam_problems` lists
a request's as (id, severity, message), the hook a lint rule can turn into findings.

May import: the core's bottom layer and the other token modules; nothing above.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Protocol

from ..provenance import ICE, ROW, UNKNOWN_ORIGIN, Origin, PStr, spans_of
from .counting import Piece, section_of

# Seam kinds, in the order they are told.
TEMPLATE_ROW = "template/row"
EXAMPLE_TEST = "example/test"
CONTEXT_CONTINUATION = "context/continuation"
GENERATION = "generation"
SEAM_KINDS = (TEMPLATE_ROW, EXAMPLE_TEST, CONTEXT_CONTINUATION, GENERATION)

#: Mark ids and what each says (stable: the text output and lint findings both use them).
MARKS = {
    "merge": "a token merges across the seam",
    "joined": "a token holds both sides (information: the row's first or last token depends on the "
              "text beside it, as a space before a word does)",
    "space-space": "the continuation starts with a space after a context that ends with one",
    "trailing-space": "a space ends the context: it becomes a token the model must continue from",
    "control-in-data": "a special string in the data tokenizes as a control token",
    "doubled-bos": "two BOS tokens: the text starts with one and the tokenizer adds another",
    "apart-differs": "encoded apart (OpenCompass) the tokens differ from the whole text's",
    "split-differs": "lm-eval's split differs from the context's own tokens",
    "nothing-scored": "a framework's split leaves the continuation no tokens of its own to score",
}

#: How much each mark matters: a "warning" is a problem at the seam (what a lint finding is made
#: of); "info" is how text tokenizes anyway (a template's space joined to a row's first word).
SEVERITY = {mark: "info" if mark == "joined" else "warning" for mark in MARKS}

#: Tokens shown on each side of a seam.
WINDOW = 3


class PieceSource(Protocol):
    """What the seams need of a tokenizer (``counting.HFTokenizer``, ``counting.Tiktoken``): its
    pieces, its ids and how it is named."""

    method: str

    def pieces(self, text: str, add_special_tokens: bool = False) -> list[Piece]: ...

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None: ...


@dataclass(frozen=True)
class Seam:
    kind: str
    at: int  # the character where the right side starts
    left: str  # where the text before it came from (Origin.describe)
    right: str


@dataclass(frozen=True)
class SeamTokens:
    """A seam and the tokens around it."""

    seam: Seam
    before: tuple[Piece, ...]
    across: Piece | None  # the token that holds characters of both sides
    after: tuple[Piece, ...]
    marks: tuple[str, ...]


@dataclass(frozen=True)
class Split:
    """A context/continuation pair, encoded both ways the frameworks do."""

    context: str
    continuation: str
    whole: tuple[Piece, ...]  # the text as the model gets it
    #: OpenCompass: the continuation encoded alone, the context's ids alone, and the whole's
    #: tokens past the context's count (what is scored)
    apart_continuation: tuple[Piece, ...]
    apart_context: tuple[int, ...]
    apart_scored: tuple[Piece, ...]
    #: lm-eval: the ids of the context without its trailing whitespace, and the whole's tokens past it
    together_context: tuple[int, ...]
    together_continuation: tuple[Piece, ...]
    seam: SeamTokens


@dataclass(frozen=True)
class RequestSeams:
    """Every seam of one request's text, and what is wrong across them."""

    text: str
    tokens: int
    seams: tuple[SeamTokens, ...]
    split: Split | None = None
    marks: tuple[str, ...] = ()  # of the whole text (doubled BOS, control tokens in data)
    controls: tuple[tuple[Piece, str], ...] = ()  # control tokens from the data, and where from

    def all_marks(self) -> list[tuple[str, str]]:
        """(mark id, seam kind or "text") of every mark, in order."""
        out = [(mark, "text") for mark in self.marks]
        for seam in self.seams:
            out += [(mark, seam.seam.kind) for mark in seam.marks]
        if self.split is not None:
            out += [(mark, CONTEXT_CONTINUATION) for mark in self.split.seam.marks]
        return out


def seam_problems(found: RequestSeams) -> list[tuple[str, str, str]]:
    """(mark id, severity, one-line message) of every mark: the hook a lint rule turns into findings."""
    return [(mark, SEVERITY[mark], f"{where}: {MARKS[mark]}") for mark, where in found.all_marks()]


# -- where the seams are -----------------------------------------------------------------------

def _side(origin: Origin) -> str:
    if section_of(origin.kind, origin.detail) == "in_context_examples":
        return "example"
    return "row" if origin.kind == ROW else "template"


def find_seams(text: str, generation: str | None = None) -> list[Seam]:
    """The seams of a provenance string: template/row (either way, outside the examples),
    example/test (after the last in-context character), and, for a generating request, the
    generation point at the end (``generation`` names it)."""
    seams: dict[int, Seam] = {}
    pos = 0
    last: tuple[str, Origin] | None = None
    example_end: Seam | None = None
    for length, origin in spans_of(text):
        side = _side(origin)
        if last is not None and pos > 0:
            before, before_origin = last
            if before == "example" and side != "example":
                example_end = Seam(EXAMPLE_TEST, pos, before_origin.describe(), origin.describe())
            elif {before, side} == {"template", "row"} and pos not in seams:
                seams[pos] = Seam(TEMPLATE_ROW, pos, before_origin.describe(), origin.describe())
        last = (side, origin)
        pos += length
    if example_end is not None:
        seams[example_end.at] = example_end  # (told as example/test where both meet there)
    if generation is not None and text:
        seams[len(text)] = Seam(GENERATION, len(text), origin_at(text, len(text) - 1).describe(), generation)
    return [seams[at] for at in sorted(seams)]


def origin_at(text: str, at: int) -> Origin:
    """Where the character at ``at`` came from."""
    spans = spans_of(text)
    ends = list(accumulate(length for length, _ in spans))
    found = bisect_right(ends, at)
    return spans[found][1] if found < len(spans) else UNKNOWN_ORIGIN


def traced_chat_text(text: str, contents: Sequence[str], markup: Origin) -> str:
    """A chat template's output with the provenance of the message contents it holds (each
    found in order, whole or stripped, as the token sections find them); the rest is ``markup``."""
    runs: list[tuple[int, Origin]] = []
    pos = 0
    for piece in contents:
        plain = str.__str__(piece)
        found, offset = text.find(plain, pos) if plain else -1, 0
        if found < 0 and plain.strip() and plain.strip() != plain:
            offset = len(plain) - len(plain.lstrip())
            plain = plain.strip()
            found = text.find(plain, pos)
        if found < 0:
            continue
        runs.append((found - pos, markup))
        inner = PStr(piece) if not isinstance(piece, PStr) else piece
        runs += list(inner[offset:offset + len(plain)].spans)  # type: ignore[attr-defined]
        pos = found + len(plain)
    runs.append((len(text) - pos, markup))
    return PStr.from_runs(text, runs)


# -- what the tokens do there ------------------------------------------------------------------

class Placed:
    """A text's tokens that cover characters (not the BOS a tokenizer adds), with their starts
    and ends in order: the tokens around a place are found by bisection, so a long text's
    seams cost what a short one's do."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = [p for p in pieces if p.start is not None]
        self.starts = [p.start or 0 for p in self.pieces]
        self.ends = [p.end or 0 for p in self.pieces]

    def around(self, at: int, window: int = WINDOW) -> tuple[tuple[Piece, ...], Piece | None,
                                                             tuple[Piece, ...]]:
        """The tokens ending at or before ``at`` (the last ``window``), the one across it, and
        those starting at or after it (the first ``window``)."""
        ended = bisect_right(self.ends, at)
        following = bisect_left(self.starts, at)
        across = self.pieces[ended] if ended < len(self.pieces) and self.starts[ended] < at else None
        return (tuple(self.pieces[max(0, ended - window):ended]), across,
                tuple(self.pieces[following:following + window]))


def _seam_tokens(text: str, placed: Placed, seam: Seam) -> SeamTokens:
    before, across, after = placed.around(seam.at)
    marks = []
    if across is not None:  # (where a continuation is scored it is a problem; elsewhere, how text tokenizes)
        marks.append("merge" if seam.kind == CONTEXT_CONTINUATION else "joined")
    if seam.kind == GENERATION and text[:seam.at].endswith((" ", "\t")):
        marks.append("trailing-space")
    return SeamTokens(seam, before, across, after, tuple(marks))


def _controls(text: str, pieces: Sequence[Piece]) -> list[tuple[Piece, str]]:
    """Control tokens whose characters came from a row or an example's values."""
    out = []
    for piece in pieces:
        if piece.control and piece.start is not None:
            origin = origin_at(text, piece.start)
            if origin.kind in (ROW, ICE):
                out.append((piece, origin.describe()))
    return out


def split_pair(source: PieceSource, context: str, continuation: str, add_special: bool,
               whole: Sequence[Piece] | None = None) -> Split:
    """A context/continuation pair encoded the OpenCompass way and the lm-eval way (``whole``:
    the joined text's tokens, when they are known already)."""
    plain_context, plain_cont = str.__str__(context), str.__str__(continuation)
    whole_text = plain_context + plain_cont
    if whole is None:
        whole = source.pieces(whole_text, add_special)
    ids = [p.id for p in whole]
    apart_cont = source.pieces(plain_cont, False)
    apart_context = source.ids(plain_context, add_special) or []
    scored = whole[len(apart_context):]
    spaces = len(plain_context) - len(plain_context.rstrip())
    moved = plain_context[:len(plain_context) - spaces] if spaces else plain_context
    together_context = (source.ids(moved, add_special) or []) if moved else []
    together_cont = whole[len(together_context):]
    at = len(plain_context)
    seam = _seam_tokens(whole_text, Placed(whole), Seam(CONTEXT_CONTINUATION, at, "context", "continuation"))
    marks = list(seam.marks)
    if plain_context[-1:].isspace() and plain_cont[:1].isspace():
        marks.append("space-space")
    elif plain_context.endswith((" ", "\t")):
        marks.append("trailing-space")
    if apart_context + [p.id for p in apart_cont] != ids:
        marks.append("apart-differs")
    if ids[:len(together_context)] != together_context:
        marks.append("split-differs")
    if not scored or not together_cont:
        marks.append("nothing-scored")
    seam = SeamTokens(seam.seam, seam.before, seam.across, seam.after, tuple(marks))
    return Split(plain_context, plain_cont, tuple(whole), tuple(apart_cont), tuple(apart_context),
                 tuple(scored), tuple(together_context), tuple(together_cont), seam)


def request_seams(source: PieceSource, text: str, add_special: bool, generation: str | None = None,
                  continuation_at: int | None = None) -> RequestSeams:
    """Every seam of ``text`` (a provenance string: the text the model gets), with the tokens
    around each; ``continuation_at``: where a scored continuation starts (PPL, LL)."""
    plain = str.__str__(text)
    pieces = source.pieces(plain, add_special)
    placed = Placed(pieces)
    seams = [_seam_tokens(plain, placed, s) for s in find_seams(text, generation)
             if continuation_at is None or s.at != continuation_at]
    marks = []
    if len(pieces) > 1 and pieces[0].start is None and pieces[1].id == pieces[0].id:
        marks.append("doubled-bos")
    controls = _controls(text, pieces)
    if controls:
        marks.append("control-in-data")
    split = None
    if continuation_at is not None and 0 < continuation_at < len(plain):
        split = split_pair(source, plain[:continuation_at], plain[continuation_at:], add_special, pieces)
    return RequestSeams(plain, len(pieces), tuple(seams), split, tuple(marks), tuple(controls))


# -- over a pair's requests ---------------------------------------------------------------------

@dataclass
class SeamTally:
    """What a pair's requests have at their seams, for the summary lines."""

    rows: int = 0
    labels: int = 0  # the most context/continuation pairs a row had
    pairs: int = 0  # context/continuation pairs seen
    requests: int = 0
    marks: dict[tuple[str, str], int] = field(default_factory=dict)  # (mark, where) -> requests

    def add_row(self, found: Sequence[RequestSeams]) -> None:
        self.rows += 1
        splits = sum(1 for f in found if f.split is not None)
        self.labels = max(self.labels, splits)
        self.pairs += splits
        for one in found:
            self.requests += 1
            for key in set(one.all_marks()):
                self.marks[key] = self.marks.get(key, 0) + 1

    def lines(self) -> list[str]:
        """One line per mark met, the problems first: "42 of 4 labels × 1,319 rows:
        context/continuation: a token merges across the seam"."""
        out = []
        for (mark, where), count in sorted(self.marks.items(), key=_summary_order):
            if where == CONTEXT_CONTINUATION and self.labels:
                of = f"{count:,} of {self.labels} label{'s' * (self.labels != 1)} × {self.rows:,} " \
                     f"row{'s' * (self.rows != 1)}"
            else:
                of = f"{count:,} of {self.requests:,} request{'s' * (self.requests != 1)}"
            out.append(f"{of}: {where}: {MARKS[mark]}")
        if self.requests and not any(SEVERITY[mark] == "warning" for mark, _ in self.marks):
            out.insert(0, f"no problem at the seams of {self.requests:,} request{'s' * (self.requests != 1)}")
        return out


def _summary_order(item: tuple[tuple[str, str], int]) -> tuple[bool, int, str]:
    """Problems before information, then by seam kind (the whole text's first), then by mark."""
    (mark, where), _ = item
    return SEVERITY[mark] != "warning", SEAM_KINDS.index(where) if where in SEAM_KINDS else -1, mark
