"""Strings that remember where each character came from.

The renderer is written once against plain ``str`` operations.  For the fast
path it is fed plain strings; for provenance it is fed :class:`PStr`, a ``str``
subclass that carries runs of :class:`Origin`.  Because ``PStr`` *is* a ``str``,
the text is always exactly what the plain path produces; an operation that is
not overridden here simply returns a plain ``str`` and the provenance of that
piece becomes unknown, never wrong.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, SupportsIndex

# Origin kinds.
TEMPLATE = "template"  # a literal written in the dataset's prompt/ice template
ROW = "row"  # a value from the test row
ICE = "ice"  # a value from in-context example k
META = "meta"  # the model's meta template (begin/end, role begin/end/prompt)
GLUE = "glue"  # text the framework inserts itself ('\n' joins, ice separators)
PREDICTION = "prediction"  # a model output, or a stand-in for one
UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a run of characters came from."""

    kind: str
    column: str | None = None  # row column, for ROW / ICE
    example: int | None = None  # 0-based in-context example number, for ICE
    detail: str | None = None  # e.g. "prompt_template", "HUMAN.begin", "ice_separator"

    def describe(self) -> str:
        if self.kind == ROW:
            return f"test row · {self.column}"
        if self.kind == ICE:
            return f"example {(self.example or 0) + 1} · {self.column}"
        if self.kind == META:
            return f"meta template · {self.detail}" if self.detail else "meta template"
        if self.kind == TEMPLATE:
            return f"template · {self.detail}" if self.detail else "template"
        if self.kind == GLUE:
            return f"inserted · {self.detail}" if self.detail else "inserted by the framework"
        if self.kind == PREDICTION:
            return "model output"
        return "unknown"


UNKNOWN_ORIGIN = Origin(UNKNOWN)
Span = tuple[int, Origin]  # (length, origin)


def _runs_of(value: str) -> tuple[Span, ...]:
    if isinstance(value, PStr):
        return value.spans
    return ((len(value), UNKNOWN_ORIGIN),) if value else ()


def _merge(runs: Iterable[Span]) -> tuple[Span, ...]:
    out: list[Span] = []
    last: Origin | None = None
    for length, origin in runs:
        if length <= 0:
            continue
        # the same object first: runs of one piece share their Origin, and == is a Python call
        if out and (origin is last or origin == last):
            out[-1] = (out[-1][0] + length, origin)
        else:
            out.append((length, origin))
        last = origin
    return tuple(out)


def _slice_runs(runs: tuple[Span, ...], start: int, stop: int) -> list[Span]:
    """The runs covering [start, stop)."""
    out: list[Span] = []
    pos = 0
    for length, origin in runs:
        end = pos + length
        lo, hi = max(pos, start), min(end, stop)
        if lo < hi:
            out.append((hi - lo, origin))
        pos = end
        if pos >= stop:
            break
    return out


class PStr(str):
    """A ``str`` with provenance runs; behaves exactly like the plain string."""

    spans: tuple[Span, ...]

    def __new__(cls, text: str = "", origin: Origin | None = None, *,
                spans: tuple[Span, ...] | None = None) -> PStr:
        self = super().__new__(cls, text)
        if spans is not None:
            self.spans = spans
        else:
            self.spans = ((len(text), origin or UNKNOWN_ORIGIN),) if text else ()
        return self

    @classmethod
    def from_runs(cls, text: str, runs: Iterable[Span]) -> PStr:
        return cls(text, spans=_merge(runs))

    # -- operations the framework code paths use -------------------------------
    def __add__(self, other: object) -> Any:
        if not isinstance(other, str):
            return NotImplemented
        return PStr.from_runs(str.__add__(self, other), (*self.spans, *_glue_runs(other)))

    def __radd__(self, other: object) -> Any:
        if not isinstance(other, str):
            return NotImplemented
        return PStr.from_runs(str.__add__(other, self), (*_glue_runs(other), *self.spans))

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        text = str.__getitem__(self, key)
        if isinstance(key, slice) and key.step in (None, 1):
            start, stop, _ = key.indices(len(self))
            return PStr.from_runs(text, _slice_runs(self.spans, start, max(start, stop)))
        return text

    def replace(self, old: str, new: str, count: int = -1) -> str:  # type: ignore[override]
        return replace(self, old, new, count)

    def split(self, sep: str | None = None, maxsplit: SupportsIndex = -1) -> list[str]:
        if sep is None or maxsplit != -1:
            return str.split(self, sep, maxsplit)
        parts: list[str] = []
        pos = 0
        text = str(self)
        while True:
            found = text.find(sep, pos)
            if found < 0:
                parts.append(self[pos:])
                return parts
            parts.append(self[pos:found])
            pos = found + len(sep)

    def strip(self, chars: str | None = None) -> str:
        stripped_left = len(self) - len(str.lstrip(self, chars))
        stripped = str.strip(self, chars)
        return self[stripped_left : stripped_left + len(stripped)]

    def __reduce__(self) -> tuple[Any, ...]:
        return (PStr, (str(self),), {"spans": self.spans})


def _glue_runs(value: str) -> tuple[Span, ...]:
    """Plain strings met in '+' are framework glue ('\\n', '') unless tagged."""
    if isinstance(value, PStr):
        return value.spans
    return ((len(value), Origin(GLUE)),) if value else ()


def replace(text: str, old: str, new: str, count: int = -1) -> str:
    """``str.replace`` semantics, keeping provenance when either side has it."""
    if not isinstance(text, PStr) and not isinstance(new, PStr):
        return str.replace(text, old, new, count)
    plain = str(text)
    if not old:
        return str.replace(plain, old, new, count)
    runs: list[Span] = []
    src_runs = _runs_of(text)
    new_runs = _runs_of(new) if isinstance(new, PStr) else ((len(new), UNKNOWN_ORIGIN),)
    pos = 0
    done = 0
    while count < 0 or done < count:
        found = plain.find(old, pos)
        if found < 0:
            break
        runs.extend(_slice_runs(src_runs, pos, found))
        runs.extend(new_runs if new else ())
        pos = found + len(old)
        done += 1
    if not done:
        return text
    runs.extend(_slice_runs(src_runs, pos, len(plain)))
    return PStr.from_runs(str.replace(plain, old, new, count), runs)


def tag(value: str, origin: Origin) -> PStr:
    return PStr(value, origin)


def concat(parts: Iterable[str]) -> str:
    """``''.join(parts)`` that keeps provenance when any part has it."""
    parts = list(parts)
    text = "".join(parts)
    if not any(isinstance(p, PStr) for p in parts):
        return text
    runs: list[Span] = []
    for p in parts:
        runs.extend(_glue_runs(p))
    return PStr.from_runs(text, runs)


def join(sep: str, parts: Iterable[str]) -> str:
    """``sep.join(parts)`` that keeps provenance."""
    parts = list(parts)
    if not isinstance(sep, PStr) and not any(isinstance(p, PStr) for p in parts):
        return sep.join(parts)
    seq: list[str] = []
    for i, p in enumerate(parts):
        if i:
            seq.append(sep)
        seq.append(p)
    return concat(seq)


def spans_of(value: str) -> tuple[Span, ...]:
    """Provenance runs of any string (one unknown run for a plain ``str``)."""
    return _runs_of(value)
