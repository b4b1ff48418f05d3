"""``extract`` against OpenCompass 0.5.4's own evaluation task on the same run folder
(tests/headless/fixture/extract_runs, written by tools/gen_extract_runs.py): shipped GSM8K,
MMLU-Pro, CMMLU, MATH, BBH and ARC-c eval configs over adversarial predictions, a non-API model
with a meta template (pred_role) and an API one, one dataset in partial files. Per sample the
`extracted`, `gold` and `correct` values and per pair the figure must be what the task computed;
a pair the task failed on must be an error, not a pair."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.headless.extract_run import extract_run, load_config

FIXTURE = Path(__file__).parent / "fixture" / "extract_runs"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def document():
    run = FIXTURE / "run"
    config = next((run / "configs").glob("*.py"))
    return extract_run(run, load_config(str(config), 30.0))


def _pairs(document):
    return {f"{p['dataset']} × {p['model']}": p for p in document["pairs"] if p["error"] is None}


def test_every_pair_the_task_scored_is_extracted_and_every_failure_flagged(document):
    scored = {k for k, v in EXPECTED.items() if "raises" not in v}
    failed = {k for k, v in EXPECTED.items() if "raises" in v}
    assert set(_pairs(document)) == scored
    assert {f"{e['dataset']} × {e['model']}" for e in document["errors"]} == failed
    assert {f"{p['dataset']} × {p['model']}" for p in document["pairs"] if p["error"]} == failed
    assert failed and all(e["kind"] == "fails" for e in document["errors"])


@pytest.mark.parametrize("key", sorted(k for k, v in EXPECTED.items() if "raises" not in v))
def test_samples_are_what_the_task_computed(document, key):
    pair, expected = _pairs(document)[key], EXPECTED[key]
    assert [s["extracted"] for s in pair["samples"]] == expected["extracted"]
    assert [s["gold"] for s in pair["samples"]] == expected["gold"]
    assert [s["correct"] for s in pair["samples"]] == expected["correct"]
    assert pair["metric"] == expected["metric"]
    assert pair["accuracy"] == expected["accuracy"]  # the same float, last digit included
    assert [s["index"] for s in pair["samples"]] == [str(i) for i in range(len(expected["gold"]))]


def test_the_failing_pair_names_its_sample_and_line(document):
    error = next(e for e in document["errors"] if e["dataset"] == "gsm8k_nohash")
    assert error["sample"] == "1" and error["stage"] == "eval_cfg.dataset_postprocessor"
    assert error["file"].endswith("gsm8k_nohash.json") and error["line"] == 7
    assert "IndexError" in error["message"] and "####" in error["hint"]


def test_quirks_are_said(document):
    text = "\n".join(document["warnings"])
    assert "'1,234' is extracted as '234'" in text
    assert "extract_role_pred strips nothing" in text  # arc_c / bbh: pred_role with a non-API model
    assert "[arc_c × api] eval_cfg.pred_role" not in text  # an API model: the task skips the role


def test_the_pattern_that_matched_is_on_the_prediction_s_own_characters(document):
    matched = 0
    for pair in _pairs(document).values():
        for sample in pair["samples"]:
            match = sample["match"]
            if match is None:
                continue
            assert match["stage"].endswith("pred_postprocessor") and match["rule"]
            if match["span"] is not None:
                start, end = match["span"]
                assert sample["prediction"][start:end] == match["matched"]
                matched += 1
    assert matched > 40
    mmlu = _pairs(document)["mmlu_pro × api"]["samples"]
    assert mmlu[3]["extracted"] == "L" or mmlu[3]["match"]["matched"].lower().startswith("answer")
