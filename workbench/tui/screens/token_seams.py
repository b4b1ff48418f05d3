"""The token seams screen (``k``): the tokens around every seam of the sample on screen.

The same lines ``render --format tokens`` writes (:func:`workbench.views.token_seams.sample_lines`),
for the selected sample's requests (every label of a PPL sample: the labels part at their
shared prefix), the selected request first. A pair with no real tokenizer says so.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


def styled(lines: list[str]) -> Text:
    """The lines with the problems (``!``) in the warning colour, information (``·``) dim, and the
    headings and summary bold."""
    text = Text()
    for n, line in enumerate(lines):
        if n:
            text.append("\n")
        stripped = line.lstrip()
        style = "bold yellow" if stripped.startswith("! ") else "dim" if stripped.startswith("· ") else \
            "bold" if n == 0 or line.startswith(("sample ", "summary: ")) else ""
        text.append(line, style=style)
    return text


class TokenSeamsScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    TokenSeamsScreen { align: center middle; background: $background 60%; }
    TokenSeamsScreen > VerticalScroll {
        width: 100%; height: 100%;
        border: round $primary; border-title-color: $text;
        background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[Binding]] = [Binding("escape,k,q", "dismiss", "Close")]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = self.title_text
            scroll.border_subtitle = "esc closes · render --format tokens writes these for every sample"
            yield Static(styled(self.lines))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # arrows and page keys scroll it

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
