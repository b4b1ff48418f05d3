"""MMLU (and ArabicMMLU, read the same way): headerless six-column CSVs,
``<split>/<name>_<split>.csv`` for the dev and test splits.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import csv_records, from_list, require

COLUMNS = ("input", "A", "B", "C", "D", "target")


@native_reader("MMLUDataset", "MMLUArabicDataset")
def read_mmlu(call: ReaderCall) -> ReadResult:
    folder = call.path()
    name = call.kwargs.get("name")
    splits = {}
    for split in ("dev", "test"):
        path = folder / split / f"{name}_{split}.csv"
        rows = []
        for line, cells in csv_records(path):
            require(len(cells) == len(COLUMNS), path, line,
                    f"an MMLU row has {len(COLUMNS)} cells (question, A-D, answer), this one {len(cells)}",
                    "MMLU CSVs have no header: question,A,B,C,D,answer on every line")
            rows.append(dict(zip(COLUMNS, cells, strict=True)))
        splits[split] = from_list(rows, path)
    return splits
