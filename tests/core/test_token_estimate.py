"""The token estimate counts a text line by line (cached) and must equal the one-pass count."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.tokens.counting import (
    _PIECES,
    SECTIONS,
    Estimate,
    SectionMap,
    count_tokens,
    estimate_whole,
)

# What decides where estimate pieces start and end: newlines and other whitespace (str.isspace
# and re's \s, including the odd ones), words, digits, punctuation, CJK and control tokens.
ATOMS = ["\n", "\n\n", " ", "  ", "\t", "\r", "\r\n", "\x0b", "\x1c", "\u00a0", "\u2028", "\u3000",
         "a", "Word", " word", "é", "1", "1234", ".", "?!", "'", "中", "文", "<|im_start|>", "<|im_end|>",
         "<s>", "</s>", "<eos>", "<", "|>", "<|", "\uff5c", "Ж", "🙂"]

texts = st.lists(st.sampled_from(ATOMS), max_size=60).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=texts)
def test_line_by_line_equals_one_pass(text):
    assert Estimate().count(text) == estimate_whole(text)


@settings(max_examples=100, deadline=None)
@given(head=texts, tail=texts)
def test_cached_lines_do_not_leak_between_texts(head, tail):
    estimate = Estimate()
    estimate.count(head)  # fills the line cache
    assert estimate.count(head + tail) == estimate_whole(head + tail)
    assert estimate.count(tail + head) == estimate_whole(tail + head)


def test_known_counts():
    estimate = Estimate()
    assert estimate.count("") == 0
    assert estimate.count("<|im_start|>user\nHello there\n") == estimate_whole("<|im_start|>user\nHello there\n")
    assert estimate.count("a\n\nb") == 3  # "a", "\n\n", "b": the blank line is one piece, not two
    assert estimate.count("a\n \nb") == 3


def _sections_token_by_token(text: str, section_map: SectionMap) -> dict[str, int]:
    """The definition: each token belongs to the section of its first character."""
    counts = dict.fromkeys(SECTIONS, 0)
    for start in Estimate().token_starts(text):
        assert start is not None
        counts[section_map.at(start)] += 1
    return counts


@settings(max_examples=400, deadline=None)
@given(text=texts, marks=st.lists(st.tuples(st.integers(0, 80), st.sampled_from(SECTIONS)), max_size=8))
def test_sections_line_by_line_equal_token_by_token(text, marks):
    section_map = SectionMap()
    for start, name in sorted(marks, key=lambda m: m[0]):
        section_map.mark(start, name)
    counted = count_tokens(Estimate(), text, section_map, add_special_tokens=True)
    assert counted.as_dict() == _sections_token_by_token(text, section_map)
    assert counted.total == estimate_whole(text)


def test_sections_of_a_chat_prompt():
    text = "<|im_start|>user\nQuestion: Tom has 3 apples.\nAnswer:<|im_end|>\n"
    section_map = SectionMap()
    section_map.mark(0, "meta_template")
    section_map.mark(len("<|im_start|>user\n"), "other")
    section_map.mark(len("<|im_start|>user\nQuestion: "), "test_row")
    section_map.mark(text.index("\nAnswer:"), "other")
    section_map.mark(text.index("<|im_end|>"), "meta_template")
    counted = count_tokens(Estimate(), text, section_map, add_special_tokens=True)
    assert counted.as_dict() == _sections_token_by_token(text, section_map)
    # " Tom" starts at the template's space, so it is the template's: " has", " 3", " apples" (2), "."
    assert counted.as_dict()["test_row"] == 5
    assert counted.total == Estimate().count(text)


def test_estimate_pieces_tile_every_text():
    """Section counts take a piece's start as the end of the pieces before it: that holds
    because every character alone is a piece, so the scan never skips one."""
    skipped = [hex(c) for c in range(sys.maxunicode + 1) if not _PIECES.match(chr(c))]
    assert not skipped, skipped[:20]
