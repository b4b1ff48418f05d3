"""XSum: a JSONL file of ``dialogue`` (the document) and ``summary``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines

#: The loader stops after this many lines of the file (not rows kept).
MAX_LINES = 1000


@native_reader("XsumDataset")
def read_xsum(call: ReaderCall) -> ReadResult:
    """The first 1000 lines only; a line whose document or summary is a number (NaN in the
    release) is skipped. Bytes that are not UTF-8 are dropped (``errors='ignore'``). AISBench
    reads ``dev.jsonl`` in the folder ``path`` names."""
    path = call.path() / "dev.jsonl" if call.framework == "ais_bench" else call.path()
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path, errors="ignore"))[:MAX_LINES], 1):
        sample = json_line(path, line, number)
        with row_at(path, number):
            dialogue, summary = sample["dialogue"], sample["summary"]
        if isinstance(dialogue, float) or isinstance(summary, float):
            continue
        rows.append({"dialogue": dialogue, "summary": summary})
    return from_list(rows, path)
