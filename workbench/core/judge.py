"""The judge's request: an LLM evaluator's prompt as one more (dataset, model) pair.

OpenCompass 0.5.4 scores 280 shipped dataset configs with ``GenericLLMEvaluator`` and 60 with
``CascadeEvaluator`` (whose ``llm_evaluator`` is a GenericLLMEvaluator); the subjective configs
use ``LMEvaluator``. Each builds a dataset for the judge, adds the recorded prediction and the
gold as columns, and runs ``GenInferencer`` with a ``ZeroRetriever`` and the evaluator's
``prompt_template`` through the judge model. So the judge request is rendered by the same core
as any pair: this module only builds that dataset (its rows and reader), from what each
evaluator does (``evaluator/generic_llm_evaluator.py``, ``evaluator/cascade_evaluator.py``,
``openicl/icl_evaluator/lm_evaluator.py``):

* **GenericLLMEvaluator**: the rows of its own ``dataset_cfg`` (its reader's test split) plus
  ``prediction``, ``obj_gold`` and ``reference`` (the gold: the run's references, after
  ``eval_cfg.dataset_postprocessor``), all three appended to the input columns; the reader's
  output column becomes ``reference``, so a template's ``{reference}`` is blanked (the
  inferencer replaces the output column with ``''``) while ``{obj_gold}`` keeps the gold.
  The evaluator's ``pred_postprocessor`` runs twice (``BaseEvaluator.evaluate`` and ``score``).
* **CascadeEvaluator**: the run's test set itself (the main dataset's rows, reference column
  post-processed) plus ``prediction`` and ``reference``; every column is an input column. The
  ``prediction`` column is added *before* the LLM evaluator's ``pred_postprocessor`` runs, so the
  judge never sees that postprocessor's output. With ``parallel=False`` only the samples the
  rule evaluator marks wrong reach the judge.
* **LMEvaluator** (single-model scoring): the dataset's rows plus ``prediction``, ``obj_gold``,
  ``prediction_en_word_count``, ``prediction_cn_word_count`` and ``reference``.

When ``judge_cfg`` is empty, GenericLLMEvaluator falls back to an OpenAISDK judge built from
``OC_JUDGE_MODEL`` / ``OC_JUDGE_API_KEY`` / ``OC_JUDGE_API_BASE`` (:func:`default_judge_cfg`;
the loader reads the environment and passes the values in).

May import: the core's bottom layer (spec, errors, render_notes); not render, inferencers or
anything outside the core.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import RenderError
from .render_notes import OC_VERSION
from .spec import DatasetSpec, ModelSpec, type_name

GENERIC = "GenericLLMEvaluator"
CASCADE = "CascadeEvaluator"
LM = "LMEvaluator"
JUDGE_EVALUATORS = (GENERIC, CASCADE, LM)
#: What the prediction column holds before a run (the placeholder rows' style).
PREDICTION_PLACEHOLDER = "‹prediction›"
ZERO_RETRIEVER = "opencompass.openicl.icl_retriever.ZeroRetriever"
GEN_INFERENCER = "opencompass.openicl.icl_inferencer.GenInferencer"
OPENAI_SDK = "opencompass.models.OpenAISDK"
#: The environment variables of the fallback judge, and what the real run needs of them.
JUDGE_ENV = ("OC_JUDGE_MODEL", "OC_JUDGE_API_KEY", "OC_JUDGE_API_BASE")
DEFAULT_API_BASE = "https://api.openai.com/v1/"


@dataclass(frozen=True)
class JudgeSetup:
    """What a dataset's ``eval_cfg`` says about its LLM judge."""

    kind: str  # GENERIC, CASCADE or LM: how the judge's dataset is built
    evaluator: str  # the evaluator's class name as written (the outer one for a cascade)
    prompt_template: Mapping[str, Any]
    judge_cfg: Mapping[str, Any]  # as written: {} means the framework's fallback
    dataset_cfg: Mapping[str, Any] | None  # the evaluator's own (None: the run's test set)
    key_path: tuple[str, ...]  # where the LLM evaluator sits in the dataset config
    #: Postprocessors the judge's prediction goes through after eval_cfg's, in order.
    pred_postprocessors: tuple[Any, ...] = ()
    #: Postprocessors configured for the judge's prediction that never reach it (cascade).
    unused_postprocessors: tuple[Any, ...] = ()
    parallel: bool = True  # cascade: every sample goes to the judge (False: the rule's failures)
    rule_evaluator: str | None = None


