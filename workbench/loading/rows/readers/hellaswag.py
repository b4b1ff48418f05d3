"""HellaSwag: JSONL rows of ``query``, four ``choices`` and ``gold``, reshaped per class.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, row_at


def _rows(path: Path, shape) -> list[dict[str, Any]]:
    rows = []
    for number, data in enumerate(jsonl_values(path, strip=False), 1):
        with row_at(path, number):
            rows.append(shape(data))
    return from_list(rows, path)


def _choices(data: dict[str, Any]) -> dict[str, Any]:
    return {letter: data["choices"][i] for i, letter in enumerate("ABCD")}


def _context_v1(data: dict[str, Any]) -> dict[str, Any]:
    # the query's first two ': ' separated parts dropped
    return {"ctx": data["query"].split(": ", 2)[-1], **_choices(data), "label": data["gold"]}


def _context_v2(data: dict[str, Any]) -> dict[str, Any]:
    return {"ctx": data["query"].split(": ", 1)[-1], **_choices(data), "label": "ABCD"[data["gold"]]}


def _query_v3(data: dict[str, Any]) -> dict[str, Any]:
    return {"query": data["query"], **_choices(data), "gold": data["gold"]}


@native_reader("HellaswagDataset")
def read_hellaswag(call: ReaderCall) -> ReadResult:
    return _rows(call.path(), _context_v1)


@native_reader("HellaswagDataset_V2")
def read_hellaswag_v2(call: ReaderCall) -> ReadResult:
    return _rows(call.path(), _context_v2)


@native_reader("HellaswagDataset_V3")
def read_hellaswag_v3(call: ReaderCall) -> ReadResult:
    return _rows(call.path(), _query_v3)


@native_reader("HellaswagDatasetwithICE")
def read_hellaswag_with_ice(call: ReaderCall) -> ReadResult:
    folder = call.path()
    return {"train": _rows(folder / "hellaswag_train_sampled25.jsonl", _context_v2),
            "val": _rows(folder / "hellaswag.jsonl", _context_v2)}
