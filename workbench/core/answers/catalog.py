"""A config's postprocessor ``type`` to the native rewrite of what OpenCompass 0.5.4 would call.

OpenCompass resolves a string ``type`` with ``TEXT_POSTPROCESSORS.get``: a name without a dot
is a registry key (``'gsm8k'``, ``'first-capital'``); a dotted name is imported
(``'opencompass.datasets.gsm8k_postprocess'``, which is how a run's dumped config writes a
function). A key the registry does not hold, or a path that does not import, gives None, and
the task fails at the first call ("'NoneType' object is not callable"): :func:`resolve` says so
as a refusal with the name, as for a function the workbench has no rewrite of.

The registry's keys and the paths each function can be imported by are generated from the real
registry (``data/text_postprocessors.json``, written by ``tools/gen_answer_goldens.py``).

May import: the standard library, ``workbench.core.errors``, ``workbench.core.extras``,
``workbench.core.package_data`` and the rewrites (and ``trace``) beside it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..errors import WorkbenchError
from ..extras import install_hint
from ..package_data import package_text
from . import dataset_postprocessors as dp
from . import math_answers as ma
from . import text_postprocessors as tp
from .trace import Traced

_TEXT = "opencompass.utils.text_postprocessors."
_DATA = "opencompass.datasets."

#: The real function's own dotted path (module.qualname) -> its rewrite.
NATIVE: Mapping[str, Callable[..., Any]] = {
    _TEXT + "general_postprocess": tp.general_postprocess,
    _TEXT + "first_capital_postprocess": tp.first_capital_postprocess,
    _TEXT + "last_capital_postprocess": tp.last_capital_postprocess,
    _TEXT + "think_pred_postprocess": tp.think_pred_postprocess,
    _TEXT + "first_option_postprocess": tp.first_option_postprocess,
    _TEXT + "first_capital_postprocess_multi": tp.first_capital_postprocess_multi,
    _TEXT + "last_option_postprocess": tp.last_option_postprocess,
    _TEXT + "first_number_postprocess": tp.first_number_postprocess,
    _TEXT + "multiple_select_postprocess": tp.multiple_select_postprocess,
    _TEXT + "xml_tag_postprocessor": tp.xml_tag_postprocessor,
    _TEXT + "match_answer_pattern": tp.match_answer_pattern,
    _TEXT + "extract_non_reasoning_content": tp.extract_non_reasoning_content,
    _DATA + "gsm8k.gsm8k_postprocess": dp.gsm8k_postprocess,
    _DATA + "gsm8k.gsm8k_dataset_postprocess": dp.gsm8k_dataset_postprocess,
    _DATA + "math.math_postprocess": ma.math_postprocess,
    _DATA + "math.math_postprocess_v2": ma.math_postprocess_v2,
    _DATA + "bbh.bbh_mcq_postprocess": dp.bbh_mcq_postprocess,
    _DATA + "bbh.bbh_freeform_postprocess": dp.bbh_freeform_postprocess,
    _DATA + "needlebench.origin.needlebench_postprocess": dp.identity,
    _DATA + "needlebench.origin.needlebench_dataset_postprocess": dp.identity,
    _DATA + "needlebench_v2.origin.needlebench_postprocess": dp.identity,
    _DATA + "needlebench_v2.origin.needlebench_dataset_postprocess": dp.identity,
    _DATA + "needlebench_v2.atc_elder_only.needlebench_atc_postprocess_v2": dp.needlebench_atc_postprocess_v2,
    _DATA + "infinitebench.utils.InfiniteBench_first_number_postprocess":
        dp.infinitebench_first_number_postprocess,
    _DATA + "mathbench.mathbench_postprocess": dp.mathbench_postprocess,
    _DATA + "strategyqa.strategyqa_pred_postprocess": dp.strategyqa_pred_postprocess,
    _DATA + "strategyqa.strategyqa_dataset_postprocess": dp.strategyqa_dataset_postprocess,
    _DATA + "TheoremQA.legacy.TheoremQA_postprocess": dp.theoremqa_postprocess,
    _DATA + "TheoremQA.legacy.TheoremQA_postprocess_v2": dp.theoremqa_postprocess_v2,
    _DATA + "humaneval.humaneval_postprocess_v2": dp.humaneval_postprocess_v2,
    _DATA + "humaneval.humaneval_postprocess_v3": dp.humaneval_postprocess_v3,
}

#: The rewrites that compute their value through a trace (the rule that matched, the span it read,
#: where a cut value sits in its input), by the same dotted paths as :data:`NATIVE`.
TRACED: Mapping[str, Callable[..., Traced]] = {
    _TEXT + "first_capital_postprocess": tp.trace_first_capital,
    _TEXT + "last_capital_postprocess": tp.trace_last_capital,
    _TEXT + "think_pred_postprocess": tp.trace_think_pred,
    _TEXT + "first_option_postprocess": tp.trace_first_option,
    _TEXT + "first_capital_postprocess_multi": tp.trace_first_capital_multi,
    _TEXT + "last_option_postprocess": tp.trace_last_option,
    _TEXT + "first_number_postprocess": tp.trace_first_number,
    _TEXT + "xml_tag_postprocessor": tp.trace_xml_tag,
    _TEXT + "match_answer_pattern": tp.trace_match_answer_pattern,
    _TEXT + "extract_non_reasoning_content": tp.trace_non_reasoning,
    _DATA + "gsm8k.gsm8k_postprocess": dp.trace_gsm8k,
    _DATA + "math.math_postprocess": ma.trace_math_postprocess,
    _DATA + "math.math_postprocess_v2": ma.trace_math_postprocess_v2,
    _DATA + "bbh.bbh_mcq_postprocess": dp.trace_bbh_mcq,
    _DATA + "needlebench_v2.atc_elder_only.needlebench_atc_postprocess_v2": dp.trace_needlebench_atc_v2,
    _DATA + "infinitebench.utils.InfiniteBench_first_number_postprocess": dp.trace_infinitebench_first_number,
    _DATA + "TheoremQA.legacy.TheoremQA_postprocess": dp.trace_theoremqa,
    _DATA + "humaneval.humaneval_postprocess_v2": dp.trace_humaneval_v2,
    _DATA + "humaneval.humaneval_postprocess_v3": dp.trace_humaneval_v3,
}
#: Traced rewrites that cut the text without matching an answer (a ``<think>`` block removed): they
#: say where their value sits, never a rule, so the rule a later step matched is placed through them.
CUTTERS = frozenset({_TEXT + "extract_non_reasoning_content"})

#: Rewrites that need a word segmenter (jieba), handed to them as ``segment``: the chain binds it
#: when the front end has one (the ``chinese`` extra), else the function is not rewritten here.
SEGMENTED: Mapping[str, Callable[..., Any]] = {_TEXT + "general_cn_postprocess": tp.general_cn_postprocess}

#: What a rewrite's use means for a score, said once per pair that uses it (the real function's
#: own behaviour, not the workbench's).
QUIRKS: Mapping[str, str] = {
    _TEXT + "first_option_postprocess": (
        "first_option_postprocess (OpenCompass 0.5.4) misses a comma after its '故选' pattern, so "
        "that pattern and the next ('只有选项…是对') only match together (OpenCompass PR #2600); and "
        "its '(?i)ANSWER\\s*:' and '1.\\s?(.*?)$' patterns read an option letter out of words "
        "(\"Answer: Let's think step by step\" gives 'L' when L is an option, #1933): check "
        "`extracted` against the predictions"),
    _TEXT + "general_cn_postprocess": (
        "general_cn_postprocess (OpenCompass 0.5.4) cleans the first clause (as general_postprocess) and "
        "then throws it away: it returns the whole output segmented by jieba, punctuation, later lines "
        "and English articles included, so the evaluator compares the full answer's words"),
    _DATA + "gsm8k.gsm8k_postprocess": (
        "gsm8k_postprocess takes the last number before 'Question:' and reads no thousands "
        "separator: '1,234' is extracted as '234' (and '$29.00' as '29.00', which Gsm8kEvaluator "
        "still equals 29); a prediction that ends with another number is scored by that number"),
}


@dataclass(frozen=True)
class Resolved:
    """A postprocessor ``type`` resolved as OpenCompass would: ``path`` the function it means."""

    written: str
    path: str
    function: Callable[..., Any]
    #: The same function's trace (:data:`TRACED`), None for a rewrite with no notion of a match.
    traced: Callable[..., Traced] | None = None


class Unresolved(WorkbenchError):
    """A ``type`` with no rewrite: the framework scores it (the message names the function)."""


class NeedsSegmenter(Unresolved):
    """A rewrite that needs a word segmenter (:data:`SEGMENTED`); ``path`` is the function's."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path.rsplit('.', 1)[-1]} segments Chinese with jieba, which is not installed: "
                         "the framework scores it", hint=install_hint("chinese"))
        self.path = path


