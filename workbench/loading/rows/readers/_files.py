"""Files read as a loader's Python reads them: ``open(path, encoding='utf-8')`` in text mode.

Text mode turns ``\\r\\n`` and a lone ``\\r`` into ``\\n`` and keeps a UTF-8 byte-order mark
(so ``json.loads`` of a first line that starts with one fails, as it does in the framework).
Every failure is a ConfigError at the file and line, never a traceback.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError
from ....core.replicas.arrow_rows import ArrowTypeError, dataset_rows
from ...files.reading import decoded, read_regular
from ..data_files import MAX_DATA_BYTES
from ..data_paths import opencompass_data_ids

Row = dict[str, Any]


def read_text(path: Path, errors: str = "strict", encoding: str = "utf-8") -> str:
    """The file as ``open(path, encoding='utf-8', errors=errors).read()`` gives it (newlines
    translated)."""
    try:
        raw = read_regular(path, MAX_DATA_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"data file not found: {path}", file=str(path),
                          hint="the dataset class reads this file: check the data folder's layout") from None
    text = decoded(raw, path, "data file is not UTF-8", encoding, errors)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def text_lines(text: str) -> list[str]:
    """Lines as iterating a text-mode file gives them, without their ``\\n``."""
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def json_line(path: Path, line: str, number: int, strip: bool = True) -> Any:
    """``json.loads(line.strip())`` (or of the line as it is) with the failure located."""
    try:
        return json.loads(line.strip() if strip else line)
    except (ValueError, RecursionError) as exc:
        reason = "the JSON nests too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise ConfigError(f"invalid JSON line: {reason}", file=str(path), line=number,
                          hint="each line of a .jsonl file must be one JSON value") from None


def jsonl_values(path: Path, strip: bool = True, errors: str = "strict",
                 encoding: str = "utf-8") -> list[Any]:
    """Every line of a JSONL file parsed, blank lines included (they fail, as in the loader)."""
    return [json_line(path, line, number, strip)
            for number, line in enumerate(text_lines(read_text(path, errors, encoding)), 1)]


@contextmanager
def row_at(path: Path, line: int | None) -> Iterator[None]:
    """A loader's own lookups on one row (``data['query']``, ``'ABCD'[gold]``): where the
    framework raises, the reader reports the file and line instead."""
    try:
        yield
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise ConfigError(f"the dataset's loader fails on this row ({what})", file=str(path), line=line,
                          hint="the row lacks a field the loader reads, or holds another kind of "
                          "value") from None


def json_document(path: Path) -> Any:
    """``json.load(f)`` of the whole file, the failure located."""
    text = read_text(path)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        reason = "the JSON nests too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
        raise ConfigError(f"invalid JSON: {reason}", file=str(path), line=line) from None


def csv_records(path: Path, encoding: str = "utf-8", **options: Any) -> Iterator[tuple[int, list[str]]]:
    """``csv.reader(f)`` over the file: (line where the record starts, cells)."""
    reader = csv.reader(io.StringIO(read_text(path, encoding=encoding)), **options)
    start = 1
    try:
        for cells in reader:
            yield start, cells
            start = reader.line_num + 1
    except csv.Error as exc:
        raise ConfigError(f"CSV error: {exc}", file=str(path), line=reader.line_num) from None


def from_list(rows: list[Row], path: Path) -> list[Row]:
    """``Dataset.from_list(rows)`` as plain rows; a column Arrow cannot type is an error at ``path``."""
    for row in rows:
        if not isinstance(row, dict):
            # Dataset.from_list fails on these too (it reads each row's keys).
            raise ConfigError(f"a row is {type(row).__name__}, not an object of columns",
                              file=str(path), hint="each row of the file must be a JSON object")
    try:
        return dataset_rows(rows)
    except ArrowTypeError as exc:
        raise ConfigError(f"the loader's Dataset cannot hold these rows: {exc}", file=str(path),
                          hint="a column mixes kinds of values (text and numbers, say)") from None


def require(condition: bool, path: Path, line: int | None, message: str,
            hint: Callable[[], str] | str | None = None) -> None:
    """An ``assert`` in the loader: the same input fails here, located."""
    if not condition:
        raise ConfigError(message, file=str(path), line=line,
                          hint=hint() if callable(hint) else hint)


def path_plus_filename(call: Any) -> Path:
    """``get_data_path(path) + filename``, as WikiBench and GaokaoBench add the two strings: the
    file is inside the folder only when the path (or its data id's folder) ends with a slash
    or the filename starts with one; otherwise the name runs on from the folder's."""
    written = str(call.kwargs.get("path"))
    local = opencompass_data_ids().get(written, written)
    folder, filename = call.path(), str(call.kwargs.get("filename"))
    if local.endswith(("/", os.sep)):
        return folder / filename.lstrip("/")
    return Path(str(folder) + filename)


def mapped_jsonl(path: Path, build: Callable[[Any], Row | None], strip: bool = False,
                 errors: str = "strict") -> list[Row]:
    """A loader's loop over a JSONL file: ``json.loads`` of each line (of ``line.strip()`` when
    ``strip``), ``build`` turning it into a row or None to drop it, where ``build`` failing
    on a line is an error at that line; the rows typed as ``Dataset.from_list`` types them."""
    rows = []
    for number, line in enumerate(text_lines(read_text(path, errors)), 1):
        item = json_line(path, line, number, strip)
        with row_at(path, number):
            row = build(item)
        if row is not None:
            rows.append(row)
    return from_list(rows, path)
