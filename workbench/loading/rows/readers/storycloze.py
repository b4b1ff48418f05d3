"""StoryCloze (XStoryCloze): ``<lang>_train.jsonl`` and ``<lang>_eval.jsonl`` in the folder ``path``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines


@native_reader("StoryClozeDataset")
def read_storycloze(call: ReaderCall) -> ReadResult:
    """Both files' rows, train first, as the one ``test`` split; each row gets ``context``: its
    four sentences joined by spaces."""
    return {"test": _rows(call, letter_answer=False)}


@native_reader("StoryClozeDatasetV2")
def read_storycloze_v2(call: ReaderCall) -> ReadResult:
    """As V1 but one plain Dataset, and ``answer_right_ending`` 1/2 as A/B."""
    return _rows(call, letter_answer=True)


def _rows(call: ReaderCall, letter_answer: bool) -> list[Row]:
    folder, lang = call.path(), call.kwargs.get("lang")
    rows: list[Row] = []
    for split in ("train", "eval"):
        path = folder / f"{lang}_{split}.jsonl"
        for number, line in enumerate(text_lines(read_text(path)), 1):
            row = json_line(path, line, number, strip=False)
            with row_at(path, number):
                row["context"] = " ".join([row[f"input_sentence_{n}"] for n in range(1, 5)])
                if letter_answer:
                    row["answer_right_ending"] = " AB"[row["answer_right_ending"]]
            rows.append(row)
    return from_list(rows, folder / f"{lang}_train.jsonl")
