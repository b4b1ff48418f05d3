"""WikiBench: JSONL questions with ``options`` and an ``answer`` letter, read in one of three ways
chosen by the dataset's ``name`` (cloze, circular, plain single choice).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import copy

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, path_plus_filename, read_text, row_at, text_lines

_ROTATIONS = ("ABCD", "BCDA", "CDAB", "DABC")


def _numbered(options: list) -> str:
    return "".join(f"{chr(65 + index)}. {option}\n" for index, option in enumerate(options))


def _circular(entry: dict, index: int) -> list[Row]:
    """Four rows, the options rotated; ``answer`` says the row, letter and rotation
    (``"7--C--BCDA"``) so the evaluator can score the four together."""
    rows = []
    for order in _ROTATIONS:
        row = copy.deepcopy(entry)
        row["options"] = [entry["options"]["ABCD".index(source)] for source in order]
        letter = dict(zip(order, "ABCD", strict=True))[entry["answer"]]
        row["answer"] = f"{index}--{letter}--{order}"
        row["question"] = entry["question"].strip() + "\n" + _numbered(row["options"])
        rows.append(row)
    return rows


@native_reader("WikiBenchDataset")
def read_wikibench(call: ReaderCall) -> ReadResult:
    path, name = path_plus_filename(call), str(call.kwargs.get("name"))
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path)), 1):
        entry = json_line(path, line, number, strip=False)
        with row_at(path, number):
            if "cloze" in name:
                rows.append({"question": entry["question"].strip(), "answer": entry["answer"].strip()})
            elif "circular" in name:
                rows.extend(_circular(entry, number - 1))
            else:
                entry["question"] = entry["question"].strip() + "\n" + _numbered(entry["options"])
                rows.append(entry)
    return from_list(rows, path)
