"""``extract``'s work: a run folder's predictions through the answer chain of a config, pair by
pair, as the ``prompt-workbench/extract@1`` document (docs/extract-json.md).

Per model × dataset of the config (the evaluation task's order): the predictions read as the task
reads them (``loading.predictions``), the chain planned from the two config dicts and run in a
bounded child (``bounded_call``: a pattern that backtracks forever ends that pair, named at the
sample it was stuck on). A pair the real task fails on, or one the workbench has no rewrite for,
is one located error; the other pairs are reported all the same. ``--against`` runs a second
config's chain over the same predictions and lists the verdicts that flip.

May import: loading, the core and the other headless modules; not views, tui, commands or ``cli``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.abbr import dataset_abbr_from_cfg, model_abbr_from_cfg
from ..core.answers.catalog import Unresolved
from ..core.answers.chain import Fallback, PairFailure, PairPlan, extract_pair, plan_pair, unscored_reason
from ..loading.chinese_segmenter import jieba_segmenter
from ..loading.predictions import PairPredictions, read_pair_predictions, record_line
from ..loading.workspace import shared_loader
from .bounded_call import run_bounded

SCHEMA = "prompt-workbench/extract@1"
GOLD_FROM = "predictions"
DEFAULT_TIMEOUT = 60.0


@dataclass
class LoadedConfig:
    """A config's dataset and model entries (``{"cfg", "file", "line", "locations"}``) by abbr."""

    path: str
    shown: str
    datasets: dict[str, dict[str, Any]] = field(default_factory=dict)
    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _error(message: str, *, file: str | None = None, line: int | None = None, hint: str | None = None,
           dataset: str | None = None, model: str | None = None, stage: str | None = None,
           sample: str | None = None, kind: str = "fails") -> dict[str, Any]:
    """One located error of the document. ``kind``: ``fails`` (the real evaluation fails there too),
    ``not-rewritten`` (the workbench cannot extract it natively), ``unreadable`` (input)."""
    return {"dataset": dataset, "model": model, "kind": kind, "stage": stage, "sample": sample,
            "file": file, "line": line, "message": message, "hint": hint}


def load_config(path: str, timeout: float | None, shown: str | None = None,
                display: Callable[[str | None], str | None] = lambda p: p,
                roots: Sequence[str] = ()) -> LoadedConfig:
    """The config's entries, run in the loader's worker process (bounded in time and memory as
    every load is: a config that loops or eats memory is an error, not a hang)."""
    loaded = shared_loader().load_file(path, [Path(r) for r in roots], timeout=timeout)
    given = os.path.abspath(path)

    def located(file: str | None) -> str | None:  # the config itself as it was named
        return display(path if file is not None and os.path.abspath(file) == given else file)

    config = LoadedConfig(path, shown or path)
    if loaded["error"]:
        error = loaded["error"]
        config.errors.append(_error(f"the config cannot be loaded: {error['message']}",
                                    file=located(error["file"]), line=error["line"], hint=error["hint"],
                                    kind="unreadable"))
        return config
    config.warnings += loaded["warnings"]
    for kind, target, abbr_of in (("dataset", config.datasets, dataset_abbr_from_cfg),
                                  ("model", config.models, _model_abbr)):
        for entry in loaded[f"{kind}s"]:
            if entry["error"]:
                error = entry["error"]
                config.errors.append(_error(error["message"], file=located(error["file"]), line=error["line"],
                                            hint=error["hint"], kind="unreadable"))
                continue
            try:
                abbr = str(abbr_of(entry["cfg"]))
            except (KeyError, TypeError) as exc:
                config.errors.append(_error(f"the {kind} has no abbr the framework can derive ({exc})",
                                            file=located(entry["file"]), line=entry["line"],
                                            kind="unreadable"))
                continue
            entry["file"] = located(entry["file"])
            target.setdefault(abbr, entry)
    return config


def _model_abbr(cfg: Mapping[str, Any]) -> str:
    return model_abbr_from_cfg(cfg, realpath=os.path.realpath)


def _config_line(entry: Mapping[str, Any], stage: str | None) -> tuple[str | None, int | None]:
    """The line of the config part a stage names (``eval_cfg.pred_postprocessor``), else the entry's."""
    best, line = -1, entry.get("line")
    parts = tuple((stage or "").replace("model.", "").split("."))
    for path, _file, at in entry.get("locations") or ():
        path = tuple(path)
        if parts[:len(path)] == path and len(path) > best and at:
            best, line = len(path), at
    return entry.get("file"), line


