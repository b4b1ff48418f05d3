"""``workbench compare``'s two sides equal what the real frameworks send: the goldens of
tests/parity/compare/goldens/ were made by tools/gen_compare_goldens.py with OpenCompass 0.5.4
(the shipped config through its OpenICLInferTask, then HuggingFacewithChatTemplate's
apply_chat_template call) and lm-eval 0.4.13 (the shipped task YAML through build_all_requests and
HFLM's chat-template call), for the same rows in each framework's layout and one chat template."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

HERE = Path(__file__).resolve().parent
GOLDENS = HERE / "compare" / "goldens"
ROWS = HERE / "lmeval" / "shipped"
CHATML = HERE / "lmeval" / "chat" / "chatml"
COMPARE_ROWS = HERE / "compare" / "rows"

CASES = {
    "gsm8k": ["gsm8k", "--data", f"test={ROWS / 'gsm8k' / 'test.jsonl'}",
              "--data", f"train={ROWS / 'gsm8k' / 'train.jsonl'}"],
    "mmlu_anatomy": ["mmlu", "--subject", "anatomy", "--data", f"test={ROWS / 'mmlu' / 'test.jsonl'}",
                     "--data", f"dev={ROWS / 'mmlu' / 'dev.jsonl'}"],
    # OpenCompass's ARCDataset skips a question without four choices: that row is lm-eval's only
    "arc": ["arc", "--data", f"test={ROWS / 'arc' / 'test.jsonl'}", "--data", f"train={ROWS / 'arc' / 'train.jsonl'}"],
    # OpenCompass's FixKRetriever takes train rows 0-9: the compare's own rows, in lm-eval's layout
    "hellaswag": ["hellaswag", "--data", f"validation={COMPARE_ROWS / 'hellaswag' / 'validation.jsonl'}",
                  "--data", f"train={COMPARE_ROWS / 'hellaswag' / 'train.jsonl'}"],
    # lm-eval's shots are the YAML's fixed samples: the test split is all either side reads
    **{f"bbh_{subject}": ["bbh", "--subject", subject,
                          "--data", f"test={COMPARE_ROWS / 'bbh' / f'{subject}_test.jsonl'}"]
       for subject in ("boolean_expressions", "date_understanding")},
    # OpenCompass reads every subject as one dataset: its geometry row is on its side only
    "math_algebra": ["math", "--subject", "algebra", "--data", f"test={COMPARE_ROWS / 'math' / 'algebra_test.jsonl'}",
                     "--data", f"train={COMPARE_ROWS / 'math' / 'algebra_train.jsonl'}"],
    # OpenCompass reads the release's parquet files (compare/oc_data), both keep biology's rows
    "mmlu_pro_biology": ["mmlu_pro", "--subject", "biology",
                         "--data", f"test={COMPARE_ROWS / 'mmlu_pro' / 'test.jsonl'}",
                         "--data", f"validation={COMPARE_ROWS / 'mmlu_pro' / 'validation.jsonl'}"],
    # lm-eval's choices shuffled as its default run draws them (random.seed(0)), OpenCompass's rotated
    "gpqa_diamond": ["gpqa", "--data", f"train={COMPARE_ROWS / 'gpqa' / 'train.jsonl'}"],
    "ceval_accountant": ["ceval", "--subject", "accountant",
                         "--data", f"val={COMPARE_ROWS / 'ceval' / 'accountant_val.jsonl'}",
                         "--data", f"dev={COMPARE_ROWS / 'ceval' / 'accountant_dev.jsonl'}"],
    "cmmlu_agronomy": ["cmmlu", "--data", f"test={COMPARE_ROWS / 'cmmlu' / 'agronomy_test.jsonl'}",
                       "--data", f"dev={COMPARE_ROWS / 'cmmlu' / 'agronomy_dev.jsonl'}"],
}
CASES["mmlu_anatomy-2shot"] = [*CASES["mmlu_anatomy"], "--num-fewshot", "2"]
CASES["ceval_accountant-5shot"] = [*CASES["ceval_accountant"], "--num-fewshot", "5"]
#: without --chat-template: plain text on both sides (a base model, lm-eval's delimiters in the text)
PLAIN = {f"{name}-plain": CASES[name] for name in ("mmlu_anatomy-2shot", "arc", "hellaswag")}
CASES.update(PLAIN)
#: the rows compare lines up (OpenCompass's index, lm-eval's doc id) where they are not (i, i) for
#: every OpenCompass row: ARC's first lm-eval row and MATH's last OpenCompass row are on one side only
PAIRS = {"arc": [(0, 1), (1, 2)], "arc-plain": [(0, 1), (1, 2)], "math_algebra": [(0, 0), (1, 1), (2, 2)]}


def _golden(case: str, side: str) -> dict:
    return json.loads((GOLDENS / f"{case}.{side}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", sorted(CASES))
def test_both_sides_equal_the_frameworks(case, monkeypatch):
    # OpenCompass reads its own layout (data/gsm8k/*.jsonl, data/mmlu/*/anatomy_*.csv, ...) as it finds it
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(HERE / "compare" / "oc_data"))
    chat = [] if case in PLAIN else ["--chat-template", str(CHATML)]
    run = run_cli("compare", *CASES[case], *chat, "--format", "json")
    doc = json.loads(run.out)
    assert doc["errors"] == [], doc["errors"]
    oc, lm = _golden(case, "opencompass"), _golden(case, "lm-eval")
    assert [s["dataset"] for s in doc["sides"]] == [oc["dataset"], lm["task"]]
    assert [s["rows"] for s in doc["sides"]] == [len(oc["rows"]), len(lm["rows"])]
    both = [(r["sides"][0]["index"], r["sides"][1]["index"]) for r in doc["rows"] if all(r["sides"])]
    assert both == PAIRS.get(case, [(i, i) for i in range(len(oc["rows"]))])
    # rows by position are said once, by the mapping's note
    by_position = [n for n in doc["notes"] if "align by position" in n or "aligned by position" in n]
    assert len(by_position) == case.startswith("hellaswag")
    # each side's rows, wherever the alignment put them, are the framework's, and all of them are there
    for at, golden in enumerate((oc, lm)):
        ours = {row["sides"][at]["index"]: row["sides"][at] for row in doc["rows"] if row["sides"][at]}
        assert sorted(ours) == [row["index"] for row in golden["rows"]]
        for row in golden["rows"]:
            mine = ours[row["index"]]
            assert mine["final"] == row["final"]
            if "messages" in row:
                assert mine["messages"] == row["messages"]
            if "continuations" in row:
                assert mine["continuations"] == row["continuations"]
