"""One benchmark's rows side by side across frameworks: the rows aligned by a key, a character
diff of their final inputs, and each difference put in a class a reader can act on (shots,
delimiters and whitespace, choice formatting, system prompt, chat template, generation settings,
answer extraction, continuation vs generation, and the wording left over).

Each side is what the framework's own renderer made (the render JSON of an OpenCompass/AISBench
config or of an lm-eval task): this module renders nothing. Not ``headless/compare.py``, which
compares two renders of the same framework (snapshots, ``diff``).

May import: the standard library only (pure: no I/O).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["KINDS", "Difference", "Side", "SideRow", "align", "char_diff", "classify", "row_key"]

#: The classes of difference, in the order a report lists them, each with its words.
KINDS: dict[str, str] = {
    "request": "continuation vs generation",
    "shots": "number and choice of shots",
    "system": "system prompt",
    "chat_template": "chat template and its kwargs",
    "choices": "choice formatting",
    "delimiters": "delimiters and whitespace",
    "wording": "instruction and wording",
    "generation": "generation settings",
    "extraction": "answer extraction",
}

#: Longest text diffed character by character; longer changed blocks are diffed by line.
CHAR_DIFF_LIMIT = 4000
#: How alike two changed blocks must be to be diffed by character (difflib's ratio): below it, two
#: different texts (another shot) read better as one block out and one in than as confetti.
SIMILAR = 0.6


@dataclass(frozen=True)
class SideRow:
    """One row's request on one side, as its framework builds it."""

    #: what aligns the row with the other sides (its key column's text, whitespace collapsed)
    key: str
    #: the row's position in the side's test split
    index: int
    #: the first request's final input, exactly as the model receives it
    final: str
    #: (role, content) pairs handed to the chat template; None when none is applied
    messages: tuple[tuple[str, str], ...] | None = None
    #: the in-context examples: how many, and their positions in the pool they were drawn from
    shots: int = 0
    shot_ids: tuple[int, ...] = ()
    #: where the shots come from: "template" (written in it), "retriever", "sampler" or "none"
    shot_source: str = "none"
    #: the scored continuations (loglikelihood, multiple choice); empty for generation
    continuations: tuple[str, ...] = ()


@dataclass(frozen=True)
class Side:
    """One framework's config for the benchmark, rendered for one model."""

    framework: str
    config: str
    dataset: str
    #: "generation" (the model writes its answer) or "continuation" (choices are scored)
    request: str
    chat_template: str | None = None
    chat_kwargs: Mapping[str, Any] = field(default_factory=dict)
    #: max new tokens, stop sequences, sampling (None: the framework's default, said in words)
    generation: Mapping[str, Any] = field(default_factory=dict)
    #: the answer-extraction steps, in words, in the order they run
    extraction: tuple[str, ...] = ()
    rows: tuple[SideRow, ...] = ()


@dataclass(frozen=True)
class Difference:
    """One class of difference between two sides' requests for one row."""

    kind: str
    left: str
    right: str
    why: str


def row_key(value: Any) -> str:
    """A row's alignment key: its key column's text with runs of whitespace made one space."""
    return " ".join(str(value).split())


def align(sides: Sequence[Side]) -> list[tuple[str, list[SideRow | None]]]:
    """The rows of every side lined up by key, in the first side's order, then rows only later
    sides have; a key repeated on a side pairs in order of appearance."""
    order: list[str] = []
    table: dict[str, list[list[SideRow]]] = {}
    for at, side in enumerate(sides):
        seen: dict[str, int] = {}
        for row in side.rows:
            n = seen.get(row.key, 0)
            seen[row.key] = n + 1
            key = row.key if n == 0 else f"{row.key}\x00{n}"
            if key not in table:
                table[key] = [[] for _ in sides]
                order.append(key)
            table[key][at].append(row)
    return [(key.split("\x00")[0], [cells[0] if cells else None for cells in table[key]]) for key in order]


def char_diff(a: str, b: str, similar: float = SIMILAR) -> list[tuple[str, str]]:
    """``a`` to ``b`` as runs of ``("=", text)``, ``("-", text)``, ``("+", text)``: lines first,
    then the characters of each changed block up to :data:`CHAR_DIFF_LIMIT` whose two sides are
    ``similar`` (default :data:`SIMILAR`; 0: every block within the limit)."""
    out: list[tuple[str, str]] = []
    a_lines, b_lines = a.splitlines(keepends=True), b.splitlines(keepends=True)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False).get_opcodes():
        left, right = "".join(a_lines[i1:i2]), "".join(b_lines[j1:j2])
        if op == "equal":
            _add(out, "=", left)
        elif op == "replace" and len(left) <= CHAR_DIFF_LIMIT and len(right) <= CHAR_DIFF_LIMIT \
                and (chars := difflib.SequenceMatcher(None, left, right, autojunk=False)).ratio() >= similar:
            for cop, c1, c2, d1, d2 in chars.get_opcodes():
                if cop == "equal":
                    _add(out, "=", left[c1:c2])
                else:
                    _add(out, "-", left[c1:c2])
                    _add(out, "+", right[d1:d2])
        else:
            _add(out, "-", left)
            _add(out, "+", right)
    return out


