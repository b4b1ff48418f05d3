"""One (dataset, model) pair's recorded predictions through OpenCompass 0.5.4's evaluation order
(``tasks/openicl_eval.py``), natively:

1. the reference: ``eval_cfg.dataset_postprocessor`` on each ``gold`` (the task does this first,
   over the test set's output column; here the predictions' ``gold``, which the inference task
   copied from that column);
2. ``pred_role``, only when ``eval_cfg`` has it, the model config has a ``meta_template`` and its
   class is not an API model: ``extract_role_pred`` with the role's begin and end. It strips
   nothing (its ``re.match(r'\\s*', begin) is None`` test is never true), which is reproduced and
   said;
3. the model's ``pred_postprocessor``; 4. ``eval_cfg.pred_postprocessor``; 5. the evaluator's own
   ``pred_postprocessor`` (``BaseEvaluator.evaluate``) — each ``type`` resolved as
   ``TEXT_POSTPROCESSORS.get`` does, the other keys passed as keyword arguments;
6. the verdicts and the score of a plain evaluator (:mod:`.evaluators`).

Where the real task raises, the pair fails here too (:class:`PairFailure`, naming the step and
the sample); a function with no rewrite is a refusal (:class:`~.catalog.Unresolved`). Call
:func:`plan_pair` once per pair and :func:`extract_pair` on its records; both are pure.

May import: the standard library, ``workbench.core.errors``, ``workbench.core.models`` and the
modules beside it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..errors import WorkbenchError
from ..models.model_classes import lookup_model_class
from .catalog import CUTTERS, QUIRKS, SEGMENTED, NeedsSegmenter, RealFailure, Unresolved, resolve
from .evaluators import PlainEvaluator, plain_evaluator
from .text_postprocessors import Segment
from .trace import Runs, Traced, compose, place, whole

EXTRACT_ROLE_PRED_BUG = (
    "eval_cfg.pred_role={role!r}: OpenCompass 0.5.4's extract_role_pred strips nothing (its "
    "`re.match(r'\\s*', begin) is None` test is never true), so {what} in every prediction "
    "the postprocessors read: expect it in `extracted`, or strip it in a pred_postprocessor")


EM_STRING_REFERENCE = (
    "EMEvaluator iterates each reference as a list of answers: a string reference is iterated by "
    "character, and the prediction also counts as correct when it is a substring of it (an empty "
    "extraction is always correct); give references as lists")


class PairFailure(WorkbenchError):
    """The real evaluation task fails on this pair; ``sample`` is the record it failed at (its
    predictions file key) and ``stage`` the step (``eval_cfg.pred_postprocessor``...)."""

    def __init__(self, message: str, *, stage: str, sample: str | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.stage = stage
        self.sample = sample


@dataclass(frozen=True)
class Step:
    """One postprocessor as the task applies it: ``function(text, **kwargs)`` on every text; or,
    for a function with no rewrite, ``batch(texts)`` (the framework's own, asked once for them
    all: see :data:`Fallback`)."""

    stage: str
    written: str
    path: str
    function: Callable[..., Any] | None
    kwargs: Mapping[str, Any]
    batch: Callable[[Sequence[Any]], list[Any]] | None = None
    #: The rewrite's trace (``catalog.TRACED``): the same value, with the rule that matched.
    traced: Callable[..., Traced] | None = None


class StepRaised(Exception):
    """Raised by a ``batch``: the real function raised on the text at ``position``."""

    def __init__(self, position: int, detail: str) -> None:
        super().__init__(detail)
        self.position = position
        self.detail = detail


#: Given (stage, the type as written, kwargs) of a function with no rewrite, a ``batch`` that
#: applies the framework's own function to a list of texts (raising StepRaised where it raises),
#: or Unresolved when the framework cannot be asked.
Fallback = Callable[[str, str, Mapping[str, Any]], Callable[[Sequence[Any]], list[Any]]]

#: Gives the word segmenter a rewrite needs (jieba's, built once), or raises Unresolved saying
#: what to install.
Segmenter = Callable[[], Segment]


@dataclass(frozen=True)
class PairPlan:
    """What :func:`plan_pair` found in the configs: the steps, the evaluator, and the warnings
    (framework quirks that change what is extracted)."""

    pred_steps: tuple[Step, ...]
    gold_step: Step | None
    evaluator: PlainEvaluator | None
    evaluator_name: str | None
    #: Why there is no verdict (not a plain evaluator, no references...); None when there is.
    unscored: str | None
    warnings: tuple[str, ...] = ()


@dataclass
class SampleAnswer:
    index: str
    prediction: Any
    extracted: Any
    gold: Any
    correct: bool | None
    #: The rule of the last matching step that produced ``extracted`` (:func:`match_of`); None
    #: where that step has no notion of a match, or nothing matched.
    match: dict[str, Any] | None = None


@dataclass
class PairAnswers:
    samples: list[SampleAnswer] = field(default_factory=list)
    #: The evaluator's headline figure as the task reports it (``accuracy`` or ``score``).
    accuracy: float | None = None
    metric: str | None = None


def _step(stage: str, cfg: Any, fallback: Fallback | None = None, segmenter: Segmenter | None = None) -> Step:
    if not isinstance(cfg, Mapping):
        raise PairFailure(f"{stage} must be a dict with a `type`, got {type(cfg).__name__}", stage=stage)
    kwargs = dict(copy.deepcopy(cfg))
    if "type" not in kwargs:
        raise PairFailure(f"{stage} has no `type`: the task's kwargs.pop('type') raises KeyError",
                          stage=stage, hint="type='gsm8k' (a TEXT_POSTPROCESSORS key) or a function")
    written = kwargs.pop("type")
    try:
        try:
            found = resolve(written)
        except NeedsSegmenter as needs:
            if segmenter is None:
                raise
            segment = segmenter()  # Unresolved when jieba is not installed: as if there were no rewrite
            bound = partial(SEGMENTED[needs.path], segment=segment)
            return Step(stage, str(written), needs.path, bound, kwargs)
    except RealFailure as exc:
        raise PairFailure(f"{stage}: {exc.message}", stage=stage, hint=exc.hint) from exc
    except Unresolved as exc:
        if fallback is None:
            raise Unresolved(f"{stage}: {exc.message}", hint=exc.hint) from exc
        try:
            batch = fallback(stage, str(written), kwargs)
        except Unresolved as unavailable:
            raise Unresolved(f"{stage}: {exc.message}; {unavailable.message}", hint=unavailable.hint) from exc
        return Step(stage, str(written), str(written), None, kwargs, batch)
    return Step(stage, str(written), found.path, found.function, kwargs, traced=found.traced)


def _role_bounds(meta: Any, role: Any) -> tuple[str, str]:
    """``LMTemplateParser(meta).roles[role]``'s begin and end, failing where it fails."""
    stage = "eval_cfg.pred_role"
    if not meta:
        raise PairFailure("the model's meta_template is empty: LMTemplateParser has no roles, and the "
                          "task's parser.roles raises AttributeError", stage=stage)
    if not isinstance(meta, Mapping) or not isinstance(meta.get("round"), list):
        raise PairFailure("the model's meta_template has no `round` list: LMTemplateParser asserts",
                          stage=stage)
    roles: dict[Any, Mapping[str, Any]] = {}
    for key in ("round", "reserved_roles"):
        for item in meta.get(key) or ():
            if isinstance(item, Mapping):
                roles[item.get("role")] = item
    if role not in roles:
        raise PairFailure(f"pred_role {role!r} is not a role of the model's meta_template "
                          f"({', '.join(map(str, roles)) or 'none'}): the task raises KeyError", stage=stage)

    def text(value: Any) -> str:
        if isinstance(value, list):  # special tokens as ids: what matters is that there are some
            return "".join(v if isinstance(v, str) else f"<{v}>" for v in value)
        return value if isinstance(value, str) else ""

    return text(roles[role].get("begin", "")), text(roles[role].get("end", ""))


