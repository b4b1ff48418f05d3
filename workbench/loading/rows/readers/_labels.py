"""Rows whose label the loader rewrites: JSONL with a ``label`` looked up in a table of letters,
and JSONL with its labels in a parallel ``.lst`` file (one per line).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import Row
from ._files import from_list, json_line, mapped_jsonl, read_text, require, row_at, text_lines


def lettered_rows(path: Path, letters: Mapping[Any, str] | str | None,
                  drop_unlabelled: bool = False) -> list[Row]:
    """Each line's object with ``letters[label]`` as its label (an unknown label fails, as the
    loader's lookup does; a string of letters is indexed by the label); rows labelled ``-``
    left out when ``drop_unlabelled``."""
    def build(row: Row) -> Row | None:
        if drop_unlabelled and row["label"] == "-":
            return None
        if letters is not None:
            row["label"] = letters[row["label"]]
        return row

    return mapped_jsonl(path, build)


def rows_with_label_file(folder: Path, data_name: str, label_name: str,
                         apply: Callable[[Row, int], None]) -> list[Row]:
    """Each row of the data file with the integer on the same line of the labels file given to
    ``apply`` (the files must have as many lines, as the loader asserts)."""
    data_path, label_path = folder / data_name, folder / label_name
    data_lines, label_lines = text_lines(read_text(data_path)), text_lines(read_text(label_path))
    require(len(data_lines) == len(label_lines), label_path, None,
            f"{len(label_lines)} labels for {len(data_lines)} rows in {data_name}",
            "the labels file has one line per row of the data file")
    rows = []
    for number, (data, label) in enumerate(zip(data_lines, label_lines, strict=True), 1):
        row = json_line(data_path, data, number)
        with row_at(label_path, number):
            apply(row, int(label.strip()))
        rows.append(row)
    return from_list(rows, data_path)
