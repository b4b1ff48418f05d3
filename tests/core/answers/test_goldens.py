"""The native answer postprocessors and equivalences against what OpenCompass 0.5.4's own
functions returned for the same inputs (tests/core/answers/goldens.json, written by
tools/gen_answer_goldens.py): the value and its type, or the exception's type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.answers.catalog import NATIVE
from workbench.core.answers.evaluators import PLAIN
from workbench.core.answers.math_answers import math_equivalent

GOLDENS = json.loads((Path(__file__).parent / "goldens.json").read_text(encoding="utf-8"))


def _typed(function, *args, **kwargs):
    try:
        value = function(*args, **kwargs)
    except Exception as exc:
        return {"raises": type(exc).__name__}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"type": type(value).__name__, "value": value}
    return {"type": type(value).__name__, "value": repr(value)}


def test_goldens_cover_every_rewrite_on_hundreds_of_outputs():
    assert {case["function"] for case in GOLDENS["cases"]} == set(NATIVE)
    assert len(GOLDENS["texts"]) >= 500


@pytest.mark.parametrize("case", GOLDENS["cases"],
                         ids=lambda c: c["function"].rsplit(".", 1)[-1] + json.dumps(c["kwargs"]))
def test_rewrite_returns_what_the_real_function_returned(case):
    function = NATIVE[case["function"]]
    wrong = [(text, expected, _typed(function, text, **case["kwargs"]))
             for text, expected in zip(GOLDENS["texts"], case["results"], strict=True)
             if _typed(function, text, **case["kwargs"]) != expected]
    assert wrong == []


@pytest.mark.parametrize("block", GOLDENS["math_equiv"], ids=lambda b: b["version"])
def test_math_equivalence_is_the_real_is_equiv(block):
    wrong = [(pred, ref, expected) for pred, ref, expected in block["results"]
             if _typed(math_equivalent, pred, ref, block["version"]) != expected]
    assert wrong == []


def test_gsm8k_equality_is_the_real_is_equal():
    verdict = PLAIN["Gsm8kEvaluator"].verdict
    wrong = [(pred, ref, expected) for pred, ref, expected in GOLDENS["gsm8k_is_equal"]
             if _typed(verdict, pred, ref) != expected]
    assert wrong == [] and len(GOLDENS["gsm8k_is_equal"]) > 100


def test_em_reads_a_string_reference_by_character():
    verdict = PLAIN["EMEvaluator"].verdict
    assert verdict("", "Paris") is True  # '' is a substring of every string reference
    assert verdict("The Paris", ["paris", "Paris"]) is True  # general_postprocess drops the article
    assert verdict("Rome", ["Paris"]) is False


def _said(function, *args, **kwargs):
    """:func:`_typed`, with the exception's message."""
    try:
        function(*args, **kwargs)
    except Exception as exc:
        return {"raises": type(exc).__name__, "message": str(exc)}
    return _typed(function, *args, **kwargs)


@pytest.mark.parametrize("case", GOLDENS["cases"],
                         ids=lambda c: c["function"].rsplit(".", 1)[-1] + json.dumps(c["kwargs"]))
def test_a_prediction_that_is_not_a_string_fails_as_the_real_one_fails(case):
    """None, a number, a list of turns, an object: the same exception and message (the pair's error
    quotes it), or the same value."""
    function = NATIVE[case["function"]]
    for odd, expected in zip(GOLDENS["odd_inputs"], case["odd_results"], strict=True):
        assert _said(function, odd, **case["kwargs"]) == expected, odd
