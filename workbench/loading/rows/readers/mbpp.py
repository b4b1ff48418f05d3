"""MBPP: one JSONL file read with ``load_dataset('json')``, its first rows the train split and
the next ones the test split, each row reshaped by a ``.map``.

``Dataset.map`` keeps the columns the function returns in their place (a popped key's column
goes), and appends new ones after the rest. The test split is
repeated ``num_repeats`` times (V2, sanitized).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ....core.dataset_reader import normalize_rows
from ....core.errors import ConfigError, RenderError
from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, row_at

Row = dict[str, Any]


def _json_dataset(path: Path) -> list[Row]:
    """``load_dataset('json', data_files=path)``: every row object, typed as the JSON reader types them."""
    rows = [row for row in jsonl_values(path) if row is not None]
    try:
        return normalize_rows(rows, str(path))
    except RenderError as exc:
        raise ConfigError(exc.message, file=str(path), hint=exc.hint) from None


def _mapped(rows: list[Row], change: Callable[[Row], Row], path: Path) -> list[Row]:
    out = []
    for number, row in enumerate(rows, 1):
        with row_at(path, number):
            updated = change(dict(row))
        kept = {key: updated[key] for key in row if key in updated}
        out.append({**kept, **{key: value for key, value in updated.items() if key not in row}})
    # map re-infers the column types of what it wrote
    return from_list(out, path) if out else out


def _repeats(call: ReaderCall) -> int:
    value = call.kwargs.get("num_repeats", 1)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"num_repeats must be an int, got {value!r}", hint="num_repeats=1")
    return value


def _plain(example: Row) -> Row:
    example["test_case"] = example["test_list"]
    example["test_list"] = "\n".join(example["test_list"])
    example["test_list_2"] = example["test_list"]
    return example


def _v2(example: Row) -> Row:
    example["test_case"] = example["test_list"]
    example["test_list"] = "\n".join(example["test_list"])
    example["test_column"] = {"test_list_2": example["test_list"], "task_id": example["task_id"]}
    return example


def _sanitized(example: Row) -> Row:
    example["text"] = example.pop("prompt")
    example["test_list"] = "\n".join(example["test_list"])
    example["test_list_2"] = example["test_list"]
    example["test_column"] = {"test_list_2": example["test_list"], "task_id": example["task_id"]}
    return example


def _split(call: ReaderCall, change: Callable[[Row], Row], train: int, end: int,
           repeat: bool) -> ReadResult:
    path = call.path()
    rows = _json_dataset(path)
    test = _mapped(rows[train:end], change, path)
    return {"train": _mapped(rows[:train], change, path), "test": test * (_repeats(call) if repeat else 1)}


@native_reader("MBPPDataset")
def read_mbpp(call: ReaderCall) -> ReadResult:
    return _split(call, _plain, 10, 510, repeat=False)


@native_reader("MBPPDatasetV2")
def read_mbpp_v2(call: ReaderCall) -> ReadResult:
    return _split(call, _v2, 10, 510, repeat=True)


@native_reader("SanitizedMBPPDataset")
def read_sanitized_mbpp(call: ReaderCall) -> ReadResult:
    return _split(call, _sanitized, 7, 264, repeat=True)
