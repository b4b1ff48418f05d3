"""Rows: hostile data files are read in bounded memory, and each refusal is one located line."""

from __future__ import annotations

import json

import pytest

from .helpers import needs_fork, run, write

pytestmark = needs_fork
QA = "[qa × no model] "  # the dataset whose rows these are


def _render(ws, name: str, memory: int = 1024**3):
    return run("render", "good.py", "--data", name, "-f", "text", "-q", cwd=ws, memory=memory)


@pytest.mark.parametrize(("name", "content", "message"), [
    ("deep.jsonl", '{"question": ' + "[" * 100_000 + "]" * 100_000 + ', "answer": 1}\n',
     "{path}:1: {qa}the JSON nests too deeply"),
    ("number.jsonl", '{"question": 1' + "0" * 100_000 + ', "answer": 1}\n',
     "{path}:1: {qa}invalid JSON: Exceeds the limit (4300 digits) for integer string conversion: value has "
     "100001 digits"),
    ("binary.jsonl", '{"question": "\x00\x01"}\n', "{path}: {qa}data file is binary, not JSON/JSONL/CSV text "
     "(hint: give a .jsonl, .json or .csv file of rows)"),
    ("dup.jsonl", '{"question": "a", "question": "b"}\n', "{path}:1: {qa}duplicate key 'question' in a JSON object "
     "(hint: each column may appear once per row)"),
], ids=["deep", "number", "binary", "duplicate-key"])
def test_a_hostile_rows_file_is_one_located_line(ws, name, content, message):
    write(ws / name, content)
    done = _render(ws, name)
    assert done.code == 3
    assert done.lines == [message.format(path=ws / name, qa=QA)]


def test_a_file_over_the_size_limit_is_refused_without_being_read(ws):
    # a sparse file: 3 GiB by its size, nothing on disk; read, it would need 3 GiB of memory
    with open(ws / "huge.jsonl", "wb") as huge:
        huge.truncate(3 * 1024**3)
    done = _render(ws, "huge.jsonl", memory=1024**3)
    assert done.code == 3
    assert done.lines == [f"{ws / 'huge.jsonl'}: {QA}data file is larger than 2 GiB"]


def test_a_row_with_many_columns_renders(ws):
    row = {"question": "q", "answer": 1, **{f"k{i}": i for i in range(300_000)}}
    write(ws / "wide.jsonl", json.dumps(row) + "\n")
    done = _render(ws, "wide.jsonl")
    assert done.code == 0, done.err
    assert done.out == "=== qa · (no model) · sample 0 ===\nQ: q\nA: \n"  # the answer column is the output
