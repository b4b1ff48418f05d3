"""CMMLU: ``<split>/<name>.csv`` for dev and test, a header row then seven cells a row.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import csv_records, from_list, require


@native_reader("CMMLUDataset")
def read_cmmlu(call: ReaderCall) -> ReadResult:
    """The header is skipped unread; each row is an index, the question, four options and the
    answer."""
    folder, name = call.path(), call.kwargs.get("name")
    splits = {}
    for split in ("dev", "test"):
        path = folder / split / f"{name}.csv"
        records = csv_records(path)
        require(next(records, None) is not None, path, 1,
                "a CMMLU file starts with a header row; this one is empty")
        rows = []
        for line, cells in records:
            require(len(cells) == 7, path, line,
                    f"a CMMLU row has 7 cells (index, question, A-D, answer), this one {len(cells)}")
            rows.append({"question": cells[1], "A": cells[2], "B": cells[3], "C": cells[4],
                         "D": cells[5], "answer": cells[6]})
        splits[split] = from_list(rows, path)
    return splits
