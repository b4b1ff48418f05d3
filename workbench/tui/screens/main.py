"""The screen the four panes live on: Textual's default screen, minus a full repaint per focus move.

Textual's ``Screen.focused`` is a reactive that repaints the whole screen when it changes, so
moving between panes (``1``–``4``, tab) redrew every pane and the tree: the slowest
navigation key on a suite. Nothing on this screen draws from ``focused`` itself: the widget
losing focus and the one gaining it are restyled (their borders) and repaint themselves, and
the footer follows the bindings. So the reactive here only refreshes the bindings, as
Textual's own watcher does.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget


class MainScreen(Screen):
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
