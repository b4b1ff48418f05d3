"""AFQMC (CLUE): the JSONL file ``path`` names, ``label`` 0/1 turned to A/B."""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines


@native_reader("AFQMCDatasetV2")
def read_afqmc_v2(call: ReaderCall) -> ReadResult:
    """``'AB'[int(label)]``, Python's rules included (``"1"`` and ``1.0`` give B, and so does -1)."""
    path = call.path()
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path)), 1):
        row = json_line(path, line, number, strip=False)
        with row_at(path, number):
            row["label"] = "AB"[int(row["label"])]
        rows.append(row)
    return from_list(rows, path)
