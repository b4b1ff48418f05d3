"""Hostile text stays inert: no control byte of a row reaches a human-facing output."""

from __future__ import annotations

import sys

from hypothesis import given
from hypothesis import strategies as st

from workbench.core.inert_text import UNSAFE, has_unsafe, printable, visible

HOSTILE = (
    "red \x1b[31mALERT\x1b[0m "
    "clip \x1b]52;c;ZWNobyBwd25lZA==\x07 "
    "c1 \x9b2J "
    "bidi \u202eevil\u202c "
    "zw \u200b nul \x00 cr \r bell \x07 del \x7f"
)


def test_escape_sequences_become_visible_stand_ins():
    out = visible(HOSTILE)
    assert "␛[31m" in out and "␛]52;c;" in out and "␇" in out
    assert "\\x9b" in out and "\\u202e" in out and "\\u200b" in out and "␀" in out and "␍" in out
    assert not has_unsafe(out)


def test_newlines_and_tabs_survive_unless_whitespace_is_shown():
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible("a\tb  \nc ", whitespace=True) == "a→b··↵\nc·"


@given(st.text())
def test_nothing_unsafe_ever_survives(text):
    assert not has_unsafe(visible(text))
    assert not has_unsafe(visible(text, whitespace=True))


def test_the_printable_fast_path_never_passes_an_unsafe_character():
    """``visible`` skips the class search for text ``printable`` accepts: no character it
    accepts may be one the search would replace, in this Python's Unicode tables."""
    passed = [hex(c) for c in range(sys.maxunicode + 1) if UNSAFE.match(chr(c)) and printable(chr(c))]
    assert not passed, passed[:20]
    # and it does accept ordinary text (else it would save nothing), layout included
    assert printable("Tab\there\nnewline, ünïcödé, 中文, emoji 🙂, <|im_start|>")
    assert not printable("a\x1b[31mred") and not printable("\u3000")  # searched, then kept or replaced
