"""Terminal safety for the views: untrusted text is shown, never executed.

Rows, templates and model outputs may hold escape sequences (CSI, OSC 52 clipboard
writes, title changes), C1 controls, bidi overrides that reorder what the reader sees,
or invisible characters.  Every view sends text through :func:`visible` (or the styled
variant in :mod:`workbench.views.styled`) so each such character becomes a printable
stand-in: C0 controls as Control Pictures (``␛[31m``), DEL as ``␡``, C1 controls as
``\\x9b``, and format characters (bidi, zero-width, tags) as ``\\u202e``.  Newlines and
tabs are layout, and stay (the whitespace mode shows them as ``↵`` and ``→``).

The stand-ins are :func:`workbench.core.visible.visible`'s, so panes and text exports
agree; the views also catch the rarer format characters (soft hyphen, tag characters,
Arabic and Mongolian format marks) that a styled renderer meets one at a time.
"""

from __future__ import annotations

import re

from ..core.visible import visible as core_visible

# Every character of general category Cc, Cf, Zl, Zp or Cs, except '\t' and '\n'.
# Written out (not computed from unicodedata) so importing this costs nothing;
# tests/views/test_safe.py checks it against the running Python's Unicode tables.
_UNSAFE_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 but \t \n, DEL, C1
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\ud800-\udfff"  # lone surrogates (surrogateescape'd bytes)
)
UNSAFE = re.compile(f"[{_UNSAFE_CLASS}]")
# What the styled renderer treats one character at a time: unsafe ones and layout.
SPECIAL = re.compile(f"[{_UNSAFE_CLASS}\t\n\u00a0]")
TRAILING_SPACES = re.compile(r" +(?=\n|\Z)")

NEWLINE_MARK = "↵"
TAB_MARK = "→"
SPACE_MARK = "·"
NBSP_MARK = "⍽"


def escape_char(ch: str) -> str:
    """The printable stand-in for one unsafe character."""
    shown = core_visible(ch)
    if shown != ch:
        return shown
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # Control Pictures: ␀ … ␟ (ESC is ␛)
    if code == 0x7F:
        return "␡"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with every unsafe character replaced by its stand-in (layout kept)."""
    if not UNSAFE.search(text):
        return text
    return UNSAFE.sub(lambda m: escape_char(m.group()), text)


def one_line(text: str, limit: int | None = None) -> str:
    """A safe single-line form, for labels and titles: ``↵`` and ``→`` for layout."""
    out = visible(text).replace("\n", NEWLINE_MARK).replace("\t", TAB_MARK)
    if limit is not None and len(out) > limit:
        out = out[: max(0, limit - 1)] + "…"
    return out


def is_safe(text: str) -> bool:
    """True when ``text`` holds nothing a terminal would act on (layout aside)."""
    return UNSAFE.search(text) is None
