"""Write ``workbench/core/data/constructor_params.json``: which keyword arguments each class the
frameworks build from a config dict accepts (models, DatasetReader, prompt templates, retrievers,
inferencers), read from the real OpenCompass 0.5.4 and AISBench 3.1.20260630 with ``inspect``.

Run with the framework venv: ``$FWENV/bin/python tools/gen_constructor_params.py``.

Per class: ``params`` (the named parameters of the ``__init__`` the class runs, ``self`` left
out) and ``any`` (true when that ``__init__`` takes ``**kwargs`` and keeps them: any key is
accepted). An ``__init__`` that takes ``**kwargs`` only to hand them to its base's ``__init__``
(``super().__init__(..., **kwargs)``, seen in its source with ``ast``) accepts what that base
accepts, so its entry is the union, followed up the MRO. Classes are keyed by name, as a
config's ``type`` names them; a name two modules define with different parameters is recorded
with ``any`` (the workbench cannot tell which one a config meant). Nothing is copied: the file
holds names only.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from typing import Any

from _shared import REPO, quiet, write_json

OUT = REPO / "workbench" / "core" / "data" / "constructor_params.json"

#: (framework, the packages whose classes a config's ``type`` names, by kind)
SOURCES: dict[str, dict[str, tuple[str, ...]]] = {
    "opencompass": {
        "model": ("opencompass.models",),
        "reader": ("opencompass.openicl.icl_dataset_reader",),
        "template": ("opencompass.openicl.icl_prompt_template",
                     "opencompass.openicl.icl_raw_prompt_template"),
        "retriever": ("opencompass.openicl.icl_retriever",),
        "inferencer": ("opencompass.openicl.icl_inferencer",),
    },
    "ais_bench": {
        "model": ("ais_bench.benchmark.models",),
        "reader": ("ais_bench.benchmark.openicl.icl_dataset_reader",),
        "template": ("ais_bench.benchmark.openicl.icl_prompt_template",),
        "retriever": ("ais_bench.benchmark.openicl.icl_retriever",),
        "inferencer": ("ais_bench.benchmark.openicl.icl_inferencer",),
    },
}

#: The base class every model class shares; the other kinds are told by their name's ending.
MODEL_BASES = {
    "opencompass": ("opencompass.models.base", "BaseModel"),
    "ais_bench": ("ais_bench.benchmark.models.local_models.base", "BaseModel"),
}
SUFFIXES = {"reader": "DatasetReader", "template": "Template", "retriever": "Retriever",
            "inferencer": "Inferencer"}


def _modules(package: str) -> list[Any]:
    """The package and every module under it that imports (the rest need extras: skipped)."""
    root = importlib.import_module(package)
    found = [root]
    for info in pkgutil.walk_packages(getattr(root, "__path__", []), prefix=f"{package}."):
        try:
            with quiet():
                found.append(importlib.import_module(info.name))
        except Exception:  # a module needing an extra package is left out
            continue
    return found


def _forwards_kwargs(init: Any, var_kw: str) -> bool:
    """True when ``init``'s source hands ``**var_kw`` to a base ``__init__``."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
    except (OSError, TypeError, SyntaxError):
        return False
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "__init__"):
            continue
        if any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == var_kw
               for k in node.keywords):
            return True
    return False


def accepted(cls: type) -> tuple[set[str], bool]:
    """The keyword names ``cls(...)`` accepts, and whether it accepts any."""
    names: set[str] = set()
    for owner in cls.__mro__:
        init = owner.__dict__.get("__init__")
        if init is None:
            continue
        if owner is object:
            return names, False
        signature = inspect.signature(init)
        var_kw = None
        for p in list(signature.parameters.values())[1:]:
            if p.kind is p.VAR_KEYWORD:
                var_kw = p.name
            elif p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                names.add(p.name)
        if var_kw is None:
            return names, False
        if not _forwards_kwargs(init, var_kw):
            return names, True
    return names, True


def _classes(framework: str, kind: str) -> dict[str, dict[str, Any]]:
    base = None
    if kind == "model":
        module, name = MODEL_BASES[framework]
        base = getattr(importlib.import_module(module), name)
    out: dict[str, dict[str, Any]] = {}
    for package in SOURCES[framework][kind]:
        for module in _modules(package):
            for name, cls in vars(module).items():
                if not inspect.isclass(cls) or not cls.__module__.startswith(package.split(".")[0]):
                    continue
                if base is not None and not issubclass(cls, base):
                    continue
                if base is None and not name.endswith(SUFFIXES[kind]):
                    continue
                params, anything = accepted(cls)
                entry = {"params": sorted(params), "any": anything}
                known = out.get(name)
                if known is not None and known != entry:
                    entry = {"params": sorted(set(known["params"]) | params), "any": True}
                out[name] = entry
    return dict(sorted(out.items()))


def main() -> None:
    document: dict[str, Any] = {
        "about": "keyword arguments each class accepts, from tools/gen_constructor_params.py",
        "versions": {},
    }
    for framework in SOURCES:
        dist = "opencompass" if framework == "opencompass" else "ais_bench_benchmark"
        from importlib.metadata import version
        document["versions"][framework] = version(dist)
        with quiet():
            document[framework] = {kind: _classes(framework, kind) for kind in SOURCES[framework]}
    write_json(OUT, document)
    for framework in SOURCES:
        print(framework, {k: len(v) for k, v in document[framework].items()})


if __name__ == "__main__":
    main()
