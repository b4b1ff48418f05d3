"""A stand-in for the ``datasets`` package, for lm-eval utilities when it is not installed.

Shipped lm-eval tasks' utilities import ``datasets`` at the top (``hellaswag/utils.py``) and
their ``process_docs`` call ``Dataset.map``/``filter``/``select``. Without the package (the
``lmeval`` extra) they would fail on the import; in the config worker's child this module is put
in ``sys.modules`` as ``datasets`` instead, and the task says so once. ``Dataset`` here is a list
of dict rows with the methods those utilities use, with ``datasets``' row semantics: ``map``
merges what the function returns into the row (new columns after the old ones), ``batched``
maps take and give dicts of lists. What it does not do: Arrow typing (a column mixing ints and
floats stays mixed), caching, ``shuffle`` (numpy's generator: refused, located).

May import: the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

__version__ = "0.0.0+workbench-stand-in"


class Dataset:
    """Rows as dicts, with the ``datasets.Dataset`` methods task utilities use."""

    def __init__(self, rows: Iterable[Mapping[str, Any]] = ()) -> None:
        self._rows = [dict(row) for row in rows]

    @classmethod
    def from_list(cls, rows: Iterable[Mapping[str, Any]]) -> Dataset:
        return cls(rows)

    @classmethod
    def from_dict(cls, columns: Mapping[str, list]) -> Dataset:
        return cls(_rows_of(columns))

    # -- reading --------------------------------------------------------------------------

    @property
    def column_names(self) -> list[str]:
        names: dict[str, None] = {}
        for row in self._rows:
            names.update(dict.fromkeys(row))
        return list(names)

    @property
    def features(self) -> dict[str, None]:
        return dict.fromkeys(self.column_names)

    @property
    def num_rows(self) -> int:
        return len(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (dict(row) for row in self._rows)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return [row.get(key) for row in self._rows]
        if isinstance(key, slice):
            return _columns_of(self._rows[key], self.column_names)
        return dict(self._rows[key])

    def to_list(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self._rows]

    def unique(self, column: str) -> list[Any]:
        seen: list[Any] = []
        for value in self[column]:
            if value not in seen:
                seen.append(value)
        return seen

    # -- transforming ---------------------------------------------------------------------

    def map(self, function: Callable[..., Any] | None = None, with_indices: bool = False,
            input_columns: str | list[str] | None = None, batched: bool = False,
            batch_size: int | None = 1000,
            remove_columns: str | list[str] | None = None, fn_kwargs: Mapping[str, Any] | None = None,
            **_: Any) -> Dataset:
        if function is None:
            return Dataset(self._rows)
        removed = set([remove_columns] if isinstance(remove_columns, str) else remove_columns or ())
        kwargs = dict(fn_kwargs or {})
        out: list[dict[str, Any]] = []
        if not batched:
            for i, row in enumerate(self._rows):
                got = function(*_inputs(row, input_columns), *([i] if with_indices else []), **kwargs)
                merged = {k: v for k, v in row.items() if k not in removed}
                if got is not None:
                    merged.update(got)
                out.append(merged)
            return Dataset(out)
        size = batch_size if batch_size and batch_size > 0 else max(len(self._rows), 1)
        names = self.column_names
        for start in range(0, len(self._rows), size):
            chunk = self._rows[start:start + size]
            batch = _columns_of(chunk, names)
            indices = list(range(start, start + len(chunk)))
            names_in = [input_columns] if isinstance(input_columns, str) else input_columns
            args = [batch[c] for c in names_in] if names_in else [batch]
            got = function(*args, *([indices] if with_indices else []), **kwargs) or {}
            merged = {k: v for k, v in batch.items() if k not in removed}
            merged.update(got)
            out.extend(_rows_of(merged))
        return Dataset(out)

    def filter(self, function: Callable[..., Any] | None = None, with_indices: bool = False,
               input_columns: str | list[str] | None = None, batched: bool = False,
               fn_kwargs: Mapping[str, Any] | None = None, **_: Any) -> Dataset:
        if function is None:
            return Dataset(self._rows)
        kwargs = dict(fn_kwargs or {})
        if batched:
            batch = _columns_of(self._rows, self.column_names)
            keep = function(batch, *([list(range(len(self._rows)))] if with_indices else []), **kwargs)
            return Dataset(row for row, kept in zip(self._rows, keep) if kept)
        return Dataset(row for i, row in enumerate(self._rows)
                       if function(*_inputs(row, input_columns), *([i] if with_indices else []), **kwargs))

    def select(self, indices: Iterable[int], **_: Any) -> Dataset:
        return Dataset(self._rows[i] for i in indices)

    def rename_column(self, original: str, new: str) -> Dataset:
        return self.rename_columns({original: new})

    def rename_columns(self, mapping: Mapping[str, str]) -> Dataset:
        return Dataset({mapping.get(k, k): v for k, v in row.items()} for row in self._rows)

    def remove_columns(self, columns: str | list[str]) -> Dataset:
        gone = {columns} if isinstance(columns, str) else set(columns)
        return Dataset({k: v for k, v in row.items() if k not in gone} for row in self._rows)

    def select_columns(self, columns: str | list[str]) -> Dataset:
        kept = [columns] if isinstance(columns, str) else list(columns)
        return Dataset({k: row.get(k) for k in kept} for row in self._rows)

    def add_column(self, name: str, column: list[Any], **_: Any) -> Dataset:
        return Dataset({**row, name: value} for row, value in zip(self._rows, column))

    def shuffle(self, *args: Any, **kwargs: Any) -> Dataset:
        raise NotImplementedError("Dataset.shuffle draws with numpy's generator, which the workbench's "
                                  "stand-in for datasets does not replicate: install the lmeval extra")


class DatasetDict(dict):
    """``datasets.DatasetDict``: splits by name."""


def _inputs(row: Mapping[str, Any], input_columns: str | list[str] | None) -> list[Any]:
    if input_columns is None:
        return [dict(row)]
    names = [input_columns] if isinstance(input_columns, str) else input_columns
    return [row.get(name) for name in names]


def _columns_of(rows: list[dict[str, Any]], names: list[str]) -> dict[str, list[Any]]:
    return {name: [row.get(name) for row in rows] for name in names}


def _rows_of(columns: Mapping[str, list]) -> list[dict[str, Any]]:
    lengths = {len(v) for v in columns.values()}
    if len(lengths) > 1:
        raise ValueError(f"the columns have different lengths ({sorted(lengths)}): datasets raises "
                         "ArrowInvalid")
    n = lengths.pop() if lengths else 0
    return [{k: v[i] for k, v in columns.items()} for i in range(n)]
