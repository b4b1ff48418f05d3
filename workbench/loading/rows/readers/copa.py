"""COPA (SuperGLUE): the JSONL file ``path`` names, its 0/1 ``label`` turned to A/B.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._labels import lettered_rows


@native_reader("COPADatasetV2")
def read_copa_v2(call: ReaderCall) -> ReadResult:
    return lettered_rows(call.path(), "AB")
