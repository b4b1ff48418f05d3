"""C-Eval: ``<split>/<name>_<split>.csv`` for dev, val and test, rows keyed by the header.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import csv_records, from_list, require


@native_reader("CEvalDataset")
def read_ceval(call: ReaderCall) -> ReadResult:
    """Quirks kept: a row without ``explanation`` or ``answer`` gets it as ``''`` (after its
    other columns), a short row just lacks the last columns, and a split whose file has no
    rows is left out of the result."""
    folder, name = call.path(), call.kwargs.get("name")
    splits: dict[str, list[Row]] = {}
    for split in ("dev", "val", "test"):
        path = folder / split / f"{name}_{split}.csv"
        records = csv_records(path)
        first = next(records, None)
        require(first is not None, path, 1, "a C-Eval file starts with a header row; this one is empty")
        header = first[1]
        rows = []
        for _line, cells in records:
            row = dict(zip(header, cells))
            row.setdefault("explanation", "")
            row.setdefault("answer", "")
            rows.append(row)
        if rows:
            splits[split] = from_list(rows, path)
    return splits
