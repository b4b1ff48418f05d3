"""Dev-only: record which dataset classes open their ``path`` as written.

Most loaders pass ``path`` through the framework's ``get_data_path`` (data ids, the data cache,
``~/.cache/opencompass``); some open it as written, relative to the working folder (or hand it
to ``load_dataset``). The workbench looks for the second kind only where the framework does
(``workbench/loading/rows/data_paths.py``). A class counts as resolving its path when its
``load`` (the one its MRO finds), a function of the framework it calls, a method of the class
it calls, or the ``load`` it reaches through ``super()`` names ``get_data_path``.

Writes ``workbench/loading/rows/data/path_as_written_classes.json``. Run it in the framework venv
(tools/setup_fwenv.sh), which has both frameworks:

    $FWENV/bin/python tools/gen_raw_path_classes.py
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import sys
import types
from typing import Any

from _shared import REPO, quiet, write_json

OUT = REPO / "workbench" / "loading" / "rows" / "data" / "path_as_written_classes.json"

FRAMEWORKS = {
    "opencompass": ("opencompass", "opencompass.datasets", "opencompass.registry",
                    "opencompass.datasets.base"),
    "ais_bench": ("ais_bench_benchmark", "ais_bench.benchmark.datasets", "ais_bench.benchmark.registry",
                  "ais_bench.benchmark.datasets.base"),
}


def _codes(function: Any) -> list[types.CodeType]:
    """The code of ``function`` and of every function nested in it."""
    code = getattr(function, "__code__", None)
    if code is None:
        return []
    found, stack = [code], [code]
    while stack:
        for const in stack.pop().co_consts:
            if isinstance(const, types.CodeType):
                found.append(const)
                stack.append(const)
    return found


def _plain(attribute: Any) -> Any:
    return getattr(attribute, "__func__", attribute)


def _resolves(function: Any, owner: type | None, top: str, seen: set[Any]) -> bool:
    """Whether ``function`` (defined in ``owner``) reaches ``get_data_path``."""
    if function in seen:
        return False
    seen.add(function)
    names_of = getattr(function, "__globals__", {})
    for code in _codes(function):
        names = set(code.co_names)
        if "get_data_path" in names:
            return True
        for name in names:
            value = names_of.get(name)
            if (isinstance(value, types.FunctionType) and (value.__module__ or "").split(".")[0] == top
                    and _resolves(value, None, top, seen)):
                return True
            if owner is not None:
                method = _plain(inspect.getattr_static(owner, name, None))
                if isinstance(method, types.FunctionType) and _resolves(method, owner, top, seen):
                    return True
        if owner is not None and {"super", "load"} <= names:
            parent = next((base for base in owner.__mro__[1:] if "load" in base.__dict__), None)
            if parent is not None and _resolves(_plain(parent.__dict__["load"]), parent, top, seen):
                return True
    return False


def survey(framework: str) -> dict[str, Any]:
    distribution, package, registry, base_module = FRAMEWORKS[framework]
    with quiet():
        importlib.import_module(package)
        registry_module = importlib.import_module(registry)
        base = importlib.import_module(base_module).BaseDataset
    top = package.split(".")[0]
    verdicts: dict[str, set[tuple[bool, bool]]] = {}
    for cls in registry_module.LOAD_DATASET.module_dict.values():
        if not isinstance(cls, type):
            continue
        owner = next((c for c in cls.__mro__ if "load" in c.__dict__), None)
        if owner is None or owner is base:
            continue
        load = owner.__dict__["load"]
        instance = isinstance(load, types.FunctionType)
        verdicts.setdefault(cls.__name__, set()).add((_resolves(_plain(load), owner, top, set()), instance))
    # a name two classes share with different verdicts is left out: the framework's own
    # get_data_path lookup is then assumed, as for every class not listed
    raw = sorted(name for name, found in verdicts.items() if not any(resolves for resolves, _ in found))
    instance = sum(1 for found in verdicts.values() if all(method for _, method in found))
    print(f"{framework}: {instance} classes define load() as an instance method", file=sys.stderr)
    return {"version": importlib.metadata.version(distribution), "classes": len(verdicts),
            "path_as_written": raw}


def main() -> int:
    document = {name: survey(name) for name in FRAMEWORKS}
    write_json(OUT, document)
    for name, entry in document.items():
        print(f"{name} {entry['version']}: {entry['classes']} classes, {len(entry['path_as_written'])} open "
              "their path as written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
