"""Untrusted text made inert for a terminal, and whitespace made visible on request.

Rows, templates and model outputs may hold escape sequences (ANSI CSI, OSC 52
clipboard writes), C0/C1 controls, bidi overrides and zero-width characters. Every
human-facing output passes text through :func:`visible`, which maps each of them to
a printable stand-in; only ``--raw`` exports write the exact bytes.
"""

from __future__ import annotations

import re

# Characters that are never written raw: C0 controls except \n and \t, DEL, C1
# controls, bidi embeddings/overrides/isolates, zero-width and separator characters.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ufff9-\ufffb]"
)
_TRAILING_SPACES = re.compile(r" +(?=\n|$)")


def _stand_in(char: str) -> str:
    code = ord(char)
    if code == 0x1B:
        return "␛"
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ ␁ … ␟
    if code == 0x7F:
        return "␡"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible(text: str, whitespace: bool = False) -> str:
    """``text`` safe to print; with ``whitespace``, newlines as ↵, tabs as →, trailing spaces as ·."""
    out = _UNSAFE.sub(lambda m: _stand_in(m.group()), text)
    if whitespace:
        out = _TRAILING_SPACES.sub(lambda m: "·" * len(m.group()), out)
        out = out.replace("\t", "→").replace("\n", "↵\n")
    return out


def has_unsafe(text: str) -> bool:
    """Whether ``text`` holds anything :func:`visible` would replace."""
    return bool(_UNSAFE.search(text))
