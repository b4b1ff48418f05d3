"""The token estimate counts a text line by line (cached) and must equal the one-pass count."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.tokens.counting import Estimate, estimate_whole

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
