"""Rows: hostile data files are read in bounded memory, and each refusal is one located line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .helpers import GOOD_CONFIG, needs_fork, run, write
from .measuring import measured

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "chat_templates"))
from tokenizer_fixture import write_model_folder

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


def _deep(depth: int) -> str:
    return "[" * depth + '"x"' + "]" * depth


#: Rows that crashed the render once (a traceback), each with the text it renders instead.
RENDERED = {
    # a lone surrogate: shown as its escape, counted with every kind of counter that can
    "lone surrogate": ('{"question": "a\\ud800b", "answer": "4"}\n', "Q: a\\ud800b"),
    # Arrow's JSON reader holds an integer past a float's range beside a float as inf
    "huge integer beside a float": ('{"question": 1.5, "answer": 1}\n{"question": 1' + "0" * 400 + ', "answer": 2}\n',
                                    "Q: inf"),
    # deeper than Arrow holds: kept as written, as text beside numbers is
    "value nested 500 deep": ('{"question": ' + _deep(500) + ', "answer": 1}\n', "Q: " + _deep(500).replace('"', "'")),
}
API_MODEL = ("from opencompass.models import OpenAI\n"
             "models = [dict(type=OpenAI, abbr='gpt', path='gpt-4', key='ENV', max_seq_len=4096)]\n")


@pytest.mark.parametrize("model", ["no model", "tiktoken"])
@pytest.mark.parametrize("case", RENDERED)
def test_a_row_that_crashed_a_render_renders_in_every_format(ws, case, model):
    if model == "tiktoken":
        write(ws / "good.py", GOOD_CONFIG + API_MODEL)
    baseline = measured("render", "good.py", "--data", "rows.jsonl", "-f", "text", "-q", cwd=ws)
    content, shown = RENDERED[case]
    write(ws / "hostile.jsonl", content)
    for kind in ("text", "markdown", "html", "json"):
        done = measured("render", "good.py", "--data", "hostile.jsonl", "-f", kind, "-q", cwd=ws)
        assert (done.code, done.err) == (0, "")
        if kind == "text":
            assert shown in done.out.splitlines()
        assert done.cpu < 3 * baseline.cpu and done.peak < 2 * baseline.peak


def test_a_lone_surrogate_a_tokenizer_json_cannot_encode_is_one_line(ws):
    write(ws / "good.py", GOOD_CONFIG + "from opencompass.models import HuggingFacewithChatTemplate\n"
          "models = [dict(type=HuggingFacewithChatTemplate, abbr='chat', path='tpl')]\n")
    write_model_folder(ws / "tpl", "{% for m in messages %}{{ m.content }}{% endfor %}", {})
    write(ws / "hostile.jsonl", RENDERED["lone surrogate"][0])
    for kind in ("text", "markdown", "html", "json"):
        done = run("render", "good.py", "--data", "hostile.jsonl", "-f", kind, "-q", cwd=ws)
        assert done.code == 3
        assert done.lines == [
            f"{ws / 'good.py'}:5: [qa × chat] tokenizer.json (tpl) cannot encode the text: it holds a lone "
            "surrogate (\\ud800 at character 4), which has no UTF-8 form (hint: the framework's tokenizer fails "
            "on it too; fix the row or template that holds it)"]


@pytest.mark.parametrize("name", ["loop.jsonl", "loop"])
def test_a_dataset_path_that_is_a_symlink_loop_is_refused_at_the_file(ws, name):
    # (not "no rows found" with placeholders: the file is there, and it is at fault)
    write(ws / "looping.py", GOOD_CONFIG.replace("abbr='qa',", f"abbr='qa', path={str(ws / name)!r},"))
    (ws / name).symlink_to(name)
    done = run("render", "looping.py", "-f", "text", "-q", cwd=ws)
    assert done.code == 3
    assert done.lines == [f"{ws / name}: {QA}data path is a symlink loop: {ws / name} (hint: the link points, "
                          "through other links, back at itself)"]


def test_a_row_longer_than_any_prompt_is_refused_before_the_file_is_read_whole(ws):
    # 300 MB on one line (sparse: the line's length is what is refused, before its bytes matter)
    with open(ws / "long.jsonl", "wb") as rows:
        rows.write(b'{"question": "q", "answer": "a"}\n{"question": "')
        rows.truncate(300 * 1024**2)
    baseline = measured("render", "good.py", "--data", "rows.jsonl", "-f", "text", "-q", cwd=ws)
    done = measured("render", "good.py", "--data", "long.jsonl", "-f", "text", "-q", cwd=ws)
    assert done.code == 3
    assert done.lines == [f"{ws / 'long.jsonl'}:2: {QA}a row is longer than 128 MiB (the file is not read further) "
                          "(hint: no prompt holds it: one fill makes at most 33,554,432 characters; shorten the "
                          "row's values)"]
    # read up to the limit, never whole (300 MB, decoded and parsed, took 906 MB)
    assert done.peak < baseline.peak + 160 * 1024**2