def plan_pair(dataset: Mapping[str, Any], model: Mapping[str, Any],
              fallback: Fallback | None = None, segmenter: Segmenter | None = None) -> PairPlan:
    """The chain for one pair, from the dataset's and the model's config dicts; ``fallback``
    stands in for a function with no rewrite (the framework route), if given; ``segmenter``
    gives the word segmenter ``general_cn_postprocess`` needs.

    Raises PairFailure where the real task would fail before reading a prediction, Unresolved
    where a step has no rewrite (and no fallback)."""
    eval_cfg = dataset.get("eval_cfg")
    if not isinstance(eval_cfg, Mapping):
        raise PairFailure("the dataset has no eval_cfg: OpenCompass's evaluation task fails on it "
                          "(`'dataset_postprocessor' in None`)", stage="eval_cfg",
                          hint="give the dataset eval_cfg=dict(evaluator=dict(type=...), ...)")
    reader = dataset.get("reader_cfg")
    if not isinstance(reader, Mapping) or "output_column" not in reader:
        raise PairFailure("reader_cfg has no output_column: the task's reader_cfg['output_column'] raises "
                          "KeyError", stage="reader_cfg")
    warnings: list[str] = []
    make = partial(_step, fallback=fallback, segmenter=segmenter)
    gold_step = (make("eval_cfg.dataset_postprocessor", eval_cfg["dataset_postprocessor"])
                 if "dataset_postprocessor" in eval_cfg else None)
    steps: list[Step] = []
    if "pred_role" in eval_cfg and "meta_template" in model:
        warnings += _pred_role(eval_cfg["pred_role"], model)
    if "pred_postprocessor" in model:
        steps.append(make("model.pred_postprocessor", model["pred_postprocessor"]))
    if "pred_postprocessor" in eval_cfg:
        steps.append(make("eval_cfg.pred_postprocessor", eval_cfg["pred_postprocessor"]))
    evaluator_cfg = eval_cfg.get("evaluator") or {}
    evaluator = plain_evaluator(evaluator_cfg) if isinstance(evaluator_cfg, Mapping) else None
    name = evaluator_cfg.get("type") if isinstance(evaluator_cfg, Mapping) else None
    unscored = None
    if evaluator is not None:
        extra = set(evaluator_cfg) - {"type"} - evaluator.kwargs
        if extra:
            raise PairFailure(f"{evaluator.name} takes no {', '.join(sorted(extra))}: building it raises "
                              "TypeError", stage="eval_cfg.evaluator")
        if evaluator.name == "MATHEvaluator" and evaluator_cfg.get("version", "v1") not in ("v1", "v2"):
            raise PairFailure(f"MATHEvaluator version={evaluator_cfg.get('version')!r}: it asserts 'v1' or "
                              "'v2'", stage="eval_cfg.evaluator")
        if evaluator_cfg.get("pred_postprocessor") is not None:
            steps.append(make("eval_cfg.evaluator.pred_postprocessor", evaluator_cfg["pred_postprocessor"]))
        if dataset.get("n", 1) != 1:
            unscored = f"n={dataset.get('n')} replicas: the framework scores it"
        elif reader["output_column"] is None:
            unscored = "reader_cfg.output_column is None: no references, the framework scores it"
    else:
        short = str(name).rsplit(".", 1)[-1] if name else "no evaluator"
        unscored = f"{short}: not a plain evaluator, the framework scores it"
    for step in steps + ([gold_step] if gold_step else []):
        if step.path in QUIRKS:
            warnings.append(QUIRKS[step.path])
    if evaluator is not None and evaluator.name == "EMEvaluator":
        warnings.append(EM_STRING_REFERENCE)
    return PairPlan(tuple(steps), gold_step, evaluator, str(name) if name else None, unscored,
                    tuple(dict.fromkeys(warnings)))