def _plan(dataset: dict[str, Any], model: dict[str, Any], names: tuple[str, str],
          fallback: Fallback | None = None) -> PairPlan | dict[str, Any]:
    try:
        return plan_pair(dataset["cfg"], model["cfg"], fallback, jieba_segmenter)
    except PairFailure as exc:
        entry = model if exc.stage.startswith("model.") or (exc.stage == "eval_cfg.pred_role" and \
            "meta_template" in exc.message) else dataset
        file, line = _config_line(entry, exc.stage)
        return _error(exc.message, file=file, line=line, hint=exc.hint, dataset=names[0], model=names[1],
                      stage=exc.stage)
    except Unresolved as exc:
        file, line = _config_line(dataset, exc.message.split(":", 1)[0])
        return _error(exc.message, file=file, line=line, hint=exc.hint, dataset=names[0], model=names[1],
                      kind="not-rewritten")


def _run(plan: PairPlan, predictions: PairPredictions, timeout: float) -> dict[str, Any]:
    """The pair's samples (JSON), or its error, from a bounded child."""

    def job(progress: Callable[[str], None]) -> Any:
        try:
            answers = extract_pair(plan, predictions.records, progress)
        except PairFailure as exc:
            return {"failure": exc.message, "stage": exc.stage, "sample": exc.sample, "hint": exc.hint}
        except Unresolved as exc:  # the framework route could not be asked
            return {"failure": exc.message, "stage": None, "sample": None, "hint": exc.hint,
                    "kind": "not-rewritten"}
        return {"samples": [vars(s) for s in answers.samples], "accuracy": answers.accuracy,
                "metric": answers.metric}

    outcome = run_bounded(job, timeout)
    names = {"dataset": predictions.dataset, "model": predictions.model}
    if outcome.failure is not None:
        where = (outcome.last_progress or "").split(" ", 1)
        sample = where[1] if len(where) == 2 and not where[1].startswith("(") else None
        file, line = _sample_place(predictions, sample)
        stage = where[0] or "the extraction"
        return {"error": _error(f"{stage} {outcome.failure}: a pattern that backtracks on this text? "
                                "OpenCompass's evaluation would hang or fail here too",
                                file=file, line=line, stage=where[0] or None, sample=sample,
                                hint="run it alone with a larger --timeout, or fix the pattern", **names)}
    value = outcome.value
    if "failure" in value:
        file, line = _sample_place(predictions, value["sample"])
        return {"error": _error(value["failure"], file=file, line=line, hint=value["hint"],
                                stage=value["stage"], sample=value["sample"],
                                kind=value.get("kind", "fails"), **names)}
    return value


def _sample_place(predictions: PairPredictions, sample: str | None) -> tuple[str | None, int | None]:
    keys = [index for index, _ in predictions.records]
    if sample is None or sample not in keys:
        return (str(predictions.files[0]) if predictions.files else None), None
    file, key = predictions.origins[keys.index(sample)]
    return str(file), record_line(file, key)


def _pair_document(dataset: str, model: str, plan: PairPlan, predictions: PairPredictions,
                   value: Mapping[str, Any]) -> dict[str, Any]:
    return {"dataset": dataset, "model": model, "evaluator": plan.evaluator_name,
            "metric": value["metric"], "accuracy": value["accuracy"],
            "scored_by": "workbench" if value["metric"] else "framework",
            "note": unscored_reason(plan, predictions.records),
            "gold_from": GOLD_FROM, "files": [str(f) for f in predictions.files],
            "framework_steps": [f"{s.stage} {s.written}" for s in (*plan.pred_steps, plan.gold_step)
                                if s is not None and s.batch is not None],
            "samples": value["samples"], "error": None}


def _failed_pair(document: dict[str, Any], error: dict[str, Any]) -> None:
    """A pair that fails is in ``errors`` and, flagged with that error and no samples, in ``pairs``."""
    document["errors"].append(error)
    document["pairs"].append({"dataset": error["dataset"], "model": error["model"], "evaluator": None,
                              "metric": None, "accuracy": None, "scored_by": None, "note": None,
                              "gold_from": GOLD_FROM, "files": [], "samples": [], "error": error})


