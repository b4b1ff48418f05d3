"""``workbench render``: selection, formats, --out, --jobs and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli, write_workspace
from workbench.commands import render as render_command


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("render")
    write_workspace(root)
    return root


def doc(ws: Path, *args: str) -> dict:
    result = run_cli("render", "eval.py", *args, cwd=ws)
    assert result.code in (0, 3), result.err
    return json.loads(result.out)


def test_json_is_the_default_and_follows_the_contract(ws):
    d = doc(ws)
    assert d["schema"] == "prompt-workbench/render@1" and d["config"] == "eval.py"
    pairs = [(r["dataset"], r["model"]) for r in d["renders"]]
    assert pairs == [("qa", "chat-lm"), ("qa", "api"), ("choice", "chat-lm")]
    assert [e["model"] for e in d["errors"]] == ["api"]
    request = d["renders"][0]["samples"][0]["requests"][0]
    assert {"label", "turn", "prompt_list", "model_input", "model_text"} <= set(request)


def test_dataset_and_model_globs(ws):
    d = doc(ws, "--dataset", "q*", "--model", "chat-*")
    assert [(r["dataset"], r["model"]) for r in d["renders"]] == [("qa", "chat-lm")]
    assert d["errors"] == []  # choice × api is outside the selection
    d = doc(ws, "--dataset", "qa", "--dataset", "choice", "--model", "api")
    assert [(r["dataset"], r["model"]) for r in d["renders"]] == [("qa", "api")]
    assert len(d["errors"]) == 1


@pytest.mark.parametrize(("spec", "limit", "expected"), [
    ("0", None, [0]),
    ("2,0", None, [0, 2]),
    ("1-2", None, [1, 2]),
    ("1-", None, [1, 2]),
    ("0-99", None, [0, 1, 2]),
    ("0,2", "1", [0]),
    (None, "2", [0, 1]),
])
def test_sample_and_limit(ws, spec, limit, expected):
    args = ["--dataset", "qa", "--model", "chat-lm"]
    if spec is not None:
        args += ["--sample", spec]
    if limit is not None:
        args += ["--limit", limit]
    d = doc(ws, *args)
    assert [s["index"] for s in d["renders"][0]["samples"]] == expected


def test_label_keeps_one_labels_requests(ws):
    d = doc(ws, "--dataset", "choice", "--label", "no")
    requests = [r for s in d["renders"][0]["samples"] for r in s["requests"]]
    assert [r["label"] for r in requests] == ["no", "no"]
    assert all(r["model_input"].endswith("True? no") for r in requests)
    # gen requests have no label: a --label there selects nothing, and says so
    done = run_cli("render", "eval.py", "--dataset", "qa", "--model", "chat-lm", "--label", "no", cwd=ws)
    assert done.code == 2
    assert done.err.strip() == ("workbench render: error: --label 'no': no such label in the selected pairs "
                                "(they have none: only PPL and LL inferencers label their requests)")


def test_text_whitespace_and_raw(ws):
    plain = run_cli("render", "eval.py", "-f", "text", "--dataset", "qa", "--model", "chat-lm",
                    "--sample", "2", cwd=ws).out
    assert "=== qa · chat-lm · sample 2 ===" in plain
    assert "Q: Ends with a space \n" in plain
    shown = run_cli("render", "eval.py", "-f", "text", "-w", "--dataset", "qa", "--model", "chat-lm",
                    "--sample", "1-2", cwd=ws).out
    assert "Q: Ends with a space·↵\n" in shown
    assert "Q: Name a colour.→Any one.↵\n" in shown


def test_markdown_fences_outlast_backticks(tmp_path):
    rows = {"train": [{"question": "q", "answer": "a"}],
            "test": [{"question": "```\n# not a heading\n````", "answer": "x"}]}
    write_workspace(tmp_path, qa_rows=rows)
    md = run_cli("render", "eval.py", "-f", "markdown", "--dataset", "qa", "--model", "chat-lm",
                 cwd=tmp_path).out
    assert "`````text\n" in md  # five backticks: longer than the row's four
    assert md.count("`````") == 2


def test_out_writes_the_file_atomically(ws, tmp_path):
    out = tmp_path / "render.json"
    out.write_text("old")
    result = run_cli("render", "eval.py", "--out", str(out), "--model", "chat-lm", cwd=ws)
    assert result.code == 0 and result.out == ""
    assert json.loads(out.read_text())["schema"] == "prompt-workbench/render@1"
    assert [p.name for p in tmp_path.iterdir()] == ["render.json"]  # no temp file left


def test_out_dash_is_stdout(ws):
    """``--out -`` writes to stdout, as Unix tools read it, not a file named ``-``."""
    result = run_cli("render", "eval.py", "--out", "-", "--model", "chat-lm", cwd=ws)
    assert result.code == 0 and not (ws / "-").exists()
    assert result.out == run_cli("render", "eval.py", "--model", "chat-lm", cwd=ws).out
    assert json.loads(result.out)["schema"] == "prompt-workbench/render@1"


def test_jobs_give_identical_output(ws, monkeypatch):
    monkeypatch.setattr(render_command, "serial_reason", lambda total, jobs: None)  # split this small render
    for fmt in ("json", "text", "markdown"):
        serial = run_cli("render", "eval.py", "-f", fmt, cwd=ws)
        parallel = run_cli("render", "eval.py", "-f", fmt, "--jobs", "3", cwd=ws)
        assert parallel.out == serial.out
        assert parallel.err == serial.err
        assert parallel.code == serial.code == 3


def test_splitting_that_cannot_pay_is_said(monkeypatch):
    assert render_command.serial_reason(10, 2).startswith("10 samples render faster in one process")
    monkeypatch.setattr(render_command.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(render_command.os, "getloadavg", lambda: (2.0, 1.0, 1.0))
    assert render_command.serial_reason(50_000, 2) == "the machine's 4 CPUs are busy (load average 2.0)"
    monkeypatch.setattr(render_command.os, "getloadavg", lambda: (0.3, 1.0, 1.0))
    assert render_command.serial_reason(50_000, 2) is None
    assert render_command.serial_reason(50_000, 3) is None
    assert render_command.serial_reason(50_000, 4) == (
        "4 workers and the main process writing what they render need 5 CPUs, and this process may "
        "use 4 (--jobs 3 fits)")
    # two CPUs: the writer and two workers share them, which costs more than it saves
    monkeypatch.setattr(render_command.os, "sched_getaffinity", lambda pid: {0, 1})
    assert render_command.serial_reason(50_000, 2) == (
        "2 workers and the main process writing what they render need 3 CPUs, and this process may use 2")
    monkeypatch.setattr(render_command.os, "sched_getaffinity", lambda pid: {0})
    assert render_command.serial_reason(50_000, 2) == "this process may use one CPU only"


def test_jobs_on_a_small_render_run_serially_and_say_so(ws):
    serial = run_cli("render", "eval.py", "-f", "text", cwd=ws)
    asked = run_cli("render", "eval.py", "-f", "text", "--jobs", "2", cwd=ws)
    assert asked.out == serial.out
    note = f"workbench render: --jobs 2: 8 samples render faster in one process (splitting pays from about " \
           f"{render_command.SERIAL_BELOW:,}): rendered serially"
    assert asked.err.splitlines()[0] == note
    assert asked.err.splitlines()[1:] == serial.err.splitlines()
    quiet = run_cli("render", "eval.py", "-f", "text", "--jobs", "2", "--quiet", cwd=ws)
    assert "serially" not in quiet.err


@pytest.mark.parametrize("args", [
    ["--format", "pdf"],
    ["--raw"],  # json has no raw mode
    ["--jobs", "0"],
    ["--sample", "3-1"],
    ["--sample", "x"],
    ["--limit", "-1"],
    ["--dataset", "nothing*"],
    ["--model", "nothing"],
    ["--out", "no/such/folder/x.json"],
])
def test_usage_errors_exit_2(ws, args):
    result = run_cli("render", "eval.py", *args, cwd=ws)
    assert result.code == 2
    assert result.out == ""


def test_config_errors_exit_3_with_file_and_line(tmp_path):
    write_workspace(tmp_path)
    (tmp_path / "datasets" / "qa_gen.py").write_text("qa_datasets = [\n", encoding="utf-8")
    result = run_cli("render", "eval.py", cwd=tmp_path)
    assert result.code == 3
    first = result.err.splitlines()[0]
    assert "qa_gen.py:" in first and "SyntaxError" in first
    assert json.loads(result.out)["errors"][0]["file"].endswith("qa_gen.py")


def test_missing_config_exits_3(tmp_path):
    result = run_cli("render", "nope.py", cwd=tmp_path)
    assert result.code == 3
    assert "nope.py" in result.err


def test_warnings_go_to_stderr_unless_quiet(tmp_path):
    write_workspace(tmp_path)
    (tmp_path / "datasets" / "qa_gen.py").write_text(
        (tmp_path / "datasets" / "qa_gen.py").read_text().replace("Q: {question}", "Q: {question} {nothing}"))
    loud = run_cli("render", "eval.py", "-f", "text", "--model", "chat-lm", cwd=tmp_path)
    said = "warning: " + str(tmp_path / "datasets" / "qa_gen.py")  # a finding (PW202): located
    assert said in loud.err and "[qa × chat-lm] PW202 unfilled-placeholder" in loud.err and "{nothing}" in loud.err
    quiet = run_cli("render", "eval.py", "-f", "text", "--model", "chat-lm", "-q", cwd=tmp_path)
    assert "warning" not in quiet.err
    # JSON (the default format) says it on stderr too: a script's log must show a fallback
    as_json = run_cli("render", "eval.py", "--model", "chat-lm", cwd=tmp_path)
    assert said in as_json.err and "{nothing}" in as_json.out
    assert "warning" not in run_cli("render", "eval.py", "--model", "chat-lm", "-q", cwd=tmp_path).err


MULTI_TURN = '''\
from ais_bench.benchmark.openicl.icl_inferencer import MultiTurnGenInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import MultiTurnPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr='mt', path='rows.jsonl',
    reader_cfg=dict(input_columns=['question', 'answer'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=MultiTurnPromptTemplate, template=dict(round=[
            dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=MultiTurnGenInferencer, infer_mode='every_with_gt'),
    ),
)]
'''


@pytest.fixture(scope="module")
def late_failure(tmp_path_factory) -> Path:
    """Rows 0-9 render; row 10's answers are not a list, so rendering stops there."""
    root = tmp_path_factory.mktemp("late")
    (root / "eval.py").write_text(MULTI_TURN)
    rows = [{"question": [f"q{i}", "more?"], "answer": [f"a{i}", "yes"]} for i in range(30)]
    rows[10] = {"question": ["q10"], "answer": None}
    (root / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def test_a_pair_failing_part_way_keeps_what_rendered(late_failure):
    result = run_cli("render", "eval.py", cwd=late_failure)
    assert result.code == 3
    d = json.loads(result.out)
    assert [s["index"] for s in d["renders"][0]["samples"]] == list(range(10))
    assert "'answer' is NoneType" in d["errors"][0]["message"]
    assert "rendering stopped there" in d["errors"][0]["message"]
    assert "rendering stopped there" in result.err


@pytest.mark.parametrize("fmt", ["json", "text", "markdown"])
def test_jobs_stop_at_the_same_sample(late_failure, fmt, monkeypatch):
    monkeypatch.setattr(render_command, "serial_reason", lambda total, jobs: None)  # split this small render
    serial = run_cli("render", "eval.py", "-f", fmt, cwd=late_failure)
    parallel = run_cli("render", "eval.py", "-f", fmt, "--jobs", "2", cwd=late_failure)
    assert (parallel.code, parallel.out, parallel.err) == (serial.code, serial.out, serial.err)


def test_a_snapshot_failing_part_way_keeps_the_old_file(late_failure):
    snap = late_failure / "snaps" / "mt" / "_no-model.snap"
    snap.parent.mkdir(parents=True)
    snap.write_text("# prompt-workbench snapshot 1\n# dataset: \"mt\"\n# model: null\n")
    result = run_cli("snapshot", "eval.py", "--dir", "snaps", cwd=late_failure)
    assert result.code == 3
    assert "kept " in result.out
    assert snap.read_text().startswith("# prompt-workbench snapshot 1\n# dataset")
    assert run_cli("snapshot", "eval.py", "--dir", "snaps", "--sample", "0-9", cwd=late_failure).code == 0
    assert "=== sample 9 · turn 1 ===" in snap.read_text()


def test_headless_commands_import_neither_rich_nor_textual():
    import subprocess
    import sys

    code = ("import sys\n"
            "from workbench.commands import render, snapshot, diff\n"
            "from workbench.headless import (snapshot_format, snapshots, compare, render_diff, stream,\n"
            "    revisions, progress, stderr_report)\n"
            "from workbench.headless.formats import json_export, text_export, markdown_export\n"
            "from workbench.loading.files import atomic\n"
            "print(sorted({'rich', 'textual', 'watchfiles'} & {m.split('.')[0] for m in sys.modules}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"  # only --format html/svg load rich (and the views)


@pytest.mark.parametrize("command", [["render", "eval.py", "--limit", "1", "--quiet"],
                                     ["snapshot", "eval.py", "--dir", "snaps", "--quiet"]])
def test_the_first_config_is_asked_for_while_the_command_imports(ws, tmp_path, command):
    # render and snapshot ask the booting worker for their first config at once, so it runs on
    # the other CPU while the rest is imported; the load takes that answer, not a second one
    import subprocess
    import sys

    code = ("import sys, workbench.loading.workspace as w\n"
            "from workbench.cli import main\n"
            "status = main(sys.argv[1:])\n"
            "print('taken', w.shared_loader()._worker.early_taken, file=sys.stderr)\n"
            "sys.exit(status)")
    args = [a if a != "snaps" else str(tmp_path / "snaps") for a in command]
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ws, capture_output=True, text=True)
    assert done.returncode in (0, 3), done.stderr  # (the workspace has a pair that is an error)
    assert done.stderr.splitlines()[-1] == "taken 1"


def test_the_collector_waits_while_the_pairs_are_built_and_is_back_after(ws, tmp_path, monkeypatch):
    # what load and build make is kept to the end: collections then walk it in vain
    import gc

    seen = []
    real = render_command.load_and_render

    def spying(args):
        seen.append(gc.isenabled())
        return real(args)

    monkeypatch.setattr(render_command, "load_and_render", spying)
    assert gc.isenabled()
    monkeypatch.chdir(ws)
    assert render_command.run(["eval.py", "--limit", "1", "--quiet", "--out", str(tmp_path / "o.json")]) in (0, 3)
    assert seen == [False] and gc.isenabled()

    def failing(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(render_command, "load_and_render", failing)
    with pytest.raises(KeyboardInterrupt):
        render_command.run(["eval.py", "--quiet"])
    assert gc.isenabled()


GSM8K_LIKE = '''\
from opencompass.datasets import GSM8KDataset
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(abbr=abbr, type=GSM8KDataset, path=f'./data/{abbr}',
                 reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {question}'),
                                retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))
            for abbr in ('intact', 'broken')]
'''


def test_dataset_selection_narrows_the_errors_of_datasets_whose_rows_failed(tmp_path):
    (tmp_path / "suite.py").write_text(GSM8K_LIKE, encoding="utf-8")
    for abbr in ("intact", "broken"):
        (tmp_path / "data" / abbr).mkdir(parents=True)
        (tmp_path / "data" / abbr / "train.jsonl").write_text('{"question": "q", "answer": "a"}\n')
    (tmp_path / "data" / "intact" / "test.jsonl").write_text('{"question": "2+2?", "answer": "4"}\n')
    everything = run_cli("render", "suite.py", "-f", "text", cwd=tmp_path)
    assert everything.code == 3 and "[broken × no model]" in everything.err and "test.jsonl" in everything.err
    intact = run_cli("render", "suite.py", "-f", "text", "--dataset", "intact", cwd=tmp_path)
    assert (intact.code, intact.err) == (0, "") and "Q: 2+2?" in intact.out
    broken = run_cli("render", "suite.py", "--dataset", "bro*", cwd=tmp_path)
    assert broken.code == 3 and "[broken × no model]" in broken.err
    assert [e["dataset"] for e in json.loads(broken.out)["errors"]] == ["broken"]


QA_ONLY = '''{"datasets": [{"abbr": "qa", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
  "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": "Q: {question}\\nA:"},
                "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}}}]}
'''


@pytest.mark.parametrize("command", [("render",), ("snapshot", "--dir", "snaps"), ("diff", "qa.json")])
def test_a_load_error_outranks_a_filter_that_matches_nothing(tmp_path: Path, command: tuple[str, ...]) -> None:
    # the rows do not load, so the pair a --model glob could name was never made: the located
    # error is what is reported (status 3), and the glob's complaint a note beside it
    (tmp_path / "qa.json").write_text(QA_ONLY, encoding="utf-8")
    (tmp_path / "lm.json").write_text('{"models": [{"abbr": "lm", "type": "HuggingFaceCausalLM", "path": "x"}]}',
                                      encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text('{"question": "q", "answer": "a"}\n{bad\n', encoding="utf-8")
    name, *rest = command
    run = run_cli(name, "qa.json", *rest, "--data", "bad.jsonl", "--model", "x*", cwd=tmp_path)
    assert run.code == 3, run.err
    assert "bad.jsonl:2: [qa × no model] invalid JSON" in run.err
    note = f"workbench {name}: note: --model 'x*' matches no model (there are: none), where the load had errors"
    assert note in run.err
    # the workspace's models are named even when no pair was made
    with_model = run_cli(name, "qa.json", *rest, "--data", "bad.jsonl", "--models", "lm.json", "--model", "x*",
                         cwd=tmp_path)
    assert with_model.code == 3
    assert "--model 'x*' matches no model (there are: lm), where the load had errors" in with_model.err
    assert "error: --model" not in run.err
    # a glob the load's errors cannot explain (qa is there, and its error is not selected) stays
    # a usage error
    other = run_cli(name, "qa.json", *rest, "--data", "bad.jsonl", "--dataset", "x*", cwd=tmp_path)
    assert other.code == 2
    assert other.err.strip().endswith("error: --dataset 'x*' matches no dataset (there are: qa)")
