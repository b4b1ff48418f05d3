"""One config file → its datasets and models as plain data (what the worker sends back).

Which names hold them, as the frameworks' command lines read a config: ``datasets``
when the config defines it, else every ``*_datasets`` list (what ``--datasets NAME``
collects); ``models`` (what both a top-level config and ``--models NAME`` give).  Names
bound by import statements are not part of the config (mmengine's ``to_dict`` drops them).

Each entry is converted on its own, so one bad dataset spoils only itself.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import Any

from ...core.errors import ConfigError
from .analysis import is_stdlib
from .executor import FRAMEWORK_ROOTS, Executor
from .plain_data import MAX_DEPTH, MAX_VALUES, ValueBudget, dotted_name, plain_key, to_plain
from .stand_ins import FrameworkRef


def error_dict(error: ConfigError) -> dict[str, Any]:
    return {"message": error.message, "file": error.file, "line": error.line, "hint": error.hint}


def _collect(names: Mapping[str, Any], lines: Mapping[str, tuple[str, int]], exact: str,
             suffix: str | None, kind: str, warnings: list[str]) -> list[tuple[Any, tuple[str, int] | None]]:
    """``exact`` if defined, else every ``*suffix`` list, in definition order."""
    if exact in names:
        value = names[exact]
        if not isinstance(value, (list, tuple)):
            file, line = lines.get(exact, (None, None))
            raise ConfigError(f"`{exact}` must be a list of {kind} dicts, got {type(value).__name__}",
                              file=file, line=line, hint=f"{exact} = [dict(...), ...]")
        found = [(item, lines.get(exact)) for item in value]
    elif suffix is None:
        found = []
    else:
        found = []
        for name, value in names.items():
            if not name.endswith(suffix):
                continue
            if isinstance(value, (list, tuple)):
                found += [(item, lines.get(name)) for item in value]
            else:
                warnings.append(f"{name} is a {type(value).__name__}, not a list of {kind} "
                                "dicts; skipped")
    unique: list[tuple[Any, tuple[str, int] | None]] = []
    seen: set[int] = set()
    for item, where in found:
        if id(item) in seen:
            continue
        seen.add(id(item))
        unique.append((item, where))
    return unique


def _type_note(kind: Any, out: dict[str, str]) -> None:
    """A dict's ``type`` the frameworks would not know: from another package, or made in the config."""
    if isinstance(kind, FrameworkRef):
        root = kind.path.split(".", 1)[0]
        if root not in FRAMEWORK_ROOTS:
            out.setdefault(kind.path, f"type {kind.path} comes from {root}, not from "
                           "OpenCompass/AISBench; kept as the name "
                           f"{kind.path.rsplit('.', 1)[-1]!r}")
    elif kind is not None and not isinstance(kind, str) and callable(kind):
        name = dotted_name(kind)
        module = getattr(kind, "__module__", "") or ""
        # classes made in a config get module 'builtins' (mmengine runs configs without
        # __name__), so a real builtin is told apart by identity
        real_builtin = getattr(builtins, name, None) is kind
        if not real_builtin and not (isinstance(module, str) and module != "builtins"
                                     and is_stdlib(module)):
            out.setdefault(name, f"type {name} is defined in the config, not by a "
                           f"framework; kept as the name {name.rsplit('.', 1)[-1]!r}")


