"""Untrusted text made inert for a terminal, and whitespace made visible on request.

Rows, templates and model outputs may hold escape sequences (ANSI CSI, OSC 52
clipboard writes), C0/C1 controls, bidi overrides and zero-width characters. Every
human-facing output passes text through :func:`visible`, which maps each of them to
a printable stand-in; only ``--raw`` exports write the exact bytes.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

import re

# Every character of general category Cc, Cf, Zl, Zp or Cs, except '\t' and '\n': C0/C1
# controls, DEL, bidi embeddings/overrides/isolates, zero-width and format marks, line and
# paragraph separators, tag characters, lone surrogates. Written out (not computed from
# unicodedata) so importing this costs nothing; tests/views/test_safe.py checks it against
# the running Python's Unicode tables.
UNSAFE_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\ud800-\udfff"
)
#: The compiled class, for callers that search or split by it (views/safe.py, the snapshot format).
UNSAFE = re.compile(f"[{UNSAFE_CLASS}]")
_TRAILING_SPACES = re.compile(r" +(?=\n|$)")


def escape_char(char: str) -> str:
    """The printable stand-in for one unsafe character (␛ for ESC, ␀…␟, ␡, \\x9b, \\u202e)."""
    code = ord(char)
    if code == 0x1B:
        return "␛"
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ ␁ … ␟
    if code == 0x7F:
        return "␡"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> bool:
    """Whether ``text`` is only printable characters, newlines and tabs: then it holds nothing
    :func:`visible` replaces (every unsafe character is one ``str.isprintable`` refuses), found
    several times faster than by searching for the class, which an export of hundreds of MB
    does for every text it writes. False says only: search."""
    return text.replace("\n", " ").replace("\t", " ").isprintable()


def visible(text: str, whitespace: bool = False) -> str:
    """``text`` safe to print; with ``whitespace``, newlines as ↵, tabs as →, trailing spaces as ·."""
    out = text if printable(text) else UNSAFE.sub(lambda m: escape_char(m.group()), text)
    if whitespace:
        out = _TRAILING_SPACES.sub(lambda m: "·" * len(m.group()), out)
        out = out.replace("\t", "→").replace("\n", "↵\n")
    return out


def has_unsafe(text: str) -> bool:
    """Whether ``text`` holds anything :func:`visible` would replace."""
    return bool(UNSAFE.search(text))
