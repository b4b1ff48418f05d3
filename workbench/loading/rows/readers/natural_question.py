"""Natural Questions: ``nq-{dev,test}.qa.csv`` (tab-separated), or NQ-Open's ``nq-open-*.jsonl``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._qa_tsv import qa_jsonl, qa_tsv


@native_reader("NaturalQuestionDataset")
def read_natural_question(call: ReaderCall) -> ReadResult:
    """Unlike TriviaQA, it is the dev split that keeps only the first answer."""
    folder = call.path()
    return {split: qa_tsv(folder / f"nq-{split}.qa.csv", first_answer_only=split == "dev")
            for split in ("dev", "test")}


@native_reader("NQOpenDataset")
def read_nq_open(call: ReaderCall) -> ReadResult:
    """The train split (the in-context examples) keeps only the first answer."""
    folder = call.path()
    return {split: qa_jsonl(folder / f"nq-open-{split}.jsonl", first_answer_only=split == "train")
            for split in ("validation", "train")}
