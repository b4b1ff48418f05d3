"""TriviaQA: ``trivia-{dev,test}.qa.csv`` (tab-separated), or V2's ``triviaqa-*.jsonl``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._qa_tsv import qa_jsonl, qa_tsv


@native_reader("TriviaQADataset")
def read_triviaqa(call: ReaderCall) -> ReadResult:
    """The test split keeps only the first answer (a string); dev keeps the list."""
    folder = call.path()
    return {split: qa_tsv(folder / f"trivia-{split}.qa.csv", first_answer_only=split == "test")
            for split in ("dev", "test")}


@native_reader("TriviaQADatasetV2")
def read_triviaqa_v2(call: ReaderCall) -> ReadResult:
    folder = call.path()
    return {split: qa_jsonl(folder / f"triviaqa-{split}.jsonl") for split in ("validation", "train")}
