"""BoolQ (SuperGLUE): JSONL rows of ``question``, ``passage`` and a ``label`` of true/false."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import at_row, parse_json, text_lines


def _rows(path: Path, change: Callable[[Row], None]) -> list[Row]:
    rows = []
    for number, line in enumerate(text_lines(path), 1):
        row = parse_json(line, path, number, "JSON line")
        with at_row(path, number):
            change(row)
        rows.append(row)
    return rows


def _label_letter(row: Row) -> None:
    row["label"] = {"true": "A", "false": "B"}[row["label"]]


def _trim_title(row: Row) -> None:
    # The passage starts with its page title ("Title -- text"): V3 drops that first part, and
    # capitalises the question's first letter.
    row["passage"] = " -- ".join(row["passage"].split(" -- ")[1:])
    row["question"] = row["question"][0].upper() + row["question"][1:]


@native_reader("BoolQDatasetV2")
def read_boolq_v2(call: ReaderCall) -> ReadResult:
    """Every row as written, its ``label`` turned to ``A`` (true) or ``B`` (false)."""
    return _rows(call.path(), _label_letter)


@native_reader("BoolQDatasetV3")
def read_boolq_v3(call: ReaderCall) -> ReadResult:
    return _rows(call.path(), _trim_title)
