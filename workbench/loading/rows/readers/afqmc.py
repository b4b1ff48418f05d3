"""AFQMC (CLUE): the JSONL file ``path`` names, ``label`` 0/1 turned to A/B.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import mapped_jsonl


@native_reader("AFQMCDatasetV2")
def read_afqmc_v2(call: ReaderCall) -> ReadResult:
    """``'AB'[int(label)]``, Python's rules included (``"1"`` and ``1.0`` give B, and so does -1)."""
    def build(row: Row) -> Row:
        row["label"] = "AB"[int(row["label"])]
        return row

    return mapped_jsonl(call.path(), build)
