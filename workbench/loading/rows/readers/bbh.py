"""BIG-Bench Hard: ``<name>.json`` per task, its rows under ``examples``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, json_document, row_at


@native_reader("BBHDataset")
def read_bbh(call: ReaderCall) -> ReadResult:
    path = call.path() / f"{call.kwargs.get('name')}.json"
    data = json_document(path)
    with row_at(path, None):
        rows = list(data["examples"])
    return from_list(rows, path)
