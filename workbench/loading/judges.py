"""The judge pairs of a workspace (``--judge``): each LLM-judged dataset × its judge model.

The core builds the judge's dataset (core/judge.py); this module finds what it is built from:
the rows the evaluator reads (the evaluator's own ``dataset_cfg`` or the dataset's), the judge
model (``--judge-model FILE``, else ``judge_cfg``, else GenericLLMEvaluator's fallback made from
the ``OC_JUDGE_*`` environment variables, read here and nowhere else) and, with ``--run``, the
predictions each model recorded. Before a run the prediction is a visible placeholder.

May import: the core and every loading folder (config, rows, models, files); not views or a front
end.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.dataset_reader import ReaderConfig, build_splits
from ..core.errors import ConfigError, RenderError
from ..core.judge import (
    CASCADE,
    LM,
    PREDICTION_PLACEHOLDER,
    JudgePair,
    JudgeSetup,
    default_judge_cfg,
    judge_dataset,
    judge_notes,
    judge_rows,
    judge_setup,
    postprocessor_name,
)
from ..core.models.model_classes import lookup_model_class
from ..core.spec import DatasetSpec, ModelSpec, Source, locate, type_name
from .rows.sample_rows import DataArg, Settings, find_rows, load_kwargs

#: ``(dataset, model, index, turn) -> text``: a run's recorded outputs (loading/run_folder.py).
Predictions = Callable[[str, "str | None", int, int], "str | None"]
#: The dataset abbr of a judge pair: the dataset's, marked (and the judged model's, after a run).
JUDGE_MARK = "@judge"
MISSING_PREDICTION = "‹no prediction recorded›"


def judge_abbr(dataset: str, model: str | None) -> str:
    return f"{dataset}{JUDGE_MARK}" if model is None else f"{dataset}{JUDGE_MARK}+{model}"


class JudgeLoad:
    """What ``attach_judges`` made: the pairs, and one located problem or warning per cause."""

    def __init__(self) -> None:
        self.pairs: list[JudgePair] = []
        self.errors: list[ConfigError] = []
        self.warnings: list[str] = []


def attach_judges(datasets: Sequence[DatasetSpec], models: Sequence[ModelSpec],
                  make_model: Callable[[Mapping[str, Any], Source], ModelSpec | None],
                  judge_models: Sequence[ModelSpec] = (), predictions: Predictions | None = None,
                  data: Sequence[DataArg] = (), environ: Mapping[str, str] | None = None) -> JudgeLoad:
    """Every judge pair of ``datasets``: per LLM-judged dataset, per judge model, and (with a
    run's ``predictions``) per model whose predictions the run recorded for it.

    ``make_model`` turns a model config (``judge_cfg`` or the fallback) into a spec as the
    loader does any model's; ``judge_models`` are ``--judge-model``'s, which replace them."""
    out = JudgeLoad()
    env = os.environ if environ is None else environ
    for spec in datasets:
        try:
            setup = judge_setup(spec.cfg)
        except RenderError as exc:
            where = locate(spec, exc.key_path or ("eval_cfg",))
            out.errors.append(ConfigError(f"{spec.abbr}: the judge: {exc.message}", file=where.file,
                                          line=where.line, hint=exc.hint))
            continue
        if setup is None:
            continue
        judges = list(judge_models) or _configured_judges(spec, setup, make_model, env, out)
        if not judges:
            continue
        try:
            _add_pairs(spec, setup, judges, models, predictions, data, out)
        except (RenderError, ConfigError) as exc:
            where = locate(spec, setup.key_path)
            out.errors.append(ConfigError(f"{spec.abbr}: the judge: {exc.message}",
                                          file=exc.file or where.file, line=exc.line or where.line,
                                          hint=exc.hint))
    return out


def _configured_judges(spec: DatasetSpec, setup: JudgeSetup,
                       make_model: Callable[[Mapping[str, Any], Source], ModelSpec | None],
                       env: Mapping[str, str], out: JudgeLoad) -> list[ModelSpec]:
    """The judge the config names (``judge_cfg``), or the framework's fallback."""
    where = locate(spec, (*setup.key_path, "judge_cfg"))
    if setup.judge_cfg:
        made = make_model(setup.judge_cfg, where)
        return [made] if made is not None else []
    if setup.kind == LM:
        out.warnings.append(f"{spec.abbr}: LMEvaluator takes its judge from the run config's judge_models, "
                            "which a dataset config does not hold: no judge request rendered (hint: "
                            "--judge-model FILE names it)")
        return []
    cfg, problems = default_judge_cfg(env)
    for problem in problems:
        if problem not in out.warnings:
            out.warnings.append(problem)
    made = make_model(cfg, where)
    return [made] if made is not None else []


def _test_rows(spec: DatasetSpec, setup: JudgeSetup, data: Sequence[DataArg]) -> tuple[list[dict], list[str]]:
    """The test split the evaluator reads and its reader's input columns."""
    if setup.kind == CASCADE or setup.dataset_cfg is None:
        cfg, rows = spec.cfg, spec.rows
    else:
        cfg = setup.dataset_cfg
        same = load_kwargs(cfg) == load_kwargs(spec.cfg) and type_name(cfg.get("type", "")) == \
            type_name(spec.cfg.get("type", ""))
        rows = spec.rows if same else _rows_of(cfg, spec, data)
    reader = ReaderConfig.from_cfg(cfg.get("reader_cfg", {}))
    n = cfg.get("n", 1) if setup.kind != CASCADE else spec.cfg.get("n", 1)
    splits = build_splits(rows, reader, spec.abbr, spec.framework, n)
    return splits.test, list(reader.input_columns)


def _rows_of(cfg: Mapping[str, Any], spec: DatasetSpec, data: Sequence[DataArg]) -> Any:
    """The rows of the evaluator's own ``dataset_cfg`` (another file than the dataset's)."""
    bases = [Path(spec.source.file).parent] if spec.source.file else []
    return find_rows(cfg, spec.abbr, data, Settings(), bases, spec.framework).rows


def _references(spec: DatasetSpec) -> tuple[list[Any] | None, int]:
    reader = ReaderConfig.from_cfg(spec.cfg.get("reader_cfg", {}))
    splits = build_splits(spec.rows, reader, spec.abbr, spec.framework, spec.cfg.get("n", 1))
    if reader.output_column is None:
        return None, len(splits.test)
    return [row.get(reader.output_column) for row in splits.test], len(splits.test)


def _add_pairs(spec: DatasetSpec, setup: JudgeSetup, judges: Sequence[ModelSpec], models: Sequence[ModelSpec],
               predictions: Predictions | None, data: Sequence[DataArg], out: JudgeLoad) -> None:
    rows, columns = _test_rows(spec, setup, data)
    references, count = _references(spec)
    notes = _setup_notes(spec, setup)
    replicas = spec.cfg.get("n", 1)
    if setup.kind != CASCADE and isinstance(replicas, int) and replicas > 1 and len(rows) * replicas == count:
        # BaseEvaluator.evaluate scores each of the n replicas apart, and the evaluator builds its
        # own dataset (one replica's rows) for each: every replica's judge requests, in order
        rows = rows * replicas
        notes.append(f"n={replicas} replicas: the evaluator judges each replica apart; its requests are "
                     f"listed replica after replica ({count // replicas} samples each)")
    judged: list[tuple[str | None, list[Any], list[str]]] = []
    if predictions is None:
        judged.append((None, [PREDICTION_PLACEHOLDER] * count, []))
    else:
        for model in models:
            found = [predictions(spec.abbr, model.abbr, i, 0) for i in range(count)]
            if all(p is None for p in found):
                continue
            missing = sum(p is None for p in found)
            model_notes = _chain_notes(spec, model)
            if missing:
                model_notes.append(f"the run recorded no prediction for {missing} of {count} samples: "
                                   f"shown as {MISSING_PREDICTION} (the real evaluation fails on a short "
                                   "predictions file)")
            judged.append((model.abbr, [MISSING_PREDICTION if p is None else p for p in found], model_notes))
        if not judged:
            out.warnings.append(f"{spec.abbr}: the run recorded no predictions for it: no judge request "
                                "rendered")
    for model_abbr, shown, model_notes in judged:
        filled, input_columns = judge_rows(setup, rows, columns, shown, references)
        for judge in judges:
            abbr = judge_abbr(spec.abbr, model_abbr)
            made = judge_dataset(abbr, setup, filled, input_columns, judge.cfg, spec)
            pair_notes = tuple(dict.fromkeys([*notes, *model_notes]))
            out.pairs.append(JudgePair(made, judge, spec.abbr, model_abbr, pair_notes))


def _setup_notes(spec: DatasetSpec, setup: JudgeSetup) -> list[str]:
    """What the judge's request depends on that the render cannot show exactly."""
    notes = []
    eval_cfg = spec.cfg.get("eval_cfg") or {}
    post = eval_cfg.get("dataset_postprocessor") if isinstance(eval_cfg, Mapping) else None
    if post:
        notes.append(f"the gold is shown as the dataset holds it: eval_cfg.dataset_postprocessor "
                     f"({postprocessor_name(post)}) is not applied by the workbench yet")
    return [*notes, *judge_notes(setup)]


def _chain_notes(spec: DatasetSpec, model: ModelSpec) -> list[str]:
    """The postprocessors between the recorded prediction and the judge, not applied yet."""
    eval_cfg = spec.cfg.get("eval_cfg") or {}
    steps = []
    if isinstance(eval_cfg, Mapping) and "pred_role" in eval_cfg and "meta_template" in model.cfg:
        info = lookup_model_class(str(model.cfg.get("type", "")))
        if info is None or not info.is_api:
            steps.append(f"pred_role={eval_cfg['pred_role']!r}")
    evaluator = eval_cfg.get("evaluator") if isinstance(eval_cfg, Mapping) else None
    for where, cfg, how in (("the model's ", model.cfg, ""), ("eval_cfg.", eval_cfg, ""),
                            ("the evaluator's ", evaluator, ", twice")):
        if isinstance(cfg, Mapping) and cfg.get("pred_postprocessor"):
            steps.append(f"{where}pred_postprocessor ({postprocessor_name(cfg['pred_postprocessor'])}{how})")
    if not steps:
        return []
    return [f"the prediction is shown as recorded: {', '.join(steps)} not applied by the workbench yet, "
            "so the judge's real request may differ"]
