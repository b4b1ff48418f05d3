"""HFDataset: ``load_dataset(**kwargs)``, for the local forms the shipped configs use.

``path='json'`` (or ``'csv'``, ``'parquet'``) with ``data_files`` naming one file, which
``get_data_path(data_files, local_mode=True)`` resolves (``$COMPASS_DATA_CACHE`` joined, no data
id table); or ``path`` naming a local folder of split files. ``split='train'`` gives the rows,
no split gives ``{'train': rows}``. A hub name (``'glue'``, ``'codeparrot/apps'``) is no local
file: such a config goes by the framework route.

JSON files are read as the JSON builder's pyarrow reader reads JSON lines (columns the union of
every row's keys in the order they appear; ints beside floats become floats); CSV files as
pandas' ``read_csv`` types them (``_pandas_csv``).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError
from ....core.replicas.arrow_rows import ArrowTypeError, column_type, typed_value
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import json_line, read_text, text_lines
from ._hf_folder import read_parquet, split_files
from ._pandas_csv import csv_rows

#: The packaged builders a local ``path`` may name, and the file suffixes each reads.
BUILDERS = {"json": (".json", ".jsonl"), "csv": (".csv",), "parquet": (".parquet",)}
_SLICE = re.compile(r"^(\w+)\[(-?\d*):(-?\d*)\]$")


def _data_argument(kwargs: Mapping[str, Any]) -> str:
    return "data_files" if kwargs.get("path") in BUILDERS and "data_files" in kwargs else "path"


def json_lines_rows(path: Path) -> list[Row]:
    """A JSON-lines file as ``load_dataset('json')`` holds it: blank lines skipped, every line an
    object, columns the union of the keys in order of appearance, one Arrow type a column."""
    rows: list[Row] = []
    for number, line in enumerate(text_lines(read_text(path)), 1):
        if not line.strip():
            continue
        value = json_line(path, line, number)
        if not isinstance(value, dict):
            raise ConfigError(f"a JSON line is {type(value).__name__}, not an object of columns",
                              file=str(path), line=number,
                              hint="load_dataset('json') reads one JSON object a line")
        rows.append(value)
    return typed_rows(rows, path)


def typed_rows(rows: list[Row], path: Path) -> list[Row]:
    """Rows with every column in every row (missing ones None), each column converted to the one
    Arrow type it holds (struct fields in order of appearance); a column Arrow cannot type is an
    error, as the builder fails on it."""
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    try:
        kinds = {column: column_type(rows, column) for column in columns}
    except ArrowTypeError as exc:
        raise ConfigError(f"load_dataset cannot hold these rows: {exc}", file=str(path),
                          hint="a column mixes kinds of values (text and numbers, say)") from None
    return [{column: typed_value(row.get(column), kinds[column]) for column in columns} for row in rows]


def _read_file(path: Path, builder: str) -> list[Row]:
    if builder == "csv":
        return csv_rows(path)
    if builder == "parquet":
        return read_parquet(path)
    try:
        if not read_text(path).lstrip().startswith("["):
            return json_lines_rows(path)
    except ConfigError:
        if not _one_document(path):
            raise
    # One JSON document, not JSON lines: the builder hands it to pandas, whose typing (dates
    # sniffed, ints with gaps made floats) the native reader does not reproduce.
    raise ConfigError("this file is one JSON document, which load_dataset('json') reads with pandas; "
                      "the native reader reads JSON lines", file=str(path),
                      hint="--framework-python PATH runs the real load_dataset")


def _one_document(path: Path) -> bool:
    try:
        json.loads(read_text(path))
    except ValueError:
        return False
    return True


def _local_files(call: ReaderCall) -> dict[str, list[Path]]:
    """``{split: files}`` and the builder reading them."""
    kwargs = call.kwargs
    written = kwargs.get("path")
    if written in BUILDERS:
        data_files = kwargs.get("data_files")
        if not isinstance(data_files, str):
            # get_data_path(data_files) takes one path: a list or dict fails there
            raise ConfigError(f"HFDataset's data_files must be one file name, got {data_files!r}",
                              hint="data_files='./data/name/file.jsonl'")
        return {"train": [call.path("data_files")]}
    folder = call.path()
    suffixes = tuple(s for kinds in BUILDERS.values() for s in kinds)
    return split_files(folder, suffixes)


def _builder(files: dict[str, list[Path]], written: Any) -> str:
    if written in BUILDERS:
        return str(written)
    kinds = {name for path in (p for group in files.values() for p in group)
             for name, suffixes in BUILDERS.items() if path.suffix in suffixes}
    if len(kinds) != 1:
        first = next(iter(files.values()))[0]
        raise ConfigError(f"the data folder mixes {' and '.join(sorted(kinds))} files",
                          file=str(first.parent), hint="load_dataset(folder) reads one kind of data file")
    return kinds.pop()


def _select(result: dict[str, list[Row]], split: Any) -> ReadResult:
    if split is None:
        return result
    match = _SLICE.match(str(split))
    name = match.group(1) if match else str(split)
    if name not in result:
        raise ConfigError(f'Unknown split "{name}". Should be one of {list(result)}.',
                          hint=f"split='{next(iter(result))}'")
    rows = result[name]
    if match:
        start, stop = (int(v) if v else None for v in match.group(2, 3))
        rows = rows[start:stop]
    return rows


def _cast_like(rows: list[Row], first: list[Row], path: Path) -> list[Row]:
    """A later split cast to the first split's columns, as the builder casts every split to the
    features it took from the first: the same columns, and integral numbers into an int column;
    anything else is an error, as there."""
    if not rows or not first:
        return rows
    if list(rows[0]) != list(first[0]):
        raise ConfigError(f"this split's columns {list(rows[0])} differ from the first split's "
                          f"{list(first[0])}", file=str(path),
                          hint="load_dataset(folder) casts every split to the first split's columns")
    for column in first[0]:
        want, have = column_type(first, column), column_type(rows, column)
        if "null" in (want, have) or want == have:
            continue
        if want == "int" and have == "float" and all(r[column] is None or float(r[column]).is_integer()
                                                      for r in rows):
            rows = [{**r, column: None if r[column] is None else int(r[column])} for r in rows]
            continue
        if want == "float" and have == "int":
            rows = [{**r, column: None if r[column] is None else float(r[column])} for r in rows]
            continue
        raise ConfigError(f"column {column!r} holds other values than in the first split", file=str(path),
                          hint="load_dataset(folder) casts every split to the first split's types")
    return rows


@native_reader("HFDataset", data_argument=_data_argument)
def read_hf_dataset(call: ReaderCall) -> ReadResult:
    files = _local_files(call)
    builder = _builder(files, call.kwargs.get("path"))
    result: dict[str, list[Row]] = {}
    for split, paths in files.items():
        rows: list[Row] = []
        for path in paths:
            rows += _read_file(path, builder)
        rows = typed_rows(rows, paths[0]) if len(paths) > 1 else rows
        result[split] = _cast_like(rows, next(iter(result.values())), paths[0]) if result else rows
    return _select(result, call.kwargs.get("split"))
