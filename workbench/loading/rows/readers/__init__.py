"""Native readers: a dataset class's files read as its ``load()`` reads them, no framework needed.

Each reader module in this package registers the class names it stands in for with
:func:`native_reader`. A reader gets the arguments ``load()`` would get (``ReaderCall``) and
returns what ``load()`` returns, as plain rows: a list of row dicts (a ``Dataset``) or a
``{split: rows}`` dict (a ``DatasetDict``), with the same columns, the same rows in the same
order, the same split names and the same value types. Loaders build their ``Dataset`` in
different ways (``Dataset.from_list`` takes the first row's columns, ``load_dataset('json')``
the union of all rows' keys), so each reader types its rows as its loader does
(``workbench.core.replicas.arrow_rows`` has the rules).

Some frameworks ship two classes of one name in different modules (NeedleBench v1 and v2):
such a reader is registered for the modules it stands in for, and looked up by the module the
config imports the class from. A reader may also say which ``load()`` argument names its data
(``data_files`` when ``path`` is a builder name such as ``'json'``; None for a class that makes
its rows from its arguments alone).

Modules are imported on the first look-up, so start-up pays nothing for them.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError

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


class Declined(ConfigError):
    """The reader does not stand in for this call (it would take the framework's minutes of
    work, say): the rows come from the framework route when there is one, else placeholders,
    with the message said as a warning. Not an error in the config."""

#: Which ``load()`` argument names the data, given the arguments (None: no data files).
DataArgument = Callable[[Mapping[str, Any]], str | None]

_READERS: dict[str, Reader] = {}
_BY_MODULE: dict[tuple[str, str], Reader] = {}
_DATA_ARGUMENT: dict[Reader, DataArgument] = {}
_LOADED = False
_LOCK = threading.Lock()


def _path_argument(kwargs: Mapping[str, Any]) -> str | None:
    return "path"


def native_reader(*class_names: str, modules: tuple[str, ...] = (),
                  data_argument: DataArgument = _path_argument) -> Callable[[Reader], Reader]:
    """Register a reader for the dataset classes named (the names configs write in ``type=``);
    with ``modules``, only for the classes of that name defined in those modules."""

    def register(function: Reader) -> Reader:
        for name in class_names:
            for module in modules:
                if _BY_MODULE.setdefault((module, name), function) is not function:
                    raise ValueError(f"two native readers for {module}.{name}")
            if not modules and _READERS.setdefault(name, function) is not function:
                raise ValueError(f"two native readers for {name}")
        _DATA_ARGUMENT[function] = data_argument
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


def find_reader(class_name: str, module: str = "") -> Reader | None:
    """The native reader for a dataset class (defined in ``module``, as the config imports it),
    or None when there is none."""
    _load_all()
    return _BY_MODULE.get((module, class_name)) or _READERS.get(class_name)


def data_argument(reader: Reader, kwargs: Mapping[str, Any]) -> str | None:
    """The ``load()`` argument naming the data ``reader`` reads (None: it reads no files)."""
    return _DATA_ARGUMENT.get(reader, _path_argument)(kwargs)


def reader_names() -> list[str]:
    """Every class name with a native reader, sorted (for the docs and the coverage test)."""
    _load_all()
    return sorted(set(_READERS) | {name for _, name in _BY_MODULE})


def reader_modules(class_name: str) -> list[str] | None:
    """The modules whose class of this name has a native reader; None when every one has."""
    _load_all()
    if class_name in _READERS:
        return None
    return sorted(module for module, name in _BY_MODULE if name == class_name)
