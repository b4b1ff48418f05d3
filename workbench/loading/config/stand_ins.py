"""mmengine's objects as a config sees them, rebuilt without mmengine.

``ConfigDict`` (what base-config values become), :class:`FrameworkRef` (a lazily imported
framework name, which fails when called, as mmengine's ``LazyObject`` does) and the
``mmengine.config`` module a config imports ``read_base`` from.  Behaviour copied from
mmengine 0.10, never its code.  Imports only the standard library.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any


class FrameworkRef:
    """A lazily imported name (a framework class or function): it only remembers its path."""

    __slots__ = ("__workbench_path__",)

    def __init__(self, path: str) -> None:
        object.__setattr__(self, "__workbench_path__", path)

    @property
    def path(self) -> str:
        return self.__workbench_path__

    def __getattr__(self, name: str) -> FrameworkRef:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return FrameworkRef(f"{self.__workbench_path__}.{name}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError(f"cannot set {name!r} on the lazily imported {self.__workbench_path__}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise FrameworkCall(self.__workbench_path__)

    def __repr__(self) -> str:
        return self.__workbench_path__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FrameworkRef) and other.__workbench_path__ == self.__workbench_path__

    def __hash__(self) -> int:
        return hash(self.__workbench_path__)

    def __deepcopy__(self, memo: Any) -> FrameworkRef:
        return self

    def __copy__(self) -> FrameworkRef:
        return self

    def __reduce__(self) -> tuple:
        return (FrameworkRef, (self.__workbench_path__,))

    @property
    def __name__(self) -> str:
        return self.__workbench_path__.rsplit(".", 1)[-1]

    @property
    def __module__(self) -> str:  # type: ignore[override]
        return self.__workbench_path__.rsplit(".", 1)[0]


class FrameworkCall(Exception):
    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


#: The running executor's "this copy was written where its original was" (the copies
#: ConfigDict makes keep the line of the dict or list they copy).
COPIED: ContextVar[Callable[[Any, Any], None] | None] = ContextVar("COPIED", default=None)


def _hook(value: Any) -> Any:
    """ConfigDict's ``_hook``: plain dicts become ConfigDicts, lists/tuples are rebuilt."""
    if type(value) is dict:
        made: Any = ConfigDict(value)
    elif isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        made = type(value)(_hook(v) for v in value)
    else:
        return value
    copied = COPIED.get()
    if copied is not None:
        copied(value, made)
    return made


class ConfigDict(dict):
    """mmengine's ``ConfigDict`` as config code sees it: what base-config values become.

    Attribute access, a missing key raises, values assigned are converted (so a plain
    dict stored into a base value is a copy), ``pop`` defaults to None, and ``update``
    merges nested dicts instead of replacing them.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        for arg in args:
            if not arg:
                continue
            if isinstance(arg, dict):
                for key, value in dict.items(arg):
                    self[key] = value
            elif isinstance(arg, tuple) and not isinstance(arg[0], tuple):
                self[arg[0]] = arg[1]
            else:
                for key, value in iter(arg):
                    self[key] = value
        for key, value in kwargs.items():
            self[key] = value

    def __missing__(self, name: Any) -> Any:
        raise KeyError(name)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"'ConfigDict' object has no attribute '{name}'") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __delattr__(self, name: str) -> None:
        try:
            del self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, _hook(value))

    def __copy__(self) -> ConfigDict:
        other = ConfigDict()
        for key, value in dict.items(self):
            dict.__setitem__(other, key, value)
        return other

    copy = __copy__

    def deepcopy(self) -> ConfigDict:  # addict's Dict.deepcopy, which ConfigDict inherits
        return copy.deepcopy(self)

    def freeze(self, shouldFreeze: bool = True) -> None:
        return None

    def unfreeze(self) -> None:
        return None

    def __deepcopy__(self, memo: dict) -> ConfigDict:
        other = ConfigDict()
        memo[id(self)] = other
        for key, value in dict.items(self):
            dict.__setitem__(other, copy.deepcopy(key, memo), copy.deepcopy(value, memo))
        return other

    def __reduce__(self) -> tuple:
        return (ConfigDict, (dict(self),))

    def pop(self, key: Any, default: Any = None) -> Any:
        return super().pop(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > 1:
            raise TypeError("update only accept one positional argument")
        other: dict[Any, Any] = {}
        if args:
            other.update(dict.items(args[0]) if isinstance(args[0], dict) else args[0])
        other.update(kwargs)
        for key, value in other.items():
            if key not in self or not isinstance(self[key], dict) or not isinstance(value, dict):
                self[key] = value
            else:
                self[key].update(value)

    def to_dict(self) -> dict:
        return _unconfig(self)


def _unconfig(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _unconfig(v) for k, v in dict.items(value)}
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        return type(value)(_unconfig(v) for v in value)
    return value


class FakeModule(types.ModuleType):
    """``mmengine.config`` for configs that import ``read_base`` (it does nothing here)."""


def read_base():
    class _NoOp:
        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc: Any) -> None:
            return None

    return _NoOp()
