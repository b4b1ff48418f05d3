"""``/`` search: every match in the panes highlighted, the current one scrolled to, n/N to step.

Matches are found in the lines the panes show (after wrapping), case-insensitively, so
what is highlighted is exactly what the reader sees; a match that a wrap splits over two
lines is not found (the sample search that finds the sample still does). Stepping past the
last match of a sample goes on to the next sample that contains the text, as a pager's
``n`` goes on through a file. No Textual here beyond its ``Strip``.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

#: The panes searched, in the order their matches are stepped through.
SEARCHED = ("prompt-list", "final-input")
MATCH = Style(color="black", bgcolor="yellow")
CURRENT = Style(color="black", bgcolor="dark_orange", bold=True)


@dataclass(frozen=True)
class Match:
    pane: str
    line: int
    start: int  # characters into the line's text
    end: int


@dataclass
class Search:
    """What is being searched for, its matches in the frame on screen, and which is current."""

    query: str
    matches: list[Match] = field(default_factory=list)
    current: int = 0

    def find(self, lines: Mapping[str, Sequence[Strip]]) -> None:
        self.matches = find_matches(lines, self.query)
        self.current = 0

    @property
    def match(self) -> Match | None:
        return self.matches[self.current] if self.matches else None

    def marks(self, pane: str) -> dict[int, list[tuple[int, int, bool]]]:
        """Line -> (start, end, is the current match) for one pane."""
        out: dict[int, list[tuple[int, int, bool]]] = {}
        for i, m in enumerate(self.matches):
            if m.pane == pane:
                out.setdefault(m.line, []).append((m.start, m.end, i == self.current))
        return out

    def describe(self) -> str:
        if not self.matches:
            return f"/{self.query}: not in the panes"
        return f"/{self.query}: match {self.current + 1}/{len(self.matches)}"


def find_matches(lines: Mapping[str, Sequence[Strip]], query: str) -> list[Match]:
    needle = query.casefold()
    if not needle:
        return []
    found = []
    for pane in SEARCHED:
        for number, strip in enumerate(lines.get(pane, ())):
            text = strip.text.casefold()
            start = text.find(needle)
            while start >= 0:
                found.append(Match(pane, number, start, start + len(needle)))
                start = text.find(needle, start + len(needle))
    return found


def highlighted(strip: Strip, spans: Sequence[tuple[int, int, bool]]) -> Strip:
    """``strip`` with each (start, end) of its text marked, the current one more strongly."""
    text = strip.text
    cells = sorted({cut for start, end, _ in spans for cut in (cell_len(text[:start]), cell_len(text[:end]))})
    pieces = strip.divide([*cells, strip.cell_length])
    out: list[Segment] = []
    position = 0
    for piece in pieces:
        style = None
        for start, end, current in spans:
            if cell_len(text[:start]) <= position < cell_len(text[:end]):
                style = CURRENT if current else MATCH
                break
        for segment in piece:
            out.append(Segment(segment.text, (segment.style or Style()) + style, segment.control)
                       if style is not None and not segment.control else segment)
        position += piece.cell_length
    return Strip(out, strip.cell_length)
