"""lm-eval tasks rendered by the workbench against the Instances lm-eval 0.4.13 builds itself.

The goldens (tests/parity/lmeval/goldens, written by tools/gen_lmeval_goldens.py with the real
lm_eval package) hold every Instance's doc id, index and arguments; each request of the
workbench's render must carry the same context and continuation (or ``until``), byte for byte,
in the same order, and a case where lm-eval raises must be an error here. A case without
``multiturn`` is a default run (lm-eval's command line decides it): its options go through the
same settings every command uses, and the default cases also through ``workbench render`` itself.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.loading.config.worker import ConfigWorker
from workbench.loading.lmeval_settings import TaskSettings, parse_seed
from workbench.loading.lmeval_tasks import render_tasks

HERE = Path(__file__).parent / "lmeval"


def _cases():
    spec = importlib.util.spec_from_file_location("lmeval_cases", HERE / "cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = _cases().CASES
DEFAULTS = _cases().DEFAULTS


@pytest.fixture(scope="module")
def config_worker():
    running = ConfigWorker()
    yield running
    running.close()


def _render(case: dict, config_worker: ConfigWorker) -> list:
    """The case's tasks (``task``, then ``also``), rendered together as one run."""
    settings = TaskSettings(num_fewshot=case["num_fewshot"], system_instruction=case["system"],
                            apply_chat_template=case["chat"] is not None,
                            fewshot_as_multiturn=case["multiturn"],
                            seeds=parse_seed(case["seed"]) if "seed" in case else None)
    options = settings.options(str(HERE / case["chat"]) if case["chat"] else None)
    data = [f"{split}={HERE / file}" for split, file in case["data"].items()]
    paths = [str(HERE / path) for path in (case["task"], *case.get("also", ()))]
    return render_tasks(paths, data, options, case["num_fewshot"], config_worker=config_worker)


def _flat(task, named: bool = False) -> list[dict]:
    out = []
    for sample in task.samples:
        for idx, request in enumerate(sample.requests):
            if request.until is not None:
                arguments = [request.model_input, {"until": request.until}]
            elif task.output_type == "loglikelihood_rolling":
                arguments = [request.model_input]
            else:
                arguments = [request.model_input, request.continuation]
            out.append({**({"task": task.name} if named else {}), "doc_id": sample.index, "idx": idx,
                        "arguments": arguments})
    return out


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_requests_match_lm_eval(case, config_worker):
    """Through the config worker, as the command runs them (the tasks' code isolated)."""
    golden = json.loads((HERE / "goldens" / f"{case['name']}.json").read_text())
    tasks = _render(case, config_worker)
    if "error" in golden:
        [task] = tasks
        assert task.error is not None, f"lm-eval raises {golden['error']}, the workbench rendered"
        assert "lm-eval raises" in task.error.message
        return
    for task in tasks:
        assert task.error is None, task.error.located()
    got = [request for task in tasks for request in _flat(task, named="also" in case)]
    assert len(got) == len(golden["requests"])
    for mine, theirs in zip(got, golden["requests"]):
        assert mine == theirs


def _argv(case: dict) -> list[str]:
    argv = [str(HERE / case["task"])]
    for split, file in case["data"].items():
        argv += ["--data", f"{split}={HERE / file}"]
    if case["num_fewshot"] is not None:
        argv += ["--num-fewshot", str(case["num_fewshot"])]
    if case["chat"]:
        argv += ["--apply-chat-template", "--chat-template", str(HERE / case["chat"])]
    if case["multiturn"] is not None:
        argv += ["--fewshot-as-multiturn", str(case["multiturn"]).lower()]
    if case["system"]:
        argv += ["--system-instruction", case["system"]]
    return argv


@pytest.mark.parametrize("case", DEFAULTS, ids=[c["name"] for c in DEFAULTS])
def test_a_default_chat_run_through_the_command_line(case):
    """``workbench render TASK --apply-chat-template --chat-template DIR`` sends what a default
    ``lm_eval --apply_chat_template`` run sends: the shots as turns."""
    golden = json.loads((HERE / "goldens" / f"{case['name']}.json").read_text())["requests"]
    run = run_cli("render", *_argv(case))
    assert run.code == 0, run.err
    [render] = json.loads(run.out)["renders"]
    rolling = render["inferencer"] == "loglikelihood_rolling"  # (the text scored, alone)
    got = [{"doc_id": s["index"], "idx": i,
            "arguments": [r["model_input"]] if rolling else
            [r["model_input"], {"until": r["until"]} if "until" in r else r["continuation"]]}
           for s in render["samples"] for i, r in enumerate(s["requests"])]
    assert got == golden


def test_goldens_cover_every_case():
    names = {p.stem for p in (HERE / "goldens").glob("*.json")}
    assert names == {c["name"] for c in CASES}
