"""ARC: JSONL questions whose four choices become textA..textD (others are skipped).

OpenCompass reads one file (the data id names it) into a Dataset; AISBench reads
``<name>-Dev.jsonl`` and ``<name>-Test.jsonl`` from a folder into Dev/Test splits. Both
open the file with ``errors='ignore'``, so bytes that are not UTF-8 are dropped.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ....core.spec import AISBENCH
from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, row_at


def _rows(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, item in enumerate(jsonl_values(path, errors="ignore"), 1):
        with row_at(path, number):
            question = item["question"]
            if len(question["choices"]) != 4:
                continue
            labels = [choice["label"] for choice in question["choices"]]
            row = {"question": question["stem"], "answerKey": "ABCD"[labels.index(item["answerKey"])]}
            row.update({f"text{letter}": question["choices"][i]["text"] for i, letter in enumerate("ABCD")})
            rows.append(row)
    return from_list(rows, path)


@native_reader("ARCDataset")
def read_arc(call: ReaderCall) -> ReadResult:
    if call.framework == AISBENCH:
        folder, name = call.path(), call.kwargs.get("name")
        return {split: _rows(folder / f"{name}-{split}.jsonl") for split in ("Dev", "Test")}
    return _rows(call.path())
