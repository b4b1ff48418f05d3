"""The native answer postprocessors and equivalences against what OpenCompass 0.5.4's own
functions returned for the same inputs (tests/core/answers/goldens.json, written by
tools/gen_answer_goldens.py): the value and its type, or the exception's type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.answers.catalog import NATIVE
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
