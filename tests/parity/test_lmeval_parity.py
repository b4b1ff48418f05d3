"""lm-eval tasks rendered by the workbench against the Instances lm-eval 0.4.13 builds itself.

The goldens (tests/parity/lmeval/goldens, written by tools/gen_lmeval_goldens.py with the real
lm_eval package) hold every Instance's doc id, index and arguments; each request of the
workbench's render must carry the same context and continuation (or ``until``), byte for byte,
in the same order, and a case where lm-eval raises must be an error here.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from workbench.core.lmeval.prompt import Options
from workbench.loading.config.worker import ConfigWorker
from workbench.loading.lmeval_tasks import chat_path, render_tasks

HERE = Path(__file__).parent / "lmeval"


def _cases() -> list[dict]:
    spec = importlib.util.spec_from_file_location("lmeval_cases", HERE / "cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


CASES = _cases()


@pytest.fixture(scope="module")
def config_worker():
    running = ConfigWorker()
    yield running
    running.close()


def _render(case: dict, config_worker: ConfigWorker):
    chat = chat_path(str(HERE / case["chat"])) if case["chat"] else None
    options = Options(num_fewshot=case["num_fewshot"], system_instruction=case["system"], chat=chat,
                      fewshot_as_multiturn=bool(case["multiturn"]))
    data = [f"{split}={HERE / file}" for split, file in case["data"].items()]
    [task] = render_tasks([str(HERE / case["task"])], data, options, case["num_fewshot"],
                          config_worker=config_worker)
    return task


def _flat(task) -> list[dict]:
    out = []
    for sample in task.samples:
        for idx, request in enumerate(sample.requests):
            if request.until is not None:
                arguments = [request.model_input, {"until": request.until}]
            elif task.output_type == "loglikelihood_rolling":
                arguments = [request.model_input]
            else:
                arguments = [request.model_input, request.continuation]
            out.append({"doc_id": sample.index, "idx": idx, "arguments": arguments})
    return out


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_requests_match_lm_eval(case, config_worker):
    """Through the config worker, as the command runs them (the tasks' code isolated)."""
    golden = json.loads((HERE / "goldens" / f"{case['name']}.json").read_text())
    task = _render(case, config_worker)
    if "error" in golden:
        assert task.error is not None, f"lm-eval raises {golden['error']}, the workbench rendered"
        assert "lm-eval raises" in task.error.message
        return
    assert task.error is None, task.error.located()
    got = _flat(task)
    assert len(got) == len(golden["requests"])
    for mine, theirs in zip(got, golden["requests"]):
        assert mine == theirs


def test_goldens_cover_every_case():
    names = {p.stem for p in (HERE / "goldens").glob("*.json")}
    assert names == {c["name"] for c in CASES}
