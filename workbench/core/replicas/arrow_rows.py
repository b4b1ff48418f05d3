"""Rows as a Hugging Face ``Dataset`` types them, since every framework loader builds one.

Arrow holds one type per column, so every value is converted to it: ints beside floats
become floats, and dicts become a struct whose fields are the union of the keys seen,
missing ones None (so an API model later sends ``"name": null``). Two ways of building a
Dataset differ in the details:

- ``Dataset.from_list`` (most loaders): columns from the first row only (later rows' other
  keys are dropped), struct fields sorted by name; values Arrow cannot put in one column
  are refused, as the framework would.
- ``load_dataset('json')`` (the JSON reader): columns are the union of every row's keys, and
  struct fields keep the order they first appear in.

May import: the standard library and :mod:`workbench.core.package_data` (the generated tables);
nothing else of the workbench.
"""

from __future__ import annotations

import math
from typing import Any

Row = dict[str, Any]


#: The integers a float holds (``float(n)`` raises OverflowError past it; Arrow gives ``inf``).
_FLOAT_RANGE = 2**1024


class ArrowTypeError(ValueError):
    """Values a Dataset could not hold in one column (the framework fails the same way)."""


# The inferred type of a column, as a small tree: "null", "bool", "int", "float", "str",
# ("list", item_type) or ("struct", {field: type}).
ArrowType = Any


#: The deepest nesting of lists and objects in a value Arrow holds: ``load_dataset('json')``
#: reads 62 (Arrow's limit counts the row and the column too); ``Dataset.from_list`` fails a
#: few levels earlier, in Python's recursion (about 57 here, the deeper the stack the fewer).
MOST_NESTING = 62

#: The integers Arrow holds as integers (int64); a larger one is a float to the JSON reader
#: (``inf`` past a float's range) and an error to ``Dataset.from_list``.
_INT64 = range(-(2**63), 2**63)


def _type_of(value: Any, depth: int = 0) -> ArrowType:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if value in _INT64 else "bigint"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if depth >= MOST_NESTING and isinstance(value, list | tuple | dict):
        raise ArrowTypeError(f"a value nests lists and objects more than {MOST_NESTING} deep, "
                             "deeper than Arrow holds")
    if isinstance(value, list | tuple):
        item: ArrowType = "null"
        for element in value:
            item = _unify(item, _type_of(element, depth + 1), element)
        return ("list", item)
    if isinstance(value, dict):
        return ("struct", {str(key): _type_of(field, depth + 1) for key, field in value.items()})
    return ("other", type(value).__name__)


def _unify(left: ArrowType, right: ArrowType, value: Any = None) -> ArrowType:
    if left == "null":
        return right
    if right == "null" or left == right:
        return left
    if isinstance(left, str) and isinstance(right, str) and {left, right} <= {"int", "bigint", "float"}:
        return "float"  # (an int beside a larger one: both floats, as the JSON reader has them)
    if isinstance(left, tuple) and isinstance(right, tuple) and left[0] == right[0] == "list":
        return ("list", _unify(left[1], right[1]))
    if isinstance(left, tuple) and isinstance(right, tuple) and left[0] == right[0] == "struct":
        # the union, in the order fields first appear
        fields = dict(left[1])
        for key, kind in right[1].items():
            fields[key] = _unify(fields.get(key, "null"), kind)
        return ("struct", fields)
    raise ArrowTypeError(f"cannot hold {_describe(right)} in a column of {_describe(left)}"
                         + (f" ({value!r:.60})" if value is not None else ""))


def _describe(kind: ArrowType) -> str:
    if isinstance(kind, tuple):
        return {"list": "lists", "struct": "objects"}.get(kind[0], str(kind[1]))
    return {"str": "strings", "int": "integers", "bigint": "integers", "float": "numbers",
            "bool": "booleans"}.get(kind, kind)


def _convert(value: Any, kind: ArrowType, sort_fields: bool) -> Any:
    if value is None:
        return None
    if kind in ("float", "bigint") and isinstance(value, int) and not isinstance(value, bool):
        return float(value) if abs(value) < _FLOAT_RANGE else math.inf if value > 0 else -math.inf
    if isinstance(kind, tuple) and kind[0] == "list":
        return [_convert(element, kind[1], sort_fields) for element in value]
    if isinstance(kind, tuple) and kind[0] == "struct":
        fields = sorted(kind[1]) if sort_fields else kind[1]
        return {key: _convert(value.get(key), kind[1][key], sort_fields) for key in fields}
    return value


def _big_int_in(value: Any) -> bool:
    """Whether ``value`` holds an integer Arrow cannot hold as one (``from_list`` fails on it)."""
    if isinstance(value, int):
        return value not in _INT64
    if isinstance(value, list | tuple):
        return any(map(_big_int_in, value))
    if isinstance(value, dict):
        return any(map(_big_int_in, value.values()))
    return False


def column_type(rows: list[Row], column: str) -> ArrowType:
    """The one type Arrow infers for ``column``; ArrowTypeError when the values cannot share one."""
    kind: ArrowType = "null"
    for row in rows:
        value = row.get(column)
        try:
            kind = _unify(kind, _type_of(value), value)
        except ArrowTypeError as exc:
            raise ArrowTypeError(f"column {column!r}: {exc}") from None
    return kind


def typed_value(value: Any, kind: ArrowType, sort_fields: bool = False) -> Any:
    """``value`` converted to the column type ``kind`` (from ``column_type``)."""
    return _convert(value, kind, sort_fields)


def dataset_rows(rows: list[Row]) -> list[Row]:
    """``rows`` as ``Dataset.from_list(rows).to_list()`` returns them; ArrowTypeError when a
    column mixes values a Dataset cannot hold together."""
    if not rows:
        return []
    columns = list(rows[0])
    kinds = {column: column_type(rows, column) for column in columns}
    for column in columns:  # (after column_type: no value nests deeper than MOST_NESTING)
        if any(_big_int_in(row.get(column)) for row in rows):
            raise ArrowTypeError(f"column {column!r}: an integer does not fit in 64 bits")
    return [{column: _convert(row.get(column), kinds[column], True) for column in columns} for row in rows]
