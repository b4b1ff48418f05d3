"""What a postprocessor read to produce its value: the rule that matched and where.

A rewrite with a notion of matching (a list of patterns, "the last number", "the last
``\\boxed{}``") computes its value through a ``trace_*`` function returning :class:`Traced`;
the plain function is that value, so the goldens that hold the plain functions to the real
ones hold the traces' values too. ``span`` is in the text the function read; ``source`` says
where the value's characters sit in it when the value is a cut of that text (a ``<think>``
block removed, a tag's content), so the chain can place a later step's span in the recorded
prediction (:func:`compose`, :func:`place`).

May import: the standard library only.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: Where a value's characters come from: ``(value_start, text_start, length)`` runs, in order.
Runs = tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Traced:
    """A postprocessor's value, the rule that produced it (None: nothing matched) and the span
    of its input that rule read; ``source`` maps the value into the input when it is a cut."""

    value: Any
    rule: str | None = None
    span: tuple[int, int] | None = None
    source: Runs | None = None


def whole(text: str) -> Runs:
    """The runs of a text that is its own source (one run, empty for an empty text)."""
    return ((0, 0, len(text)),)


def cut(start: int, end: int) -> Runs:
    """The runs of ``text[start:end]`` (an empty cut still has its place)."""
    return ((0, start, max(end - start, 0)),)


def stripped(runs: Runs, text: str) -> tuple[str, Runs]:
    """``text.strip()`` and the runs of the stripped text, ``runs`` being ``text``'s."""
    lead = len(text) - len(text.lstrip())
    value = text.strip()
    return value, clip(runs, lead, len(value))


def clip(runs: Runs, start: int, length: int) -> Runs:
    """The runs of ``value[start:start + length]``, ``runs`` being ``value``'s."""
    out = []
    for v, t, n in runs:
        lo, hi = max(v, start), min(v + n, start + length)
        if hi > lo:
            out.append((lo - start, t + lo - v, hi - lo))
    return tuple(out)


def joined(pieces: Sequence[tuple[int, int]]) -> Runs:
    """The runs of the concatenation of ``text[a:b]`` for each ``(a, b)`` in ``pieces``."""
    out, at = [], 0
    for a, b in pieces:
        if b > a:
            out.append((at, a, b - a))
            at += b - a
    return tuple(out)


def compose(outer: Runs, inner: Runs) -> Runs:
    """Runs of a value into the original, from ``inner`` (value into a text) and ``outer`` (that
    text into the original)."""
    out = []
    for v, t, n in inner:
        for ov, ot, on in outer:
            lo, hi = max(t, ov), min(t + n, ov + on)
            if hi > lo:
                out.append((v + lo - t, ot + lo - ov, hi - lo))
    return tuple(out)


def place(runs: Runs, span: tuple[int, int]) -> tuple[int, int] | None:
    """``span`` of a text placed in the original through ``runs``: None unless its characters
    lie there side by side (so the original's slice is the span's text)."""
    start, end = span
    if end <= start:  # an empty span: where it sits, also at a run's end
        at = next((t + start - v for v, t, n in runs if v <= start <= v + n), None)
        return (at, at) if at is not None else None
    covered, expected, first = start, None, None
    for v, t, n in runs:
        lo, hi = max(v, start), min(v + n, end)
        if hi <= lo:
            continue
        if lo != covered or (expected is not None and t + lo - v != expected):
            return None
        if first is None:
            first = t + lo - v
        covered, expected = hi, t + hi - v
    return (first, expected) if covered == end and first is not None and expected is not None else None


def last_match(matches: Iterable[re.Match[str]]) -> re.Match[str] | None:
    """The last of ``finditer``'s matches (what ``findall(...)[-1]`` reads), or None."""
    tail = deque(matches, maxlen=1)
    return tail[0] if tail else None
