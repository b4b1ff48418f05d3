"""Views drawn into an SVG picture: the one recorder behind the app's ``x`` and ``render --format svg``.

Both front ends print the same renderables (:func:`~workbench.views.frame.frame_panels`)
into a console configured here, so an exported picture looks the same from either.  The
console ignores the environment (``COLUMNS``, ``NO_COLOR``...) and reads no markup, emoji
or highlighting into the text: only the views' own styles show.  May import rich and the
other view modules.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich.console import Console, RenderableType
from rich.terminal_theme import SVG_EXPORT_THEME

THEME = SVG_EXPORT_THEME


def recording_console(width: int) -> Console:
    """A console that keeps what is printed (nothing reaches a terminal) at ``width`` columns."""
    return Console(record=True, width=width, file=io.StringIO(), force_terminal=True,
                   color_system="truecolor", legacy_windows=False, soft_wrap=False,
                   emoji=False, highlight=False, markup=False, _environ={})


def svg_of(renderables: Iterable[RenderableType], width: int, title: str) -> str:
    """The renderables printed one after another, as one SVG picture."""
    console = recording_console(width)
    for renderable in renderables:
        console.print(renderable)
    return console.export_svg(title=title, theme=THEME)
