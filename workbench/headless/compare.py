"""Two streams of snapshot records, compared request by request.

Used by ``snapshot --check`` (the file on disk against a fresh render) and by ``diff``
(one config against another, or one revision against another).  Both sides arrive in
sample order, so they are merged a sample at a time: memory stays flat on large
renders.  Within a sample, requests are matched by their title (label, turn), so a PPL
label added in the middle shows as one added request, not a cascade of changes.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from ..core.inert_text import visible
from .snapshot_format import INPUTS_KEY, Record

CHANGED, ADDED, REMOVED = "changed", "added", "removed"


@dataclass(frozen=True)
class Change:
    kind: str  # changed / added / removed
    old: Record | None
    new: Record | None

    @property
    def record(self) -> Record:
        return self.new if self.new is not None else self.old  # type: ignore[return-value]


def comparable(record: Record) -> tuple[str, ...]:
    """What counts in a comparison: the inputs hash says where a render came from, not what it is."""
    if record.kind == "header":
        return tuple(line for line in record.lines if not line.startswith(INPUTS_KEY))
    return record.lines


def _groups(records: Iterable[Record]) -> Iterator[tuple[float, list[Record]]]:
    key: float | None = None
    group: list[Record] = []
    for record in records:
        k = record.sort_key()
        if group and k != key:
            yield key, group
            group = []
        key = k
        group.append(record)
    if group:
        yield key, group


def compare_records(old: Iterable[Record], new: Iterable[Record],
                    key: Callable[[Record], tuple[str, ...]] = comparable) -> Iterator[Change]:
    """Every difference between two record streams, in order."""
    olds, news = _groups(old), _groups(new)
    a, b = next(olds, None), next(news, None)
    while a is not None or b is not None:
        if b is None or (a is not None and a[0] < b[0]):
            yield from (Change(REMOVED, r, None) for r in a[1])
            a = next(olds, None)
        elif a is None or b[0] < a[0]:
            yield from (Change(ADDED, None, r) for r in b[1])
            b = next(news, None)
        else:
            by_title = {r.title: r for r in a[1]}
            for r in b[1]:
                was = by_title.pop(r.title, None)
                if was is None:
                    yield Change(ADDED, None, r)
                elif key(was) != key(r):
                    yield Change(CHANGED, was, r)
            yield from (Change(REMOVED, r, None) for r in by_title.values())
            a, b = next(olds, None), next(news, None)


@dataclass
class Tally:
    """Requests changed/added/removed, and changes outside requests (header, footer)."""

    changed: int = 0
    added: int = 0
    removed: int = 0
    other: int = 0

    def count(self, change: Change) -> None:
        if change.record.kind != "request":
            self.other += 1
        elif change.kind == CHANGED:
            self.changed += 1
        elif change.kind == ADDED:
            self.added += 1
        else:
            self.removed += 1

    def __iadd__(self, other: Tally) -> Tally:
        self.changed += other.changed
        self.added += other.added
        self.removed += other.removed
        self.other += other.other
        return self

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed or self.other)

    def summary(self) -> str:
        noun = "request" if self.changed == 1 else "requests"
        return f"{self.changed} {noun} changed, {self.added} added, {self.removed} removed"


# -- printing ---------------------------------------------------------------------------

_COLORS = {"-": "31", "+": "32", "?": "33", "@": "36", "#": "1"}


class DiffPrinter:
    """Readable diffs: ``- ``/``+ `` lines, ``? `` guides under the characters that changed.

    Every line passes through :func:`visible` (a snapshot on disk may have been edited by
    hand); whitespace is already visible in the snapshot encoding (``·`` ``→`` ``↵``).
    """

    def __init__(self, out: TextIO, color: bool = False, context: int = 3,
                 before_write: Callable[[], None] | None = None) -> None:
        self.out = out
        self.color = color
        self.context = context
        self.before_write = before_write  # e.g. clear a progress bar sharing the terminal

    def line(self, text: str, kind: str | None = None) -> None:
        if self.before_write is not None:
            self.before_write()
        text = visible(text)
        code = _COLORS.get(kind or text[:1]) if self.color else None
        self.out.write(f"\x1b[{code}m{text}\x1b[0m\n" if code else text + "\n")

    def heading(self, text: str) -> None:
        self.line(text, "#")

    def change(self, change: Change, show_body: bool = True) -> None:
        record = change.record
        title = _title(record)
        self.line(f"@@ {title} @@ {change.kind}", "@")
        if not show_body:
            return
        if change.kind == ADDED:
            for text in record.lines[1:] if record.kind == "request" else record.lines:
                self.line(f"+ {text}")
        elif change.kind == REMOVED:
            for text in record.lines[1:] if record.kind == "request" else record.lines:
                self.line(f"- {text}")
        else:
            skip = 1 if record.kind == "request" else 0
            old = list(comparable(change.old))[skip:]
            new = list(comparable(change.new))[skip:]
            for text in line_diff(old, new, self.context):
                self.line(text)


def _title(record: Record) -> str:
    if record.kind == "request":
        return record.title.removeprefix("=== ").removesuffix(" ===")
    return record.kind


def line_diff(a: list[str], b: list[str], context: int = 3) -> Iterator[str]:
    """Changed lines with ``context`` lines around them, and ``?`` guides for edits."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for g, group in enumerate(matcher.get_grouped_opcodes(context)):
        if g:
            yield "  ⋯"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (f"  {x}" for x in a[i1:i2])
            elif tag == "delete":
                yield from (f"- {x}" for x in a[i1:i2])
            elif tag == "insert":
                yield from (f"+ {x}" for x in b[j1:j2])
            else:
                for text in difflib.Differ().compare(a[i1:i2], b[j1:j2]):
                    yield text.rstrip("\n").rstrip() if text.startswith("?") else text.rstrip("\n")


def show_changes(changes: Iterable[Change], printer: DiffPrinter, heading: str,
                 max_shown: int = 0) -> Tally:
    """Print each change (the heading before the first); bodies for the first ``max_shown``
    (0: all), then only the title lines, so every changed request is still named."""
    tally = Tally()
    for change in changes:
        if not tally:
            printer.heading(heading)
        tally.count(change)
        shown = tally.changed + tally.added + tally.removed + tally.other
        printer.change(change, show_body=not max_shown or shown <= max_shown)
    return tally
