"""A scrollable, focusable pane showing one view renderable under a border title."""

from __future__ import annotations

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class ViewPane(VerticalScroll, can_focus=True):
    """Keeps its scroll position across updates, so a reload does not jump the view."""

    ALLOW_MAXIMIZE = True

    DEFAULT_CSS = """
    ViewPane {
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    ViewPane:focus, ViewPane:focus-within {
        border: round $primary;
        border-title-color: $text;
    }
    ViewPane.-stale > Static {
        text-opacity: 45%;
    }
    ViewPane > Static {
        width: 100%;
    }
    """

    def __init__(self, title: str, placeholder: RenderableType = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = title
        self._placeholder = placeholder

    def compose(self) -> ComposeResult:
        yield Static(self._placeholder, classes="body")

    @property
    def body(self) -> Static:
        return self.query_one(Static)

    def show(self, renderable: RenderableType, title: str) -> None:
        self.border_title = title
        self.body.update(renderable)

    def set_stale(self, stale: bool) -> None:
        self.set_class(stale, "-stale")
