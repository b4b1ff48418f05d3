"""OpenBookQA: the JSONL file ``path`` names (``question`` with ``stem`` and four ``choices``).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import mapped_jsonl


def _rows(call: ReaderCall, stem: Callable[[str], str]) -> list[Row]:
    def build(item: dict) -> Row:
        choices = item["question"]["choices"]
        row = {letter: choices[index]["text"] for index, letter in enumerate("ABCD")}
        row["question_stem"] = stem(item["question"]["stem"])
        row["answerKey"] = item["answerKey"]
        if "fact1" in item:  # the "additional" files carry the book fact
            row["fact1"] = item["fact1"]
        return row

    return mapped_jsonl(call.path(), build)


@native_reader("OBQADataset")
def read_obqa(call: ReaderCall) -> ReadResult:
    return _rows(call, lambda stem: stem)


@native_reader("OBQADatasetV2")
def read_obqa_v2(call: ReaderCall) -> ReadResult:
    """A stem that is not a question gets `` what?`` added."""
    return _rows(call, lambda stem: stem if stem.endswith("?") else stem + " what?")
