"""RACE: ``<split>/<name>.jsonl`` (name ``high`` or ``middle``) for validation and test."""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import at_row, parse_json, text_lines


@native_reader("RaceDataset")
def read_race(call: ReaderCall) -> ReadResult:
    """Article, question, the four ``options`` as columns A-D, and the answer letter."""
    folder, name = call.path(), call.kwargs["name"]
    result = {}
    for split in ("validation", "test"):
        path = folder / split / f"{name}.jsonl"
        rows = []
        for number, line in enumerate(text_lines(path), 1):
            item = parse_json(line, path, number, "JSON line")
            with at_row(path, number):
                rows.append({"article": item["article"], "question": item["question"],
                             **{letter: item["options"][index] for index, letter in enumerate("ABCD")},
                             "answer": item["answer"]})
        result[split] = rows
    return result
