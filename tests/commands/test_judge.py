"""``--judge``: the LLM judge's request as one more pair in render, snapshot and diff.

What the judge is handed is checked against the real evaluators in
tests/parity/test_judge_parity.py; here: that the option is opt-in, what the JSON contract
and snapshot files say about a judge pair, ``--run`` and ``--judge-model``, and the refusals.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.commands import render as render_command

DATA = Path(__file__).parent.parent / "parity" / "data"
ENV = {"OC_JUDGE_MODEL": "judge-7b", "OC_JUDGE_API_KEY": "sk-never-shown"}
MODELS = """\
from opencompass.models import OpenAISDK
api = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)])
models = [dict(abbr='{abbr}', type=OpenAISDK, path='{path}', key='k', meta_template=api)]
"""


@pytest.fixture
def ws(tmp_path, monkeypatch) -> Path:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    shutil.copy(DATA / "judge_configs" / "judge_columns.py", tmp_path / "eval.py")
    shutil.copy(DATA / "judge_rows_qa.jsonl", tmp_path / "rows.jsonl")
    (tmp_path / "models.py").write_text(MODELS.format(abbr="m", path="gpt-x"), encoding="utf-8")
    (tmp_path / "judge.py").write_text(MODELS.format(abbr="named-judge", path="grader"), encoding="utf-8")
    run = tmp_path / "run" / "predictions" / "m"
    run.mkdir(parents=True)
    records = {str(i): {"origin_prompt": "q", "prediction": f"answer {i}", "gold": "g"} for i in range(3)}
    (run / "columns-generic.json").write_text(json.dumps(records), encoding="utf-8")
    return tmp_path


def _doc(ws: Path, *args: str) -> dict:
    done = run_cli("render", "eval.py", "--data", "rows.jsonl", "--models", "models.py", *args, cwd=ws)
    assert done.code == 0, done.err
    return json.loads(done.out)


def _prompt(render: dict, sample: int = 0) -> str:
    return "".join(m["prompt"] for m in render["samples"][sample]["requests"][0]["model_input"])


def test_without_judge_nothing_changes(ws):
    doc = _doc(ws)
    assert [(r["dataset"], r["model"]) for r in doc["renders"]] == [("columns-generic", "m"),
                                                                    ("columns-cascade", "m")]
    assert not any("role" in r or "judges" in r for r in doc["renders"])


def test_judge_pairs_follow_the_models_own_and_say_what_they_judge(ws):
    doc = _doc(ws, "--judge")
    judges = [r for r in doc["renders"] if r.get("role") == "judge"]
    assert [(r["dataset"], r["model"], r["judges"]) for r in judges] == [
        ("columns-generic@judge", "my-judge", {"dataset": "columns-generic", "model": None}),
        ("columns-cascade@judge", "judge-7b", {"dataset": "columns-cascade", "model": None}),
    ]
    assert [r["dataset"] for r in doc["renders"][:2]] == ["columns-generic", "columns-cascade"]
    assert all(r["model_kind"] == "api" and r["inferencer"] == "GenInferencer" for r in judges)
    # before a run: the prediction is a visible placeholder, the gold the row's
    assert "Gold: 7\nRef: \nPred: ‹prediction›\n" in _prompt(judges[0])
    wire = judges[1]["samples"][0]["requests"][0]["wire"]
    assert wire["body"]["model"] == "judge-7b" and "sk-never-shown" not in json.dumps(doc)
    blanked = [w for w in doc["warnings"] if "blanks {reference}" in w["message"]]
    assert {a["dataset"] for w in blanked for a in w["applies_to"]} == {"columns-generic@judge",
                                                                       "columns-cascade@judge"}


def test_with_a_run_each_model_s_predictions_fill_its_judge_pair(ws):
    doc = _doc(ws, "--judge", "--run", "run", "--dataset", "columns-generic*")
    (judge,) = [r for r in doc["renders"] if r.get("role") == "judge"]
    assert (judge["dataset"], judge["judges"]) == ("columns-generic@judge+m",
                                                   {"dataset": "columns-generic", "model": "m"})
    assert [_prompt(judge, i).split("Pred: ")[1] for i in range(3)] == [f"answer {i}\nVerdict?" for i in range(3)]
    # the cascade dataset has no predictions in the run: said once, nothing rendered for it
    done = run_cli("render", "eval.py", "--data", "rows.jsonl", "--models", "models.py", "--judge", "--run",
                   "run", cwd=ws)
    assert "columns-cascade: the run recorded no predictions for it" in done.err


def test_judge_model_names_the_judge(ws):
    doc = _doc(ws, "--judge-model", "judge.py")
    judges = [(r["dataset"], r["model"]) for r in doc["renders"] if r.get("role") == "judge"]
    assert judges == [("columns-generic@judge", "named-judge"), ("columns-cascade@judge", "named-judge")]


def test_an_unset_oc_judge_model_is_the_real_run_failing(ws, monkeypatch):
    monkeypatch.delenv("OC_JUDGE_MODEL")
    done = run_cli("render", "eval.py", "--data", "rows.jsonl", "--judge", "--strict", "--quiet", cwd=ws)
    assert done.code == 3
    assert "builds its judge from OC_JUDGE_MODEL, which is not set" in done.err


def test_an_evaluator_the_framework_cannot_build_is_a_located_error(ws):
    text = (ws / "eval.py").read_text(encoding="utf-8")
    (ws / "eval.py").write_text(text.replace("dataset_cfg=dataset_cfg, judge_cfg=own_judge",
                                             "judge_cfg=own_judge"), encoding="utf-8")
    done = run_cli("render", "eval.py", "--data", "rows.jsonl", "--judge", "-f", "json", cwd=ws)
    assert done.code == 3
    doc = json.loads(done.out)
    (error,) = doc["errors"]
    assert "GenericLLMEvaluator asserts 'dataset_cfg is None'" in error["message"]
    assert error["file"].endswith("eval.py") and error["line"] is not None
    assert ("columns-cascade@judge", "judge-7b") in [(r["dataset"], r["model"]) for r in doc["renders"]]


def test_jobs_render_judge_pairs_as_one_process_does(ws, monkeypatch):
    monkeypatch.setattr(render_command, "serial_reason", lambda total, jobs: None)
    serial = run_cli("render", "eval.py", "--data", "rows.jsonl", "--judge", cwd=ws)
    parallel = run_cli("render", "eval.py", "--data", "rows.jsonl", "--judge", "--jobs", "2", cwd=ws)
    assert parallel.out == serial.out and parallel.code == serial.code == 0


def test_snapshots_of_judges_are_opt_in_both_ways(ws):
    args = ("eval.py", "--data", "rows.jsonl", "--dir", "snaps", "-q")
    assert run_cli("snapshot", *args, "--judge", cwd=ws).code == 0
    judge_file = ws / "snaps" / "columns-generic@judge" / "my-judge.snap"
    head = judge_file.read_text(encoding="utf-8").splitlines()[:5]
    assert head[3:] == ['# role: "judge"', '# judges: {"dataset": "columns-generic", "model": null}']
    # without --judge the judges' files are neither checked nor removed
    assert run_cli("snapshot", *args, "--check", cwd=ws).code == 0
    assert run_cli("snapshot", *args, cwd=ws).code == 0
    assert judge_file.exists()
    assert run_cli("snapshot", *args, "--judge", "--check", cwd=ws).code == 0
    # a change to the judge's template fails the judge's check only
    text = (ws / "eval.py").read_text(encoding="utf-8")
    (ws / "eval.py").write_text(text.replace("Verdict?", "Verdict:"), encoding="utf-8")
    assert run_cli("snapshot", *args, "--check", cwd=ws).code == 0
    failed = run_cli("snapshot", *args, "--judge", "--check", cwd=ws)
    assert failed.code == 1 and "my-judge.snap: differs from the render" in failed.err + failed.out


def test_diff_shows_a_judge_template_change(ws):
    shutil.copy(ws / "eval.py", ws / "old.py")
    text = (ws / "eval.py").read_text(encoding="utf-8")
    (ws / "eval.py").write_text(text.replace("Verdict?", "Verdict:"), encoding="utf-8")
    done = run_cli("diff", "old.py", "eval.py", "--data", "rows.jsonl", "--judge", cwd=ws)
    assert done.code == 1
    assert "columns-generic@judge × my-judge" in done.out and "Verdict:" in done.out
    assert run_cli("diff", "old.py", "eval.py", "--data", "rows.jsonl", cwd=ws).code == 0


def test_replicas_are_judged_one_after_another(ws):
    text = (ws / "eval.py").read_text(encoding="utf-8")
    (ws / "eval.py").write_text(text.replace("abbr='columns-generic', type=GSM8KDataset,",
                                             "abbr='columns-generic', n=2, type=GSM8KDataset,"), encoding="utf-8")
    done = run_cli("render", "eval.py", "--data", "rows.jsonl", "--judge", "--dataset", "columns-generic*", cwd=ws)
    assert done.code == 0, done.err
    doc = json.loads(done.out)
    (judge,) = [r for r in doc["renders"] if r.get("role") == "judge"]
    assert len(judge["samples"]) == 6
    assert _prompt(judge, 3) == _prompt(judge, 0)  # replica 1 starts over the same rows
    assert any("n=2 replicas: the evaluator judges each replica apart" in w["message"] for w in doc["warnings"])
