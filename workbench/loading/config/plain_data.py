"""Plain data: what a config value becomes before it leaves the worker process.

Only dicts, lists, tuples, strings, numbers, booleans and None cross the process
boundary; classes and functions become their dotted names first.  The wire format is
JSON with every container tagged, so tuples stay tuples and dict keys keep their type
(PPL label dicts are keyed by ints), and nothing in it can run code when read.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

from json import dumps as _json_dumps
from json import loads as _json_loads
from math import isfinite as _isfinite
from typing import Any

from ...core.errors import ConfigError

MAX_DEPTH = 200


def dotted_name(value: Any) -> str:
    """``module.QualName`` for a class or function; the framework marker's own path."""
    path = getattr(value, "__workbench_path__", None)
    if isinstance(path, str):
        return path
    module = getattr(value, "__module__", "") or ""
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None) or repr(value)
    if not isinstance(module, str) or module in ("builtins", "__main__", "") or module.startswith("<"):
        return str(name)
    return f"{module}.{name}"


#: The most values (containers and leaves) one dataset or model entry may expand to: a
#: real entry has hundreds; a list shared many times over (``a = [a, a]`` forty times)
#: would otherwise expand to trillions.
MAX_VALUES = 2_000_000


class ValueBudget:
    """How many values a conversion may still make."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left

    def spend(self, count: int) -> None:
        self.left -= count
        if self.left < 0:
            raise ConfigError(f"the config's value expands to more than {MAX_VALUES:,} parts",
                              hint="a list or dict shared many times over, or rows written into "
                              "the config: keep rows in data files (--data FILE)")


def to_plain(value: Any, _seen: set[int] | None = None, _depth: int = 0,
             _budget: ValueBudget | None = None) -> Any:
    """A config value as plain data; classes, functions and markers become dotted names.

    Anything else (a set, an object made in the config) becomes its ``repr``: the
    workbench shows what the config holds and never keeps live objects.  At most
    ``MAX_VALUES`` values come out (a ConfigError past that).
    """
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    seen = _seen if _seen is not None else set()
    budget = _budget if _budget is not None else ValueBudget(MAX_VALUES)
    if _depth > MAX_DEPTH:
        raise ConfigError(f"the config nests values more than {MAX_DEPTH} levels deep")
    if isinstance(value, (dict, list, tuple)):
        if id(value) in seen:
            raise ConfigError("the config holds a structure that contains itself",
                              hint="a dict or list must not appear inside itself")
        budget.spend(len(value) + 1)
        seen.add(id(value))
        try:
            if isinstance(value, dict):
                return {plain_key(k): to_plain(v, seen, _depth + 1, budget) for k, v in dict.items(value)}
            items = [to_plain(v, seen, _depth + 1, budget) for v in value]
            return items if isinstance(value, list) else tuple(items)
        finally:
            seen.discard(id(value))
    if isinstance(getattr(value, "__workbench_path__", None), str):
        return value.__workbench_path__
    if isinstance(value, type) or callable(value):
        return dotted_name(value)
    return repr(value)


def plain_key(key: Any) -> Any:
    """A dict key as :func:`to_plain` writes it."""
    if key is None or isinstance(key, (bool, int, float, str)):
        return key
    if isinstance(key, tuple):
        return tuple(plain_key(k) for k in key)
    return to_plain(key)


# -- the wire format -------------------------------------------------------------------
# JSON, with three tagged forms: {"\u0000T": [...]} a tuple, {"\u0000D": [[k, v], ...]} a
# dict whose keys are not all strings (or that uses the tag character), {"\u0000F": "nan"}
# a float JSON cannot hold.  Everything else is JSON as it is.

_TAG = "\x00"


def _encode(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is list:
        return [_encode(v) for v in value]
    if kind is dict:
        if all(type(k) is str and not k.startswith(_TAG) for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {_TAG + "D": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if kind is tuple:
        return {_TAG + "T": [_encode(v) for v in value]}
    if kind is float:
        return value if _isfinite(value) else {_TAG + "F": repr(value)}
    raise TypeError(f"not plain data: {kind.__name__}")


def _tagged(obj: dict) -> Any:
    if len(obj) != 1:
        return obj
    ((key, body),) = obj.items()
    if key == _TAG + "T":
        return tuple(body)
    if key == _TAG + "D":
        out = {}
        for k, v in body:
            if isinstance(k, list):
                raise ValueError("unhashable key on the wire")
            out[k] = v
        return out
    if key == _TAG + "F":
        return float(body)
    return obj


def dumps(value: Any) -> bytes:
    """Plain data to bytes (raises TypeError for anything that is not plain)."""
    return _json_dumps(_encode(value), ensure_ascii=False, separators=(",", ":"),
                      check_circular=False).encode("utf-8", "surrogatepass")


def loads(data: bytes) -> Any:
    """Bytes from :func:`dumps` back to plain data (ValueError if malformed)."""
    return _json_loads(data.decode("utf-8", "surrogatepass"), object_hook=_tagged)
