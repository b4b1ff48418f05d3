"""The screen the four panes live on: Textual's default screen, minus a full repaint per focus move.

Textual's ``Screen.focused`` is a reactive that repaints the whole screen when it changes, so
moving between panes (``1``–``4``, tab) redrew every pane and the tree: the slowest
navigation key on a suite. Nothing on this screen draws from ``focused`` itself: the widget
losing focus and the one gaining it are restyled (their borders) and repaint themselves, and
the footer follows the bindings. So the reactive here only refreshes the bindings, as
Textual's own watcher does.

A resize that reaches the screen once the app has closed is dropped: in Textual 8.2.8 the
screen then lays itself out at the event's size while its own region keeps the app's older
size, each layout posting the screen a resize to the other size, forever (a served app told
to quit while it started, after its page resized it, spun a CPU and never ended).

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from textual import events
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget


class MainScreen(Screen):
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    async def _on_resize(self, event: events.Resize) -> None:
        # Textual calls Screen's own handler after this one unless its default is prevented
        if self.app._closed:  # nothing will be drawn again (see the module's docstring)
            event.prevent_default()
            event.stop()