def _pred_role(role: Any, model: Mapping[str, Any]) -> list[str]:
    written = model.get("type")
    info = lookup_model_class(written, "opencompass") if isinstance(written, str) else None
    if info is None:
        return [f"eval_cfg.pred_role={role!r}: the model class {written!r} is not one of OpenCompass "
                "0.5.4's, so whether the task extracts the role is not known; it would strip nothing "
                "either way (extract_role_pred's test is never true)"]
    if info.is_api:
        return []
    begin, end = _role_bounds(model["meta_template"], role)
    if not begin and not end:
        return []
    parts = [f"its {name} {text!r}" for name, text in (("begin", begin), ("end", end)) if text]
    what = " and ".join(parts) + (" stay" if len(parts) > 1 else " stays")
    return [EXTRACT_ROLE_PRED_BUG.format(role=role, what=what)]


def _call(step: Step, text: Any, index: str) -> Traced:
    if step.function is None:  # a batch step is applied by apply_step, never a text at a time
        raise PairFailure(f"{step.stage} {step.written} has no rewrite", stage=step.stage, sample=index)
    try:
        if step.traced is not None:
            return step.traced(text, **step.kwargs)
        return Traced(step.function(text, **step.kwargs))
    except RecursionError as exc:  # pragma: no cover - a pattern the interpreter cannot hold
        raise PairFailure(f"{step.stage} {step.written}: too deep for the interpreter", stage=step.stage,
                          sample=index) from exc
    except Exception as exc:
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise PairFailure(f"{step.stage} {step.written} raised {detail}", stage=step.stage, sample=index,
                          hint=_hint(step, exc)) from exc


