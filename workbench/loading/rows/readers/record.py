"""ReCoRD (SuperGLUE): JSONL passages, one row per query, ``@placeholder`` shown as ``____``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines


@native_reader("ReCoRDDataset")
def read_record(call: ReaderCall) -> ReadResult:
    """The passage without its ``@highlight`` markers, the query, and every answer text (bytes
    that are not UTF-8 are dropped, ``errors='ignore'``)."""
    path = call.path()
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path, errors="ignore")), 1):
        sample = json_line(path, line, number)
        with row_at(path, number):
            text = sample["passage"]["text"].replace("@highlight", "")
            for qa in sample["qas"]:
                rows.append({"text": text, "question": qa["query"].replace("@placeholder", "____"),
                             "answers": [answer["text"] for answer in qa["answers"]]})
    return from_list(rows, path)
