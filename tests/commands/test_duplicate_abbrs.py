"""A dataset (or model) whose abbr another one already has is an error naming both files, in
every command; the first one renders, as the frameworks run the first and skip the other.  The
same definition given twice is shown once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.headless.helpers import QA_GEN, run_cli, write_workspace

# humaneval_gen.py and humaneval_gen_8e312c.py in OpenCompass: two prompts, one abbr
OTHER_QA = QA_GEN.replace("'Q: {question}\\nA:'", "'Question: {question}\\nAnswer:'")


@pytest.fixture
def ws(tmp_path) -> Path:
    write_workspace(tmp_path)
    (tmp_path / "datasets" / "qa_other.py").write_text(OTHER_QA, encoding="utf-8")
    return tmp_path


def both(*args: str, cwd: Path):
    return run_cli(args[0], "datasets/qa_gen.py", "datasets/qa_other.py", "--models", "models/lm.py",
                   *args[1:], cwd=cwd)


def taken_error(err: str) -> str:
    """The one error line, which points at the second definition and names the first."""
    (line,) = [e for e in err.splitlines() if "abbr 'qa'" in e]
    where, message = line.split(": ", 1)
    assert where.endswith("datasets/qa_other.py:28")
    assert "dataset abbr 'qa' is taken by " in message and "datasets/qa_gen.py:28" in message
    assert message.endswith("(hint: give this dataset an abbr of its own (abbr='...'), or load the "
                            "configs one at a time)")
    return line


def test_render_shows_the_first_and_names_both_files(ws):
    result = both("render", "-f", "text", cwd=ws)
    assert result.code == 3
    taken_error(result.err)
    assert result.out.count("=== qa · chat-lm · sample 0 ===") == 1  # never two blocks under one header
    assert "Q: What is 3 + 4?" in result.out and "Question:" not in result.out
    doc = json.loads(both("render", cwd=ws).out)
    assert [(r["dataset"], r["model"]) for r in doc["renders"]] == [("qa", "chat-lm")]
    assert [e["file"].rsplit("/", 1)[-1] for e in doc["errors"]] == ["qa_other.py"]


def test_snapshot_writes_one_file_and_never_passes(ws):
    result = both("snapshot", "--dir", "snaps", cwd=ws)
    assert result.code == 3
    taken_error(result.err)
    assert "1 created, 0 updated" in result.out  # not "1 created, 1 updated": nothing overwritten
    assert "Q: What is 3 + 4?" in (ws / "snaps" / "qa" / "chat-lm.snap").read_text()
    check = both("snapshot", "--dir", "snaps", "--check", cwd=ws)
    assert check.code == 3 and "passed" not in check.out
    assert "snapshot check failed: 1 config error(s); 1 snapshots checked and matching" in check.out
    taken_error(check.err)


def test_the_same_definition_twice_is_shown_once(ws):
    # eval.py imports qa_gen.py: giving both lists qa twice, from one place
    result = run_cli("render", "eval.py", "datasets/qa_gen.py", "-f", "text", "--model", "chat-lm",
                     "--dataset", "qa", cwd=ws)
    assert result.code == 0, result.err
    assert result.out.count("=== qa · chat-lm · sample 0 ===") == 1
    (warning,) = [w for w in result.err.splitlines() if "listed" in w]
    assert "dataset 'qa'" in warning and "listed 2 times (by datasets/qa_gen.py, eval.py): shown once" in warning


def test_two_models_with_one_abbr(ws):
    (ws / "models" / "lm2.py").write_text((ws / "models" / "lm.py").read_text().replace(
        "no/such-model", "other/model"), encoding="utf-8")
    result = run_cli("render", "datasets/qa_gen.py", "--models", "models/lm.py", "--models",
                     "models/lm2.py", cwd=ws)
    assert result.code == 3
    (line,) = [e for e in result.err.splitlines() if "abbr 'chat-lm'" in e]
    assert "models/lm2.py:3: model abbr 'chat-lm' is taken by " in line and "models/lm.py:3" in line
    doc = json.loads(result.out)
    assert [(r["dataset"], r["model"]) for r in doc["renders"]] == [("qa", "chat-lm")]
