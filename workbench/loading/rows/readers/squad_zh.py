"""CMRC 2018 and DRCD: Chinese reading comprehension in SQuAD's JSON (``data`` → ``paragraphs``
→ ``qas``), one row per question.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_document, row_at


@native_reader("CMRCDataset", "DRCDDataset")
def read_squad_zh(call: ReaderCall) -> ReadResult:
    """Context, question and the distinct answer texts.

    The loaders take the distinct texts as ``list(set(...))``, whose order changes from run to
    run (string hashing is randomised per process); the workbench keeps them in first-seen
    order, which is one of the orders the framework can give.
    """
    path = call.path()
    data = json_document(path)
    rows: list[Row] = []
    with row_at(path, None):
        for article in data["data"]:
            for paragraph in article["paragraphs"]:
                context = paragraph["context"]
                for question in paragraph["qas"]:
                    texts = [answer["text"] for answer in question["answers"]]
                    rows.append({"context": context, "question": question["question"],
                                 "answers": list(dict.fromkeys(texts))})
    return from_list(rows, path)
