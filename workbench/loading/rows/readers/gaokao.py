"""GAOKAO-Bench: one JSON file per question kind, its rows under ``example``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, json_document, path_plus_filename, row_at


@native_reader("GaokaoBenchDataset")
def read_gaokao_bench(call: ReaderCall) -> ReadResult:
    """The file is ``path + filename`` (the configs' filenames start with ``/``)."""
    path = path_plus_filename(call)
    data = json_document(path)
    with row_at(path, None):
        rows = list(data["example"])
    return from_list(rows, path)
