"""AIME 2024: JSONL rows kept whole, ``question`` copied from ``origin_prompt`` and ``answer``
from ``gold_answer`` (appended after the row's own columns, or in place when it has them).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, row_at


@native_reader("Aime2024Dataset")
def read_aime2024(call: ReaderCall) -> ReadResult:
    path = call.path()
    rows = []
    for number, line in enumerate(jsonl_values(path, strip=False), 1):
        with row_at(path, number):
            line["question"] = line["origin_prompt"][:]
            line["answer"] = line["gold_answer"]
        rows.append(line)
    return from_list(rows, path)
