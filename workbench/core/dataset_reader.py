"""From sample rows to the train/test splits a retriever sees.

Reproduces what the frameworks do between loading a dataset and retrieving:
Hugging Face ``datasets`` column normalisation, the ``idx``/``subdivision`` columns
``BaseDataset`` adds, the ``n`` repeats, and ``DatasetReader``'s split mapping and
``train_range``/``test_range`` selection.  Pure: rows in, rows out.

May import: the core's bottom layer and the replicas (Arrow's row typing); nothing above and
nothing outside the core.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from .errors import RenderError
from .replicas.arrow_rows import ArrowTypeError, column_type, typed_value

Row = dict[str, Any]


@dataclass(frozen=True)
class ReaderConfig:
    input_columns: tuple[str, ...]
    output_column: str | None
    train_split: str = "train"
    test_split: str = "test"
    train_range: Any = None
    test_range: Any = None

    @classmethod
    def from_cfg(cls, cfg: Any) -> ReaderConfig:
        if isinstance(cfg, tuple) and len(cfg) == 1 and isinstance(cfg[0], Mapping):
            raise RenderError(
                "reader_cfg is a tuple, not a dict: a trailing comma after dict(...) made it one",
                hint="remove the comma after reader_cfg = dict(...)",
            )
        if not isinstance(cfg, Mapping):
            raise RenderError(f"reader_cfg must be a dict, got {type(cfg).__name__}")
        columns = cfg.get("input_columns", [])
        if isinstance(columns, str):
            columns = columns.split()
        if not isinstance(columns, (list, tuple)):
            raise RenderError(
                f"reader_cfg.input_columns must be a list or a str, got {columns!r}"
            )
        output = cfg.get("output_column") or None
        if output is not None and not isinstance(output, str):
            raise RenderError(f"reader_cfg.output_column must be a str, got {output!r}")
        return cls(
            input_columns=tuple(str(c) for c in columns),
            output_column=output,
            train_split=cfg.get("train_split", "train"),
            test_split=cfg.get("test_split", "test"),
            train_range=cfg.get("train_range"),
            test_range=cfg.get("test_range"),
        )


@dataclass(frozen=True)
class Splits:
    """What a retriever works on: ``train`` (index set) and ``test`` rows."""

    train: list[Row]
    test: list[Row]
    test_source: list[int]  # each test row's position in the file's split (before ranges)


def normalize_rows(rows: Sequence[Any], where: str = "rows", copy: bool = True) -> list[Row]:
    """Rows as ``datasets``' JSON reader would hold them: every column in every row.

    Columns are the union of keys in order of first appearance; a missing value is
    None; a column mixing ints and floats holds floats (Arrow's type unification); lists
    and dicts are typed the same way inside (dicts in a column share the union of their
    keys, in order of first appearance, missing ones None). A column Arrow could not type
    (text beside numbers) is kept as written, since the workbench's own files allow it.

    ``copy=False``: rows that need no change may come back as the same dicts (for a caller
    that copies them itself).
    """
    uniform = _uniform(rows, copy)
    if uniform is not None:
        return uniform
    columns: dict[str, None] = {}
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise RenderError(
                f"{where}: row {i} is a {type(row).__name__}, not an object",
                hint="each row must be a JSON object mapping column names to values",
            )
        for key in row:
            columns.setdefault(str(key), None)
    kinds = {c: kind for c in columns if (kind := _typed_column(rows, c)) is not None}
    out: list[Row] = []
    for row in rows:
        new: Row = {}
        for c in columns:
            value = row.get(c)
            if c in kinds:
                value = typed_value(value, kinds[c])
            new[c] = value
        out.append(new)
    return out


_TYPED = (float, list, tuple, dict)


def _uniform(rows: Sequence[Any], copy: bool = True) -> list[Row] | None:
    """``normalize_rows`` of the usual file, at C speed: plain dicts with the same text columns
    in the same order and no value a type would change (None: take the general way)."""
    if not rows or set(map(type, rows)) != {dict}:
        return None
    shapes = set(map(tuple, rows))
    if len(shapes) != 1:
        return None
    (columns,) = shapes
    if not all(type(c) is str for c in columns):
        return None
    for column in columns:
        if any(issubclass(t, _TYPED) for t in set(map(type, map(itemgetter(column), rows)))):
            return None
    return list(map(dict, rows)) if copy else list(rows)


def _typed_column(rows: Sequence[Any], column: str) -> Any:
    """The column's Arrow type when converting to it can change a value (floats, nested
    values); None when nothing would change or Arrow could not type it."""
    if not any(isinstance(r.get(column), _TYPED) for r in rows):
        return None
    try:
        return column_type(list(rows), column)
    except ArrowTypeError:
        return None


_SLICE = re.compile(r"^\s*\[\s*(-?\d+)?\s*:\s*(-?\d+)?\s*(?::\s*(-?\d+)?\s*)?\]\s*$")


def select_range(rows: list[Row], positions: list[int], size: Any, name: str) -> tuple[list[Row], list[int]]:
    """``load_partial_dataset``: an int/float picks a seeded random subset, a str slices."""
    total = len(rows)
    index = list(range(total))
    if size is None:
        return rows, positions
    if isinstance(size, bool) or not isinstance(size, (int, float, str)):
        raise RenderError(f"reader_cfg.{name} must be an int, a float or a slice string, got {size!r}")
    if isinstance(size, (int, float)):
        if size >= total or size <= 0:
            return rows, positions
        if 0 < size < 1:
            size = int(size * total)
        if isinstance(size, float):
            raise RenderError(
                f"reader_cfg.{name}={size!r}: a float range must be below 1 (a fraction)",
                hint="use an int for a count, or a fraction such as 0.1",
            )
        rand = random.Random(size)
        rand.shuffle(index)
        chosen = index[:size]
    else:
        match = _SLICE.match(size)
        if not match:
            raise RenderError(
                f"reader_cfg.{name}={size!r} is not a slice such as '[:100]' or '[100:200]'",
                hint="the workbench never evaluates range strings; write a plain slice",
            )
        start, stop, step = (int(g) if g else None for g in match.groups())
        if step == 0:
            raise RenderError(f"reader_cfg.{name}={size!r}: slice step cannot be zero")
        chosen = index[slice(start, stop, step)]
    return [rows[i] for i in chosen], [positions[i] for i in chosen]


def _with_meta(rows: list[Row], subdivision: str) -> list[Row]:
    """``BaseDataset`` maps every row to add ``subdivision`` and ``idx`` (last, or in place)."""
    # (a key the row has keeps its place: a display's later key updates the earlier one);
    # copied at C speed and then set: a third faster than building each dict from the row's
    out = list(map(dict.copy, rows))
    for i, row in enumerate(out):
        row["subdivision"] = subdivision
        row["idx"] = i
    return out


def build_splits(
    source: list[Any] | Mapping[str, list[Any]],
    reader: ReaderConfig,
    abbr: str,
    framework: str = "opencompass",
    n: int = 1,
) -> Splits:
    """Rows from a data file to the reader's train/test splits, as the framework does."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise RenderError(f"dataset n={n!r} must be a positive int")
    if isinstance(source, Mapping):
        # (the rows are copied below, with their idx and subdivision)
        loaded = {str(k): normalize_rows(v, f"split {k!r}", copy=False) for k, v in source.items()}
        train_key = reader.train_split if reader.train_split in loaded else "train"
        test_key = reader.test_split if reader.test_split in loaded else "test"
        for key, wanted in ((train_key, reader.train_split), (test_key, reader.test_split)):
            if key not in loaded:
                raise RenderError(
                    f"the data has no split {wanted!r} (nor 'train'/'test'); "
                    f"splits found: {', '.join(loaded) or 'none'}",
                    hint="give the data file a key per split, or a plain list of rows",
                )
        per_split = {k: loaded[k] for k in dict.fromkeys((train_key, test_key))}
        # `subdivision` names the split the reader reads, also when the file lacks it and
        # its train/test rows stand in (they are handed over under the reader's name).
        names = {test_key: f"{abbr}_{reader.test_split}", train_key: f"{abbr}_{reader.train_split}"}
    else:
        rows = normalize_rows(source, copy=False)
        per_split = {"": rows}
        train_key = test_key = ""
        names = {"": abbr}

    if framework == "ais_bench":
        # AISBench: reader first (ranges), then idx/subdivision per mapped split,
        # then each row repeated n times in place.
        train, _train_pos = select_range(per_split[train_key], list(range(len(per_split[train_key]))),
                                        reader.train_range, "train_range")
        test, test_pos = select_range(per_split[test_key], list(range(len(per_split[test_key]))),
                                      reader.test_range, "test_range")
        train = _with_meta(train, f"{abbr}_train")
        test = _with_meta(test, f"{abbr}_test")
        train = [r for r in train for _ in range(n)]
        test = [r for r in test for _ in range(n)]
        test_pos = [p for p in test_pos for _ in range(n)]
        return Splits(train, test, test_pos)

    # OpenCompass: idx/subdivision on the loaded splits, the whole split repeated n
    # times, then the reader maps splits and applies ranges.
    mapped = {k: _with_meta(v, names[k]) * n for k, v in per_split.items()}
    positions = {k: list(range(len(v) // n)) * n if v else [] for k, v in mapped.items()}
    train, _ = select_range(mapped[train_key], positions[train_key], reader.train_range, "train_range")
    test, test_pos = select_range(mapped[test_key], positions[test_key], reader.test_range, "test_range")
    return Splits(train, test, test_pos)
