"""docs/first-config.md stays true: its files are written out and rendered, the input it shows
is the one the model gets, and each mistake gives the message the page quotes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "first-config.md"
TEXT = DOC.read_text(encoding="utf-8")
FILE_BLOCK = re.compile(r"\*\*`(my_eval/[^`]+)`\*\*\n\n```\w+\n(.*?)```", re.S)
MISTAKE = re.compile(r"```diff\n(.*?)```\n\n```text\n(.*?)```", re.S)


def write_files(tmp: Path) -> Path:
    for name, body in FILE_BLOCK.findall(TEXT):
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return tmp / "my_eval"


def test_the_page_gives_every_file_of_the_walkthrough(tmp_path: Path) -> None:
    folder = write_files(tmp_path)
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        "data/arith.jsonl", "datasets/arith_gen.py", "eval_arith.py", "models/gpt.py", "models/hf_chat.py"]


def test_the_input_shown_is_what_the_local_model_receives(tmp_path: Path) -> None:
    folder = write_files(tmp_path)
    run = run_cli("render", "eval_arith.py", "-f", "text", "--sample", "0", "--model", "my-chat-7b", cwd=folder)
    assert (run.code, run.err) == (0, "")
    shown = TEXT.split("## What each model receives", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    body = run.out.split("===\n", 1)[1].split("\n--- ", 1)[0]
    assert body == shown


@pytest.mark.parametrize("number", range(len(MISTAKE.findall(TEXT))))
def test_each_mistake_gives_the_message_the_page_quotes(number: int, tmp_path: Path) -> None:
    folder = write_files(tmp_path)
    diff, message = MISTAKE.findall(TEXT)[number]
    removed = "".join(line[1:] + "\n" for line in diff.splitlines() if line.startswith("-"))
    added = "".join(line[1:] + "\n" for line in diff.splitlines() if line.startswith("+"))
    dataset = folder / "datasets" / "arith_gen.py"
    source = dataset.read_text(encoding="utf-8")
    assert source.count(removed) >= 1, removed
    dataset.write_text(source.replace(removed, added, 1), encoding="utf-8")
    run = run_cli("render", "eval_arith.py", "-f", "text", "--limit", "1", cwd=folder)
    said = run.err.replace(f"{folder}/", "")  # a located warning names its file: the page, from the folder
    for line in message.strip().splitlines():
        assert line.strip() in said, (line, run.err)
    said_error = not line.startswith("warning:")
    assert run.code == (3 if said_error else 0), run.err
