"""MATH: one JSON object of problems; each solution reduced to its last ``\\boxed{...}`` answer.

The same rows serve as the test and the train split.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from typing import Any

from ....core.spec import AISBENCH
from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, json_document, row_at

BOXED = "\\boxed{"


def boxed_answer(solution: str, strict: bool = False) -> str | None:
    """What is inside the last ``\\boxed{...}``, braces balanced; None when there is no
    closed box (``\\boxed``, else ``\\fbox``), and when the closed box is not a
    ``\\boxed{...}`` (``\\fbox{4}``): None for OpenCompass, an error for AISBench (strict)."""
    start = solution.rfind("\\boxed")
    if start < 0:
        start = solution.rfind("\\fbox")
        if start < 0:
            return None
    depth, end = 0, None
    for position in range(start, len(solution)):
        if solution[position] == "{":
            depth += 1
        elif solution[position] == "}":
            depth -= 1
            if depth == 0:
                end = position
                break
    if end is None:
        return None
    box = solution[start:end + 1]
    if not box.startswith(BOXED) or not box.endswith("}"):
        if strict:
            raise ValueError(f"the last box {box[:40]!r} is not \\boxed{{...}}")
        return None
    return box[len(BOXED):-1]


@native_reader("MATHDataset")
def read_math(call: ReaderCall) -> ReadResult:
    path = call.path() / str(call.kwargs.get("file_name", "math.json"))
    data = json_document(path)
    rows: list[dict[str, Any]] = []
    with row_at(path, None):
        for key in data:
            answer = boxed_answer(data[key]["solution"], strict=call.framework == AISBENCH)
            rows.append({"problem": data[key]["problem"], "solution": answer})
    typed = from_list(rows, path)
    return {"test": typed, "train": typed}
