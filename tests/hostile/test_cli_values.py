"""CLI values: every value outside its range, every unknown name and every typo is one usage
line (status 2) naming what is allowed; no traceback, and nothing starts that should not."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests.headless.helpers import run_cli, write_workspace
from workbench.commands import render as render_command
from workbench.headless import stream

from .helpers import needs_fork, run, write

pytestmark = needs_fork


@pytest.fixture(scope="module")
def sample_ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("values")
    write_workspace(root)
    return root


RANGES = [
    (("render", "--timeout", "nan"), "argument --timeout: 'nan': give a number of seconds above 0 and at most 86400 (a day)"),
    (("render", "--timeout", "inf"), "argument --timeout: 'inf': give a number of seconds above 0 and at most 86400 (a day)"),
    (("render", "--timeout", "1e308"),
     "argument --timeout: '1e308': give a number of seconds above 0 and at most 86400 (a day)"),
    (("render", "--timeout", "0"), "argument --timeout: '0': give a number of seconds above 0 and at most 86400 (a day)"),
    (("render", "--timeout", "-1"), "argument --timeout: '-1': give a number of seconds above 0 and at most 86400 (a day)"),
    (("render", "--timeout", "soon"), "argument --timeout: 'soon' is not a number of seconds"),
    (("render", "--jobs", "0"), "argument --jobs/-j: '0': give a whole number 1 or more"),
    (("render", "--width", "-3"), "argument --width: '-3': give a whole number from 20 to 1000"),
    (("snapshot", "--dir", "snaps", "--context", "-1"), "argument --context: '-1': give a whole number 0 or more"),
    (("snapshot", "--dir", "snaps", "--max-diffs", "-3"), "argument --max-diffs: '-3': give a whole number 0 or more"),
    (("diff", "--context", "-1"), "argument --context: '-1': give a whole number 0 or more"),
    (("verify", "run", "--max-diffs", "-3"), "argument --max-diffs: '-3': give a whole number 0 or more"),
]


@pytest.mark.parametrize(("argv", "message"), RANGES, ids=[" ".join(a) for a, _ in RANGES])
def test_values_out_of_range_are_usage_errors(sample_ws, argv, message):
    done = run_cli(*argv, cwd=sample_ws)
    assert done.code == 2
    assert done.err.splitlines()[-1] == f"workbench {argv[0]}: error: {message}"
    assert "Traceback" not in done.err


def test_rows_for_a_dataset_that_does_not_exist(sample_ws):
    done = run_cli("render", "eval.py", "--data", "qaa=data/qa.json", cwd=sample_ws)
    assert done.code == 2
    assert done.err.strip() == ("workbench render: error: --data qaa=data/qa.json: no dataset is named 'qaa' "
                                "(did you mean 'qa'? datasets: choice, qa)")


def test_a_label_no_request_has(sample_ws):
    done = run_cli("render", "eval.py", "--dataset", "choice", "--label", "maybe", cwd=sample_ws)
    assert done.code == 2
    assert done.err.strip() == ("workbench render: error: --label 'maybe': no such label in the selected "
                                "pairs (labels: no, yes)")


def test_an_unknown_theme(tmp_path):
    done = run("--theme", "workbench-drak", cwd=tmp_path, env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert done.code == 2
    (line,) = done.lines
    assert line.startswith("workbench: error: --theme 'workbench-drak': no such theme (did you mean "
                           "'workbench-dark'? themes: ")
    assert "workbench-light" in line and "textual-dark" in line


@pytest.mark.parametrize(("word", "message"), [
    ("rendr", "'rendr' is not a command (did you mean 'render'?)"),
    ("snapshto", "'snapshto' is not a command (did you mean 'snapshot'?)"),
    ("frobnicate", "'frobnicate' is not a command, and there is no such file (commands: render, snapshot, "
                   "diff, compare, verify, extract, lint, serve)"),
])
def test_a_mistyped_command_is_a_usage_error_not_the_app(tmp_path, word, message):
    write(tmp_path / "cfg.py", "datasets = []\n")
    done = run(word, "cfg.py", cwd=tmp_path, timeout=60)
    assert done.code == 2
    assert done.lines == [f"workbench: error: {message}"]


def test_the_app_never_starts_without_a_terminal(tmp_path):
    # `workbench cfg.py > log` in a CI job: the app would wait for keys that never come
    write(tmp_path / "cfg.py", "datasets = []\n")
    done = run("cfg.py", cwd=tmp_path, timeout=60)
    assert done.code == 2
    assert done.lines == ["workbench: error: the app needs a terminal (stdin and stdout); without one, use "
                          "`workbench render CONFIG` (see workbench --help)"]
    assert done.out == ""  # no escape sequence was written to the log


def test_raw_is_refused_on_a_terminal(sample_ws):
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "workbench", "render", "eval.py", "-f", "text", "--raw"],
                              cwd=sample_ws, stdout=follower, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                              timeout=60, text=True)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert done.stderr.strip() == ("workbench render: error: --raw writes escape sequences as they are, so "
                                   "never to a terminal: pipe it into a tool, or give --out FILE")


def test_raw_writes_a_lone_surrogate_as_its_escape_and_says_so(tmp_path):
    write(tmp_path / "good.py", (
        "datasets = [dict(abbr='qa', reader_cfg=dict(input_columns=['q'], output_column='a'), infer_cfg=dict("
        "prompt_template=dict(type='PromptTemplate', template='Q: {q}'), retriever=dict(type='ZeroRetriever'), "
        "inferencer=dict(type='GenInferencer')))]\n"))
    write(tmp_path / "rows.jsonl", '{"q": "bad \\ud800 here", "a": "x"}\n')
    done = run("render", "good.py", "--data", "rows.jsonl", "-f", "text", "--raw", cwd=tmp_path)
    assert done.code == 0, done.err
    assert done.out == "=== qa · (no model) · sample 0 ===\nQ: bad \\ud800 here\n"
    assert done.lines == ["warning: [qa × no model] --raw: a lone surrogate (a JSON \\ud800 with no partner) "
                          "has no UTF-8 encoding; written as its escape, \\udXXX"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [("render", "good.py"), ("render", "good.py", "-f", "text"), ("--version",)])
def test_a_full_disk_on_stdout_is_one_line(ws, argv):
    with open("/dev/full", "w") as full:
        done = run(*argv, cwd=ws, stdout=full)
    assert done.code == 2
    assert done.lines == ["workbench: cannot write the output: No space left on device"]


def test_a_closed_pipe_ends_quietly(ws):
    source = "from opencompass.x import Y\n" + "datasets = [" + ",".join(
        f"dict(abbr='d{i}', reader_cfg=dict(input_columns=['q'], output_column='a'), infer_cfg=dict("
        "prompt_template=dict(type='PromptTemplate', template='Q: {q}' * 2000), retriever=dict(type='ZeroRetriever'),"
        " inferencer=dict(type='GenInferencer')))" for i in range(30)) + "]\n"
    write(ws / "many.py", source)
    reader = subprocess.Popen([sys.executable, "-m", "workbench", "render", "many.py", "-f", "text"], cwd=ws,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.read(100)
    reader.stdout.close()  # `| head -c 100`
    err = reader.stderr.read().decode()
    assert reader.wait(timeout=60) == 0
    assert "Traceback" not in err and "Exception ignored" not in err


def test_jobs_start_at_most_one_process_per_cpu():
    cpus = os.cpu_count() or 1
    assert stream.worker_count(1000, 10_000) == cpus
    assert stream.worker_count(1000, 5) == min(cpus, 2)  # two chunks of samples
    assert stream.worker_count(3, 1) == 1


def test_processes_that_cannot_start_are_one_line(sample_ws, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(ProcessPoolExecutor, "submit", refuse)
    monkeypatch.setattr(stream, "worker_count", lambda jobs, samples: 2)
    monkeypatch.setattr(render_command, "serial_reason", lambda total, jobs: None)  # split even a small render
    out = sample_ws / "kept.json"
    out.write_text("the old render\n")
    done = run_cli("render", "eval.py", "--jobs", "2", "-o", str(out), cwd=sample_ws)
    assert done.code == 2
    assert done.err.splitlines()[-1] == ("workbench: error: the --jobs 2 worker processes cannot run (Resource "
                                         "temporarily unavailable); try fewer with --jobs, or --jobs 1")
    assert out.read_text() == "the old render\n"
