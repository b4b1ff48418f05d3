"""A CSV file as ``load_dataset('csv')`` holds it: pandas' ``read_csv`` with its defaults, then
Arrow.

pandas reads the first line as the header (an empty name becomes ``Unnamed: N``, a repeated one
``name.1``), skips blank lines, and types each column from all its cells: the default NA
strings (``''``, ``NA``, ``null``, ``None``, ``nan``, ...) are missing, a column of integers is
``int64`` (``float64`` when a cell is missing, so ``1`` becomes ``1.0``), of numbers
``float64``, of ``True``/``False`` bool, anything else text as written. Arrow then holds every
missing cell as None.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import re
from pathlib import Path

from ....core.errors import ConfigError
from . import Row
from ._files import csv_records

NA_STRINGS = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf|infinity)$", re.IGNORECASE)
_BOOLS = {"True": True, "TRUE": True, "true": True, "False": False, "FALSE": False, "false": False}
_INT64 = 2**63


def _header(cells: list[str]) -> list[str]:
    names: list[str] = []
    for index, cell in enumerate(cells):
        name = cell or f"Unnamed: {index}"
        base, count = name, 0
        while name in names:
            count += 1
            name = f"{base}.{count}"
        names.append(name)
    return names


def _column(cells: list[str | None]) -> list[object]:
    present = [cell for cell in cells if cell is not None]
    gaps = len(present) < len(cells)
    if present and all(_INT.match(c) and abs(int(c)) < _INT64 for c in present):
        return [None if c is None else (float(c) if gaps else int(c)) for c in cells]
    if present and all(_FLOAT.match(c) for c in present):
        return [None if c is None else float(c) for c in cells]
    if present and all(c in _BOOLS for c in present):
        return [None if c is None else _BOOLS[c] for c in cells]
    return list(cells)


def csv_rows(path: Path) -> list[Row]:
    """The rows of a CSV file with a header line, typed as pandas and Arrow type them."""
    records = [(line, cells) for line, cells in csv_records(path) if cells]
    if not records:
        raise ConfigError("the CSV file is empty: load_dataset('csv') reads its first line as the header",
                          file=str(path), hint="put the column names on the first line")
    names = _header(records[0][1])
    table: list[list[str | None]] = []
    for line, cells in records[1:]:
        if len(cells) > len(names):
            raise ConfigError(f"Expected {len(names)} fields in line {line}, saw {len(cells)}",
                              file=str(path), line=line, hint="a row has more cells than the header")
        cells = cells + [""] * (len(names) - len(cells))
        table.append([None if cell in NA_STRINGS else cell for cell in cells])
    columns = [_column([row[i] for row in table]) for i in range(len(names))]
    return [{name: column[r] for name, column in zip(names, columns)} for r in range(len(table))]