def extract_run(run: Path, config: LoadedConfig, timeout: float = DEFAULT_TIMEOUT,
                against: LoadedConfig | None = None, fallback: Fallback | None = None) -> dict[str, Any]:
    """The extract@1 document of ``run`` through ``config`` (and ``against``, when given);
    ``fallback`` is the framework route for postprocessors with no rewrite."""
    document: dict[str, Any] = {"schema": SCHEMA, "run": str(run), "config": config.shown,
                                "pairs": [], "errors": list(config.errors), "warnings": list(config.warnings)}
    if against is not None:
        document["against"] = against.shown
        document["errors"] += [{**e, "stage": "against"} for e in against.errors]
        document["warnings"] += against.warnings
    if config.errors and not config.datasets:
        return document
    seen: set[tuple[str, str]] = set()
    for model_abbr, model in config.models.items():
        for dataset_abbr, dataset in config.datasets.items():
            seen.add((model_abbr, dataset_abbr))
            names = (dataset_abbr, model_abbr)
            predictions = read_pair_predictions(run, model_abbr, dataset_abbr)
            document["warnings"] += [f"[{dataset_abbr} × {model_abbr}] {w}" for w in predictions.warnings]
            if predictions.error is not None:
                e = predictions.error
                _failed_pair(document, _error(e.message, file=e.file, line=e.line, hint=e.hint,
                                              dataset=dataset_abbr, model=model_abbr, stage="predictions"))
                continue
            plan = _plan(dataset, model, names, fallback)
            if isinstance(plan, dict):
                _failed_pair(document, plan)
                continue
            document["warnings"] += [f"[{dataset_abbr} × {model_abbr}] {w}" for w in plan.warnings]
            value = _run(plan, predictions, timeout)
            if "error" in value:
                _failed_pair(document, value["error"])
                continue
            pair = _pair_document(dataset_abbr, model_abbr, plan, predictions, value)
            if against is not None:
                pair["against"] = _against(against, dataset_abbr, model_abbr, model, predictions, pair,
                                           timeout, document, fallback)
            document["pairs"].append(pair)
    document["warnings"] += _unclaimed(run, seen)
    return document


def _against(against: LoadedConfig, dataset_abbr: str, model_abbr: str, run_model: dict[str, Any],
             predictions: PairPredictions, pair: Mapping[str, Any], timeout: float,
             document: dict[str, Any], fallback: Fallback | None) -> dict[str, Any] | None:
    """The other config's extraction of the same predictions: its score, the delta, the flips."""
    dataset = against.datasets.get(dataset_abbr)
    if dataset is None:
        document["warnings"].append(f"[{dataset_abbr} × {model_abbr}] --against {against.shown} has no "
                                    f"dataset {dataset_abbr!r}: not compared")
        return None
    model = against.models.get(model_abbr, run_model)
    plan = _plan(dataset, model, (dataset_abbr, model_abbr), fallback)
    if isinstance(plan, dict):
        document["errors"].append(_against_error(plan))
        return None
    value = _run(plan, predictions, timeout)
    if "error" in value:
        document["errors"].append(_against_error(value["error"]))
        return None
    flips, changed = [], 0
    for mine, theirs in zip(pair["samples"], value["samples"], strict=True):
        changed += mine["extracted"] != theirs["extracted"]
        if None not in (mine["correct"], theirs["correct"]) and mine["correct"] != theirs["correct"]:
            flips.append({"index": mine["index"], "prediction": mine["prediction"], "gold": mine["gold"],
                          "extracted": mine["extracted"], "correct": mine["correct"],
                          "against_extracted": theirs["extracted"], "against_gold": theirs["gold"],
                          "against_correct": theirs["correct"]})
    delta = (value["accuracy"] - pair["accuracy"]
             if value["accuracy"] is not None and pair["accuracy"] is not None else None)
    return {"evaluator": plan.evaluator_name, "metric": value["metric"], "accuracy": value["accuracy"],
            "delta": delta, "extracted_changed": changed, "flips": flips,
            "note": unscored_reason(plan, predictions.records)}


def _against_error(error: dict[str, Any]) -> dict[str, Any]:
    return {**error, "stage": f"against {error['stage'] or ''}".strip()}


def _unclaimed(run: Path, seen: set[tuple[str, str]]) -> list[str]:
    """Prediction files the config has no pair for (said, not extracted)."""
    out = []
    folder = run / "predictions"
    for model_dir in sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []:
        stems = {p.stem for p in model_dir.glob("*.json") if not p.name.startswith("tmp_")}
        for stem in sorted(stems):
            base = stem.rsplit("_", 1)[0] if stem.rsplit("_", 1)[-1].isdigit() and "_" in stem else stem
            if (model_dir.name, stem) not in seen and (model_dir.name, base) not in seen:
                out.append(f"{model_dir / (stem + '.json')}: no dataset {stem!r} × model "
                           f"{model_dir.name!r} in the config: not extracted")
    return out
