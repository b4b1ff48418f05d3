"""``general_cn_postprocess`` natively, with jieba (the ``chinese`` extra): what OpenCompass 0.5.4's
own function returned on Chinese outputs (tests/headless/goldens_general_cn.json, written by
tools/gen_answer_goldens.py); through extract; and, without jieba, a refusal naming the extra."""

from __future__ import annotations

import builtins
import json
from importlib.metadata import version
from pathlib import Path

import pytest

from workbench.core.answers.catalog import SEGMENTED, Unresolved
from workbench.core.answers.chain import extract_pair, plan_pair
from workbench.loading import chinese_segmenter
from workbench.loading.chinese_segmenter import jieba_segmenter

GOLDENS = json.loads((Path(__file__).parent / "goldens_general_cn.json").read_text(encoding="utf-8"))
GENERAL_CN = "opencompass.utils.text_postprocessors.general_cn_postprocess"


def _typed(function, *args, **kwargs):
    try:
        value = function(*args, **kwargs)
    except Exception as exc:
        return {"raises": type(exc).__name__}
    return {"type": type(value).__name__, "value": value}


def test_the_goldens_were_made_with_the_jieba_installed():
    assert GOLDENS["jieba"] == version("jieba") and len(GOLDENS["texts"]) > 200


def test_general_cn_is_the_real_function_on_every_golden_output():
    segment = jieba_segmenter()
    wrong = [(text, expected) for text, expected in zip(GOLDENS["texts"], GOLDENS["results"], strict=True)
             if _typed(SEGMENTED[GENERAL_CN], text, segment=segment) != expected]
    assert wrong == []
    assert {"raises": "TypeError"} in GOLDENS["results"]  # None, as the real one's re.split raises


def _plan(**kwargs):
    dataset = {"reader_cfg": {"output_column": "answer"},
               "eval_cfg": {"evaluator": {"type": "opencompass.openicl.icl_evaluator.BleuEvaluator"},
                            "pred_postprocessor": {"type": "general_cn"}}}
    return plan_pair(dataset, {"abbr": "m"}, **kwargs)


def test_the_chain_segments_by_its_registry_key_and_warns_the_cleaning_is_thrown_away():
    plan = _plan(segmenter=jieba_segmenter)
    (sample,) = extract_pair(plan, [("0", {"prediction": "答案是北京。The answer, really.", "gold": "北京"})]).samples
    assert sample.extracted == "答案 是 北京 。 The   answer ,   really ."
    assert sample.correct is None and any("throws it away" in w for w in plan.warnings)


def test_without_jieba_it_is_refused_naming_the_extra(monkeypatch):
    real_import = builtins.__import__

    def no_jieba(name, *args, **kwargs):
        if name == "jieba":
            raise ImportError("No module named 'jieba'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_jieba)
    monkeypatch.setattr(chinese_segmenter, "jieba_segmenter", chinese_segmenter.jieba_segmenter.__wrapped__)
    with pytest.raises(Unresolved) as raised:
        _plan(segmenter=chinese_segmenter.jieba_segmenter)
    assert "jieba, which is not installed" in raised.value.message
    assert "pip install jieba==0.42.1 (the chinese extra" in raised.value.hint
    with pytest.raises(Unresolved):  # no segmenter handed at all: the same refusal
        _plan()
