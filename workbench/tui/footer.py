"""Textual's footer, without its leak.

Each time the bindings change (a focus change, a screen pushed or popped) the footer composes
new keys, and each key ``data_bind``s the footer's ``compact``: the binding is a watcher stored
on the footer, dropped only when ``compact`` changes, which here it never does.  So every
focus change kept a dozen dead keys alive, and a session left running for hours grew without
bound (Textualize/textual#6666; found by tests/tui/test_stress.py).
"""

from __future__ import annotations

from textual.widgets import Footer


class WorkbenchFooter(Footer):
    async def recompose(self) -> None:
        await super().recompose()
        # Textual prunes the watchers of closed widgets when a reactive changes; telling it that
        # `compact` changed (to the value it has) drops the removed keys' bindings, and re-applies
        # the value to the live keys, which already hold it.
        self.mutate_reactive(Footer.compact)
