"""The snapshot encoding: one-to-one, and nothing a hook, an editor or a terminal would touch."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from workbench.core.result import Request, Sample
from workbench.headless.snapshot_format import (
    body_lines,
    decode_body,
    encode_line,
    parse_records,
    record_text,
    request_records,
    snap_json,
)

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
tricky = st.text(alphabet=st.sampled_from(list(" \t\n\r\\·→↵\x1b\x85\u2028\u202e\u00a0\u3000ab|=#")) | st.characters(),
                 max_size=60)


@given(tricky)
def test_encoding_round_trips(text):
    assert decode_body(body_lines(text)) == text


@given(tricky, tricky)
def test_different_texts_never_encode_alike(a, b):
    if a != b:
        assert body_lines(a) != body_lines(b)


@given(tricky)
def test_encoded_lines_survive_hooks_editors_and_terminals(text):
    for line in body_lines(text):
        assert line.startswith("|")
        assert line == line.rstrip()  # no trailing whitespace for a hook to strip
        assert "\t" not in line and "\n" not in line and "\r" not in line
        assert not UNSAFE.search(line)
        assert line.splitlines() == [line]  # no character any tool treats as a line break


def test_marks():
    assert body_lines("Answer: \n") == ["| Answer:·↵"]
    assert body_lines("a\tb") == ["| a→b"]
    assert body_lines("") == ["|"]
    assert body_lines("\n\n") == ["|", "|↵"]
    assert encode_line("50·2 → x ↵ \\") == "50\\·2 \\→ x \\↵ \\\\"
    assert encode_line("\x1b[31m\u202e") == "\\x1b[31m\\u202e"


@given(st.text())
def test_json_values_are_valid_and_inert(value):
    text = snap_json({"v": value})
    assert json.loads(text) == {"v": value}
    assert not UNSAFE.search(text)


def _sample(*requests: Request, index: int = 0) -> Sample:
    return Sample(index=index, source_index=index, ice_indices=(), requests=requests)


def test_request_titles_are_unique_within_a_sample():
    records = request_records(_sample(Request("p", "a", label="A"), Request("p", "b", label="B"),
                                      Request("p", "c", label="A")))
    assert [r.title for r in records] == ["=== sample 0 · label A ===", "=== sample 0 · label B ===",
                                          "=== sample 0 · label A · #2 ==="]


def test_records_parse_back():
    records = [*request_records(_sample(Request("p", "x\n\ny"))),
               *request_records(_sample(Request("p", [{"role": "HUMAN", "prompt": "hi"},
                                                       {"role": "BOT", "prompt": ["not", "text"]}]), index=1))]
    text = "".join(record_text(records))
    assert "\n\n\n" not in text
    parsed = list(parse_records(text.splitlines(keepends=True)))
    assert [(r.kind, r.sample, r.lines) for r in parsed] == [("request", r.sample, r.lines) for r in records]
    assert "--- message (json)" in text and "--- [HUMAN]" in text
