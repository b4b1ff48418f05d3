"""Sentence-pair tasks as JSONL (CLUE's CMNLI, SuperGLUE's AX, CB and WiC): rows as written,
their ``label`` words turned to option letters; CMNLI's unlabelled rows (``-``) dropped.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._labels import lettered_rows

_NLI = {"entailment": "A", "contradiction": "B", "neutral": "C"}
_AX = {"entailment": "A", "not_entailment": "B"}
_CB = {"contradiction": "A", "entailment": "B", "neutral": "C"}
_TRUE_FALSE = {"true": "A", "false": "B"}


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


@native_reader("CBDatasetV2")
def read_cb_v2(call: ReaderCall) -> ReadResult:
    """SuperGLUE CB: contradiction/entailment/neutral to A/B/C (in that order, unlike CMNLI)."""
    return lettered_rows(call.path(), _CB)


@native_reader("WiCDatasetV2")
def read_wic_v2(call: ReaderCall) -> ReadResult:
    """SuperGLUE WiC: true/false to A/B."""
    return lettered_rows(call.path(), _TRUE_FALSE)
