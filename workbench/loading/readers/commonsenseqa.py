"""CommonsenseQA: ``train_rand_split.jsonl`` and ``dev_rand_split.jsonl`` in the folder ``path``."""

from __future__ import annotations

from . import ReaderCall, ReadResult, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines


@native_reader("commonsenseqaDataset")
def read_commonsenseqa(call: ReaderCall) -> ReadResult:
    """The stem and five choices' texts (A-E) and the answer key; dev becomes ``validation``."""
    folder = call.path()
    splits = {}
    for split, stub in (("train", "train_rand_split.jsonl"), ("validation", "dev_rand_split.jsonl")):
        path = folder / stub
        rows = []
        for number, line in enumerate(text_lines(read_text(path)), 1):
            item = json_line(path, line, number, strip=False)
            with row_at(path, number):
                choices = item["question"]["choices"]
                rows.append({"question": item["question"]["stem"],
                             **{letter: choices[index]["text"] for index, letter in enumerate("ABCDE")},
                             "answerKey": item["answerKey"]})
        splits[split] = from_list(rows, path)
    return splits
