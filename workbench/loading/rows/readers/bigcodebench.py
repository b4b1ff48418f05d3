"""BigCodeBench: ``BigCodeBench-<release>.jsonl`` (``BigCodeBench-Hard-<release>.jsonl`` for the
hard set) in the data folder, blank lines skipped; the same rows are both the train and the
test split.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from ....core.errors import ConfigError
from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, json_line, read_text, text_lines


@native_reader("BigCodeBenchDataset")
def read_bigcodebench(call: ReaderCall) -> ReadResult:
    version = call.kwargs.get("dataset_version", "full")
    if version not in ("full", "hard"):
        raise ConfigError("dataset_version should be one of [\"full\", \"hard\"]",
                          hint="dataset_version='full' or 'hard'")
    release = call.kwargs.get("release_version", "v0.1.2")
    name = f"BigCodeBench-{release}.jsonl" if version == "full" else f"BigCodeBench-Hard-{release}.jsonl"
    path = call.path() / name
    items = [json_line(path, line, number) for number, line in enumerate(text_lines(read_text(path)), 1)
             if line.strip()]
    rows = from_list(items, path)
    return {"train": rows, "test": list(rows)}
