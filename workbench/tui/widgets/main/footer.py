"""Textual's footer, without its leak, and without rebuilding itself when nothing changed.

Each time the bindings change (a focus change, a screen pushed or popped) the footer composes
new keys, and each key ``data_bind``s the footer's ``compact``: the binding is a watcher stored
on the footer, dropped only when ``compact`` changes, which here it never does.  So every
focus change kept a dozen dead keys alive, and a session left running for hours grew without
bound (Textualize/textual#6666; found by tests/tui/test_stress.py).

Moving between the panes changes no key the footer shows, yet Textual rebuilt the footer's
dozen widgets (and restyled them) on every move: most of what a pane-focus key cost. The
footer now recomposes only when what it shows differs.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class WorkbenchFooter(Footer):
    _shown: tuple | None = None

    def _shown_keys(self, screen: Screen) -> tuple:
        return tuple((binding.key, binding.description, enabled, tooltip)
                     for (_, binding, enabled, tooltip) in screen.active_bindings.values() if binding.show)

    def bindings_changed(self, screen: Screen) -> None:
        if self._bindings_ready and screen is self.screen and self.is_attached and screen.app.app_focus:
            shown = self._shown_keys(screen)
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        await super().recompose()
        # Textual prunes the watchers of closed widgets when a reactive changes; telling it that
        # `compact` changed (to the value it has) drops the removed keys' bindings, and re-applies
        # the value to the live keys, which already hold it.
        self.mutate_reactive(Footer.compact)
