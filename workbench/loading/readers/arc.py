"""ARC: JSONL rows of ``question`` (``stem`` and labelled ``choices``) and ``answerKey``."""

from __future__ import annotations

from pathlib import Path

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import at_row, parse_json, text_lines


def _rows(path: Path) -> list[Row]:
    """Questions with other than four choices are dropped; the answer key becomes the letter
    of its position (``"1"`` of labels 1-4 is ``A``). Bytes that are not UTF-8 are dropped
    (``errors='ignore'``)."""
    rows = []
    for number, line in enumerate(text_lines(path, errors="ignore"), 1):
        item = parse_json(line.strip(), path, number, "JSON line")
        with at_row(path, number):
            question = item["question"]
            if len(question["choices"]) != 4:
                continue
            labels = [choice["label"] for choice in question["choices"]]
            rows.append({
                "question": question["stem"],
                "answerKey": "ABCD"[labels.index(item["answerKey"])],
                **{f"text{letter}": question["choices"][index]["text"]
                   for index, letter in enumerate("ABCD")},
            })
    return rows


@native_reader("ARCDataset")
def read_arc(call: ReaderCall) -> ReadResult:
    """OpenCompass reads the one file ``path`` names; AISBench reads ``<name>-Dev.jsonl`` and
    ``<name>-Test.jsonl`` in the folder ``path`` names, as splits ``Dev`` and ``Test``."""
    if call.framework == "ais_bench":
        folder, name = call.path(), call.kwargs["name"]
        return {split: _rows(folder / f"{name}-{split}.jsonl") for split in ("Dev", "Test")}
    return _rows(call.path())
