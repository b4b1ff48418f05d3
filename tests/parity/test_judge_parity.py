"""The LLM judge's requests (``--judge``) against the real evaluators' (tools/gen_judge_goldens.py).

Each golden case is a shipped OpenCompass config (copied under ``data/judge_configs/``) whose
evaluator the real ``GenericLLMEvaluator`` / ``CascadeEvaluator`` ran over the rows in
``data/`` and fixed predictions, with the fallback judge built from ``OC_JUDGE_*``; every
request the judge model was handed is recorded. The workbench renders the same judge pair
from the same config, rows and predictions, and must hand the judge the same messages.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.judge import OPENAI_SDK
from workbench.core.lazy_pairs import render_workspace
from workbench.core.spec import ModelSpec
from workbench.loading.judges import judge_abbr
from workbench.loading.workspace import Loader

DATA = Path(__file__).parent / "data"
GOLDENS = json.loads((DATA / "judge_goldens.json").read_text(encoding="utf-8"))
JUDGED = "judged-model"


def _render(case: dict, monkeypatch: pytest.MonkeyPatch):
    for name, value in GOLDENS["env"].items():
        monkeypatch.setenv(name, value)
    config = DATA / "judge_configs" / Path(case["config"]).name
    loader = Loader(isolate=False, code_cache=None)
    workspace = loader.load([config], data=[str(DATA / case["rows"])])
    assert not workspace.errors
    workspace.models.append(ModelSpec(JUDGED, {"abbr": JUDGED, "type": OPENAI_SDK, "path": "m"}))
    predictions = case["predictions"]

    def lookup(dataset: str, model: str | None, index: int, turn: int) -> str | None:
        ok = dataset == case["dataset"] and model == JUDGED and turn == 0
        return predictions[index] if ok and index < len(predictions) else None

    loader.add_judges(workspace, predictions=lookup, data=[str(DATA / case["rows"])])
    assert not workspace.errors
    result = render_workspace(workspace.datasets, workspace.models, judges=workspace.judges)
    key = (judge_abbr(case["dataset"], JUDGED), case["judge"])
    assert result.judged[key] == (case["dataset"], JUDGED)
    return next(p for p in result.pairs if (p.dataset_abbr, p.model_abbr) == key), result


@pytest.mark.parametrize("case", GOLDENS["cases"], ids=lambda c: c["name"])
def test_the_judge_is_handed_what_the_real_evaluator_hands_it(case, monkeypatch):
    pair, _ = _render(case, monkeypatch)
    assert len(pair) == len(case["requests"])
    for index, sent in enumerate(case["requests"]):
        (request,) = pair.sample(index).requests
        assert request.model_input == sent["model_input"], f"sample {index}"
        assert pair.dataset.cfg["infer_cfg"]["inferencer"]["max_out_len"] == sent["max_out_len"]


def test_before_a_run_the_prediction_is_a_visible_placeholder(monkeypatch):
    case = GOLDENS["cases"][0]
    for name, value in GOLDENS["env"].items():
        monkeypatch.setenv(name, value)
    loader = Loader(isolate=False, code_cache=None)
    workspace = loader.load([DATA / "judge_configs" / Path(case["config"]).name], data=[str(DATA / case["rows"])])
    loader.add_judges(workspace, data=[str(DATA / case["rows"])])
    result = render_workspace(workspace.datasets, workspace.models, judges=workspace.judges)
    key = (judge_abbr(case["dataset"], None), GOLDENS["env"]["OC_JUDGE_MODEL"])
    pair = next(p for p in result.pairs if (p.dataset_abbr, p.model_abbr) == key)
    (request,) = pair.sample(0).requests
    text = request.model_input[0]["prompt"]
    assert "<Predicted Answer Begin>: \n‹prediction›\n<Predicted End>" in text
    assert result.judged[key] == (case["dataset"], None)


def test_without_oc_judge_model_the_render_says_the_real_run_fails(monkeypatch):
    case = GOLDENS["cases"][0]
    for name in GOLDENS["env"]:
        monkeypatch.delenv(name, raising=False)
    loader = Loader(isolate=False, code_cache=None)
    workspace = loader.load([DATA / "judge_configs" / Path(case["config"]).name], data=[str(DATA / case["rows"])])
    loader.add_judges(workspace, data=[str(DATA / case["rows"])])
    assert [w for w in workspace.warnings if "OC_JUDGE_MODEL, which is not set" in w]
    assert [w for w in workspace.warnings if "OC_JUDGE_API_KEY, which is not set" in w]
    assert [j.model.abbr for j in workspace.judges] == ["OC_JUDGE_MODEL"]
