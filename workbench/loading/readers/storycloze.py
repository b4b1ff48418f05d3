"""StoryCloze (XStoryCloze): ``<lang>_train.jsonl`` and ``<lang>_eval.jsonl`` in the folder ``path``."""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines


@native_reader("StoryClozeDataset")
def read_storycloze(call: ReaderCall) -> ReadResult:
    """Both files' rows, train first, as the one ``test`` split; each row gets ``context``: its
    four sentences joined by spaces."""
    folder, lang = call.path(), call.kwargs.get("lang")
    rows: list[Row] = []
    for split in ("train", "eval"):
        path = folder / f"{lang}_{split}.jsonl"
        for number, line in enumerate(text_lines(read_text(path)), 1):
            row = json_line(path, line, number, strip=False)
            with row_at(path, number):
                row["context"] = " ".join([row[f"input_sentence_{n}"] for n in range(1, 5)])
            rows.append(row)
    return {"test": from_list(rows, folder / f"{lang}_train.jsonl")}
