"""Natural-language inference as JSONL (CLUE's CMNLI, SuperGLUE's AX): rows as written, with
their ``label`` words turned to option letters; unlabelled rows (``-``) dropped."""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._labels import lettered_rows

_NLI = {"entailment": "A", "contradiction": "B", "neutral": "C"}
_AX = {"entailment": "A", "not_entailment": "B"}


@native_reader("CMNLIDataset")
def read_cmnli(call: ReaderCall) -> ReadResult:
    return lettered_rows(call.path(), None, drop_unlabelled=True)


@native_reader("CMNLIDatasetV2")
def read_cmnli_v2(call: ReaderCall) -> ReadResult:
    return lettered_rows(call.path(), _NLI, drop_unlabelled=True)


@native_reader("AXDatasetV2")
def read_ax_v2(call: ReaderCall) -> ReadResult:
    """SuperGLUE's diagnostic sets (AX-b, AX-g): every row kept, labels to A/B."""
    return lettered_rows(call.path(), _AX)
