"""HellaSwag: JSONL rows of ``query``, four ``choices`` and the ``gold`` index."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import at_row, parse_json, text_lines


def _options(data: dict) -> Row:
    return {letter: data["choices"][index] for index, letter in enumerate("ABCD")}


def _ctx_v1(data: dict) -> Row:
    # V1 drops the first two "xxx: " prefixes (the activity label), V2 only the first.
    return {"ctx": data["query"].split(": ", 2)[-1], **_options(data), "label": data["gold"]}


def _ctx_v2(data: dict) -> Row:
    return {"ctx": data["query"].split(": ", 1)[-1], **_options(data), "label": "ABCD"[data["gold"]]}


def _query_v3(data: dict) -> Row:
    return {"query": data["query"], **_options(data), "gold": data["gold"]}


def _rows(path: Path, shape: Callable[[dict], Row]) -> list[Row]:
    rows = []
    for number, line in enumerate(text_lines(path), 1):
        data = parse_json(line, path, number, "JSON line")
        with at_row(path, number):
            rows.append(shape(data))
    return rows


@native_reader("HellaswagDataset")
def read_hellaswag(call: ReaderCall) -> ReadResult:
    return _rows(call.path(), _ctx_v1)


@native_reader("HellaswagDataset_V2")
def read_hellaswag_v2(call: ReaderCall) -> ReadResult:
    return _rows(call.path(), _ctx_v2)


@native_reader("HellaswagDataset_V3")
def read_hellaswag_v3(call: ReaderCall) -> ReadResult:
    return _rows(call.path(), _query_v3)


@native_reader("HellaswagDatasetwithICE")
def read_hellaswag_with_ice(call: ReaderCall) -> ReadResult:
    """The folder's sampled train file (the in-context examples) and the validation file."""
    folder = call.path()
    return {"train": _rows(folder / "hellaswag_train_sampled25.jsonl", _ctx_v2),
            "val": _rows(folder / "hellaswag.jsonl", _ctx_v2)}
