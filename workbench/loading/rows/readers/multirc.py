"""MultiRC (SuperGLUE): JSONL passages, one row per candidate answer of each question.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines


@native_reader("MultiRCDataset")
def read_multirc(call: ReaderCall) -> ReadResult:
    """Passage text, question, the candidate answer and its 0/1 label (bytes that are not
    UTF-8 are dropped, ``errors='ignore'``)."""
    return _rows(call.path(), lambda label: label)


@native_reader("MultiRCDatasetV2")
def read_multirc_v2(call: ReaderCall) -> ReadResult:
    """As V1, the label as a letter: 1 (a correct answer) is A, 0 is B."""
    return _rows(call.path(), lambda label: "BA"[label])


def _rows(path: Path, label_of: Callable[[Any], Any]) -> list[Row]:
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path, errors="ignore")), 1):
        sample = json_line(path, line, number)
        with row_at(path, number):
            passage = sample["passage"]
            for question in passage["questions"]:
                rows += [{"text": passage["text"], "question": question["question"],
                          "answer": answer["text"], "label": label_of(answer["label"])}
                         for answer in question["answers"]]
    return from_list(rows, path)
