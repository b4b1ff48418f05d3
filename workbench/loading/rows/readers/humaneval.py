"""HumanEval: one JSONL file, every problem repeated ``num_repeats`` times in place.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from ....core.errors import ConfigError
from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values


@native_reader("HumanevalDataset")
def read_humaneval(call: ReaderCall) -> ReadResult:
    path = call.path()
    repeats = call.kwargs.get("num_repeats", 1)
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        raise ConfigError(f"num_repeats must be an int, got {repeats!r}", hint="num_repeats=1")
    rows = [problem for problem in jsonl_values(path) for _ in range(repeats)]
    return from_list(rows, path)