def _add(out: list[tuple[str, str]], op: str, text: str) -> None:
    if not text:
        return
    if out and out[-1][0] == op:
        out[-1] = (op, out[-1][1] + text)
    else:
        out.append((op, text))


def classify(left: Side, right: Side, a: SideRow, b: SideRow) -> list[Difference]:
    """Every class of difference between two sides' requests for the same row, in
    :data:`KINDS` order (empty: the same request, the same settings)."""
    found = [d for d in (rule(left, right, a, b) for rule in _RULES) if d is not None]
    return _unexplained(found, a, b)


#: The classes that account for a difference in the final input's text.
_TEXT_KINDS = frozenset({"shots", "system", "chat_template", "choices", "delimiters", "wording"})


def _unexplained(found: list[Difference], a: SideRow, b: SideRow) -> list[Difference]:
    """``found``, and what the rules did not name: final inputs that differ outside the row's own
    turn (a shot's text, the text around the turns) are wording; scored continuations that differ
    in their whitespace alone (a lost leading space) are delimiters. So two requests never read as
    the same when a byte of them differs."""
    kinds = {d.kind for d in found}
    extra = []
    if a.final != b.final and not kinds & _TEXT_KINDS:
        extra.append(Difference("wording", "the final input", "another final input",
                                "the final inputs differ outside the row's own turn (a shot's text, or the "
                                "text around the turns)"))
    if a.continuations and b.continuations and a.continuations != b.continuations \
            and not kinds & {"choices", "delimiters"}:
        extra.append(Difference("delimiters", _quoted(a.continuations), _quoted(b.continuations),
                                "the scored continuations differ in their whitespace"))
    return sorted(found + extra, key=lambda d: list(KINDS).index(d.kind))


