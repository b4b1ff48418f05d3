"""The rule that matched: each traced rewrite gives the real function's value (the goldens), a
span inside the text it read, and, for a cut value, runs that spell the value; through a chain
of steps the span lands on the recorded prediction's own characters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.answers.catalog import CUTTERS, NATIVE, TRACED
from workbench.core.answers.chain import extract_pair, plan_pair
from workbench.core.answers.trace import compose, place, whole

from .test_goldens import _typed as typed

GOLDENS = json.loads((Path(__file__).parent / "goldens.json").read_text(encoding="utf-8"))
TRACED_CASES = [c for c in GOLDENS["cases"] if c["function"] in TRACED]


def _typed(trace, *args, **kwargs):
    return typed(lambda *a, **k: trace(*a, **k).value, *args, **kwargs)


def test_every_trace_is_of_a_rewrite_and_every_goldens_case_of_it_is_run():
    assert set(TRACED) <= set(NATIVE) and set(TRACED) >= CUTTERS
    assert {c["function"] for c in TRACED_CASES} == set(TRACED)


@pytest.mark.parametrize("case", TRACED_CASES,
                         ids=lambda c: c["function"].rsplit(".", 1)[-1] + json.dumps(c["kwargs"]))
def test_a_trace_s_value_is_the_real_function_s(case):
    trace = TRACED[case["function"]]
    wrong = [(text, expected) for text, expected in zip(GOLDENS["texts"], case["results"], strict=True)
             if _typed(trace, text, **case["kwargs"]) != expected]
    assert wrong == []


@pytest.mark.parametrize("case", TRACED_CASES,
                         ids=lambda c: c["function"].rsplit(".", 1)[-1] + json.dumps(c["kwargs"]))
def test_spans_lie_in_the_text_and_sources_spell_the_value(case):
    trace, matched = TRACED[case["function"]], 0
    for text, expected in zip(GOLDENS["texts"], case["results"], strict=True):
        if "raises" in expected:
            continue
        traced = trace(text, **case["kwargs"])
        assert (traced.rule is None) == (traced.span is None)
        if traced.span is not None:
            start, end = traced.span
            assert 0 <= start <= end <= len(text)
            matched += 1
        if traced.source is not None:
            assert "".join(text[t:t + n] for _, t, n in traced.source) == traced.value
            assert [v for v, _, _ in traced.source] == sorted(v for v, _, _ in traced.source)
    is_cutter = case["function"] in CUTTERS
    assert (matched == 0) == is_cutter  # a cutter never names a rule; every matcher matches somewhere


def test_the_pattern_that_read_an_option_out_of_words_is_named():
    traced = TRACED["opencompass.utils.text_postprocessors.first_option_postprocess"](
        "  Answer: Let's think step by step.", options="ABCDEFGHIJKLMNOP")
    assert traced.value == "L" and traced.rule == r"(?i)ANSWER\s*:\s*([ABCDEFGHIJKLMNOP])"
    assert traced.span == (2, 11)  # in the text as given, before the function's strip


def test_the_missing_comma_s_joined_pattern_is_the_one_named():
    first_option = TRACED["opencompass.utils.text_postprocessors.first_option_postprocess"]
    assert first_option("故选D", options="ABCD").rule == r"选择?\s*([ABCD])"  # an earlier pattern reads it
    traced = first_option("故D只有选项A是对", options="ABCD")
    assert traced.value == "D" and traced.rule.startswith(r"故选?\s*([ABCD])只有选?项?")


def test_a_span_is_placed_only_where_its_characters_sit_side_by_side():
    runs = compose(whole("ab<x>cd"), ((0, 0, 2), (2, 5, 2)))  # "abcd": "<x>" removed
    assert place(runs, (0, 2)) == (0, 2) and place(runs, (2, 4)) == (5, 7)
    assert place(runs, (1, 3)) is None  # "bc" straddles the removed part
    assert place(runs, (4, 4)) == (7, 7) and place(runs, (3, 3)) == (6, 6)  # empty: where it sits
    assert place(runs, (5, 6)) is None and place(whole(""), (0, 0)) == (0, 0)


def _pair(*steps):
    eval_cfg = {"evaluator": {"type": "AccEvaluator"}}
    model = {"abbr": "m", "type": "opencompass.models.OpenAISDK"}
    if len(steps) == 2:
        model["pred_postprocessor"] = steps[0]
    eval_cfg["pred_postprocessor"] = steps[-1]
    return plan_pair({"reader_cfg": {"output_column": "answer"}, "eval_cfg": eval_cfg}, model)


THINK = {"type": "opencompass.utils.text_postprocessors.extract_non_reasoning_content"}
OPTION = {"type": "opencompass.utils.text_postprocessors.first_option_postprocess", "options": "ABCD"}


@pytest.mark.parametrize("prediction", [
    "<think>\nA or B?\n</think>\n\nThe answer is (C).",
    "reasoning about B</think>   ANSWER: D",
    "Before <think>A?</think> after: the answer is B",
    "  \n The answer is A  ",
])
def test_through_a_cut_the_span_lands_on_the_prediction(prediction):
    (sample,) = extract_pair(_pair(THINK, OPTION), [("0", {"prediction": prediction, "gold": "C"})]).samples
    match = sample.match
    assert match["stage"] == "eval_cfg.pred_postprocessor" and match["function"] == "first_option_postprocess"
    start, end = match["span"]
    assert prediction[start:end] == match["matched"] and sample.extracted in match["matched"]


def test_a_span_in_a_rewritten_text_is_not_placed_but_still_said():
    general = {"type": "opencompass.utils.text_postprocessors.general_postprocess"}
    (sample,) = extract_pair(_pair(general, OPTION), [("0", {"prediction": "the answer is (B), yes",
                                                               "gold": "B"})]).samples
    assert sample.extracted == "B" and sample.match["span"] is None and sample.match["matched"] == " B"


def test_nothing_matched_or_no_notion_of_a_match_is_null():
    (none,) = extract_pair(_pair(OPTION), [("0", {"prediction": "no idea", "gold": "B"})]).samples
    general = {"type": "opencompass.utils.text_postprocessors.general_postprocess"}
    (plain,) = extract_pair(_pair(general), [("0", {"prediction": "B", "gold": "B"})]).samples
    assert none.match is None and plain.match is None and plain.correct is True
