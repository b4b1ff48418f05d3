"""MathBench: ``<path>/<name>.jsonl``; cloze sets keep question and answer, choice sets become
four circular rows a question (options rotated ABCD, BCDA, CDAB, DABC; the answer tagged
``<line>--<letter>--<pattern>``), or one row with the options listed when not circular.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import copy
from typing import Any

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, row_at

PATTERNS = ("ABCD", "BCDA", "CDAB", "DABC")


def numbered(options: list[Any]) -> str:
    """``A. first\\nB. second\\n...`` with a newline after every option."""
    return "".join(f"{chr(ord('A') + i)}. {option}\n" for i, option in enumerate(options))


def circular(entry: dict[str, Any], line: int) -> list[dict[str, Any]]:
    rows = []
    for pattern in PATTERNS:
        row = copy.deepcopy(entry)
        row["options"] = [row["options"][ord(letter) - ord("A")] for letter in pattern]
        letter = {pattern[0]: "A", pattern[1]: "B", pattern[2]: "C", pattern[3]: "D"}[row["answer"]]
        row["answer"] = f"{line}--{letter}--{pattern}"
        row["question"] = row["question"].strip() + "\n" + numbered(row["options"])
        rows.append(row)
    return rows


@native_reader("MathBenchDataset")
def read_mathbench(call: ReaderCall) -> ReadResult:
    name = str(call.kwargs.get("name"))
    path = call.path() / f"{name}.jsonl"
    with_circular = call.kwargs.get("with_circular", True)
    rows: list[dict[str, Any]] = []
    for index, entry in enumerate(jsonl_values(path, strip=False)):
        with row_at(path, index + 1):
            if "cloze" in name:
                rows.append({"question": entry["question"].strip(), "answer": entry["answer"].strip()})
            elif with_circular:
                rows.extend(circular(entry, index))
            else:
                rows.append({"question": entry["question"].strip() + "\n" + numbered(entry["options"]),
                             "answer": entry["answer"].strip()})
    return from_list(rows, path)