@dataclass(frozen=True)
class JudgePair:
    """One judge request pair: the judge's dataset × the judge model, and the pair it judges."""

    dataset: DatasetSpec
    model: ModelSpec
    of_dataset: str
    of_model: str | None  # the model whose predictions fill it; None before a run
    notes: tuple[str, ...] = field(default=())


def _type(cfg: Mapping[str, Any]) -> str:
    value = cfg.get("type")
    return type_name(value) if value is not None else ""


def judge_setup(cfg: Mapping[str, Any]) -> JudgeSetup | None:
    """The LLM judge of a dataset config (None: it is scored without one); RenderError when
    the evaluator is one the real run cannot build (with the reason it gives)."""
    eval_cfg = cfg.get("eval_cfg")
    if not isinstance(eval_cfg, Mapping):
        return None
    evaluator = eval_cfg.get("evaluator")
    if not isinstance(evaluator, Mapping):
        return None
    kind = _type(evaluator)
    if kind not in JUDGE_EVALUATORS:
        return None
    path: tuple[str, ...] = ("eval_cfg", "evaluator")
    if kind == CASCADE:
        llm = evaluator.get("llm_evaluator")
        if not isinstance(llm, Mapping):
            raise RenderError("CascadeEvaluator has no llm_evaluator dict", key_path=path,
                              hint="llm_evaluator=dict(type=GenericLLMEvaluator, prompt_template=..., ...)")
        rule = evaluator.get("rule_evaluator")
        rule_name = _type(rule) if isinstance(rule, Mapping) and rule else None
        if rule_name is None and evaluator.get("sample_score_fn") is None:
            raise RenderError(f"{OC_VERSION} fails here: CascadeEvaluator: Either rule_evaluator or "
                              "sample_score_fn must be provided", key_path=path)
        inner = _generic(llm, (*path, "llm_evaluator"))
        post = llm.get("pred_postprocessor")
        return JudgeSetup(CASCADE, kind, inner.prompt_template, inner.judge_cfg, None, inner.key_path,
                          unused_postprocessors=(post,) if post else (),
                          parallel=bool(evaluator.get("parallel", True)), rule_evaluator=rule_name)
    if kind == LM:
        return _lm(evaluator, path, cfg)
    return _generic(evaluator, path)


def _template_of(evaluator: Mapping[str, Any], path: tuple[str, ...]) -> Mapping[str, Any]:
    template = evaluator.get("prompt_template")
    if not isinstance(template, Mapping):
        raise RenderError(f"{_type(evaluator)} has no prompt_template dict", key_path=path,
                          hint="prompt_template=dict(type=PromptTemplate, template=...)")
    return template


def _judge_cfg(evaluator: Mapping[str, Any]) -> Mapping[str, Any]:
    judge = evaluator.get("judge_cfg")
    return judge if isinstance(judge, Mapping) else {}


