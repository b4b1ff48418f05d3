"""The bad-input corpus, part two: data files, configs and saves that go wrong, built at test time.

``test_broken_corpus.py`` holds the configs that can live in the repository.  The cases
here cannot, or should not: a 100 MB data file, binary and non-UTF-8 files, files that
disappear while they are being loaded, nesting deeper than any parser's stack.  Each is
written into a fresh folder, loaded and rendered through the real path, and must give
exactly this message (file relative to the folder, line) — never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from workbench.loading.rows import sample_rows
from workbench.loading.workspace import Loader

from .conftest import all_errors

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the worker needs fork()")

MB = 1024 * 1024


def dataset_config(path: str = "rows.jsonl", template: str = "'Q: {question}'", reader: str | None = None,
                   extra: str = "", infer: str = "", models: str = "") -> str:
    reader = reader or "dict(input_columns=['question'], output_column='answer')"
    infer = infer or (f"prompt_template=dict(type=PromptTemplate, template={template}),\n"
                      "            retriever=dict(type=ZeroRetriever),\n"
                      "            inferencer=dict(type=GenInferencer),")
    return textwrap.dedent("""\
        from opencompass.openicl.icl_inferencer import GenInferencer
        from opencompass.openicl.icl_prompt_template import PromptTemplate
        from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

        datasets = [
            dict(
                abbr='demo',
                path={path!r},
                reader_cfg={reader},
                infer_cfg=dict(
                    {infer}
                ),{extra}
            )
        ]
        """).format(path=path, reader=reader, infer=infer, extra=extra) + models


@dataclass
class Case:
    """Files to write (bytes, text, or a function that writes), what to load, what to expect."""

    files: dict[str, bytes | str | Callable[[Path], object]]
    expected: tuple[str | None, int | None, str]  # file (relative), line, message ("<dir>" = the folder)
    config: str = "eval.py"
    data: list[str] = field(default_factory=list)
    during_load: Callable[[Path, pytest.MonkeyPatch, Loader], None] | None = None


def rows(*items: dict) -> str:
    return "".join(json.dumps(r) + "\n" for r in items)


GOOD_ROWS = rows({"question": "What is 2 + 2?", "answer": "4"}, {"question": "And 3 + 3?", "answer": "6"})


def big_jsonl_with_a_bad_last_line(path: Path) -> int:
    """~100 MB of good rows, then one broken line; returns that line's number."""
    row = json.dumps({"question": "x" * 10_000, "answer": "y"}) + "\n"
    count = 100 * MB // len(row) + 1
    with path.open("w", encoding="utf-8") as out:
        for _ in range(count):
            out.write(row)
        out.write('{"question": "unfinished", "answer": \n')
    return count + 1


BIG_BAD_LINE = 100 * MB // len(json.dumps({"question": "x" * 10_000, "answer": "y"}) + "\n") + 2
HUGE_VALUE = 100 * MB


def deleted_while_loading(name: str):
    """The file is found, then removed before it is read (an editor's save, a sync tool)."""

    def arrange(folder: Path, monkeypatch: pytest.MonkeyPatch, loader: Loader) -> None:
        if name.endswith(".py"):
            original = loader.load_file

            def load_file(path, *args, **kwargs):
                if Path(path).name == name:
                    Path(path).unlink(missing_ok=True)
                return original(path, *args, **kwargs)

            monkeypatch.setattr(loader, "load_file", load_file)
        else:
            original_rows = sample_rows.read_rows

            def read_rows(path):
                if Path(path).name == name:
                    Path(path).unlink(missing_ok=True)
                return original_rows(path)

            monkeypatch.setattr(sample_rows, "read_rows", read_rows)

    return arrange