def _type_notes(value: Any, out: dict[str, str]) -> None:
    """Types the frameworks would not know, in every dict inside ``value``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            _type_note(dict.get(item, "type"), out)
            stack.extend(dict.values(item))
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def _locations(value: Any, executor: Executor) -> list[list[Any]]:
    """``[key path, file, line]`` for every dict and list inside a dataset or model dict whose
    line the executor recorded (the dict itself is the entry's own file and line)."""
    out: list[list[Any]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        where = executor.line_of(node)
        if path and where is not None:
            out.append([path, where[0], where[1]])
        if where is not None and len(where) > 2 and isinstance(node, dict):
            _key_lines(node, path, where, out)
        if len(path) >= MAX_DEPTH:
            continue
        if isinstance(node, dict):
            items: Iterable[tuple[Any, Any]] = ((plain_key(k), v) for k, v in dict.items(node))
        elif isinstance(node, (list, tuple)):
            items = enumerate(node)
        else:
            continue
        stack.extend((v, (*path, k)) for k, v in items if isinstance(v, (dict, list, tuple)))
    return out


def _dump_key(pair: tuple[Any, Any]) -> str:
    """Where a key goes in mmengine's dump of a config: both frameworks run from the dump they
    save (``Config.pretty_text``, which writes every dict, at any depth and inside lists, with
    its keys sorted by ``str(key)``), so every dict of a config is taken in that order."""
    return str(pair[0])


def _key_lines(node: dict, path: tuple[Any, ...], where: tuple[Any, ...], out: list[list[Any]]) -> None:
    """The lines of a dict's keys written below its first line, for the keys whose value is not
    itself a dict or list (those have their own line): an error about the key points there."""
    for key, line in where[2]:
        if key in node and not isinstance(dict.__getitem__(node, key), (dict, list, tuple)):
            out.append([(*path, key), where[0], line])


def _converted(value: Any, line_of: Callable[[Any], tuple[Any, ...] | None],
               notes: dict[str, str]) -> tuple[Any, list[list[Any]]]:
    """``to_plain(value)``, ``_type_notes`` and ``_locations`` in one walk (a suite converts a
    quarter of a million values on every save; three walks over each entry were half the
    config worker's time). Children are walked last first, as the separate walks' stacks
    do, so notes and locations come out in their order; a ConfigError (a cycle, too deep,
    too large) is raised as soon as met, and the caller then asks the separate walks, which
    say it exactly as before."""
    locations: list[list[Any]] = []
    found: dict[str, str] = {}  # notes, added to ``notes`` only when the whole walk succeeds
    seen: set[int] = set()
    budget = ValueBudget(MAX_VALUES)
    path: list[Any] = []
    leaves = (bool, int, str, float)
    plain_types = {str, int, float, bool, type(None)}  # most values: kept as they are, no call
    containers = (dict, list, tuple)
    get = dict.get
    items_of = dict.items
    first = itemgetter(0)  # text keys are their own str(): sorted at C speed

    def walk(node: Any, depth: int) -> Any:
        if node is None or isinstance(node, leaves):
            return node
        if depth > MAX_DEPTH:
            raise ConfigError(f"the config nests values more than {MAX_DEPTH} levels deep")
        if not isinstance(node, containers):
            return to_plain(node)
        ident = id(node)
        if ident in seen:
            raise ConfigError("the config holds a structure that contains itself",
                              hint="a dict or list must not appear inside itself")
        budget.spend(len(node) + 1)
        where = line_of(node)
        if depth and where is not None:
            locations.append([tuple(path), where[0], where[1]])
        if where is not None and len(where) > 2 and isinstance(node, dict):
            _key_lines(node, tuple(path), where, locations)
        seen.add(ident)
        inner = depth + 1
        if isinstance(node, dict):
            kind = get(node, "type")
            if kind is not None and type(kind) is not str:
                _type_note(kind, found)
            pairs = []
            by_key = first
            for key, item in reversed(items_of(node)):
                if type(key) is not str:
                    key = plain_key(key)
                    by_key = _dump_key
                if type(item) in plain_types:
                    pairs.append((key, item))
                    continue
                path.append(key)
                pairs.append((key, walk(item, inner)))
                path.pop()
            pairs.reverse()
            pairs.sort(key=by_key)  # stable: keys alike as text keep their order
            made: Any = dict(pairs)
        else:
            converted = []
            for n in range(len(node) - 1, -1, -1):
                item = node[n]
                if type(item) in plain_types:
                    converted.append(item)
                    continue
                path.append(n)
                converted.append(walk(item, inner))
                path.pop()
            converted.reverse()
            made = converted if isinstance(node, list) else tuple(converted)
        seen.discard(ident)
        return made

    plain = walk(value, 0)
    for name, note in found.items():
        notes.setdefault(name, note)
    return plain, locations


def _entries(found, executor: Executor, kind: str, fallback: str, notes: dict[str, str]) -> list[dict]:
    entries = []
    for item, where in found:
        located = executor.line_of(item) or where or (fallback, None)
        file, line = located[0], located[1]
        entry: dict[str, Any] = {"cfg": None, "file": file, "line": line, "error": None}
        try:
            if not isinstance(item, dict):
                raise ConfigError(f"a {kind} entry is a {type(item).__name__}, not a dict",
                                  file=file, line=line, hint=f"each {kind} is a dict(...)")
            try:
                entry["cfg"], entry["locations"] = _converted(item, executor.line_of, notes)
            except ConfigError:  # said as the separate walks say it (the first error they meet)
                entry["cfg"] = to_plain(item)  # first: it bounds how far the walks below go
                _type_notes(item, notes)
                entry["locations"] = _locations(item, executor)
        except ConfigError as exc:
            entry["error"] = error_dict(ConfigError(exc.message, file=exc.file or file,
                                                    line=exc.line or line, hint=exc.hint))
        entries.append(entry)
    return entries


def ais_cli_refusal(names: Mapping[str, Any]) -> str | None:
    """Why AISBench's command line (``ais_bench CONFIG.py``) refuses a config that defines both
    ``models`` and ``datasets`` (its ``CustomConfigChecker``: each model and dataset a dict with an
    ``abbr``, and a ``summarizer`` dict with an ``attr``), or None. OpenCompass has no such check;
    the caller applies it to AISBench configs only."""
    models, datasets = names.get("models"), names.get("datasets")
    if not isinstance(models, (list, tuple)) or not isinstance(datasets, (list, tuple)) or not models \
            or not datasets:
        return None
    for kind, items in (("models", models), ("datasets", datasets)):
        if any(not isinstance(item, Mapping) for item in items):
            return f"a member of `{kind}` is not a dict (TMAN-CFG-003)"
        if any("abbr" not in item for item in items):
            return f"a member of `{kind}` has no `abbr` (TMAN-CFG-002)"
    summarizer = names.get("summarizer")
    if not summarizer:
        return "it defines no `summarizer` (TMAN-CFG-002)"
    if not isinstance(summarizer, Mapping):
        return "its `summarizer` is not a dict (TMAN-CFG-003)"
    if "attr" not in summarizer:
        return "its `summarizer` has no `attr` (TMAN-CFG-002)"
    return None


def load_config_file(path: str | os.PathLike, roots: Iterable[str | os.PathLike] = (),
                     want_datasets: bool = True, timeout: float | None = None,
                     memory_limit: int | None = None,
                     progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Everything the workspace needs from one config file, as plain data.

    ``{"path", "files", "error", "datasets", "models", "warnings"}``; ``error`` is set
    when the file cannot be loaded at all (then the lists are empty).
    """
    executor = Executor(roots, memory_limit=memory_limit, timeout=timeout, progress=progress)
    result: dict[str, Any] = {"path": os.fspath(path), "files": [], "error": None,
                              "datasets": [], "models": [], "warnings": []}
    try:
        module = executor.run(path)
        names = module.config_names()
        warnings: list[str] = []
        datasets = (_collect(names, module.lines, "datasets", "_datasets", "dataset", warnings)
                    if want_datasets else [])
        # both frameworks render `models` only (judge_models, base_models... serve other steps)
        models = _collect(names, module.lines, "models", None, "model", warnings)
        others = [n for n, v in names.items() if n.endswith("_models") and isinstance(v, (list, tuple))]
        if "models" not in names and others:
            warnings.append(f"defines {', '.join(others)} but no `models` list; the frameworks "
                            "render the models in `models` only")
        notes: dict[str, str] = {}
        result["datasets"] = _entries(datasets, executor, "dataset", str(module.path), notes)
        result["models"] = _entries(models, executor, "model", str(module.path), notes)
        result["warnings"] = [f"{module.path.name}: {w}" for w in (*warnings, *notes.values())]
        result["ais_cli_refusal"] = ais_cli_refusal(names)
        if want_datasets and not datasets and not models:
            result["warnings"].append(
                f"{module.path.name}: defines no datasets or models (no `datasets` or `*_datasets` "
                "list, no `models` or `*_models` list)")
    except ConfigError as exc:
        result["error"] = error_dict(exc)
    result["warnings"] += [w for w in executor.warnings if w not in result["warnings"]]
    result["files"] = [str(f) for f in executor.files]
    return result