class RealFailure(Unresolved):
    """A ``type`` the real task fails on (it calls None): the pair's evaluation fails there too."""


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(package_text("answers", "data", "text_postprocessors.json"))
    return data


def registry_keys() -> Mapping[str, str]:
    """``TEXT_POSTPROCESSORS``'s keys -> the function's dotted path (module.qualname)."""
    keys: Mapping[str, str] = _table()["registry"]
    return keys


def _imported(path: str) -> str:
    """The function a dotted path imports (its own dotted path; the path itself when unknown)."""
    aliases: Mapping[str, str] = _table()["import_paths"]
    return aliases.get(path, path)


def resolve(written: object) -> Resolved:
    """The function ``TEXT_POSTPROCESSORS.get(written)`` returns, as its rewrite.

    Raises RealFailure when the real task would call None, NeedsSegmenter for a rewrite that needs
    a segmenter, Unresolved when there is no rewrite."""
    if not isinstance(written, str):
        raise RealFailure(f"postprocessor type {written!r} is not a name: OpenCompass's registry "
                         "takes a string (the run's dumped config writes functions as dotted names)")
    if "." not in written:
        path = registry_keys().get(written)
        if path is None:
            hint = None
            close = [k for k, v in registry_keys().items() if v.rsplit(".", 1)[-1] == written]
            full = [p for p in NATIVE if p.rsplit(".", 1)[-1] == written]
            if close:
                hint = f"it is registered as {close[0]!r}"
            elif full:
                hint = f"import the function, or write its dotted path '{full[0]}'"
            raise RealFailure(
                f"{written!r} is not a TEXT_POSTPROCESSORS key in OpenCompass 0.5.4: the registry gives "
                "None and the evaluation fails with \"'NoneType' object is not callable\"", hint=hint)
    else:
        path = _imported(written)
    if path in SEGMENTED:
        raise NeedsSegmenter(path)
    function = NATIVE.get(path)
    if function is None:
        raise Unresolved(f"no native rewrite of {written!r}: the framework scores it",
                         hint="docs/answers.md lists the postprocessors extract rewrites")
    return Resolved(written, path, function, TRACED.get(path))
