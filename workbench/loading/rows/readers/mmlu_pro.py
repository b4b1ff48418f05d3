"""MMLU-Pro: the folder of parquet split files its release ships, one category at a time.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, row_at
from ._hf_folder import read_parquet, split_files

_LETTERS = "ABCDEFGHIJKLMNOP"
_COT_PREFIX = "A: Let's think step by step."


def _parse(row: Row) -> Row:
    """The loader's ``map``: the options as ``A. text`` lines without the ``N/A`` ones, the
    correct one's line (``''`` when none), and the chain of thought without its stock opening."""
    shown, answer_line = [], ""
    for index, option in enumerate(row["options"]):
        if option == "N/A":
            continue
        line = f"{_LETTERS[index]}. {option}\n"
        shown.append(line)
        if row["answer"] == _LETTERS[index]:
            answer_line = line
    row["answer_string"] = answer_line
    row["options_str"] = "".join(shown).strip()
    row["cot_content"] = row["cot_content"].removeprefix(_COT_PREFIX).strip()
    return row


@native_reader("MMLUProDataset")
def read_mmlu_pro(call: ReaderCall) -> ReadResult:
    """Every split ``load_dataset(path)`` finds, kept to the rows of ``category``."""
    category = call.kwargs.get("category")
    result = {}
    for split, files in split_files(call.path()).items():
        rows = []
        for path in files:
            with row_at(path, None):
                rows += [_parse(row) for row in read_parquet(path) if row["category"] == category]
        result[split] = from_list(rows, files[0])
    return result
