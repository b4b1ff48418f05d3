"""Every key, generated from the bindings themselves so the help cannot fall out of date.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

PANE_KEYS = [
    ("tab / shift+tab", "move between panes"),
    ("1 2 3 4", "focus tree, PromptList, final input, timeline"),
    ("↑ ↓ pgup pgdn home end", "scroll the focused pane; move in the tree"),
    ("enter (tree)", "open a node; on a dataset or model, select it"),
]


def keys_table(bindings: Iterable[Binding], key_display) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    seen: set[str] = set()
    for binding in bindings:
        if binding.action in seen or not binding.description:
            continue
        seen.add(binding.action)
        keys = [key_display(k.strip()) for k in binding.key.split(",")]
        table.add_row(" ".join(keys), binding.tooltip or binding.description)
    for keys, what in PANE_KEYS:
        table.add_row(keys, what)
    return table


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; }
    HelpScreen > VerticalScroll {
        width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; border-title-color: $text;
        background: $surface; padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[Binding]] = [Binding("escape,q,question_mark,f1", "dismiss", "Close")]

    def __init__(self, bindings: Iterable[Binding]) -> None:
        super().__init__()
        self.bindings_list = list(bindings)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Keys"
            scroll.border_subtitle = "esc closes"
            intro = Text("Prompt Workbench shows what OpenCompass / AISBench configs send to a model. "
                         "Every action is also in the command palette (ctrl+p).\n", style="italic")
            yield Static(intro)
            display = lambda key: self.app.get_key_display(Binding(key, ""))  # noqa: E731
            yield Static(keys_table(self.bindings_list, display))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # arrows and page keys scroll the help

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
