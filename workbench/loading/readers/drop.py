"""DROP in the simple-evals form: the JSONL file ``path`` names, ``context`` and ``ref_text``."""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines


@native_reader("DropOpenAIDataset")
def read_drop_openai(call: ReaderCall) -> ReadResult:
    """One ``validation`` split of ``prompt`` (the context) and ``answers`` (the references)."""
    path = call.path()
    rows = []
    for number, line in enumerate(text_lines(read_text(path)), 1):
        data = json_line(path, line, number, strip=False)
        with row_at(path, number):
            rows.append({"prompt": data["context"], "answers": data["ref_text"]})
    return {"validation": from_list(rows, path)}
