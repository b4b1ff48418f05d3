"""A one-line prompt (jump to sample N, search samples, export): Enter answers, Escape cancels.

The field is a compact Input (no border, one row): Textual's own ``Input:focus`` border
outranks a plain ``border: none`` rule and would leave one row inside a two-row border, hiding
what is offered and typed. A background of its own shows where to type.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class AskScreen(ModalScreen[str | None]):
    DEFAULT_CSS = """
    AskScreen {
        align: center bottom;
        background: $background 40%;
    }
    AskScreen > Vertical {
        width: 100%;
        height: auto;
        border-top: solid $primary;
        background: $surface;
        padding: 0 1;
    }
    AskScreen Label { color: $text-muted; }
    AskScreen Input { background: $boost; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Binding]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, placeholder: str = "", value: str = "", blink: bool = True) -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.value = value
        self.blink = blink

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            field = Input(value=self.value, placeholder=self.placeholder, id="answer", compact=True)
            field.cursor_blink = self.blink
            yield field

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
