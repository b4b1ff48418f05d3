"""BABILong: ``<task>/<split_name>.json`` (a list of samples) in the folder ``path``; each sample
becomes one prompt built from the task's instruction, examples and post-prompt (recorded
from OpenCompass by tools/gen_babilong_prompts.py) around its context and question.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ....core.errors import ConfigError
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_document, row_at

TASKS = tuple(f"qa{n}" for n in range(1, 11))
SPLITS = ("0k", "1k", "2k", "4k", "8k", "16k", "32k", "64k", "128k", "256k", "512k", "1m")


@cache
def _prompts() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", "babilong_prompts.json").read_text("utf-8")
    return json.loads(text)


def _check(value: str, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise ConfigError(f"BABILong's loader takes {what} in {', '.join(allowed)}, not {value!r}",
                          hint=f"set {what} in the dataset's config")


@native_reader("BabiLongDataset")
def read_babilong(call: ReaderCall) -> ReadResult:
    """Rows of ``prompt`` and ``answer``, each a one-item list (the loader builds them so)."""
    task, split = str(call.kwargs.get("task")), str(call.kwargs.get("split_name"))
    _check(task, TASKS, "task")
    _check(split, SPLITS, "split_name")
    prompts = _prompts()
    parts = {key: (prompts["tasks"][task][key] if call.kwargs.get(f"use_{key}", True) else "")
             for key in ("instruction", "examples", "post_prompt")}
    path = call.path() / task / f"{split}.json"
    samples = json_document(path)
    rows: list[Row] = []
    with row_at(path, None):
        for sample in samples:
            target, context, question = sample["target"], sample["input"], sample["question"]
            prompt = prompts["template"].format(**parts, context=context.strip(), question=question)
            rows.append({"prompt": [prompt.strip()], "answer": [target]})
    return from_list(rows, path)
