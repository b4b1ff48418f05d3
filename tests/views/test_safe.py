"""Terminal safety of the views: every unsafe character has a visible stand-in."""

from __future__ import annotations

import sys
import unicodedata

from workbench.core.inert_text import visible as core_visible
from workbench.views.safe import UNSAFE, escape_char, one_line, visible

UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def test_the_written_out_class_matches_this_pythons_unicode_tables():
    missing = [hex(c) for c in range(sys.maxunicode + 1)
               if unicodedata.category(chr(c)) in UNSAFE_CATEGORIES and chr(c) not in "\t\n"
               and not UNSAFE.match(chr(c))]
    assert not missing, missing[:20]


def test_layout_and_ordinary_text_pass_through():
    text = "Tab\there\nnewline, ünïcödé, 中文, emoji 🙂, <|im_start|>"
    assert visible(text) == text


def test_stand_ins_agree_with_the_core_where_it_has_one():
    for ch in "\x00\x07\x1b\x7f\x85\x9b\u202e\u200b\ufeff\u2028":
        assert escape_char(ch) == core_visible(ch) != ch


def test_stand_ins_for_what_only_the_views_catch():
    assert escape_char("\u00ad") == "\\xad"  # soft hyphen
    assert escape_char("\U000e0041") == "\\U000e0041"  # a tag character (invisible "A")


def test_one_line_marks_layout():
    assert one_line("a\nb\tc\x1b[2J", 100) == "a↵b→c␛[2J"
    assert one_line("abcdef", 4) == "abc…"
