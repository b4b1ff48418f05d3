"""``workbench snapshot``: write, leave unchanged files alone, and --check like a CI job would."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.headless.helpers import edit, run_cli, write_workspace


@pytest.fixture
def ws(tmp_path) -> Path:
    write_workspace(tmp_path / "ws")
    return tmp_path / "ws"


def snap(ws: Path, *extra: str):
    # --model chat-lm: no refused pair, so a clean run exits 0
    return run_cli("snapshot", "eval.py", "--dir", "snaps", "--model", "chat-lm", "--color", "never",
                   *extra, cwd=ws)


def test_write_then_check_passes(ws):
    first = snap(ws)
    assert first.code == 0, first.err
    assert "2 created, 0 updated, 0 unchanged, 0 removed" in first.out
    check = snap(ws, "--check")
    assert check.code == 0, check.out
    assert "snapshot check passed: 2 snapshots match" in check.out


def test_unchanged_files_keep_their_mtime(ws):
    snap(ws)
    path = ws / "snaps" / "qa" / "chat-lm.snap"
    os.utime(path, (1_000_000, 1_000_000))
    again = snap(ws)
    assert "0 created, 0 updated, 2 unchanged" in again.out
    assert path.stat().st_mtime == 1_000_000
    edit(ws / "datasets" / "qa_gen.py", "Answer briefly.", "Answer briefly!")
    changed = snap(ws)
    assert f"updated {Path('snaps') / 'qa' / 'chat-lm.snap'}" in changed.out
    assert path.stat().st_mtime != 1_000_000
    assert not list((ws / "snaps").rglob("*.wb-tmp-*"))


def test_check_catches_a_one_character_change(ws):
    snap(ws)
    edit(ws / "datasets" / "qa_gen.py", "Answer briefly.", "Answer briefly!")
    check = snap(ws, "--check")
    assert check.code == 1
    assert "- | Answer briefly.<|end|>" in check.out
    assert "+ | Answer briefly!<|end|>" in check.out
    lines = check.out.splitlines()
    guide = lines[lines.index("+ | Answer briefly!<|end|>") + 1]
    assert guide.startswith("?") and guide.index("^") == len("+ | Answer briefly")
    assert "qa/chat-lm.snap: 3 requests changed, 0 added, 0 removed" in check.out.replace(os.sep, "/")
    assert "snapshot check failed: 1 of 2 snapshots differ" in check.out


def test_check_catches_a_trailing_space_and_shows_it(ws):
    snap(ws)
    # the test prompt's HUMAN turn (indented deeper than the ice template's)
    edit(ws / "datasets" / "qa_gen.py", "                dict(role='HUMAN', prompt='Q: {question}\\nA:'),",
         "                dict(role='HUMAN', prompt='Q: {question}\\nA: '),")
    check = snap(ws, "--check")
    assert check.code == 1
    assert "- | A:<|end|>" in check.out
    assert "+ | A:·<|end|>" not in check.out  # an inner space is a plain space...
    lines = check.out.splitlines()
    guide = lines[lines.index("+ | A: <|end|>") + 1]
    assert guide.startswith("?") and guide.index("+") == "+ | A: <|end|>".index(" <")  # ...the guide points at it


def test_check_catches_whitespace_only_change_at_line_end(ws):
    snap(ws, "--dataset", "choice")
    edit(ws / "datasets" / "choice_ppl.py", "True? yes'", "True? yes '")
    check = snap(ws, "--check", "--dataset", "choice")
    assert check.code == 1
    assert "- | True? yes" in check.out and "+ | True? yes·" in check.out
    assert "@@ sample 0 · label yes @@ changed" in check.out
    assert "@@ sample 0 · label no @@" not in check.out
    assert "2 requests changed, 0 added, 0 removed" in check.out


def test_check_reports_missing_and_extra_files(ws):
    snap(ws)
    (ws / "snaps" / "qa" / "chat-lm.snap").unlink()
    stray = ws / "snaps" / "gone" / "chat-lm.snap"
    stray.parent.mkdir()
    stray.write_text((ws / "snaps" / "choice" / "chat-lm.snap").read_text().replace('"choice"', '"gone"'))
    check = snap(ws, "--check")
    assert check.code == 1
    assert "missing: " in check.out and "extra: " in check.out
    assert "1 missing, 1 extra" in check.out
    # writing again creates the missing one and removes the extra one
    fixed = snap(ws)
    assert "1 created, 0 updated, 1 unchanged, 1 removed" in fixed.out
    assert not stray.exists() and not stray.parent.exists()
    assert snap(ws, "--check").code == 0


def test_files_outside_the_selection_are_left_alone(ws):
    snap(ws)
    only_qa = snap(ws, "--dataset", "qa")
    assert "0 removed" in only_qa.out
    assert (ws / "snaps" / "choice" / "chat-lm.snap").exists()
    assert snap(ws, "--check", "--dataset", "qa").code == 0


def test_added_and_removed_samples_are_named(ws):
    snap(ws, "--dataset", "qa")
    edit(ws / "data" / "qa.json", '{"question": "Ends with a space ", "answer": "ok"}',
         '{"question": "Ends with a space ", "answer": "ok"}, {"question": "New?", "answer": "x"}')
    check = snap(ws, "--check", "--dataset", "qa")
    assert check.code == 1
    assert "@@ sample 3 @@ added" in check.out
    assert "0 requests changed, 1 added, 0 removed" in check.out


def test_snapshot_header_and_records(ws):
    snap(ws)
    text = (ws / "snaps" / "qa" / "chat-lm.snap").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# prompt-workbench snapshot 1"
    assert lines[1:3] == ['# dataset: "qa"', '# model: "chat-lm"']
    assert any(line.startswith("# inputs: sha256:") for line in lines[:8])
    assert "| Q: Name a colour.→Any one." in lines
    assert "| Q: Ends with a space·" in lines
    assert "| <|assistant|>↵" in lines
    assert all(line == line.rstrip() for line in lines)  # safe from trailing-whitespace hooks
    assert "\t" not in text and "\r" not in text


def test_inputs_hash_ignores_comments_but_not_rows(ws):
    snap(ws)
    header = (ws / "snaps" / "qa" / "chat-lm.snap").read_text().splitlines()[5]
    (ws / "datasets" / "qa_gen.py").write_text("# a comment\n" + (ws / "datasets" / "qa_gen.py").read_text())
    snap(ws)
    assert (ws / "snaps" / "qa" / "chat-lm.snap").read_text().splitlines()[5] == header
    edit(ws / "data" / "qa.json", '"answer": "4"', '"answer": "four"')  # a train row: changes the prompt
    snap(ws)
    assert (ws / "snaps" / "qa" / "chat-lm.snap").read_text().splitlines()[5] != header


def test_stale_inputs_hash_still_passes_the_check(ws):
    snap(ws)
    path = ws / "snaps" / "choice" / "chat-lm.snap"
    lines = path.read_text().splitlines(keepends=True)
    lines[5] = "# inputs: sha256:" + "0" * 64 + "\n"
    path.write_text("".join(lines))
    check = snap(ws, "--check")
    assert check.code == 0
    assert "1 matching snapshots were made from other inputs" in check.out


def test_config_errors_exit_3_and_keep_old_files(ws):
    snap(ws)
    before = (ws / "snaps" / "qa" / "chat-lm.snap").read_bytes()
    edit(ws / "datasets" / "qa_gen.py", "fix_id_list=[0]", "fix_id_list=[0],, oops")
    broken = snap(ws)
    assert broken.code == 3
    assert "qa_gen.py:" in broken.err and "SyntaxError" in broken.err
    assert (ws / "snaps" / "qa" / "chat-lm.snap").read_bytes() == before
    assert snap(ws, "--check").code == 3


def test_refused_pairs_exit_3_without_a_snapshot(ws):
    result = run_cli("snapshot", "eval.py", "--dir", "snaps", cwd=ws)
    assert result.code == 3
    assert "[choice × api]" in result.err
    assert not (ws / "snaps" / "choice" / "api.snap").exists()


def test_usage_errors_exit_2(ws):
    assert run_cli("snapshot", "eval.py", cwd=ws).code == 2  # --dir is required
    assert snap(ws, "--dataset", "nope").code == 2
    (ws / "afile").write_text("x")
    assert run_cli("snapshot", "eval.py", "--dir", "afile", cwd=ws).code == 2


def test_jobs_write_the_same_files(ws):
    snap(ws)
    serial = {p.relative_to(ws / "snaps"): p.read_bytes() for p in (ws / "snaps").rglob("*.snap")}
    result = run_cli("snapshot", "eval.py", "--dir", "par", "--model", "chat-lm", "--jobs", "2", cwd=ws)
    assert result.code == 0, result.err
    parallel = {p.relative_to(ws / "par"): p.read_bytes() for p in (ws / "par").rglob("*.snap")}
    assert parallel == serial


def test_an_unwritable_snapshot_folder_is_a_usage_error(ws):
    (ws / "snaps").mkdir()
    (ws / "snaps" / "qa").write_text("a file where a folder goes")
    result = snap(ws)
    assert result.code == 2
    assert "cannot write" in result.err


def test_a_check_with_config_errors_never_says_passed(tmp_path):
    from tests.headless.helpers import run_cli

    config = tmp_path / "broken.py"
    config.write_text("datasets = [\n", encoding="utf-8")
    run = run_cli("snapshot", str(config), "--dir", str(tmp_path / "snaps"), "--check")
    assert run.code == 3
    assert "passed" not in run.out + run.err
    assert "snapshot check failed: 1 config error(s); 0 snapshots checked and matching" in run.out


def test_out_of_range_samples_are_a_usage_error_and_no_empty_snapshot_is_written(tmp_path):
    from tests.headless.helpers import run_cli

    render = run_cli("render", "--sample", "50")
    assert render.code == 2
    assert "--sample 50 is out of range: the selected datasets have samples gsm8k-like: 0-5" in render.err
    snap = run_cli("snapshot", "--dir", str(tmp_path / "snaps"), "--sample", "50")
    assert snap.code == 2 and not (tmp_path / "snaps").exists()
