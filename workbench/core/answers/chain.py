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
from typing import Any

from ..errors import WorkbenchError
from ..models.model_classes import lookup_model_class
from .catalog import QUIRKS, RealFailure, Unresolved, resolve
from .evaluators import PlainEvaluator, plain_evaluator

EXTRACT_ROLE_PRED_BUG = (
    "eval_cfg.pred_role={role!r}: OpenCompass 0.5.4's extract_role_pred strips nothing (its "
    "`re.match(r'\\s*', begin) is None` test is never true), so {what} stays in every prediction "
    "the postprocessors read: expect it in `extracted`, or strip it in a pred_postprocessor")


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
    """One postprocessor call as the task makes it: ``function(text, **kwargs)``."""

    stage: str
    written: str
    path: str
    function: Callable[..., Any]
    kwargs: Mapping[str, Any]


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


@dataclass
class PairAnswers:
    samples: list[SampleAnswer] = field(default_factory=list)
    #: The evaluator's headline figure as the task reports it (``accuracy`` or ``score``).
    accuracy: float | None = None
    metric: str | None = None


def _step(stage: str, cfg: Any) -> Step:
    if not isinstance(cfg, Mapping):
        raise PairFailure(f"{stage} must be a dict with a `type`, got {type(cfg).__name__}", stage=stage)
    kwargs = dict(copy.deepcopy(cfg))
    if "type" not in kwargs:
        raise PairFailure(f"{stage} has no `type`: the task's kwargs.pop('type') raises KeyError",
                          stage=stage, hint="type='gsm8k' (a TEXT_POSTPROCESSORS key) or a function")
    written = kwargs.pop("type")
    try:
        found = resolve(written)
    except RealFailure as exc:
        raise PairFailure(f"{stage}: {exc.message}", stage=stage, hint=exc.hint) from exc
    except Unresolved as exc:
        raise Unresolved(f"{stage}: {exc.message}", hint=exc.hint) from exc
    return Step(stage, str(written), found.path, found.function, kwargs)


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


def plan_pair(dataset: Mapping[str, Any], model: Mapping[str, Any]) -> PairPlan:
    """The chain for one pair, from the dataset's and the model's config dicts.

    Raises PairFailure where the real task would fail before reading a prediction, Unresolved
    where a step has no rewrite."""
    eval_cfg = dataset.get("eval_cfg")
    if not isinstance(eval_cfg, Mapping):
        raise PairFailure("the dataset has no eval_cfg: OpenCompass's evaluation task fails on it "
                          "(`'dataset_postprocessor' in None`)", stage="eval_cfg")
    reader = dataset.get("reader_cfg")
    if not isinstance(reader, Mapping) or "output_column" not in reader:
        raise PairFailure("reader_cfg has no output_column: the task's reader_cfg['output_column'] raises "
                          "KeyError", stage="reader_cfg")
    warnings: list[str] = []
    gold_step = (_step("eval_cfg.dataset_postprocessor", eval_cfg["dataset_postprocessor"])
                 if "dataset_postprocessor" in eval_cfg else None)
    steps: list[Step] = []
    if "pred_role" in eval_cfg and "meta_template" in model:
        warnings += _pred_role(eval_cfg["pred_role"], model)
    if "pred_postprocessor" in model:
        steps.append(_step("model.pred_postprocessor", model["pred_postprocessor"]))
    if "pred_postprocessor" in eval_cfg:
        steps.append(_step("eval_cfg.pred_postprocessor", eval_cfg["pred_postprocessor"]))
    evaluator_cfg = eval_cfg.get("evaluator") or {}
    evaluator = plain_evaluator(evaluator_cfg) if isinstance(evaluator_cfg, Mapping) else None
    name = evaluator_cfg.get("type") if isinstance(evaluator_cfg, Mapping) else None
    unscored = None
    if evaluator is not None:
        extra = set(evaluator_cfg) - {"type"} - evaluator.kwargs
        if extra:
            raise PairFailure(f"{evaluator.name} takes no {', '.join(sorted(extra))}: building it raises "
                              "TypeError", stage="eval_cfg.evaluator")
        if evaluator_cfg.get("pred_postprocessor") is not None:
            steps.append(_step("eval_cfg.evaluator.pred_postprocessor", evaluator_cfg["pred_postprocessor"]))
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
    what = " and ".join(f"its {name} {text!r}" for name, text in (("begin", begin), ("end", end)) if text)
    return [EXTRACT_ROLE_PRED_BUG.format(role=role, what=what)]


def _call(step: Step, text: Any, index: str) -> Any:
    try:
        return step.function(text, **step.kwargs)
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


def extract_pair(plan: PairPlan, records: Sequence[tuple[str, Mapping[str, Any]]],
                 progress: Callable[[str], None] | None = None) -> PairAnswers:
    """Every record (``(key, record)`` in the task's order) through the plan; ``progress`` is
    told each sample before its steps run (``gold 12``, ``prediction 12``).

    Raises PairFailure at the first sample the real task fails on."""
    if not records:
        raise PairFailure("no predictions: the task's preds[0] raises IndexError", stage="predictions")
    first = records[0][1]
    if "prediction" not in first:
        raise PairFailure("the first record has no `prediction`: the task has nothing to evaluate",
                          stage="predictions", sample=records[0][0])
    golds: list[Any] = []
    for index, record in records:  # the task postprocesses the references first
        gold = record.get("gold")
        if progress is not None:
            progress(f"gold {index}")
        if plan.gold_step is not None and "gold" in record:
            gold = _call(plan.gold_step, gold, index)
        golds.append(gold)
    answers = PairAnswers()
    listed = isinstance(first.get("prediction"), list)
    for (index, record), gold in zip(records, golds, strict=True):
        prediction = record.get("prediction")
        extracted = prediction
        if progress is not None:
            progress(f"prediction {index}")
        for step in plan.pred_steps:
            if listed:
                if not isinstance(extracted, list):
                    raise PairFailure("a prediction is not a list where the first one is", stage=step.stage,
                                      sample=index)
                extracted = [_call(step, item, index) for item in extracted]
            else:
                extracted = _call(step, extracted, index)
        answers.samples.append(SampleAnswer(index, prediction, extracted, gold if "gold" in record else None,
                                            None))
    scorable = plan.evaluator is not None and plan.unscored is None and not listed \
        and all("gold" in record for _, record in records)
    if scorable and plan.evaluator is not None:
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
