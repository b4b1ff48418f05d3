"""MMLU, CMMLU and C-Eval: one CSV per subject (``name=``) in split sub-folders."""

from __future__ import annotations

from pathlib import Path

from ...core.errors import ConfigError
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import iter_csv, need

_CHOICES = ("A", "B", "C", "D")


@native_reader("MMLUDataset")
def read_mmlu(call: ReaderCall) -> ReadResult:
    """``<split>/<name>_<split>.csv`` for dev and test: headerless, six cells a row (question,
    four options, answer letter)."""
    folder, name = call.path(), call.kwargs["name"]
    result = {}
    for split in ("dev", "test"):
        path = folder / split / f"{name}_{split}.csv"
        rows = []
        for line, cells in iter_csv(path):
            _cells(cells, 6, path, line)
            rows.append({"input": cells[0], **dict(zip(_CHOICES, cells[1:5])), "target": cells[5]})
        result[split] = rows
    return result


@native_reader("CMMLUDataset")
def read_cmmlu(call: ReaderCall) -> ReadResult:
    """``<split>/<name>.csv`` for dev and test: a header row (skipped), then seven cells a row
    (an index, the question, four options, the answer)."""
    folder, name = call.path(), call.kwargs["name"]
    result = {}
    for split in ("dev", "test"):
        path = folder / split / f"{name}.csv"
        cells_of = iter_csv(path)
        need(next(cells_of, None) is not None, "CSV file is empty (load() expects a header row)",
             path, 1)
        rows = []
        for line, cells in cells_of:
            _cells(cells, 7, path, line)
            rows.append({"question": cells[1], **dict(zip(_CHOICES, cells[2:6])), "answer": cells[6]})
        result[split] = rows
    return result


@native_reader("CEvalDataset")
def read_ceval(call: ReaderCall) -> ReadResult:
    """``<split>/<name>_<split>.csv`` for dev, val and test, each row keyed by the header.

    Quirks kept: a row missing ``explanation`` or ``answer`` gets it as ``''`` (after the
    other columns), a short row just lacks the last columns, and a split whose file has
    no rows is not in the result at all.
    """
    folder, name = call.path(), call.kwargs["name"]
    result: dict[str, list[Row]] = {}
    for split in ("dev", "val", "test"):
        path = folder / split / f"{name}_{split}.csv"
        cells_of = iter_csv(path)
        first = next(cells_of, None)
        need(first is not None, "CSV file is empty (load() expects a header row)", path, 1)
        header = first[1]
        for _line, cells in cells_of:
            row = dict(zip(header, cells))
            row.setdefault("explanation", "")
            row.setdefault("answer", "")
            result.setdefault(split, []).append(row)
    return result


def _cells(cells: list[str], count: int, path: Path, line: int) -> None:
    if len(cells) != count:
        raise ConfigError(f"CSV row has {len(cells)} cells, the loader expects {count}",
                          file=str(path), line=line,
                          hint="this dataset's CSV files have no header and a fixed set of columns")
