"""Every exit status the README's table documents is produced here, by the command and case it names.

The table is read from the documentation, so a status documented without a case here (or a case
for a status no longer documented) fails the first test.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.commands.test_extract import MCQ, MCQ_PATTERN, dataset, good_run, write_run
from tests.headless.helpers import Run, edit, run_cli, write_workspace

ROOT = Path(__file__).resolve().parents[2]
VERIFY_FIXTURE = ROOT / "tests" / "verify" / "fixture"
RUN_DIR = "runs/20261124_000000"


def documented() -> set[tuple[str, int]]:
    """(column, status) for each cell of the exit status table that is not "—"."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Exit status\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    columns = [c.strip().strip("`") for c in rows[0].strip("|").split("|")][1:]
    cells = set()
    for row in rows[2:]:
        status, *values = (c.strip() for c in row.strip("|").split("|"))
        cells |= {(column, int(status)) for column, value in zip(columns, values, strict=True) if value != "—"}
    return cells


def workspace(tmp: Path, broken: bool = False) -> Path:
    write_workspace(tmp)
    if broken:
        (tmp / "datasets" / "qa_gen.py").write_text("qa_datasets = [\n", encoding="utf-8")
    return tmp


def render(tmp: Path, *args: str, broken: bool = False) -> Run:
    return run_cli("render", "eval.py", "--model", "chat-lm", *args, cwd=workspace(tmp, broken))


def snapshot(tmp: Path, *args: str, broken: bool = False, first: bool = False) -> Run:
    ws = workspace(tmp, broken)
    if first:
        assert run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", cwd=ws).code == 0
    return run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", "--color", "never", *args,
                   cwd=ws)


def check(tmp: Path, *args: str, **kw) -> Run:
    return snapshot(tmp, "--check", *args, **kw)


def diff(tmp: Path, other: str = "Answer briefly.", *args: str, broken: bool = False) -> Run:
    workspace(tmp / "a")
    workspace(tmp / "b", broken)
    if other != "Answer briefly.":
        edit(tmp / "b" / "datasets" / "qa_gen.py", "Answer briefly.", other)
    return run_cli("diff", "a/eval.py", "b/eval.py", "--model", "chat-lm", "--color", "never", *args, cwd=tmp)


def verify(tmp: Path, *args: str, change: bool = False) -> Run:
    fixture = tmp / "fixture"
    shutil.copytree(VERIFY_FIXTURE, fixture)
    if change:
        config = fixture / "eval_fixture.py"
        config.write_text(config.read_text(encoding="utf-8").replace("step by step", "step  by step"),
                          encoding="utf-8")
        args = (RUN_DIR, "--config", str(config), *args)
    return run_cli("verify", *args, cwd=fixture)


def verify_green(tmp: Path) -> Run:
    """A run every pair of whose config ran and matches: the real OpenCompass run of a local model
    (the verify fixture's own config pairs an API model with PPL, a task OpenCompass fails)."""
    real = tmp / "real_runs"
    shutil.copytree(VERIFY_FIXTURE / "real_runs" / "opencompass", real)
    return run_cli("verify", "outputs/eval_local/20261127_173940", cwd=real)


def extract(tmp: Path, *args: str, flip: bool = False, broken: bool = False) -> Run:
    run = good_run(tmp)
    if broken:
        (run / "predictions" / "m1" / "mcq.json").write_text("{", encoding="utf-8")
    if flip:
        run = write_run(tmp / "flip", {"mcq": MCQ}, {"mcq": {"0": {"prediction": "The answer is (B)", "gold": "B"}}})
        edited = tmp / "edited.py"
        edited.write_text(f"datasets=[\n{dataset('mcq', MCQ_PATTERN)}]\n", encoding="utf-8")
        args = ("--against", str(edited), *args)
    return run_cli("extract", str(run), *args)


def lint(tmp: Path, *args: str, broken: bool = False, unfilled: bool = False) -> Run:
    ws = workspace(tmp, broken)
    if unfilled:
        edit(ws / "datasets" / "qa_gen.py", "Answer briefly.", "Answer {briefly}.")
    return run_cli("lint", "eval.py", "--model", "chat-lm", *args, cwd=ws)


def compare(tmp: Path, *args: str, other: str = "Q: {{q}}\\nA:", rows: bool = True) -> Run:
    """Two lm-eval tasks (the second's doc_to_text ``other``) compared row by row."""
    for name, text in (("a", "Q: {{q}}\\nA:"), ("b", other)):
        (tmp / f"{name}.yaml").write_text(f'task: {name}\noutput_type: generate_until\ndoc_to_text: "{text}"\n'
                                          'doc_to_target: "{{a}}"\ntest_split: test\n', encoding="utf-8")
    (tmp / "rows.jsonl").write_text('{"q": "one", "a": "1"}\n', encoding="utf-8")
    data = ("--data", "test=rows.jsonl") if rows else ()
    return run_cli("compare", "a.yaml", "b.yaml", *data, "--color", "never", *args, cwd=tmp)


def interrupted(command: str) -> Callable[[Path, pytest.MonkeyPatch], Run]:
    """Ctrl-C while the command loads and renders."""

    def case(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
        def stop(*_args, **_kw):
            raise KeyboardInterrupt

        for module in ("workbench.commands.render", "workbench.commands.diff"):
            monkeypatch.setattr(f"{module}.load_and_render", stop)
        monkeypatch.setattr("workbench.headless.extract_run.shared_loader", stop)
        monkeypatch.setattr("workbench.loading.lmeval_tasks.render_tasks", stop)
        return {"compare": lambda: compare(tmp), "render": lambda: render(tmp), "snapshot": lambda: snapshot(tmp),
                "snapshot --check": lambda: check(tmp), "diff": lambda: diff(tmp),
                "verify": lambda: verify(tmp, RUN_DIR), "extract": lambda: extract(tmp), "lint": lambda: lint(tmp)}[command]()

    return case


CASES: dict[tuple[str, int], Callable[[Path], Run]] = {
    ("render", 0): lambda tmp: render(tmp),
    ("render", 2): lambda tmp: render(tmp, "--format", "pdf"),
    ("render", 3): lambda tmp: render(tmp, broken=True),
    ("snapshot", 0): lambda tmp: snapshot(tmp),
    ("snapshot", 2): lambda tmp: snapshot(tmp, "--limit", "0"),
    ("snapshot", 3): lambda tmp: snapshot(tmp, broken=True),
    ("snapshot --check", 0): lambda tmp: check(tmp, first=True),
    ("snapshot --check", 1): lambda tmp: check(tmp),  # no snapshot written yet: missing
    ("snapshot --check", 2): lambda tmp: check(tmp, "--context", "-1"),
    ("snapshot --check", 3): lambda tmp: check(tmp, broken=True),
    ("diff", 0): lambda tmp: diff(tmp),
    ("diff", 1): lambda tmp: diff(tmp, "Answer in one word."),
    ("diff", 2): lambda tmp: diff(tmp, "Answer briefly.", "--rev", "a", "--rev", "b", "--rev", "c"),
    ("diff", 3): lambda tmp: diff(tmp, broken=True),
    ("verify", 0): verify_green,
    ("verify", 1): lambda tmp: verify(tmp, change=True),
    ("verify", 2): lambda tmp: verify(tmp, RUN_DIR, "--max-diffs", "-1"),
    ("verify", 3): lambda tmp: verify(tmp, "runs/no-such-run"),
    ("extract", 0): lambda tmp: extract(tmp),
    ("extract", 1): lambda tmp: extract(tmp, flip=True),
    ("extract", 2): lambda tmp: extract(tmp, "--rev", "HEAD"),
    ("extract", 3): lambda tmp: extract(tmp, broken=True),
    ("lint", 0): lambda tmp: lint(tmp),
    ("lint", 1): lambda tmp: lint(tmp, unfilled=True),
    ("lint", 2): lambda tmp: lint(tmp, "--select", "PW999"),
    ("lint", 3): lambda tmp: lint(tmp, broken=True),
    ("compare", 0): lambda tmp: compare(tmp),
    ("compare", 1): lambda tmp: compare(tmp, other="Q: {{q}}\\n\\nA:"),
    ("compare", 2): lambda tmp: run_cli("compare", "mmluu"),
    ("compare", 3): lambda tmp: compare(tmp, rows=False),
}
INTERRUPTED = {(command, 130): interrupted(command)
               for command in ("render", "snapshot", "snapshot --check", "diff", "verify", "extract", "lint",
                               "compare")}


def test_every_documented_status_has_a_case():
    assert documented() == set(CASES) | set(INTERRUPTED)


@pytest.mark.parametrize(("command", "status"), sorted(CASES), ids=lambda v: str(v))
def test_status(command, status, tmp_path):
    result = CASES[(command, status)](tmp_path)
    assert result.code == status, result.out[-2000:] + result.err
    assert "Traceback" not in result.err
    if status == 3:  # errors are located lines (file, and line when there is one) with a hint
        assert re.search(r"^\S+?(:\d+)?: .+ \(hint: .+\)$", result.err, flags=re.M), result.err
    if status == 2:
        assert "error:" in result.err.splitlines()[-1]
    if command == "snapshot --check" and status != 0:
        assert "passed" not in result.out


@pytest.mark.parametrize(("command", "status"), sorted(INTERRUPTED), ids=lambda v: str(v))
def test_interrupted(command, status, tmp_path, monkeypatch):
    result = INTERRUPTED[(command, status)](tmp_path, monkeypatch)
    assert result.code == 130 and "Traceback" not in result.err


def test_the_app_exits_2_on_a_usage_error_and_the_version_and_help_0():
    assert run_cli("--timeout", "0").code == 2
    assert run_cli("--version").code == 0
    assert run_cli("--help").code == 0
