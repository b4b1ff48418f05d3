"""``workbench compare ... --app``: the sides of a comparison next to each other, one aligned row at
a time: the classes of difference on top, each side's final input below with what only it sends
marked. Draws what :mod:`workbench.views.side_by_side` makes; the sides come rendered.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static

from ..core.side_by_side import Side, align, classify
from ..views.side_by_side import differences_text, final_texts
from .themes import DEFAULT_THEME, bundled_themes_dir, load_themes, palette_for

__all__ = ["SideBySideApp"]


class SideBySideApp(App[int]):
    TITLE = "Prompt Workbench · compare"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $panel; color: $text; padding: 0 1; }
    #differences-box { height: auto; max-height: 40%; border: round $primary; padding: 0 1; }
    #sides { height: 1fr; }
    .side { width: 1fr; border: round $secondary; padding: 0 1; }
    Footer { background: $panel; }
    """
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("n", "row(1)", "next row"),
        Binding("p", "row(-1)", "prev row"),
        Binding("o", "other", "other side", tooltip="compare the first side with the next one"),
        Binding("w", "whitespace", "whitespace"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, sides: Sequence[Side], title: str) -> None:
        super().__init__()
        self.sides = list(sides)
        self.heading = title
        # the rows every side has, in the first side's order (the others are counted in the status)
        lined = align(self.sides)
        self.rows = [(key, cells) for key, cells in lined if all(c is not None for c in cells)]
        self.one_sided = len(lined) - len(self.rows)
        self.at, self.other, self.whitespace = 0, 1, True

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll(id="differences-box"):
            yield Static(id="differences")
        with Horizontal(id="sides"):
            for name in ("first", "second"):
                with VerticalScroll(classes="side", id=f"{name}-side"):
                    yield Static(id=f"{name}-text")
        yield Footer()

    def on_mount(self) -> None:
        themes, _ = load_themes([bundled_themes_dir()])
        for theme in themes.values():
            self.register_theme(theme)
        self.theme = DEFAULT_THEME
        self.palette = palette_for(themes.get(DEFAULT_THEME))
        self.show()

    def show(self) -> None:
        first_side, other_side = self.sides[0], self.sides[self.other]
        status = f"{self.heading} · "
        if not self.rows:
            self.query_one("#status", Static).update(Text(status + "no row is on every side"))
            return
        key, cells = self.rows[self.at]
        first, other = cells[0], cells[self.other]
        assert first is not None and other is not None
        status += f"row {self.at + 1}/{len(self.rows)}"
        if self.one_sided:
            status += f" ({self.one_sided} on some sides only)"
        line = Text(f"{status} · {key[:80]}", no_wrap=True, overflow="ellipsis")
        self.query_one("#status", Static).update(line)
        found = classify(first_side, other_side, first, other)
        box = self.query_one("#differences-box", VerticalScroll)
        box.border_title = f"A {first_side.framework} → {chr(ord('A') + self.other)} {other_side.framework}"
        box.border_subtitle = f"{len(found)} kind{'s' * (len(found) != 1)} of difference"
        self.query_one("#differences", Static).update(differences_text(self.sides, found, self.palette))
        left, right = final_texts(first, other, self.whitespace, self.palette)
        for name, side, letter, text in (("first", first_side, "A", left),
                                         ("second", other_side, chr(ord("A") + self.other), right)):
            pane = self.query_one(f"#{name}-side", VerticalScroll)
            pane.border_title = f"{letter} {side.framework} · {side.dataset}"
            pane.border_subtitle = f"{len((first if name == 'first' else other).final):,} characters"
            self.query_one(f"#{name}-text", Static).update(text)

    def action_row(self, step: int) -> None:
        if self.rows:
            self.at = (self.at + step) % len(self.rows)
            self.show()

    def action_other(self) -> None:
        self.other = self.other % (len(self.sides) - 1) + 1
        self.show()

    def action_whitespace(self) -> None:
        self.whitespace = not self.whitespace
        self.show()
