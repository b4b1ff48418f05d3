"""BoolQ (SuperGLUE): JSONL rows kept whole, with the label or the texts rewritten per class.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from typing import Any

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, row_at


def _rows(call: ReaderCall, rewrite) -> list[dict[str, Any]]:
    path = call.path()
    rows = []
    for number, line in enumerate(jsonl_values(path, strip=False), 1):
        with row_at(path, number):
            rewrite(line)
        rows.append(line)
    return from_list(rows, path)


def _label_as_letter(line: dict[str, Any]) -> None:
    line["label"] = {"true": "A", "false": "B"}[line["label"]]


def _tidy_texts(line: dict[str, Any]) -> None:
    # the passage's title (before the first ' -- ') dropped, the question capitalised
    line["passage"] = " -- ".join(line["passage"].split(" -- ")[1:])
    line["question"] = line["question"][0].upper() + line["question"][1:]


@native_reader("BoolQDatasetV2")
def read_boolq_v2(call: ReaderCall) -> ReadResult:
    return _rows(call, _label_as_letter)


@native_reader("BoolQDatasetV3")
def read_boolq_v3(call: ReaderCall) -> ReadResult:
    return _rows(call, _tidy_texts)
