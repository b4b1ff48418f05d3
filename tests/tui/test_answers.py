"""The answers view (``v`` with ``--run``): raw output → extracted → gold → verdict, the wrong-only
filter (``V``), and the judge's prompt of an LLM-judged dataset."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from workbench.tui.app import create_app
from workbench.tui.session import Inputs

from .conftest import pane_text, press, settle

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[1]
EXTRACT_RUN = ROOT / "headless" / "fixture" / "extract_runs"
PARITY = ROOT / "parity" / "data"


@pytest.fixture
def in_folder(tmp_path):
    old = Path.cwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(old)


async def test_v_shows_extracted_gold_and_verdict_and_V_steps_through_the_wrong(in_folder):
    shutil.copytree(EXTRACT_RUN / "run", in_folder / "run")
    inputs = Inputs(configs=("run/configs/20261127_120000_4242.py",), run="run")
    app = create_app(inputs, watch=False, deterministic=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert (app.selection.dataset, app.selection.model) == ("gsm8k", "hf-chat")
        await press(pilot, "v")
        text = pane_text(app, "final-input")
        assert "extracted '72'" in text and "gold      '72'" in text and "✔ correct" in text
        assert "accuracy 64.29 · 5 wrong of 14 · Gsm8kEvaluator" in text
        assert "reads no thousands separator" in text  # the postprocessor's bug, said
        await press(pilot, "V")
        assert app.wrong_only
        await press(pilot, "n")
        assert app.selection.sample == 1  # '1,234' read as '234'
        text = pane_text(app, "final-input")
        assert "extracted '234'" in text and "gold      '1234'" in text and "✘ wrong" in text
        await press(pilot, "n")  # no wrong answer after it among the rows shown: stays
        assert app.selection.sample == 1
        await press(pilot, "V", "n")
        assert not app.wrong_only and app.selection.sample == 0  # every sample again (wraps)


async def test_v_shows_the_judge_s_prompt_filled_with_the_run_s_prediction(in_folder, monkeypatch):
    monkeypatch.setenv("OC_JUDGE_MODEL", "judge-7b")
    monkeypatch.setenv("OC_JUDGE_API_KEY", "sk-never-shown")
    shutil.copy(PARITY / "judge_configs" / "judge_columns.py", "eval.py")
    shutil.copy(PARITY / "judge_rows_qa.jsonl", "rows.jsonl")
    Path("models.py").write_text(
        "from opencompass.models import OpenAISDK\n"
        "api = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)])\n"
        "models = [dict(abbr='m', type=OpenAISDK, path='gpt-x', key='k', meta_template=api)]\n", encoding="utf-8")
    folder = Path("run/predictions/m")
    folder.mkdir(parents=True)
    Path("run/configs").mkdir()  # the config the run saved: the datasets and the model
    saved = Path("eval.py").read_text(encoding="utf-8") + Path("models.py").read_text(encoding="utf-8")
    Path("run/configs/20260101_000000_1.py").write_text(saved, encoding="utf-8")
    records = {str(i): {"origin_prompt": "q", "prediction": f"answer {i}", "gold": "g"} for i in range(3)}
    for dataset in ("columns-generic", "columns-cascade"):
        (folder / f"{dataset}.json").write_text(json.dumps(records), encoding="utf-8")
    inputs = Inputs(configs=("eval.py",), data=("rows.jsonl",), models=("models.py",), run="run")
    app = create_app(inputs, watch=False, deterministic=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await press(pilot, "v")
        text = pane_text(app, "final-input")
        assert "the judge's prompt · my-judge · columns-generic@judge+m" in text
        assert "Pred: answer 0" in text and "blanks {reference}" in text
        # the run's config scores it with an LLM judge: no verdict of the workbench's
        assert "GenericLLMEvaluator: not a plain evaluator, the framework scores it" in text
        await press(pilot, "d", "n")
        text = pane_text(app, "final-input")
        assert "the judge's prompt · judge-7b · columns-cascade@judge+m" in text
        assert "Pred: answer 1" in text


ANSWERS_RUN = ROOT / "tui" / "fixtures" / "answers_run"


def _highlighted(app) -> list[str]:
    """The pieces of the final-input pane drawn in the palette's `matched` style."""
    from rich.console import Console

    console = Console(width=160, color_system="truecolor", file=open(os.devnull, "w"))  # noqa: SIM115
    matched = app.options.palette.style("matched")
    pieces = [s.text for s in console.render(app.frame.final_input) if s.style and matched.bgcolor
              and s.style.bgcolor == matched.bgcolor]
    console.file.close()
    return pieces


async def test_v_shows_the_rule_that_matched_and_highlights_what_it_read(in_folder):
    shutil.copytree(ANSWERS_RUN / "run", in_folder / "run")
    shutil.copytree(ANSWERS_RUN / "data", in_folder / "data")
    inputs = Inputs(configs=("run/configs/20261127_120000_4242.py",), run="run")
    app = create_app(inputs, watch=False, deterministic=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await press(pilot, "v")
        text = pane_text(app, "final-input")
        # through the model's extract_non_reasoning_content: placed on the raw output's own characters
        assert "matched   'ANSWER: C' at 42–51 · match_answer_pattern (eval_cfg.pred_postprocessor)" in text
        assert r"(?i)ANSWER\s*:\s*([A-P])" in text and "✔ correct" in text
        assert _highlighted(app) == ["ANSWER: C", "'ANSWER: C'"]  # in the raw output, and the row
        await press(pilot, "V", "n")
        assert app.wrong_only and app.selection.sample == 1
        text = pane_text(app, "final-input")
        assert "extracted 'L'" in text and "matched   'Answer: L' at 0–9" in text and "✘ wrong" in text
        assert _highlighted(app) == ["Answer: L", "'Answer: L'"]
        await press(pilot, "n")
        assert app.selection.sample == 2  # the <think> block said ANSWER: B, but it is removed first
        text = pane_text(app, "final-input")
        assert "extracted ''" in text and "(no rule matched" in text and _highlighted(app) == []
        await press(pilot, "p")
        assert app.selection.sample == 1  # back, through the wrong ones only
        await press(pilot, "V", "p")
        assert not app.wrong_only and app.selection.sample == 0  # every sample again
