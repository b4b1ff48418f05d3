"""RACE: ``<split>/<name>.jsonl`` (name ``middle`` or ``high``) for validation and test.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values, row_at


@native_reader("RaceDataset")
def read_race(call: ReaderCall) -> ReadResult:
    folder, name = call.path(), call.kwargs.get("name")
    splits = {}
    for split in ("validation", "test"):
        path = folder / split / f"{name}.jsonl"
        rows = []
        for number, line in enumerate(jsonl_values(path, strip=False), 1):
            with row_at(path, number):
                rows.append({"article": line["article"], "question": line["question"],
                             **{letter: line["options"][i] for i, letter in enumerate("ABCD")},
                             "answer": line["answer"]})
        splits[split] = from_list(rows, path)
    return splits
