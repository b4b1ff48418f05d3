"""GSM8K: ``train.jsonl`` and ``test.jsonl`` in the dataset folder, one JSON object a line."""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import read_jsonl


@native_reader("GSM8KDataset")
def read_gsm8k(call: ReaderCall) -> ReadResult:
    """Both splits, rows as written (a blank line is an error, as in ``load()``)."""
    folder = call.path()
    return {split: read_jsonl(folder / f"{split}.jsonl") for split in ("train", "test")}
