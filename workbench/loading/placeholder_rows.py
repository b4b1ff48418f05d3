"""Rows made from ``reader_cfg`` when there is no data: every template still renders.

Each column holds a visible placeholder (``‹question›`` in the test row,
``‹question #2›`` in train row 2), so the shape of the prompt shows without data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.spec import type_name

TEST_ROWS = 2


def _needed_train_rows(infer_cfg: Mapping[str, Any]) -> int:
    retriever = infer_cfg.get("retriever") or {}
    inferencer = infer_cfg.get("inferencer") or {}
    need = 1
    ids = (retriever.get("fix_id_list") if isinstance(retriever, Mapping) else None) or (
        inferencer.get("fix_id_list") if isinstance(inferencer, Mapping) else None)
    if isinstance(ids, (list, tuple)) and ids and all(isinstance(i, int) for i in ids):
        need = max(need, max(ids) + 1)
    if isinstance(retriever, Mapping):
        for key in ("ice_num", "k"):
            value = retriever.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                need = max(need, value)
    return max(need, 4)


def _labels(infer_cfg: Mapping[str, Any]) -> list[Any]:
    for key in ("ice_template", "prompt_template"):
        cfg = infer_cfg.get(key)
        template = cfg.get("template") if isinstance(cfg, Mapping) else None
        if isinstance(template, Mapping) and not all(k in ("begin", "round", "end") for k in template):
            return list(template)
    return []


def placeholder_rows(cfg: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    reader = cfg.get("reader_cfg") or {}
    infer_cfg = cfg.get("infer_cfg") or {}
    if not isinstance(reader, Mapping) or not isinstance(infer_cfg, Mapping):
        return {"train": [], "test": []}
    columns = reader.get("input_columns") or []
    if isinstance(columns, str):
        columns = columns.split()
    columns = [str(c) for c in columns]
    output = reader.get("output_column")
    if output and output not in columns:
        columns.append(str(output))
    template_kind = type_name((infer_cfg.get("prompt_template") or {}).get("type", ""))
    labels = _labels(infer_cfg)

    def row(n: int | None, mark: str) -> dict[str, Any]:
        out: dict[str, Any] = {c: f"‹{c}{mark}›" for c in columns}
        if template_kind == "MultiTurnPromptTemplate":
            out["question"] = [f"‹question{mark} turn {t}›" for t in (1, 2)]
            out["answer"] = [f"‹answer{mark} turn {t}›" for t in (1, 2)]
        if template_kind == "MMPromptTemplate":
            out["content"] = (f"<AIS_TEXT_START>‹question{mark}›<AIS_CONTENT_TAG>"
                              f"<AIS_IMAGE_START>‹image{mark}›<AIS_CONTENT_TAG>")
        if output and labels and n is not None:
            out[str(output)] = labels[n % len(labels)]
        return out

    train = [row(i, f" #{i}") for i in range(_needed_train_rows(infer_cfg))]
    test = [row(None, "" if i == 0 else f" (test {i})") for i in range(TEST_ROWS)]
    return {"train": train, "test": test}
