"""CLUE's classification sets in their V2 (option-letter) form, one JSONL file each: CHID
(idioms), CLUEWSC (pronouns), CSL (keywords) and TNEWS (news topics).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import mapped_jsonl

#: TNEWS's 15 topic labels in the order of their option letters A-O.
TNEWS_TOPICS = ("news_agriculture", "news_travel", "news_game", "news_tech", "news_sports",
                "news_edu", "news_entertainment", "news_finance", "news_military", "news_car",
                "news_house", "news_world", "news_culture", "news_story", "news_stock")
_TNEWS_LETTERS = {topic: chr(ord("A") + index) for index, topic in enumerate(TNEWS_TOPICS)}


def _chid(line: dict) -> Row:
    row = {"content": line["content"].replace("#idiom#", "______")}
    for index, candidate in enumerate(line["candidates"]):
        row[chr(ord("A") + index)] = candidate
    row["answer"] = "ABCDEFG"[line["answer"]]
    return row


@native_reader("CHIDDatasetV2")
def read_chid_v2(call: ReaderCall) -> ReadResult:
    """The passage with its blank as ``______``, the candidate idioms as A, B, ..., the answer letter."""
    return mapped_jsonl(call.path(), _chid)


@native_reader("CluewscDatasetV2")
def read_cluewsc_v2(call: ReaderCall) -> ReadResult:
    return mapped_jsonl(call.path(), lambda line: {
        "span1": line["target"]["span1_text"], "span2": line["target"]["span2_text"],
        "text": line["text"], "label": {"true": "A", "false": "B"}[line["label"]]})


@native_reader("CslDatasetV2")
def read_csl_v2(call: ReaderCall) -> ReadResult:
    """The keywords joined with a full-width comma; the 0/1 label as A/B."""
    return mapped_jsonl(call.path(), lambda line: {
        "abst": line["abst"], "keywords": "，".join(line["keyword"]),
        "label": "AB"[int(line["label"])]})


@native_reader("TNewsDatasetV2")
def read_tnews_v2(call: ReaderCall) -> ReadResult:
    return mapped_jsonl(call.path(), lambda line: {
        "sentence": line["sentence"], "label_desc2": _TNEWS_LETTERS[line["label_desc"]]})
