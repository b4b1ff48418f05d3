"""CommonsenseQA: ``train_rand_split.jsonl`` and ``dev_rand_split.jsonl`` in the folder ``path``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import mapped_jsonl


@native_reader("commonsenseqaDataset")
def read_commonsenseqa(call: ReaderCall) -> ReadResult:
    """The stem and five choices' texts (A-E) and the answer key; dev becomes ``validation``."""
    folder = call.path()
    return {split: mapped_jsonl(folder / stub, _row)
            for split, stub in (("train", "train_rand_split.jsonl"), ("validation", "dev_rand_split.jsonl"))}


def _row(item: dict) -> Row:
    choices = item["question"]["choices"]
    return {"question": item["question"]["stem"],
            **{letter: choices[index]["text"] for index, letter in enumerate("ABCDE")},
            "answerKey": item["answerKey"]}
