"""Social IQa: ``train.jsonl``/``dev.jsonl`` with their labels in ``train-labels.lst``/``dev-labels.lst``."""

from __future__ import annotations

from pathlib import Path

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, require, row_at, text_lines


def _split(folder: Path, data_name: str, label_name: str) -> list[Row]:
    """Each row of the data file gets ``label``: the integer on the same line of the labels file."""
    data_path, label_path = folder / data_name, folder / label_name
    data_lines, label_lines = text_lines(read_text(data_path)), text_lines(read_text(label_path))
    require(len(data_lines) == len(label_lines), label_path, None,
            f"{len(label_lines)} labels for {len(data_lines)} rows in {data_name}",
            "the labels file has one line per row of the data file")
    rows = []
    for number, (data, label) in enumerate(zip(data_lines, label_lines, strict=True), 1):
        row = json_line(data_path, data, number)
        with row_at(label_path, number):
            row["label"] = int(label.strip())
        rows.append(row)
    return from_list(rows, data_path)


@native_reader("siqaDataset")
def read_siqa(call: ReaderCall) -> ReadResult:
    folder = call.path()
    return {"train": _split(folder, "train.jsonl", "train-labels.lst"),
            "validation": _split(folder, "dev.jsonl", "dev-labels.lst")}