def _generic(evaluator: Mapping[str, Any], path: tuple[str, ...]) -> JudgeSetup:
    template = _template_of(evaluator, path)
    dataset_cfg = evaluator.get("dataset_cfg")
    if not isinstance(dataset_cfg, Mapping) or not dataset_cfg:
        raise RenderError(f"{OC_VERSION} fails here: GenericLLMEvaluator asserts 'dataset_cfg is None'",
                          key_path=path, hint="give the evaluator dataset_cfg=dict(type=..., path=..., "
                          "reader_cfg=...) as the shipped configs do")
    post = evaluator.get("pred_postprocessor")
    # BaseEvaluator.evaluate post-processes the predictions, then score() does it again
    return JudgeSetup(GENERIC, _type(evaluator), template, _judge_cfg(evaluator), dataset_cfg, path,
                      pred_postprocessors=(post, post) if post else ())


def _lm(evaluator: Mapping[str, Any], path: tuple[str, ...], cfg: Mapping[str, Any]) -> JudgeSetup:
    template = _template_of(evaluator, path)
    # SubjectiveEvalTask hands the evaluator the dataset's own config
    return JudgeSetup(LM, LM, template, _judge_cfg(evaluator), cfg, path)


def default_judge_cfg(environ: Mapping[str, str]) -> tuple[dict[str, Any], list[str]]:
    """GenericLLMEvaluator's fallback judge (its ``default_judge_cfg``), from the given values of
    the ``OC_JUDGE_*`` variables, and what the real run would fail on. The key itself never
    enters the config: the wire shows it redacted anyway."""
    missing = [name for name in JUDGE_ENV[:2] if name not in environ]
    path = environ.get("OC_JUDGE_MODEL", "$OC_JUDGE_MODEL")
    cfg: dict[str, Any] = {
        # the framework never names this model (its output paths are the judged pair's); the
        # workbench labels it by the served model, "/" made "_" as the frameworks' abbrs do
        "abbr": environ.get("OC_JUDGE_MODEL", "OC_JUDGE_MODEL").replace("/", "_"),
        "type": OPENAI_SDK,
        "path": path,
        "key": "$OC_JUDGE_API_KEY",
        "openai_api_base": [environ.get("OC_JUDGE_API_BASE", DEFAULT_API_BASE)],
        "meta_template": {"round": [
            {"role": "HUMAN", "api_role": "HUMAN"},
            {"role": "BOT", "api_role": "BOT", "generate": True},
        ]},
        "query_per_second": 16,
        "batch_size": 1024,
        "temperature": 0.001,
        "tokenizer_path": "gpt-4o-2024-05-13",
        "verbose": True,
        "max_out_len": 16384,
        "max_seq_len": 49152,
    }
    problems = [f"{OC_VERSION} fails here: the judge_cfg is empty, so GenericLLMEvaluator builds its "
                f"judge from {name}, which is not set (KeyError); rendered with {name} as a placeholder "
                "(hint: export it, or give --judge-model FILE)" for name in missing]
    return cfg, problems


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def judge_notes(setup: JudgeSetup) -> list[str]:
    """The framework's own quirks that change what this judge is sent, said where they bite."""
    notes = []
    if any("{reference}" in s for s in _strings(setup.prompt_template)):
        gold = "{obj_gold}" if setup.kind != CASCADE else "the dataset's own answer column"
        notes.append(f"{OC_VERSION} blanks {{reference}} in the judge's prompt: {setup.evaluator} makes "
                     "'reference' the reader's output column, which the inferencer replaces with '' — the "
                     f"judge never sees the gold there (hint: {gold} carries it)")
    if setup.kind == CASCADE and setup.unused_postprocessors:
        names = ", ".join(postprocessor_name(p) for p in setup.unused_postprocessors)
        notes.append(f"{OC_VERSION}: CascadeEvaluator adds the prediction column before the "
                     f"llm_evaluator's pred_postprocessor ({names}) runs, so the judge never sees its output")
    if setup.kind == CASCADE and not setup.parallel:
        rule = setup.rule_evaluator or "the rule"
        notes.append(f"CascadeEvaluator(parallel=False): only the samples {rule} marks wrong reach the "
                     "judge; every sample is rendered here")
    return notes


