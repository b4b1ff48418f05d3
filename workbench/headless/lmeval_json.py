"""lm-eval tasks in the render JSON contract (docs/render-json.md): a render per task
(``dataset`` = the task name, ``model`` null), a sample per doc (``index`` = the doc id,
``ice_indices`` = the few-shot docs' positions in their pool), a request per ``Instance``
(``model_input`` = the context exactly as lm-eval passes it; ``continuation`` and ``label`` = the
choice index for loglikelihood; ``until`` for generate_until; ``messages`` = what was handed to
the chat template).

May import: loading, the core and the headless formats.
"""

from __future__ import annotations

from dataclasses import replace
from fnmatch import fnmatchcase
from typing import Any

from ..core.inferencers.lmeval_plan import SCORING_HINT, scoring_refusal
from ..core.lmeval.prompt import Request, Sample
from ..core.models.model_input import LM, find_model_class
from ..core.spec import ModelSpec, type_name
from ..loading.lmeval_tasks import LoadedTask
from .formats.json_encoding import dumps
from .render_filter import Ranges

SCHEMA = "prompt-workbench/render@1"


def request_json(request: Request, chat: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "label": request.label,
        "turn": None,
        "prompt_list": request.messages if chat and request.messages is not None else request.model_input,
        "model_input": request.model_input,
        "model_text": None,
        "wire": None,
        "continuation": request.continuation,
    }
    if request.until is not None:
        out["until"] = request.until
    if chat:
        out["messages"] = request.messages
    return out


def sample_json(sample: Sample, chat: bool) -> dict[str, Any]:
    return {"index": sample.index, "source_index": sample.index, "ice_indices": sample.shots,
            "requests": [request_json(r, chat) for r in sample.requests]}


def _in(index: int, ranges: Ranges) -> bool:
    return any(first <= index and (last is None or index <= last) for first, last in ranges)


def select(tasks: list[LoadedTask], datasets: list[str], samples: Ranges | None, limit: int | None,
           labels: list[str]) -> list[LoadedTask]:
    """``--dataset`` (task names), ``--sample`` (doc ids), ``--limit`` (per task) and ``--label``
    (choice indices) as ``render`` applies them to a config's pairs."""
    out = []
    for task in tasks:
        if datasets and not any(fnmatchcase(task.name, glob) for glob in datasets):
            continue
        kept = [s for s in task.samples if samples is None or _in(s.index, samples)]
        if limit is not None:
            kept = kept[:limit]
        if labels:
            kept = [replace(s, requests=[r for r in s.requests if str(r.label) in labels]) for s in kept]
        out.append(replace(task, samples=kept))
    return out


def document(config: str, tasks: list[LoadedTask], chat: bool) -> dict[str, Any]:
    renders, errors, warnings = [], [], []
    for task in tasks:
        if task.samples or task.error is None:
            renders.append({
                "dataset": task.name, "model": None,
                "model_kind": "chat_template" if chat else "lm",
                "inferencer": task.output_type, "rows_source": task.rows_source,
                "samples": [sample_json(s, chat) for s in task.samples],
            })
        if task.error is not None:
            error = {"dataset": task.name, "model": None, "file": task.error.file,
                     "line": task.error.line, "message": task.error.message}
            if task.error.hint:
                error["hint"] = task.error.hint
            errors.append(error)
        warnings += [warning(task.name, message) for message in task.warnings]
    return {"schema": SCHEMA, "config": config, "renders": renders, "errors": errors,
            "warnings": warnings}


def refused_pairs(tasks: list[LoadedTask], models: list[ModelSpec]) -> list[dict[str, Any]]:
    """``--models``: an error for each task and model lm-eval refuses to run together (an API
    model asked to score), located on the task's ``output_type`` line."""
    out = []
    for model in models:
        info = find_model_class(type_name(model.cfg.get("type")), model.framework)
        kind, name = (info.kind, info.name) if info is not None else (LM, type_name(model.cfg.get("type")))
        for task in tasks:
            refusal = scoring_refusal(task.output_type or "", kind, name)
            if refusal is None:
                continue
            file, line = task.where.get("output_type", (task.file, None))
            out.append({"dataset": task.name, "model": model.abbr, "file": file, "line": line,
                        "message": refusal, "hint": SCORING_HINT})
    return out


#: Said once when ``--models`` is given: the JSON's renders are the tasks' own.
MODELS_IN_JSON = ("--models: an lm-eval task's render JSON has model null: its requests are the same "
                  "for every model that takes them (the chat template is --apply-chat-template's); the "
                  "errors name each model that cannot take a task, and the other formats render each "
                  "task with each model")


def warning(task: str | None, message: str) -> dict[str, Any]:
    """One warning of the document (``task`` None: of the whole render)."""
    return {"dataset": task, "model": None, "message": message, "count": 1, "applies_to": None,
            "real_run_differs": False}


def write(doc: dict[str, Any]) -> str:
    return dumps(doc, indent=2) + "\n"
