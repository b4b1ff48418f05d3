"""The token estimate counts a text line by line (cached) and must equal the one-pass count."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.tokens.counting import (
    _PIECES,
    SECTION_CODES,
    SECTIONS,
    Estimate,
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


@settings(max_examples=300, deadline=None)
@given(head=texts, tails=st.lists(texts, min_size=2, max_size=5))
def test_texts_sharing_a_head_count_as_one_pass(head, tails):
    """A text that starts with the lines the ones before it shared counts as the head's count
    plus its rest's: equal to the one-pass count whatever the rest starts with."""
    estimate = Estimate()
    estimate.LEAST_HEAD = 2  # heads as short as the generated texts
    for tail in tails:
        assert estimate.count(head + tail) == estimate_whole(head + tail)


# Lines of words and single spaces (a line's estimate is then its words', each learned once):
# words of every kind, a space at either end, spaces doubled (counted the other way)
WORDS = ["a", "Word", "é", "1", "1234", "12345", ".", "?!", "A.", "Answer:", "中文", "<|im_end|>", "<s>",
         "<", "|>", "x<|im_start|>y", "Ж", "🙂", "supercalifragilistic", "x" * 45, ""]
lines = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(line=lines, other=lines)
def test_a_line_of_known_words_counts_as_its_pieces(line, other):
    from workbench.core.tokens import counting

    for text in (line, other, other + " " + line, line.strip(), "  " + line, line + "  "):
        counting._estimate_line.cache_clear()  # (the words stay learned)
        assert counting._estimate_line(text) == estimate_whole(text), text


def test_learned_words_are_bounded(monkeypatch):
    from workbench.core.tokens import counting

    monkeypatch.setattr(counting, "_MOST_PIECES", 8)
    monkeypatch.setattr(counting, "_SPACED", {})
    monkeypatch.setattr(counting, "_FIRST", {})
    for n in range(40):
        text = f"w{n} and {'z' * (n % 7)} more words {n}"
        counting._estimate_line.cache_clear()
        assert counting._estimate_line(text) == estimate_whole(text)
        assert len(counting._SPACED) <= 8 + len(text.split(" "))
    assert "x" * 45 not in counting._SPACED  # a long word is counted, never kept
    counting._estimate_line("x" * 45 + " y")
    assert "x" * 45 not in counting._SPACED


def test_a_kept_head_is_not_split_again(monkeypatch):
    from workbench.core.tokens import counting

    head = "".join(f"Example {i}: a question of some words, then its answer.\n" for i in range(12))
    texts = [f"{head}Question {n}: what is {n} and {n}?\nAnswer:" for n in range(3)]
    estimate = Estimate()
    estimate.count(texts[0])
    estimate.count(texts[1])  # shares the head with the first: kept
    split: list[int] = []
    real = counting._estimate_text
    monkeypatch.setattr(counting, "_estimate_text", lambda text: split.append(len(text)) or real(text))
    assert estimate.count(texts[2]) == estimate_whole(texts[2])
    assert split == [len(texts[2]) - len(head)]  # only the rest, after the head's last line
    assert estimate.count(" " + texts[2][1:]) == estimate_whole(" " + texts[2][1:])  # no head: whole


def test_known_counts():
    estimate = Estimate()
    assert estimate.count("") == 0
    assert estimate.count("<|im_start|>user\nHello there\n") == estimate_whole("<|im_start|>user\nHello there\n")
    assert estimate.count("a\n\nb") == 3  # "a", "\n\n", "b": the blank line is one piece, not two
    assert estimate.count("a\n \nb") == 3


def _codes(length: int, marks: list[tuple[int, str]]) -> str:
    """Section codes of a text of ``length``: each mark's section from its start on ("other" before)."""
    codes = ["o"] * length
    for start, name in sorted(marks, key=lambda m: m[0]):
        codes[start:] = SECTION_CODES[name] * max(0, length - start)
    return "".join(codes)


def _sections_token_by_token(text: str, codes: str) -> dict[str, int]:
    """The definition: each token belongs to the section of its first character."""
    names = {code: name for name, code in SECTION_CODES.items()}
    counts = dict.fromkeys(SECTIONS, 0)
    for start in Estimate().token_starts(text):
        assert start is not None
        counts[names[codes[start]]] += 1
    return counts


