"""The plain evaluators of OpenCompass 0.5.4: each sample's verdict and the score as the
evaluation task reports it (the float arithmetic in the evaluator's own order, so the last digit
agrees). Any other evaluator is named and left to the framework (``correct: null``).

- ``AccEvaluator``: ``str(pred) == str(gold)`` (it maps both through ``str`` to label ids);
  ``accuracy`` = correct / total * 100.
- ``AccwithDetailsEvaluator``, ``BBHEvaluator_mcq``: ``pred == gold``.
- ``Gsm8kEvaluator``: equal, or ``abs(float(pred) - int(gold)) < 1e-6`` (errors are False).
- ``EMEvaluator``: ``general_postprocess`` on the prediction and on each item of the reference
  (a string reference is iterated by character, and the prediction matches as a substring of it:
  an empty extraction is then always correct); ``score``.
- ``MATHEvaluator``: :func:`~.math_answers.math_equivalent` (``version`` v1 or v2).

May import: the standard library and the rewrites beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .math_answers import math_equivalent
from .text_postprocessors import general_postprocess


def _acc(pred: Any, gold: Any) -> bool:
    return str(pred) == str(gold)


def _equal(pred: Any, gold: Any) -> bool:
    return bool(pred == gold)


def _gsm8k(pred: Any, gold: Any) -> bool:
    try:
        return bool(pred == gold or abs(float(pred) - int(gold)) < 1e-6)
    except Exception:  # as Gsm8kEvaluator.is_equal: any error is "not equal"
        return False


def _em(pred: Any, gold: Any) -> bool:
    processed = [general_postprocess(item) for item in gold]
    pred = general_postprocess(pred)
    return pred in processed or pred in gold


def _ratio_times_100(correct: int, total: int) -> float:
    return correct / total * 100


def _100_times_ratio(correct: int, total: int) -> float:
    return 100 * correct / total


@dataclass(frozen=True)
class PlainEvaluator:
    """One evaluator's verdict and score; ``kwargs`` the config keys its constructor takes."""

    name: str
    metric: str
    verdict: Callable[[Any, Any], bool]
    score: Callable[[int, int], float]
    kwargs: frozenset[str]


_PRED = frozenset({"pred_postprocessor"})
PLAIN: Mapping[str, PlainEvaluator] = {
    e.name: e for e in (
        PlainEvaluator("AccEvaluator", "accuracy", _acc, _ratio_times_100, _PRED),
        PlainEvaluator("AccwithDetailsEvaluator", "accuracy", _equal, _ratio_times_100, _PRED),
        PlainEvaluator("Gsm8kEvaluator", "accuracy", _gsm8k, _100_times_ratio, _PRED),
        PlainEvaluator("EMEvaluator", "score", _em, _ratio_times_100, frozenset()),
        PlainEvaluator("BBHEvaluator_mcq", "score", _equal, _ratio_times_100, _PRED),
        PlainEvaluator("MATHEvaluator", "accuracy", _equal, _100_times_ratio, _PRED | {"version"}),
    )
}


def math_verdict(version: str) -> Callable[[Any, Any], bool]:
    def verdict(pred: Any, gold: Any) -> bool:
        return math_equivalent(pred, gold, version)

    return verdict


def plain_evaluator(cfg: Mapping[str, Any]) -> PlainEvaluator | None:
    """The plain evaluator an ``evaluator`` dict names (by class name, dotted or not), with its
    ``version`` applied; None for any other."""
    written = cfg.get("type")
    if not isinstance(written, str):
        return None
    found = PLAIN.get(written.rsplit(".", 1)[-1])
    if found is not None and found.name == "MATHEvaluator":
        version = cfg.get("version", "v1")
        found = PlainEvaluator(found.name, found.metric, math_verdict(str(version)), found.score,
                               found.kwargs)
    return found
