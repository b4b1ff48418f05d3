"""Driving the app without a terminal: for tests, benchmarks and scripts.

``App.run_test`` runs the app headless; these helpers wait for it to settle and read what a
pane shows, as plain text.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console

from .app import WorkbenchApp


async def wait_for(pilot: Any, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds (and the app is settled), or fail."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause()
        if condition() and app.is_settled:
            await pilot.pause()
            if condition() and app.is_settled:
                return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out after {timeout}s (loads={app.loads}, settled={app.is_settled})")


def pane_text(app: WorkbenchApp, pane_id: str) -> str:
    """The plain text a pane shows, as the terminal would get it."""
    widget = app.query_one(f"#{pane_id}")
    if pane_id == "tree":
        lines = []

        def walk(node: Any) -> None:
            lines.append(str(node.label))
            for child in node.children:
                walk(child)

        walk(widget.root)
        return "\n".join(lines)
    return plain(widget.renderable)


def plain(renderable: Any) -> str:
    """A renderable as plain text, 200 columns wide."""
    console = Console(width=200, color_system=None, legacy_windows=False)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()
