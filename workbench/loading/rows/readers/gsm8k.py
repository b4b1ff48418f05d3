"""GSM8K: ``train.jsonl`` and ``test.jsonl`` in the data folder, every line one row.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, require


@native_reader("GSM8KDataset")
def read_gsm8k(call: ReaderCall) -> ReadResult:
    # OpenCompass and AISBench read the same layout the same way.
    folder = call.path()
    splits = {}
    for split in ("train", "test"):
        path = folder / f"{split}.jsonl"
        rows = jsonl_values(path)
        for number, row in enumerate(rows, 1):
            require(isinstance(row, dict), path, number, "a GSM8K line must be a JSON object")
        splits[split] = from_list(rows, path)
    return splits
