"""``workbench lint``: findings as located lines or JSON, --select/--ignore/--fail-on as ruff
reads them, --overlap, and --lint on render and snapshot --check (exit 3)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.headless.helpers import Run, edit, run_cli, write_workspace


def workspace(tmp: Path, unfilled: bool = False) -> Path:
    write_workspace(tmp)
    if unfilled:
        edit(tmp / "datasets" / "qa_gen.py", "Answer briefly.", "Answer {briefly}.")
    return tmp


def lint(tmp: Path, *args: str, unfilled: bool = False) -> Run:
    return run_cli("lint", "eval.py", "--model", "chat-lm", *args, cwd=workspace(tmp, unfilled))


def test_the_bundled_demo_is_clean_and_the_pitfalls_are_not():
    clean = run_cli("lint")
    assert clean.code == 0 and clean.out == "" and "no findings in 12 pairs" in clean.err
    pitfalls = run_cli("lint", "--pitfalls")
    assert "PW201 unsent-generation-prompt" in pitfalls.out
    assert "answer_prefix_gen.py:22: warning:" in pitfalls.out  # the generating turn's line
    assert pitfalls.code == 3  # its PPL config is refused for API and chat models, said on stderr
    assert "does not support ppl-based evaluation" in pitfalls.err and "Traceback" not in pitfalls.err


def test_a_finding_is_one_located_line_with_its_id_severity_and_hint(tmp_path):
    result = lint(tmp_path, unfilled=True)
    assert result.code == 1
    (line,) = result.out.splitlines()
    assert line.startswith(f"{tmp_path / 'datasets' / 'qa_gen.py'}:")
    assert ": warning: [qa × chat-lm] PW202 unfilled-placeholder: prompt_template: {briefly} matches no " \
        "column" in line and "(hint: " in line
    assert "1 finding (1 warning) in 2 pairs; 1 at or above --fail-on warning" in result.err


def test_select_ignore_and_fail_on_as_ruff_reads_them(tmp_path):
    assert lint(tmp_path, "--ignore", "PW202", unfilled=True).code == 0
    assert lint(tmp_path, "--select", "unfilled-placeholder", unfilled=True).code == 1
    assert lint(tmp_path, "--select", "PW3", unfilled=True).code == 0
    assert lint(tmp_path, "--select", "PW3", "--select", "PW202", unfilled=True).code == 1  # repeatable
    assert lint(tmp_path, "--fail-on", "error", unfilled=True).code == 0
    # information (every row the same example) is said when selected, and fails only --fail-on info
    info = lint(tmp_path, "--select", "ALL")
    assert "info: [qa × chat-lm] PW303 fixed-shots: all 3 rows use the same 1 example" in info.out
    assert info.code == 0
    assert lint(tmp_path, "--select", "ALL", "--fail-on", "info").code == 1
    unknown = lint(tmp_path, "--select", "PW999")
    assert unknown.code == 2 and "no rule is named 'PW999'" in unknown.err


def test_json_lists_each_finding_with_its_place(tmp_path):
    result = lint(tmp_path, "--format", "json", unfilled=True)
    document = json.loads(result.out)
    (finding,) = document["findings"]
    assert finding["id"] == "PW202" and finding["severity"] == "warning" and finding["name"] == "unfilled-placeholder"
    assert finding["file"].endswith("qa_gen.py") and isinstance(finding["line"], int) and finding["hint"]
    assert document["counts"] == {"error": 0, "warning": 1, "info": 0} and document["failing"] == 1


def test_overlap_finds_a_near_duplicate_of_the_example_pool(tmp_path):
    workspace(tmp_path)
    (tmp_path / "test_set.jsonl").write_text(json.dumps({"question": "what is 2 + 2"}) + "\n", encoding="utf-8")
    result = run_cli("lint", "eval.py", "--model", "chat-lm", "--overlap", "test_set.jsonl", cwd=tmp_path)
    assert "PW305 example-test-overlap: 1 of the 1 rows of the --overlap test set" in result.out
    assert result.code == 1
    missing = run_cli("lint", "eval.py", "--overlap", "nowhere.jsonl", cwd=tmp_path)
    assert missing.code == 2 and "--overlap nowhere.jsonl" in missing.err and "Traceback" not in missing.err


def test_render_and_snapshot_check_with_lint_make_findings_errors(tmp_path):
    ws = workspace(tmp_path, unfilled=True)
    plain = run_cli("render", "eval.py", "--model", "chat-lm", cwd=ws)
    assert plain.code == 0
    linted = run_cli("render", "eval.py", "--model", "chat-lm", "--lint", cwd=ws)
    assert linted.code == 3
    said = [line for line in linted.err.splitlines() if "{briefly}" in line]
    assert len(said) == 1 and "PW202 unfilled-placeholder" in said[0] and "--lint: " in said[0]
    assert run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", cwd=ws).code == 0
    check = run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", "--check", "--lint", cwd=ws)
    assert check.code == 3 and "snapshot check failed (--lint): 1 lint finding(s)" in check.out
    assert "passed" not in check.out
    clean = workspace(tmp_path / "clean")
    assert run_cli("render", "eval.py", "--model", "chat-lm", "--lint", cwd=clean).code == 0


def test_lint_is_listed_in_the_commands_help():
    assert "lint" in run_cli("--help").out
