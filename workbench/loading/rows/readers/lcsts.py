"""LCSTS: ``test.src.txt`` (texts) and ``test.tgt.txt`` (their summaries), line by line.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, read_text, text_lines


@native_reader("LCSTSDataset")
def read_lcsts(call: ReaderCall) -> ReadResult:
    """Rows of ``content`` and ``abst``, each line stripped; the longer file's extra lines are
    ignored (the loader zips the two)."""
    folder = call.path()
    sources = text_lines(read_text(folder / "test.src.txt"))
    targets = text_lines(read_text(folder / "test.tgt.txt"))
    rows = [{"content": source.strip(), "abst": target.strip()}
            for source, target in zip(sources, targets)]
    return from_list(rows, folder / "test.src.txt")
