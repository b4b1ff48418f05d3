"""LAMBADA: a JSONL file of rows as written, as the one ``test`` split.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, jsonl_values


@native_reader("lambadaDataset")
def read_lambada(call: ReaderCall) -> ReadResult:
    """OpenCompass reads the file ``path`` names; AISBench reads ``test.jsonl`` in that folder."""
    path = call.path() / "test.jsonl" if call.framework == "ais_bench" else call.path()
    return {"test": from_list(jsonl_values(path, strip=False), path)}
