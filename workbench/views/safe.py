"""Terminal safety for the views: untrusted text is shown, never executed.

Rows, templates and model outputs may hold escape sequences (CSI, OSC 52 clipboard
writes, title changes), C1 controls, bidi overrides that reorder what the reader sees,
or invisible characters.  Every view sends text through :func:`visible` (or the styled
variant in :mod:`workbench.views.styled`) so each such character becomes a printable
stand-in: C0 controls as Control Pictures (``␛[31m``), DEL as ``␡``, C1 controls as
``\\x9b``, and format characters (bidi, zero-width, tags) as ``\\u202e``.  Newlines and
tabs are layout, and stay (the whitespace mode shows them as ``↵`` and ``→``).

The character class and the stand-ins are :mod:`workbench.core.inert_text`'s, so panes and
text exports agree character for character.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

import re

from ..core.inert_text import UNSAFE_CLASS as _UNSAFE_CLASS
from ..core.inert_text import escape_char, has_unsafe
from ..core.inert_text import visible as _replaced

UNSAFE = re.compile(f"[{_UNSAFE_CLASS}]")
# What the styled renderer treats one character at a time: unsafe ones and layout.
SPECIAL = re.compile(f"[{_UNSAFE_CLASS}\t\n\u00a0]")
TRAILING_SPACES = re.compile(r" +(?=\n|\Z)")

NEWLINE_MARK = "↵"
TAB_MARK = "→"
SPACE_MARK = "·"
NBSP_MARK = "⍽"

__all__ = ["NBSP_MARK", "NEWLINE_MARK", "SPACE_MARK", "SPECIAL", "TAB_MARK", "TRAILING_SPACES",
           "UNSAFE", "escape_char", "is_safe", "one_line", "visible"]


def visible(text: str) -> str:
    """``text`` with every unsafe character replaced by its stand-in (layout kept); the
    usual text, with none, is returned as it is after one scan."""
    return _replaced(text) if has_unsafe(text) else text


def one_line(text: str, limit: int | None = None) -> str:
    """A safe single-line form, for labels and titles: ``↵`` and ``→`` for layout."""
    out = visible(text).replace("\n", NEWLINE_MARK).replace("\t", TAB_MARK)
    if limit is not None and len(out) > limit:
        out = out[: max(0, limit - 1)] + "…"
    return out


def is_safe(text: str) -> bool:
    """True when ``text`` holds nothing a terminal would act on (layout aside)."""
    return not has_unsafe(text)
