"""Rows made from ``reader_cfg`` when there is no data: every template still renders.

Each column holds a visible placeholder (``‹question›`` in the test row,
``‹question #2›`` in train row 2), so the shape of the prompt shows without data.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.spec import type_name

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


# prompt_mm key → (content tag, the field AISBench fills from that part)
_MEDIA = {"text": ("TEXT", "question"), "image": ("IMAGE", "image"), "image_url": ("IMAGE", "image"),
          "video": ("VIDEO", "video"), "video_url": ("VIDEO", "video"),
          "audio": ("AUDIO", "audio"), "audio_url": ("AUDIO", "audio")}


def _media(prompt_template: Any) -> list[tuple[str, str]]:
    """The content parts a multimodal template fills: one per prompt_mm key it uses."""
    found: list[tuple[str, str]] = []
    template = prompt_template.get("template") if isinstance(prompt_template, Mapping) else None
    rounds = template.get("round") if isinstance(template, Mapping) else None
    for item in rounds if isinstance(rounds, list) else []:
        mm = item.get("prompt_mm") if isinstance(item, Mapping) else None
        for key in mm if isinstance(mm, Mapping) else ():
            part = _MEDIA.get(str(key))
            if part and part not in found:
                found.append(part)
    return found or [_MEDIA["text"], _MEDIA["image"]]


def _expanded_columns(infer_cfg: Mapping[str, Any]) -> list[str]:
    """Columns a RawPromptTemplate splices in with ``{'expand_column': col}``."""
    found: list[str] = []
    for key in ("ice_template", "prompt_template"):
        cfg = infer_cfg.get(key)
        messages = cfg.get("messages") if isinstance(cfg, Mapping) else None
        for item in messages if isinstance(messages, list) else []:
            column = item.get("expand_column") if isinstance(item, Mapping) else None
            if isinstance(column, str) and column not in found:
                found.append(column)
    return found


def _chat(column: str, mark: str, multiround: bool) -> list[dict[str, str]]:
    """A small chat for an expand_column: empty assistant turns are what multiround answers."""
    if multiround:
        return [{"role": "user", "content": f"‹{column}{mark} turn 0›"}, {"role": "assistant", "content": ""},
                {"role": "user", "content": f"‹{column}{mark} turn 1›"}, {"role": "assistant", "content": ""}]
    return [{"role": "user", "content": f"‹{column}{mark} turn 0›"},
            {"role": "assistant", "content": f"‹{column}{mark} reply 0›"},
            {"role": "user", "content": f"‹{column}{mark} turn 1›"}]


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
    prompt_template = infer_cfg.get("prompt_template")
    template_kind = (type_name(prompt_template.get("type", ""))
                     if isinstance(prompt_template, Mapping) else "")
    inferencer = infer_cfg.get("inferencer")
    inferencer_kind = type_name(inferencer.get("type", "")) if isinstance(inferencer, Mapping) else ""
    labels = _labels(infer_cfg)
    media = _media(prompt_template) if template_kind == "MMPromptTemplate" else []
    expanded = _expanded_columns(infer_cfg)
    multiround = isinstance(inferencer, Mapping) and bool(inferencer.get("multiround"))

    def row(n: int | None, mark: str) -> dict[str, Any]:
        out: dict[str, Any] = {c: f"‹{c}{mark}›" for c in columns}
        if template_kind == "MultiTurnPromptTemplate":
            out["question"] = [f"‹question{mark} turn {t}›" for t in (0, 1)]
            out["answer"] = [f"‹answer{mark} turn {t}›" for t in (0, 1)]
        if template_kind == "MMPromptTemplate":
            out["content"] = "".join(f"<AIS_{tag}_START>‹{field}{mark}›<AIS_CONTENT_TAG>"
                                     for tag, field in media)
        for column in expanded:
            out[column] = _chat(column, mark, multiround)
        if inferencer_kind in ("ChatInferencer", "AgentInferencer") and "dialogue" in out:
            # ChatInferencer takes a `dialogue` input column as the row's own chat
            out["dialogue"] = [*_chat("dialogue", mark, False),
                               {"role": "assistant", "content": f"‹dialogue{mark} reply 2›"}]
        if inferencer_kind == "CLPInferencer":
            # the candidate answers it scores, test row 0's: the loaders that feed it add them
            out["choices"] = [f"‹choices{mark} {k}›" for k in (0, 1)]
        if output and labels and n is not None:
            out[str(output)] = labels[n % len(labels)]
        return out

    if inferencer_kind == "LLInferencer" and "cont" not in columns:
        columns.append("cont")  # the dataset loaders that feed LLInferencer add this column
    if inferencer_kind == "InferencePPLOnlyInferencer" and "label" not in columns:
        columns.append("label")  # the token spans it scores, added by InferencePPLDataset
    needed = _needed_train_rows(infer_cfg)
    train_split = reader.get("train_split", "train")
    test_split = reader.get("test_split", "test")
    if isinstance(train_split, str) and train_split == test_split:
        # one split serves both (e.g. few-shot examples taken from the test split itself)
        return {train_split: [row(i, f" #{i}") for i in range(max(needed, TEST_ROWS))]}
    train = [row(i, f" #{i}") for i in range(needed)]
    test = [row(None, "" if i == 0 else f" (test {i})") for i in range(TEST_ROWS)]
    return {train_split if isinstance(train_split, str) else "train": train,
            test_split if isinstance(test_split, str) else "test": test}
