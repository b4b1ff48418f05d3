"""Social IQa: ``train.jsonl``/``dev.jsonl`` with their labels in ``train-labels.lst``/``dev-labels.lst``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._labels import rows_with_label_file


def _label(row: Row, label: int) -> None:
    row["label"] = label


@native_reader("siqaDataset")
def read_siqa(call: ReaderCall) -> ReadResult:
    """Each row gets ``label``: the integer on its line of the labels file."""
    folder = call.path()
    return {"train": rows_with_label_file(folder, "train.jsonl", "train-labels.lst", _label),
            "validation": rows_with_label_file(folder, "dev.jsonl", "dev-labels.lst", _label)}
