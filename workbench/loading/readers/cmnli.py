"""CMNLI (CLUE): the JSONL file ``path`` names, rows labelled entailment/contradiction/neutral."""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines

_LETTERS = {"entailment": "A", "contradiction": "B", "neutral": "C"}


@native_reader("CMNLIDatasetV2")
def read_cmnli_v2(call: ReaderCall) -> ReadResult:
    """Rows labelled ``-`` (no annotator agreement) are dropped; the others' label becomes A/B/C."""
    path = call.path()
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path)), 1):
        row = json_line(path, line, number, strip=False)
        with row_at(path, number):
            if row["label"] == "-":
                continue
            row["label"] = _LETTERS[row["label"]]
        rows.append(row)
    return from_list(rows, path)
