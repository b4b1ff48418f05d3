"""PIQA: ``train.jsonl``/``dev.jsonl`` with their labels in ``train-labels.lst``/``dev-labels.lst``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._labels import rows_with_label_file


def _answer(row: Row, label: int) -> None:
    # A negative label (the unlabelled test set) reads NULL; the row's id is dropped.
    row["answer"] = "NULL" if label < 0 else "AB"[label]
    del row["id"]


def _label(row: Row, label: int) -> None:
    row["label"] = label
    del row["id"]


@native_reader("PIQADataset")
def read_piqa(call: ReaderCall) -> ReadResult:
    """Each row gets its integer ``label``; the row's id is dropped."""
    folder = call.path()
    return {"train": rows_with_label_file(folder, "train.jsonl", "train-labels.lst", _label),
            "validation": rows_with_label_file(folder, "dev.jsonl", "dev-labels.lst", _label)}


@native_reader("PIQADatasetV2")
def read_piqa_v2(call: ReaderCall) -> ReadResult:
    folder = call.path()
    return {"train": rows_with_label_file(folder, "train.jsonl", "train-labels.lst", _answer),
            "validation": rows_with_label_file(folder, "dev.jsonl", "dev-labels.lst", _answer)}