def _hint(step: Step, exc: Exception) -> str | None:
    if step.path.endswith("gsm8k_dataset_postprocess") and isinstance(exc, IndexError):
        return "the reference has no '#### ' (gsm8k_dataset_postprocess splits on it): the real run fails too"
    if isinstance(exc, TypeError) and "argument" in str(exc):
        return f"check the keys beside `type` in {step.stage}: they are passed as keyword arguments"
    return None


def apply_step(step: Step, values: Sequence[Any], indices: Sequence[str],
               progress: Callable[[str], None] | None = None) -> list[Any]:
    """``step`` over every value, as the task maps a postprocessor over the whole list."""
    return [t.value for t in trace_step(step, values, indices, progress)]


def trace_step(step: Step, values: Sequence[Any], indices: Sequence[str],
               progress: Callable[[str], None] | None = None) -> list[Traced]:
    """:func:`apply_step` with each value's trace (the value alone for a step with none)."""
    if step.batch is not None:
        if progress is not None:
            progress(f"{step.stage} (the framework's {step.written})")
        try:
            return [Traced(v) for v in step.batch(values)]
        except StepRaised as exc:
            raise PairFailure(f"{step.stage} {step.written} raised {exc.detail}", stage=step.stage,
                              sample=indices[exc.position]) from exc
    out = []
    for index, value in zip(indices, values, strict=True):
        if progress is not None:
            progress(f"{step.stage} {index}")
        out.append(_call(step, value, index))
    return out


def match_of(step: Step, read: Any, traced: Traced, runs: Runs | None) -> dict[str, Any] | None:
    """The rule a step matched on the text it read, as the document's ``match``: the stage, the
    function, the rule, the span placed in the recorded prediction (None when the text it read
    cannot be placed there) and the text it matched."""
    if traced.rule is None or traced.span is None or not isinstance(read, str):
        return None
    return {"stage": step.stage, "function": step.path.rsplit(".", 1)[-1], "rule": traced.rule,
            "span": list(placed) if runs is not None and (placed := place(runs, traced.span)) else None,
            "matched": read[traced.span[0]:traced.span[1]]}


def _follow(runs: Runs | None, read: Any, traced: Traced) -> Runs | None:
    """Where the step's value sits in the prediction, from where the text it read sat."""
    if runs is None:
        return None
    if traced.source is not None:
        return compose(runs, traced.source)
    if isinstance(traced.value, str) and traced.value == read:
        return runs
    return None


