"""The question/answers files of TriviaQA and Natural Questions: DPR's tab-separated release
(two cells a line, the answers a Python list literal) and the JSONL of their later versions.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import ast
from pathlib import Path

from ....core.errors import ConfigError
from . import Row
from ._files import csv_records, from_list, mapped_jsonl, require, row_at


def answers_literal(text: str, path: Path, line: int) -> object:
    """The answers cell. The loaders ``eval`` it; the workbench reads it as a literal only
    (``ast.literal_eval``), so a cell that is code is refused, never run."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ConfigError("the answers cell is not a Python literal such as ['a', 'b']",
                          file=str(path), line=line,
                          hint="the workbench reads data files, it never runs them") from None


def qa_tsv(path: Path, first_answer_only: bool) -> list[Row]:
    """Rows of ``question`` and ``answer`` (the list, or only its first item)."""
    rows = []
    for line, cells in csv_records(path, delimiter="\t"):
        require(len(cells) == 2, path, line,
                f"a line holds a question and its answers, tab-separated; this one {len(cells)} cells")
        answers = answers_literal(cells[1], path, line)
        if first_answer_only:
            with row_at(path, line):
                answers = answers[0]
        rows.append({"question": cells[0], "answer": answers})
    return from_list(rows, path)


def qa_jsonl(path: Path, first_answer_only: bool = False) -> list[Row]:
    """Rows as written (``json.loads`` of each line), ``answer`` optionally cut to its first item."""
    def build(doc: Row) -> Row:
        if first_answer_only:
            doc["answer"] = doc["answer"][0]
        return doc

    return mapped_jsonl(path, build)
