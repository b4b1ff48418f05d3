"""Native readers: a dataset class's files read as its ``load()`` reads them, no framework needed.

Each reader module in this package registers the class names it stands in for with
:func:`native_reader`. A reader gets the arguments ``load()`` would get (``ReaderCall``) and
returns what ``load()`` returns, as plain rows: a list of row dicts (a ``Dataset``) or a
``{split: rows}`` dict (a ``DatasetDict``), with the same columns, the same rows in the same
order, the same split names and the same value types. Loaders build their ``Dataset`` in
different ways (``Dataset.from_list`` takes the first row's columns, ``load_dataset('json')``
the union of all rows' keys), so each reader types its rows as its loader does
(``workbench.core.arrow_rows`` has the rules).

Modules are imported on the first look-up, so start-up pays nothing for them.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Row = dict[str, Any]
#: A ``Dataset`` as a list of rows, or a ``DatasetDict`` as ``{split: rows}``.
ReadResult = list[Row] | dict[str, list[Row]]


@dataclass(frozen=True)
class ReaderCall:
    """What ``load()`` receives: the config's keyword arguments (``path`` as written, not yet
    resolved) and how to resolve a path as the framework's ``get_data_path`` would."""

    kwargs: Mapping[str, Any]
    resolve: Callable[[str], Path] = field(default=Path)
    framework: str = "opencompass"

    def path(self, key: str = "path") -> Path:
        """The argument ``key`` as a local path, resolved as the framework resolves it."""
        return self.resolve(str(self.kwargs[key]))


Reader = Callable[[ReaderCall], ReadResult]

_READERS: dict[str, Reader] = {}
_LOADED = False
_LOCK = threading.Lock()


def native_reader(*class_names: str) -> Callable[[Reader], Reader]:
    """Register a reader for the dataset classes named (the names configs write in ``type=``)."""

    def register(function: Reader) -> Reader:
        for name in class_names:
            if name in _READERS and _READERS[name] is not function:
                raise ValueError(f"two native readers for {name}")
            _READERS[name] = function
        return function

    return register


def _load_all() -> None:
    global _LOADED
    with _LOCK:
        if _LOADED:
            return
        for module in pkgutil.iter_modules(__path__):
            if not module.name.startswith("_"):
                importlib.import_module(f"{__name__}.{module.name}")
        _LOADED = True


def find_reader(class_name: str) -> Reader | None:
    """The native reader for a dataset class, or None when there is none."""
    _load_all()
    return _READERS.get(class_name)


def reader_names() -> list[str]:
    """Every class name with a native reader, sorted (for the docs and the coverage test)."""
    _load_all()
    return sorted(_READERS)