def _apply_listed(step: Step, values: Sequence[Any], indices: Sequence[str],
                  progress: Callable[[str], None] | None) -> list[Any]:
    """Predictions that are lists: the step on each item, as ``[[proc(s) for s in preds] ...]``
    does (a string among them is iterated by character, as there)."""
    out = []
    for index, value in zip(indices, values, strict=True):
        try:
            items = list(value)
        except TypeError as exc:
            raise PairFailure(f"{step.stage}: the first prediction is a list, this one a "
                              f"{type(value).__name__} the task cannot iterate", stage=step.stage,
                              sample=index) from exc
        out.append(apply_step(step, items, [index] * len(items), progress))
    return out


def extract_pair(plan: PairPlan, records: Sequence[tuple[str, Mapping[str, Any]]],
                 progress: Callable[[str], None] | None = None) -> PairAnswers:
    """Every record (``(key, record)`` in the task's order) through the plan, step by step over
    all of them as the task goes (the references first); ``progress`` is told each call before it
    runs (``eval_cfg.pred_postprocessor 12``).

    Raises PairFailure at the first sample the real task fails on."""
    if not records:
        raise PairFailure("no predictions: the task's preds[0] raises IndexError", stage="predictions")
    first = records[0][1]
    if "prediction" not in first:
        raise PairFailure("the first record has no `prediction`: the task has nothing to evaluate",
                          stage="predictions", sample=records[0][0])
    indices = [index for index, _ in records]
    golds = [record.get("gold") for _, record in records]
    has_gold = all("gold" in record for _, record in records)
    if plan.gold_step is not None and has_gold:
        golds = apply_step(plan.gold_step, golds, indices, progress)
    predictions = [record.get("prediction") for _, record in records]
    extracted = list(predictions)
    matches: list[dict[str, Any] | None] = [None] * len(records)
    listed = isinstance(first.get("prediction"), list)
    if listed:
        for step in plan.pred_steps:
            extracted = _apply_listed(step, extracted, indices, progress)
    else:
        runs = [whole(p) if isinstance(p, str) else None for p in predictions]
        for step in plan.pred_steps:
            traced = trace_step(step, extracted, indices, progress)
            for i, (read, t) in enumerate(zip(extracted, traced, strict=True)):
                if step.traced is not None and step.path not in CUTTERS:
                    matches[i] = match_of(step, read, t, runs[i])  # the last matching step's rule
                runs[i] = _follow(runs[i], read, t)
            extracted = [t.value for t in traced]
    answers = PairAnswers()
    for index, prediction, value, gold, match, (_, record) in zip(indices, predictions, extracted, golds,
                                                                  matches, records, strict=True):
        answers.samples.append(SampleAnswer(index, prediction, value, gold if "gold" in record else None,
                                            None, match))
    if plan.evaluator is not None and plan.unscored is None and not listed and has_gold:
        correct = 0
        for sample in answers.samples:
            try:
                sample.correct = plan.evaluator.verdict(sample.extracted, sample.gold)
            except Exception as exc:
                raise PairFailure(f"{plan.evaluator.name} raised {type(exc).__name__}: {exc}",
                                  stage="eval_cfg.evaluator", sample=sample.index) from exc
            correct += sample.correct
        answers.accuracy = plan.evaluator.score(correct, len(answers.samples))
        answers.metric = plan.evaluator.metric
    return answers


def unscored_reason(plan: PairPlan, records: Sequence[tuple[str, Mapping[str, Any]]]) -> str | None:
    """Why a pair has no verdicts (None when it has them)."""
    if plan.unscored:
        return plan.unscored
    if records and isinstance(records[0][1].get("prediction"), list):
        return "predictions are lists (one per turn or draw): the framework scores them"
    if any("gold" not in record for _, record in records):
        return "the predictions hold no `gold` (the rows are not read): the framework scores it"
    return None