def _request(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    if left.request == right.request:
        return None
    why = ("one side scores each choice as a continuation of the prompt (the model writes nothing), "
           "the other lets the model write an answer that is then extracted")
    return Difference("request", left.request, right.request, why)


def _shots(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    left_words, right_words = _shots_words(a), _shots_words(b)
    if a.shots != b.shots:
        return Difference("shots", left_words, right_words,
                          f"{a.shots} in-context examples against {b.shots}")
    if a.shots and a.shot_source == b.shot_source != "template" and a.shot_ids != b.shot_ids:
        return Difference("shots", left_words, right_words,
                          f"the same number of shots ({a.shots}), other rows drawn")
    return None


def _shots_words(row: SideRow) -> str:
    if not row.shots:
        return "0 shots"
    where = {"template": "written in the template", "retriever": "picked by the retriever",
             "sampler": "drawn by the sampler"}.get(row.shot_source, row.shot_source)
    ids = f": rows {', '.join(map(str, row.shot_ids))}" if row.shot_ids else ""
    return f"{row.shots} shot{'s' * (row.shots != 1)}, {where}{ids}"


def _system(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    sa, sb = _system_text(a), _system_text(b)
    if sa == sb:
        return None
    return Difference("system", _said(sa), _said(sb), "the system message differs" if sa and sb else
                      "one side sends a system message, the other none")


def _said(text: str | None) -> str:
    return repr(text) if text is not None else "none"


def _system_text(row: SideRow) -> str | None:
    if not row.messages:
        return None
    texts = [content for role, content in row.messages if role == "system"]
    return "\n".join(texts) if texts else None


def _chat_template(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    if (left.chat_template is None) != (right.chat_template is None):
        why = "one side applies a chat template, the other sends the prompt as plain text"
    elif left.chat_template != right.chat_template:
        why = "another chat template"
    elif left.chat_template is not None and dict(left.chat_kwargs) != dict(right.chat_kwargs):
        why = "the same template, other arguments"
    else:
        return None
    return Difference("chat_template", _chat_words(left), _chat_words(right), why)


def _chat_words(side: Side) -> str:
    if side.chat_template is None:
        return "none"
    kwargs = ", ".join(f"{k}={v!r}" for k, v in sorted(side.chat_kwargs.items()))
    return f"{side.chat_template}" + (f" ({kwargs})" if kwargs else "")


#: A choice label at a line's start: "A.", "A)", "(A)", "A:" or "A、" (the style, with the letter X).
_LABEL = re.compile(r"^[ \t]*(\(?)([A-J])([.)):：、]?)(?=[ \t])", re.MULTILINE)


def _label_style(text: str) -> str | None:
    """How the last user turn labels its choices ("A. ", "(A) "...), None: no labelled choices."""
    found = _LABEL.findall(text)
    letters = [m[1] for m in found]
    if len(found) < 2 or letters[:2] != ["A", "B"]:
        return None
    opening, _, closing = found[0]
    return f"{opening}X{closing}"


def _choices(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    ta, tb = _turn(a), _turn(b)
    sa, sb = _label_style(ta), _label_style(tb)
    if a.continuations and b.continuations:
        ca, cb = [c.strip() for c in a.continuations], [c.strip() for c in b.continuations]
        if ca != cb:
            return Difference("choices", _quoted(a.continuations), _quoted(b.continuations),
                              "the scored choices are written differently")
    if sa == sb:
        return None
    return Difference("choices", _style_words(sa), _style_words(sb),
                      "the choices are laid out differently in the prompt")


def _style_words(style: str | None) -> str:
    return f"labelled {style} " if style else "no labelled choices in the prompt"


def _quoted(items: Sequence[str]) -> str:
    return ", ".join(repr(c) for c in items[:6]) + (f" (+{len(items) - 6})" if len(items) > 6 else "")


def _turn(row: SideRow) -> str:
    """What the row's own question reads as: the last user turn, else the whole final input."""
    if row.messages:
        users = [content for role, content in row.messages if role == "user"]
        if users:
            return users[-1]
    return row.final


def _text_changes(a: SideRow, b: SideRow) -> list[tuple[str, str]]:
    """The changed (left, right) stretches of the two rows' own turns, less those inside the lines
    of labelled choices where the two lay their choices out differently ("A. x" → "A) x", or listed
    on one side only), which :func:`_choices` names."""
    left, right = _turn(a), _turn(b)
    laid_out = _label_style(left) != _label_style(right)
    in_label = (_label_spans(left), _label_spans(right)) if laid_out else ([], [])
    pairs: list[tuple[str, str]] = []
    at = [0, 0]
    runs = char_diff(left, right, similar=0.0)  # every stretch, however unlike the blocks
    i = 0
    while i < len(runs):
        op, text = runs[i]
        if op == "=":
            at[0] += len(text)
            at[1] += len(text)
            i += 1
            continue
        gone = text if op == "-" else ""
        came = text if op == "+" else ""
        if op == "-" and i + 1 < len(runs) and runs[i + 1][0] == "+":
            came = runs[i + 1][1]
            i += 1
        labelled = (gone + came).strip() != "" and \
            (not gone.strip() or _inside(in_label[0], at[0], gone)) and \
            (not came.strip() or _inside(in_label[1], at[1], came))
        if not labelled:
            pairs.append((gone, came))
        at[0] += len(gone)
        at[1] += len(came)
        i += 1
    return pairs


def _label_spans(text: str) -> list[tuple[int, int]]:
    """The lines of the labelled choices, each with its newline."""
    if _label_style(text) is None:
        return []
    spans = []
    for m in _LABEL.finditer(text):
        end = text.find("\n", m.start())
        spans.append((m.start(), len(text) if end < 0 else end + 1))
    return spans


def _inside(spans: list[tuple[int, int]], start: int, text: str) -> bool:
    """Whether every non-blank character of ``text`` (at ``start``) is on one of the ``spans``."""
    if not spans or not text.strip():
        return False
    return all(any(lo <= start + i < hi for lo, hi in spans) for i, c in enumerate(text) if not c.isspace())


_SEPARATORS = re.compile(r"[\s.,:;!?()\[\]{}'\"`*#|>=\-_/\\]*")


def _delimiters(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    changes = [c for c in _text_changes(a, b) if _is_separator(c)]
    if not changes:
        return None
    more = f" (+{len(changes) - 4})" if len(changes) > 4 else ""
    shown = [", ".join(repr(change[side]) for change in changes[:4]) + more for side in (0, 1)]
    return Difference("delimiters", shown[0], shown[1],
                      f"{len(changes)} stretch{'es' * (len(changes) != 1)} where the words are the same "
                      "and the separators or whitespace differ")


def _is_separator(change: tuple[str, str]) -> bool:
    return all(_SEPARATORS.fullmatch(side) for side in change)


def _wording(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    changes = [c for c in _text_changes(a, b) if not _is_separator(c)]
    if not changes:
        return None
    gone = sum(len(x) for x, _ in changes)
    came = sum(len(y) for _, y in changes)
    first = changes[0]
    return Difference("wording", f"{gone} characters only here", f"{came} characters only here",
                      f"the question's own text differs in {len(changes)} place"
                      f"{'s' * (len(changes) != 1)}, first {first[0][:60]!r} → {first[1][:60]!r}")


def _generation(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    if left.request != "generation" or right.request != "generation":
        return None
    ga, gb = dict(left.generation), dict(right.generation)
    if ga == gb:
        return None
    keys = [k for k in sorted({*ga, *gb}) if ga.get(k) != gb.get(k)]
    left_words, right_words = ("; ".join(f"{k} {g.get(k)!r}" for k in keys) for g in (ga, gb))
    return Difference("generation", left_words, right_words, f"{', '.join(keys)} differ")


def _extraction(left: Side, right: Side, a: SideRow, b: SideRow) -> Difference | None:
    if left.extraction == right.extraction:
        return None
    return Difference("extraction", " → ".join(left.extraction) or "none",
                      " → ".join(right.extraction) or "none",
                      "the answer is read from the output another way, so the same output can score "
                      "differently")


_RULES = (_request, _shots, _system, _chat_template, _choices, _delimiters, _wording, _generation,
          _extraction)