@settings(max_examples=400, deadline=None)
@given(text=texts, marks=st.lists(st.tuples(st.integers(0, 80), st.sampled_from(SECTIONS)), max_size=8))
def test_sections_line_by_line_equal_token_by_token(text, marks):
    codes = _codes(len(text), marks)
    counted = count_tokens(Estimate(), text, codes, add_special_tokens=True)
    assert counted.as_dict() == _sections_token_by_token(text, codes)
    assert counted.total == estimate_whole(text)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(texts, min_size=1, max_size=4), marks=st.lists(
    st.tuples(st.integers(0, 200), st.sampled_from(SECTIONS)), max_size=6), shift=texts)
def test_cached_lines_count_for_their_own_sections(lines, marks, shift):
    """Lines are counted once and cached by their text and codes: the same lines again, at
    another offset (after ``shift``) and cut by other sections, still count as defined."""
    text = "\n".join(lines)
    codes = _codes(len(text), marks)
    first = count_tokens(Estimate(), text, codes, add_special_tokens=False)
    assert first.as_dict() == _sections_token_by_token(text, codes)
    moved = shift + "\n" + text
    for moved_codes in (_codes(len(moved), [(len(shift) + 1 + at, name) for at, name in marks]),
                        _codes(len(moved), [(0, "test_row"), *marks])):
        again = count_tokens(Estimate(), moved, moved_codes, add_special_tokens=False)
        assert again.as_dict() == _sections_token_by_token(moved, moved_codes)


def test_the_same_line_in_another_section_counts_there():
    """A cached line's tokens go to the section its codes say, not the one it had before."""
    line = "Question: Tom has 3 apples.\n"
    text = line * 3
    as_example = count_tokens(Estimate(), text, "i" * len(text), add_special_tokens=False)
    as_row = count_tokens(Estimate(), text, "t" * len(text), add_special_tokens=False)
    split = "i" * len(line) + "i" * 10 + "t" * (len(line) - 10) + "m" * len(line)
    cut = count_tokens(Estimate(), text, split, add_special_tokens=False)
    assert as_example.as_dict()["in_context_examples"] == as_row.as_dict()["test_row"] == as_row.total
    assert cut.as_dict() == _sections_token_by_token(text, split)
    assert cut.as_dict()["test_row"] and cut.as_dict()["meta_template"] and cut.total == as_row.total


def test_sections_of_a_chat_prompt():
    text = "<|im_start|>user\nQuestion: Tom has 3 apples.\nAnswer:<|im_end|>\n"
    codes = _codes(len(text), [(0, "meta_template"), (len("<|im_start|>user\n"), "other"),
                               (len("<|im_start|>user\nQuestion: "), "test_row"),
                               (text.index("\nAnswer:"), "other"), (text.index("<|im_end|>"), "meta_template")])
    counted = count_tokens(Estimate(), text, codes, add_special_tokens=True)
    assert counted.as_dict() == _sections_token_by_token(text, codes)
    # " Tom" starts at the template's space, so it is the template's: " has", " 3", " apples" (2), "."
    assert counted.as_dict()["test_row"] == 5
    assert counted.total == Estimate().count(text)


def test_estimate_pieces_tile_every_text():
    """Section counts take a piece's start as the end of the pieces before it: that holds
    because every character alone is a piece, so the scan never skips one."""
    skipped = [hex(c) for c in range(sys.maxunicode + 1) if not _PIECES.match(chr(c))]
    assert not skipped, skipped[:20]


def test_a_newline_in_a_section_of_its_own_counts_there():
    """A line's last newline is a token of its own, counted in its own section."""
    text = "Question: Tom?\nAnswer: 4.\nEnd"
    at = text.index("\n")
    for code in "mito":
        codes = "t" * at + code + "i" * (len(text) - at - 1)
        counted = count_tokens(Estimate(), text, codes, add_special_tokens=False)
        assert counted.as_dict() == _sections_token_by_token(text, codes)
    spaced = "Question:  \nAnswer"  # a space run before the newline joins it: one piece
    codes = "t" * 9 + "m" * 2 + "o" + "i" * 6
    assert count_tokens(Estimate(), spaced, codes, False).as_dict() == _sections_token_by_token(spaced, codes)

