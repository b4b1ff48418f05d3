"""MATH (competition mathematics): one JSON object of ``{id: {problem, solution, ...}}``.

The loader keeps each problem and, as the solution, only the content of the last
``\\boxed{...}`` in it (None when there is none), and gives the same rows as both ``test``
and ``train``.
"""

from __future__ import annotations

from pathlib import Path

from ...core.errors import ConfigError
from . import ReaderCall, ReadResult, native_reader
from ._files import at_row, need, read_json


def last_boxed(text: str) -> str | None:
    """From the last ``\\boxed`` (else the last ``\\fbox``) to the brace that closes the first
    one opened after it, or None when there is none or it never closes."""
    start = text.rfind("\\boxed")
    if start < 0:
        start = text.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return text[start:index + 1]
    return None


def boxed_answer(solution: str, path: Path, framework: str) -> str | None:
    """What is inside ``\\boxed{...}``. Any other box (``\\fbox{..}``, ``\\boxed 5 {..}``) gives
    None in OpenCompass; AISBench refuses the file."""
    boxed = last_boxed(solution)
    if boxed is None:
        return None
    if boxed.startswith("\\boxed{"):  # it ends with "}" by construction
        return boxed[len("\\boxed{"):-1]
    if framework == "ais_bench":
        raise ConfigError(f"a solution's answer box is not \\boxed{{...}}: {boxed[:40]!r}",
                          file=str(path), hint="AISBench refuses any other box")
    return None


@native_reader("MATHDataset")
def read_math(call: ReaderCall) -> ReadResult:
    path = call.path() / str(call.kwargs.get("file_name", "math.json"))
    data = read_json(path)
    need(isinstance(data, dict), "a MATH file must be a JSON object of problems by id", path)
    rows = []
    with at_row(path):
        for key in data:
            rows.append({"problem": data[key]["problem"],
                         "solution": boxed_answer(data[key]["solution"], path, call.framework)})
    return {"test": rows, "train": list(rows)}
