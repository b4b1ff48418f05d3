"""StrategyQA: one JSON file of question rows.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, json_document, require


@native_reader("StrategyQADataset")
def read_strategyqa(call: ReaderCall) -> ReadResult:
    path = call.path()
    rows = json_document(path)
    require(isinstance(rows, list) and all(isinstance(row, dict) for row in rows), path, None,
            "a StrategyQA file is a JSON list of row objects")
    return from_list(rows, path)
