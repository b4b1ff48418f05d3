"""BIG-Bench Hard: ``<name>.json`` per task, its rows under ``examples``."""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import at_row, read_json


@native_reader("BBHDataset")
def read_bbh(call: ReaderCall) -> ReadResult:
    path = call.path() / f"{call.kwargs['name']}.json"
    data = read_json(path)
    with at_row(path):
        return list(data["examples"])
