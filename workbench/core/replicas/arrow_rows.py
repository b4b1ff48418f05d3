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

from typing import Any

Row = dict[str, Any]


class ArrowTypeError(ValueError):
    """Values a Dataset could not hold in one column (the framework fails the same way)."""


# The inferred type of a column, as a small tree: "null", "bool", "int", "float", "str",
# ("list", item_type) or ("struct", {field: type}).
ArrowType = Any


def _type_of(value: Any) -> ArrowType:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list | tuple):
        item: ArrowType = "null"
        for element in value:
            item = _unify(item, _type_of(element), element)
        return ("list", item)
    if isinstance(value, dict):
        return ("struct", {str(key): _type_of(field) for key, field in value.items()})
    return ("other", type(value).__name__)


def _unify(left: ArrowType, right: ArrowType, value: Any = None) -> ArrowType:
    if left == "null":
        return right
    if right == "null" or left == right:
        return left
    if isinstance(left, str) and isinstance(right, str) and {left, right} == {"int", "float"}:
        return "float"
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
    return {"str": "strings", "int": "integers", "float": "numbers", "bool": "booleans"}.get(kind, kind)


def _convert(value: Any, kind: ArrowType, sort_fields: bool) -> Any:
    if value is None:
        return None
    if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(kind, tuple) and kind[0] == "list":
        return [_convert(element, kind[1], sort_fields) for element in value]
    if isinstance(kind, tuple) and kind[0] == "struct":
        fields = sorted(kind[1]) if sort_fields else kind[1]
        return {key: _convert(value.get(key), kind[1][key], sort_fields) for key in fields}
    return value


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
    return [{column: _convert(row.get(column), kinds[column], True) for column in columns} for row in rows]
