"""GPQA: the CSV file ``name`` in the folder ``path``, as its release ships it (header included)."""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import at_row, iter_csv

#: The correct answer is column 8 of the file; row n (counting the header out, from 1) shows the
#: options in the order ``_ROTATIONS[n % 4]`` names, so the answer letter cycles B, C, D, A...
_ROTATIONS = ("ABCD", "BCDA", "CDAB", "DABC")


@native_reader("GPQADataset")
def read_gpqa(call: ReaderCall) -> ReadResult:
    """Rows whose question cell reads ``Question`` (headers) are skipped wherever they are."""
    path = call.path() / str(call.kwargs["name"])
    rows: list[Row] = []
    for line, cells in iter_csv(path, delimiter=","):
        with at_row(path, line):
            if cells[7] == "Question":
                continue
            options = [cells[8], cells[9], cells[10], cells[11]]
            order = _ROTATIONS[(len(rows) + 1) % 4]
            row: Row = {"question": cells[7]}
            for letter, source in zip("ABCD", order):
                row[letter] = options["ABCD".index(source)]
            for letter in "ABCD":
                if row[letter] == options[0]:
                    row["answer"] = letter
                    break
            rows.append(row)
    return rows