CASES: dict[str, Case] = {
    # -- data files ---------------------------------------------------------------------------------
    "a 100 MB data file whose last line is broken": Case(
        {"eval.py": dataset_config(), "rows.jsonl": big_jsonl_with_a_bad_last_line},
        ("rows.jsonl", BIG_BAD_LINE, "invalid JSON: Expecting value (column 38)")),
    "a 100 MB value in one row": Case(
        {"eval.py": dataset_config(),
         "rows.jsonl": lambda p: p.write_text(json.dumps({"question": "z" * HUGE_VALUE, "answer": "a"}) + "\n")},
        ("eval.py", 6, f"filling {{question}} would make a text of {HUGE_VALUE + 3:,} characters "
                       "(the limit is 33,554,432)")),
    "a binary data file": Case(
        {"eval.py": dataset_config(), "rows.jsonl": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))},
        ("rows.jsonl", None, "data file is binary, not JSON/JSONL/CSV text")),
    "an empty data file": Case(
        {"eval.py": dataset_config(), "rows.jsonl": b""},
        ("rows.jsonl", None, "data file is empty")),
    "a data file of blank lines": Case(
        {"eval.py": dataset_config(), "rows.jsonl": "\n  \n\t\n"},
        ("rows.jsonl", None, "data file is empty")),
    "a data file deleted while loading": Case(
        {"eval.py": dataset_config(), "rows.jsonl": GOOD_ROWS},
        ("rows.jsonl", None, "data file not found: rows.jsonl"),
        during_load=deleted_while_loading("rows.jsonl")),
    "a data file that is not UTF-8": Case(
        {"eval.py": dataset_config(), "rows.jsonl": GOOD_ROWS.encode() + b'{"question": "caf\xe9", "answer": "1"}\n'},
        ("rows.jsonl", 3, "data file is not UTF-8 (byte 0xe9)")),
    "a UTF-16 data file": Case(
        {"eval.py": dataset_config(), "rows.jsonl": GOOD_ROWS.encode("utf-16")},
        ("rows.jsonl", None, "data file is UTF-16 text, not UTF-8")),
    "a CSV row with too many cells": Case(
        {"eval.py": dataset_config("rows.csv"), "rows.csv": "question,answer\nWhat is 2 + 2?,4\n1, 2, 3,6\n"},
        ("rows.csv", 3, "CSV row has 4 cells but the header has 2")),
    "a CSV row with too few cells": Case(
        {"eval.py": dataset_config("rows.csv"), "rows.csv": "question,answer\nWhat is 2 + 2?,4\nAnd 3 + 3?\n"},
        ("rows.csv", 3, "CSV row has 1 cell but the header has 2")),
    "a CSV quote left open": Case(
        {"eval.py": dataset_config("rows.csv"), "rows.csv": 'question,answer\n"What is 2 + 2?,4\nAnd 3 + 3?,6\n'},
        ("rows.csv", 3, "CSV row has 1 cell but the header has 2")),
    "a CSV header that repeats a column": Case(
        {"eval.py": dataset_config("rows.csv"), "rows.csv": "question,question\na,b\n"},
        ("rows.csv", 1, "CSV header repeats a column name")),
    "a JSON data file with duplicate keys": Case(
        {"eval.py": dataset_config("rows.json"),
         "rows.json": '[{"question": "a", "answer": "1"},\n {"question": "b", "question": "c", "answer": "2"}]'},
        ("rows.json", None, "duplicate key 'question' in a JSON object")),
    "a JSONL row with duplicate keys": Case(
        {"eval.py": dataset_config(), "rows.jsonl": GOOD_ROWS + '{"answer": "1", "answer": "2"}\n'},
        ("rows.jsonl", 3, "duplicate key 'answer' in a JSON object")),
    "a JSONL line that is not an object": Case(
        {"eval.py": dataset_config(), "rows.jsonl": GOOD_ROWS + '["question", "answer"]\n'},
        ("rows.jsonl", 3, "a .jsonl line must be a JSON object, got list")),
    "a JSON data file holding a number": Case(
        {"eval.py": dataset_config("rows.json"), "rows.json": "42"},
        ("rows.json", None, 'a .json data file must hold a list of rows or an object of splits '
                            '({"train": [...], "test": [...]})')),
    "JSON rows nested deeper than the parser's stack": Case(
        {"eval.py": dataset_config("rows.json"), "rows.json": "[" * 100_000 + "]" * 100_000},
        ("rows.json", None, "the JSON nests too deeply")),
    "a JSONL row nested deeper than the parser's stack": Case(
        {"eval.py": dataset_config(), "rows.jsonl": GOOD_ROWS + '{"a": ' * 50_000 + "1" + "}" * 50_000 + "\n"},
        ("rows.jsonl", 3, "the JSON nests too deeply")),
    "a number of 5000 digits in a row": Case(
        {"eval.py": dataset_config(), "rows.jsonl": '{"question": ' + "9" * 5000 + ', "answer": "1"}\n'},
        ("rows.jsonl", 1, "invalid JSON: Exceeds the limit (4300 digits) for integer string conversion: "
                          "value has 5000 digits")),
    "--data naming a file of another type": Case(
        {"eval.py": dataset_config(), "rows.txt": "question: what?\n"},
        ("rows.txt", None, "unsupported data file type .txt: rows.txt"), data=["rows.txt"]),
    "--data naming a folder": Case(
        {"eval.py": dataset_config(), "rows.jsonl/keep": ""},
        ("rows.jsonl", None, "data path is a folder, not a file: <dir>/rows.jsonl"), data=["rows.jsonl"]),
    "--data naming a missing file": Case(
        {"eval.py": dataset_config()},
        ("nowhere.jsonl", None, "data file not found: <dir>/nowhere.jsonl"), data=["nowhere.jsonl"]),
    "a split file without the test split": Case(
        {"eval.py": dataset_config("rows.json"), "rows.json": '{"train": [{"question": "q", "answer": "a"}]}'},
        ("eval.py", 6, "the data has no split 'test' (nor 'train'/'test'); splits found: train")),
    "rows missing the output column an example needs": Case(
        {"eval.py": dataset_config(infer=(
            "ice_template=dict(type=PromptTemplate, template='{question} {answer}'),\n"
            "            prompt_template=dict(type=PromptTemplate, template='</E>{question}', ice_token='</E>'),\n"
            "            retriever=dict(type=FixKRetriever, fix_id_list=[0]),\n"
            "            inferencer=dict(type=GenInferencer),")),
         "rows.jsonl": rows({"question": "q"}, {"question": "r"})},
        ("eval.py", 6, "in-context example 0 has no output column 'answer'")),
    # -- configs ------------------------------------------------------------------------------------
    "a config deleted while loading": Case(
        {"eval.py": dataset_config(), "rows.jsonl": GOOD_ROWS},
        ("eval.py", None, "config file not found: <dir>/eval.py"),
        during_load=deleted_while_loading("eval.py")),
    "a config that is a folder": Case(
        {"eval.py/keep": ""},
        ("eval.py", None, "config path is a folder, not a file: <dir>/eval.py")),
    "a config with NUL bytes": Case(
        {"eval.py": b"datasets = []\x00\n"},
        ("eval.py", None, "SyntaxError: source code string cannot contain null bytes")),
    "a config nested deeper than the parser's stack": Case(
        {"eval.py": "datasets = " + "[" * 1000 + "]" * 1000 + "\n"},
        ("eval.py", 1, "SyntaxError: too many nested parentheses")),
    "a config importing a missing classic base": Case(
        {"eval.py": "_base_ = ['./bases/missing.py']\n"},
        ("eval.py", 1, "base config not found: <dir>/bases/missing.py")),
    "a config reading a file that is not there": Case(
        {"eval.py": "SYSTEM = open('prompts/system.txt').read()\n"},
        ("eval.py", 1, "FileNotFoundError: [Errno 2] No such file or directory: 'prompts/system.txt'")),
    "a config that imports itself": Case(
        {"eval.py": "from mmengine.config import read_base\n\nwith read_base():\n    from .eval import datasets\n"},
        ("eval.py", 4, "circular read_base import: eval.py → eval.py")),
    "a three-file read_base cycle": Case(
        {"eval.py": "from mmengine.config import read_base\n\nwith read_base():\n    from .a import x\n",
         "a.py": "from mmengine.config import read_base\n\nwith read_base():\n    from .b import x\n",
         "b.py": "from mmengine.config import read_base\n\nwith read_base():\n    from .eval import x\n"},
        ("b.py", 4, "circular read_base import: eval.py → a.py → b.py → eval.py")),
    "a JSON config that is not UTF-8": Case(
        {"eval.json": b'{"datasets": [],\n "note": "caf\xe9"}'}, ("eval.json", 2, "config is not UTF-8 text (byte 0xe9)"),
        config="eval.json"),
    "an empty JSON config": Case(
        {"eval.json": ""}, ("eval.json", 1, "invalid JSON: Expecting value (column 1)"), config="eval.json"),
    "a JSON config nested deeper than the parser's stack": Case(
        {"eval.json": '{"datasets": ' + "[" * 100_000 + "]" * 100_000 + "}"},
        ("eval.json", None, "the JSON nests too deeply"), config="eval.json"),
    "a JSON config with a 5000-digit number": Case(
        {"eval.json": '{"datasets": [], "seed": ' + "7" * 5000 + "}"},
        ("eval.json", None, "invalid JSON: Exceeds the limit (4300 digits) for integer string conversion: "
                            "value has 5000 digits"), config="eval.json"),
    "a TOML config nested deeper than the parser's stack": Case(
        {"eval.toml": "x = " + "[" * 100_000 + "]" * 100_000 + "\n"},
        ("eval.toml", None, "the TOML nests too deeply"), config="eval.toml"),
    # -- wrong types where the core expects something else ---------------------------------------
    "reader_cfg given as a list": Case(
        {"eval.py": dataset_config(reader="['question']"), "rows.jsonl": GOOD_ROWS},
        ("eval.py", 9, "reader_cfg must be a dict, got list")),
    "a template that is a number": Case(
        {"eval.py": dataset_config(template="42"), "rows.jsonl": GOOD_ROWS},
        ("eval.py", 11, "prompt_template: template must be a str or a dict, got int")),
    "a dialogue prompt that is a number": Case(
        {"eval.py": dataset_config(template="dict(round=[dict(role='HUMAN', prompt=42)])"), "rows.jsonl": GOOD_ROWS},
        ("eval.py", 11, "prompt_template: the prompt of an item of 'round' must be a str, got 42")),
    "fix_id_list given as a number": Case(
        {"eval.py": dataset_config(infer=(
            "ice_template=dict(type=PromptTemplate, template='{question} {answer}'),\n"
            "            prompt_template=dict(type=PromptTemplate, template='</E>{question}', ice_token='</E>'),\n"
            "            retriever=dict(type=FixKRetriever, fix_id_list=3),\n"
            "            inferencer=dict(type=GenInferencer),")), "rows.jsonl": GOOD_ROWS},
        ("eval.py", 13, "FixKRetriever: fix_id_list must be a list of ints, got 3")),
    "n and k of the wrong type": Case(
        {"eval.py": dataset_config(extra="\n        n='4', k=2,"), "rows.jsonl": GOOD_ROWS},
        ("eval.py", 6, "dataset k=2 and n='4' must be ints (k may be a list of ints)")),
    "a meta template whose role begin is a number": Case(
        {"eval.py": dataset_config(template="dict(round=[dict(role='HUMAN', prompt='{question}')])", models=(
            "from opencompass.models import HuggingFaceCausalLM\n"
            "models = [dict(type=HuggingFaceCausalLM, abbr='m', path='m',\n"
            "               meta_template=dict(round=[dict(role='HUMAN', begin=1)]))]\n")),
         "rows.jsonl": GOOD_ROWS},
        ("eval.py", 19, "meta_template role HUMAN's begin must be a str, got 1")),
}

