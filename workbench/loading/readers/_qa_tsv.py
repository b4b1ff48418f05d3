"""The tab-separated question/answers files of TriviaQA and Natural Questions (DPR's release):
two cells a line, the answers a Python list literal."""

from __future__ import annotations

import ast
from pathlib import Path

from ...core.errors import ConfigError
from . import Row
from ._files import at_row, iter_csv, need, parse_json, text_lines


def answers_literal(text: str, path: Path, line: int) -> object:
    """The answers cell. The loaders ``eval`` it; the workbench reads it as a literal only
    (``ast.literal_eval``), so a cell that is code is refused, never run."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ConfigError("the answers cell is not a Python literal list", file=str(path),
                          line=line, hint="the workbench reads data files, it never runs them") from None


def read_qa_tsv(path: Path, first_answer_only: bool) -> list[Row]:
    """Rows of ``question`` and ``answer`` (the list, or only its first item)."""
    rows = []
    for line, cells in iter_csv(path, delimiter="\t"):
        need(len(cells) == 2, f"expected 2 tab-separated cells, got {len(cells)}", path, line)
        answers = answers_literal(cells[1], path, line)
        if first_answer_only:
            with at_row(path, line):
                answers = answers[0]  # type: ignore[index]
        rows.append({"question": cells[0], "answer": answers})
    return rows


def read_docs(path: Path, first_answer_only: bool = False) -> list[Row]:
    """JSONL rows as written (``json.loads`` of each line); optionally ``answer`` cut to its
    first item."""
    rows = []
    for number, line in enumerate(text_lines(path), 1):
        doc = parse_json(line, path, number, "JSON line")
        if first_answer_only:
            with at_row(path, number):
                doc["answer"] = doc["answer"][0]
        rows.append(doc)
    return rows