def postprocessor_name(post: Any) -> str:
    """A postprocessor's name as configured (a dict's ``type``, a dotted path's last part)."""
    if isinstance(post, Mapping):
        post = post.get("type", "?")
    return type_name(post) if isinstance(post, str) else repr(post)


def count_english_words(text: str) -> int:
    """LMEvaluator's ``prediction_en_word_count``."""
    return len(re.findall(r"\b[a-zA-Z]+\b", text))


def count_chinese_characters(text: str) -> int:
    """LMEvaluator's ``prediction_cn_word_count``."""
    return len(re.findall(r"[\u4e00-\u9fff]", text))


def judge_rows(setup: JudgeSetup, rows: Sequence[Mapping[str, Any]], input_columns: Sequence[str],
               predictions: Sequence[Any], references: Sequence[Any] | None,
               ) -> tuple[list[dict[str, Any]], list[str]]:
    """The judge dataset's test rows and input columns: ``rows`` (the test split the evaluator
    reads) with the evaluator's columns added. ``predictions`` are what reaches the judge (after
    every postprocessor); ``references`` the run's gold (None: the dataset has no output column)."""
    if len(predictions) != len(rows):
        raise RenderError(f"{len(predictions)} predictions for {len(rows)} test rows: the evaluator "
                          "asserts 'predictions and references must have the same length'")
    added: dict[str, Sequence[Any]] = {"prediction": predictions}
    if setup.kind == CASCADE:
        columns = list(dict.fromkeys(k for row in rows for k in row))
        if references is not None:
            added["reference"] = references
        out = [{**row, **{k: v[i] for k, v in added.items()}} for i, row in enumerate(rows)]
        return out, [*columns, *(k for k in added if k not in columns)]
    if references is None:
        raise RenderError(f"{OC_VERSION} fails here: the dataset has no output_column, so the "
                          f"{setup.kind}'s gold column is None (datasets' add_column fails)",
                          hint="give reader_cfg an output_column")
    added["obj_gold"] = references
    if setup.kind == LM:
        texts = [p if isinstance(p, str) else "" for p in predictions]
        added["prediction_en_word_count"] = [count_english_words(t) for t in texts]
        added["prediction_cn_word_count"] = [count_chinese_characters(t) for t in texts]
    if references:
        added["reference"] = references
    out = [{**row, **{k: v[i] for k, v in added.items()}} for i, row in enumerate(rows)]
    return out, [*input_columns, *added]


def judge_dataset(abbr: str, setup: JudgeSetup, rows: list[dict[str, Any]], input_columns: Sequence[str],
                  judge_cfg: Mapping[str, Any], base: DatasetSpec) -> DatasetSpec:
    """The judge's dataset as a spec the core renders like any other: the rows are the test
    split already (no ranges), the output column ``reference``, a ZeroRetriever and a
    GenInferencer with the judge's ``max_out_len``, and the evaluator's template."""
    inferencer: dict[str, Any] = {"type": GEN_INFERENCER}
    if judge_cfg.get("max_out_len") is not None:
        inferencer["max_out_len"] = judge_cfg["max_out_len"]
    cfg = {
        "abbr": abbr,
        "type": base.cfg.get("type"),
        "reader_cfg": {"input_columns": list(input_columns), "output_column": "reference",
                       "train_split": "test"},
        "infer_cfg": {"prompt_template": setup.prompt_template,
                      "retriever": {"type": ZERO_RETRIEVER}, "inferencer": inferencer},
    }
    locations = {("infer_cfg", "prompt_template", *path[len(setup.key_path) + 1:]): where
                 for path, where in base.locations.items()
                 if path[:len(setup.key_path) + 1] == (*setup.key_path, "prompt_template")}
    return DatasetSpec(abbr=abbr, cfg=cfg, rows={"test": rows}, framework=base.framework, source=base.source,
                       rows_origin=base.rows_origin, locations=locations,
                       rows_version=None)  # the rows hold predictions: never reused from a cache
