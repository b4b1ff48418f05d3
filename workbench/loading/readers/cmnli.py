"""Natural-language inference as JSONL (CLUE's CMNLI, SuperGLUE's AX): rows as written, with
their ``label`` words turned to option letters; unlabelled rows (``-``) dropped."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines

_NLI = {"entailment": "A", "contradiction": "B", "neutral": "C"}
_AX = {"entailment": "A", "not_entailment": "B"}


def labelled_rows(path: Path, letters: Mapping[str, str] | None, drop_unlabelled: bool) -> list[Row]:
    """Each line's object; ``label`` looked up in ``letters`` (an unknown label fails, as the
    loader's dict lookup does), rows labelled ``-`` left out when ``drop_unlabelled``."""
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path)), 1):
        row = json_line(path, line, number, strip=False)
        with row_at(path, number):
            if drop_unlabelled and row["label"] == "-":
                continue
            if letters is not None:
                row["label"] = letters[row["label"]]
        rows.append(row)
    return from_list(rows, path)


@native_reader("CMNLIDataset")
def read_cmnli(call: ReaderCall) -> ReadResult:
    return labelled_rows(call.path(), None, drop_unlabelled=True)


@native_reader("CMNLIDatasetV2")
def read_cmnli_v2(call: ReaderCall) -> ReadResult:
    return labelled_rows(call.path(), _NLI, drop_unlabelled=True)


@native_reader("AXDatasetV2")
def read_ax_v2(call: ReaderCall) -> ReadResult:
    """SuperGLUE's diagnostic sets (AX-b, AX-g): every row kept, labels to A/B."""
    return labelled_rows(call.path(), _AX, drop_unlabelled=False)
