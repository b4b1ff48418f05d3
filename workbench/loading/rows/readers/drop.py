"""DROP in the simple-evals form: the JSONL file ``path`` names, ``context`` and ``ref_text``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import mapped_jsonl


@native_reader("DropOpenAIDataset")
def read_drop_openai(call: ReaderCall) -> ReadResult:
    """One ``validation`` split of ``prompt`` (the context) and ``answers`` (the references)."""
    return {"validation": mapped_jsonl(
        call.path(), lambda data: {"prompt": data["context"], "answers": data["ref_text"]})}
