"""GPQA: the CSV file ``name`` in the folder ``path``, as its release ships it (header included).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import csv_records, from_list, row_at

#: The correct answer is the file's column 8; the n-th question (from 1, headers not counted)
#: shows the options in the order ``_ROTATIONS[n % 4]``, so its letter cycles D, C, B, A, ...
_ROTATIONS = ("ABCD", "BCDA", "CDAB", "DABC")


@native_reader("GPQADataset")
def read_gpqa(call: ReaderCall) -> ReadResult:
    """Rows whose question cell reads ``Question`` (headers) are skipped wherever they are; with
    two equal options the answer is the first letter showing that text."""
    path = call.path() / str(call.kwargs.get("name"))
    rows: list[Row] = []
    for line, cells in csv_records(path, delimiter=","):
        with row_at(path, line):
            if cells[7] == "Question":
                continue
            options = [cells[8], cells[9], cells[10], cells[11]]
        order = _ROTATIONS[(len(rows) + 1) % 4]
        row: Row = {"question": cells[7]}
        for letter, source in zip("ABCD", order, strict=True):
            row[letter] = options["ABCD".index(source)]
        for letter in "ABCD":
            if row[letter] == options[0]:
                row["answer"] = letter
                break
        rows.append(row)
    return from_list(rows, path)