# -- model folders: tokenizer files nobody here wrote ------------------------------------------------
CHAT_MODEL = ("from opencompass.models import HuggingFacewithChatTemplate\n"
              "models = [dict(type=HuggingFacewithChatTemplate, abbr='m', path='models/m')]\n")
TOKENIZER_CONFIG = json.dumps({"chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"})
WORDLEVEL = json.dumps({"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
                        "normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": None,
                        "model": {"type": "WordLevel", "vocab": {}, "unk_token": "<unk>"}})


def model_folder(**files: str | bytes) -> dict:
    return {"eval.py": dataset_config(models=CHAT_MODEL), "rows.jsonl": GOOD_ROWS,
            **{f"models/m/{name.replace('__', '.')}": text for name, text in files.items()}}


CASES.update({
    "a tokenizer_config.json nested deeper than the parser's stack": Case(
        model_folder(tokenizer_config__json='{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"),
        ("eval.py", 6, "chat template: cannot read <dir>/models/m/tokenizer_config.json: the JSON nests too deeply")),
    "a tokenizer_config.json whose added token ids are not numbers": Case(
        model_folder(tokenizer_config__json=json.dumps({"added_tokens_decoder": {"abc": {"content": "<x>"}}})),
        ("eval.py", 6, "chat template: cannot read <dir>/models/m/tokenizer_config.json: added_tokens_decoder has "
                       "the key 'abc', which is not a token id")),
    "a tokenizer_config.json that is not UTF-8": Case(
        model_folder(tokenizer_config__json=b'{"chat_template": "\xff"}'),
        ("eval.py", 6, "chat template: cannot read <dir>/models/m/tokenizer_config.json: 'utf-8' codec can't "
                       "decode byte 0xff in position 19: invalid start byte")),
    "a tokenizer.json that loads but cannot encode": Case(
        model_folder(tokenizer_config__json=TOKENIZER_CONFIG, tokenizer__json=WORDLEVEL),
        ("eval.py", 6, "tokenizer.json (m) cannot encode the text: WordLevel error: Missing [UNK] token from the "
                       "vocabulary")),
    "a chat template that reaches for os": Case(
        model_folder(chat_template__jinja="{{ cycler.__init__.__globals__.os.system('id') }}"),
        ("models/m/chat_template.jinja", 1, "<dir>/models/m/chat_template.jinja, line 1: sandbox: access to attribute '__init__' of "
                       "'type' object is unsafe.")),
    "a chat template that would write gigabytes": Case(
        model_folder(chat_template__jinja="{{ 'a' * 10**10 }}"),
        ("models/m/chat_template.jinja", 1, "<dir>/models/m/chat_template.jinja, line 1: sandbox: '*' would make 10,000,000,000 "
                       "characters or items; the sandbox allows 16,777,216")),
})


def test_the_corpus_is_large():
    from .test_broken_corpus import EXPECTED

    assert len(CASES) >= 40
    assert len(CASES) + len(EXPECTED) >= 60


def _write(folder: Path, files: dict) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith("/keep"):
            continue
        if callable(content):
            content(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_gives_its_exact_error(name, tmp_path, monkeypatch):
    case = CASES[name]
    folder = tmp_path / "case"
    folder.mkdir()
    _write(folder, case.files)
    monkeypatch.chdir(folder)  # relative dataset paths resolve from here, as the frameworks do
    with Loader() as loader:
        if case.during_load is not None:
            case.during_load(folder, monkeypatch, loader)
        workspace = loader.load([folder / case.config], data=[str(folder / d) for d in case.data])
        errors = all_errors(workspace)
    assert errors, f"{name}: loaded and rendered without an error"
    error = errors[0]
    file = os.path.relpath(error.file, folder) if error.file else None
    message = error.message.replace(str(folder), "<dir>")
    assert (file, error.line, message) == case.expected


def test_a_100_mb_data_file_of_good_rows_loads_and_renders(tmp_path, loader, monkeypatch):
    """Big is not bad: 100 MB of rows load and the first and last samples render."""
    monkeypatch.chdir(tmp_path)
    row = {"question": "q" * 5_000, "answer": "a"}
    line = json.dumps(row) + "\n"
    count = 100 * MB // len(line) + 1
    (tmp_path / "rows.jsonl").write_text(line * count, encoding="utf-8")
    (tmp_path / "eval.py").write_text(dataset_config())
    workspace = loader.load([tmp_path / "eval.py"])
    assert not all_errors(workspace)
    from workbench.core.lazy_pairs import render_workspace

    (pair,) = render_workspace(workspace.datasets, workspace.models).pairs
    assert len(pair) == count
    assert pair.sample(count - 1).requests[0].model_input == "Q: " + "q" * 5_000


def test_a_lone_surrogate_in_a_config_string_crosses_from_the_worker(tmp_path, loader, monkeypatch):
    """'\\ud800' is a valid Python string (and JSON escape); the worker's wire used to refuse it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rows.jsonl").write_text(GOOD_ROWS)
    (tmp_path / "eval.py").write_text(dataset_config(template="'\\ud800 {question}'"))
    workspace = loader.load([tmp_path / "eval.py"])
    assert not all_errors(workspace)
    from workbench.core.lazy_pairs import render_workspace

    (pair,) = render_workspace(workspace.datasets, workspace.models).pairs
    assert pair.sample(0).requests[0].model_input == "\ud800 What is 2 + 2?"


CLI_CASES = ["a binary data file", "a data file that is not UTF-8", "a CSV row with too many cells",
             "JSON rows nested deeper than the parser's stack", "a number of 5000 digits in a row",
             "a config with NUL bytes", "a TOML config nested deeper than the parser's stack",
             "a dialogue prompt that is a number"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_cli_reports_bad_inputs_without_a_traceback(fmt, tmp_path):
    for name in CLI_CASES:
        case = CASES[name]
        folder = tmp_path / f"{fmt}-{CLI_CASES.index(name)}"
        folder.mkdir()
        _write(folder, case.files)
        done = subprocess.run([sys.executable, "-m", "workbench", "render", case.config, "--format", fmt,
                               *(arg for d in case.data for arg in ("--data", d))],
                              cwd=folder, capture_output=True, text=True, timeout=60)
        assert "Traceback" not in done.stderr + done.stdout, (name, done.stderr)
        assert done.returncode in (2, 3), (name, done.returncode, done.stderr)
        assert case.expected[2].replace("<dir>", str(folder)) in done.stderr, (name, done.stderr)


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_a_lone_surrogate_in_a_row_survives_every_format(fmt, tmp_path):
    """'\\ud800' is valid JSON and a valid Python string, but UTF-8 cannot carry it: the JSON
    export used to fail to encode it; every format shows it as an escape instead."""
    (tmp_path / "rows.jsonl").write_text('{"question": "a\\ud800b", "answer": "4"}\n')
    (tmp_path / "eval.py").write_text(dataset_config())
    done = subprocess.run([sys.executable, "-m", "workbench", "render", "eval.py", "--format", fmt],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "\\ud800" in done.stdout
    if fmt == "json":
        request = json.loads(done.stdout)["renders"][0]["samples"][0]["requests"][0]
        assert request["model_input"] == "Q: a\ud800b"
