"""lm-eval task YAML files: one task's config with its ``include:`` chain merged, read as data.

Reading runs no code: a ``!function utils.f`` tag becomes a marker naming the function and
the folder it is looked up in (the YAML file's own), and the config worker imports it later
(:mod:`.lmeval_child`). Merging follows lm-eval 0.4.13's ``load_yaml``: each include (a path or
a list, relative to the including file) is loaded whole, in order, then the file's own keys win;
one set of seen files is shared by the whole chain, so a file reached twice — a cycle, or two
includes of one base — is the error lm-eval raises ("Include cycle").

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ...core.extras import install_hint
from ..files.reading import MAX_CONFIG_BYTES, read_regular_text

FUNCTION = "__function__"


@dataclass
class TaskYaml:
    """A task's merged config; ``where`` says which file (and line) gave each top-level key,
    ``inner`` each key inside one (``("fewshot_config", "sampler")``), and ``chain`` the files
    in the order they were read, each with the ``include:`` line that reached it (None: the
    task's own file)."""

    path: Path
    config: dict[str, Any]
    files: list[Path] = field(default_factory=list)
    where: dict[str, tuple[str, int]] = field(default_factory=dict)
    inner: dict[tuple[str, ...], tuple[str, int]] = field(default_factory=dict)
    chain: list[tuple[Path, tuple[str, int] | None]] = field(default_factory=list)


def is_function(value: Any) -> bool:
    return isinstance(value, dict) and FUNCTION in value


def _loader(path: Path, lines: dict[str, int]) -> Any:
    try:
        # lazy: PyYAML (the yaml extra) is needed only for a YAML task
        import yaml
    except ImportError as exc:
        raise ConfigError("reading an lm-eval task needs PyYAML", file=str(path),
                          hint=install_hint("yaml")) from exc

    class Loader(yaml.SafeLoader):
        pass

    def function(loader: Any, node: Any) -> dict[str, Any]:
        return {FUNCTION: loader.construct_scalar(node), "base": str(path.parent),
                "file": str(path), "line": node.start_mark.line + 1}

    def mapping(loader: Any, node: Any) -> dict:
        if not lines:  # the first mapping built is the document's own
            for key_node, _ in node.value:
                lines.setdefault(str(key_node.value), key_node.start_mark.line + 1)
        return loader.construct_mapping(node, deep=True)

    Loader.add_constructor("!function", function)
    Loader.add_constructor("tag:yaml.org,2002:map", mapping)
    return yaml, Loader


def _inner_lines(node: Any, path: tuple[str, ...], out: dict[tuple[str, ...], int]) -> None:
    """The line of every key below the top level (``(outer, inner, ...)`` -> line)."""
    for key_node, value in getattr(node, "value", ()) if node.tag == "tag:yaml.org,2002:map" else ():
        here = (*path, str(key_node.value))
        if len(here) > 1:
            out.setdefault(here, key_node.start_mark.line + 1)
        _inner_lines(value, here, out)


def _read_one(path: Path) -> tuple[dict[str, Any], dict[str, int], dict[tuple[str, ...], int]]:
    text = read_regular_text(path, MAX_CONFIG_BYTES, "task YAML")
    lines: dict[str, int] = {}
    inner: dict[tuple[str, ...], int] = {}
    yaml, loader = _loader(path, lines)
    try:
        cfg = yaml.load(text, Loader=loader)
        _inner_lines(yaml.compose(text, Loader=loader), (), inner)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise ConfigError(f"not valid YAML: {exc.problem}", file=str(path),
                          line=mark.line + 1 if mark else None) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}", file=str(path)) from exc
    if not isinstance(cfg, dict):
        raise ConfigError(f"an lm-eval task YAML holds a mapping, not {type(cfg).__name__}: lm-eval "
                          "raises ValueError", file=str(path))
    return cfg, lines, inner


def read_task(path: str | Path) -> TaskYaml:
    """The merged config of the task in ``path`` (ConfigError, located, when it cannot be)."""
    start = Path(path).expanduser().resolve()
    task = TaskYaml(start, {})
    task.config = _merged(start, task, set(), None)
    return task


def _merged(path: Path, task: TaskYaml, seen: set[Path], included_from: tuple[str, int] | None
            ) -> dict[str, Any]:
    if path in seen:
        file, line = included_from or (str(path), None)
        raise ConfigError(f"include cycle at {path}: lm-eval raises ValueError (a file reached twice "
                          "in one include chain)", file=file, line=line,
                          hint="remove the include that leads back (or includes a base twice)")
    seen.add(path)
    if not path.is_file():
        file, line = included_from or (str(path), None)
        raise ConfigError(f"included file {path} does not exist", file=file, line=line)
    task.files.append(path)
    task.chain.append((path, included_from))
    cfg, lines, inner = _read_one(path)
    if "include" not in cfg:
        _own_keys(task, path, cfg, lines, inner)
        return cfg
    includes = cfg.pop("include")
    merged: dict[str, Any] = {}
    for inc in includes if isinstance(includes, list) else [includes]:
        if not isinstance(inc, str):
            raise ConfigError(f"include names a file, not {type(inc).__name__}", file=str(path),
                              line=lines.get("include"))
        target = Path(inc) if Path(inc).is_absolute() else path.parent / inc
        sub = _merged(target.resolve(), task, seen, (str(path), lines.get("include", 1)))
        sub.pop("task_list", None)
        merged.update(sub)
    _own_keys(task, path, cfg, lines, inner)
    merged.update(cfg)
    return merged


def _own_keys(task: TaskYaml, path: Path, cfg: dict[str, Any], lines: dict[str, int],
              inner: dict[tuple[str, ...], int]) -> None:
    """A file's keys win over what it included, whole (lm-eval merges one level deep): where
    they and the keys inside them were written is this file."""
    for key in cfg:
        task.where[key] = (str(path), lines.get(key, 1))
        for old in [p for p in task.inner if p[0] == key]:
            del task.inner[old]
    for inside, line in inner.items():
        if inside[0] in cfg:
            task.inner[inside] = (str(path), line)


#: top-level keys (quoted or not, as lm-eval's generated YAMLs quote them) of a task; of a config
_TASK_KEY = re.compile(r"""^["']?(task|include)["']?\s*:""", re.M)
_CONFIG_KEY = re.compile(r"""^["']?(datasets|models|_base_)["']?\s*:""", re.M)


def looks_like_task(path: str | Path) -> bool:
    """A YAML file with a top-level ``task:`` or ``include:`` key and no ``datasets``/``models``/
    ``_base_`` (an lm-eval task, not a workbench data config)."""
    p = Path(path)
    if p.suffix not in (".yaml", ".yml") or not p.is_file():
        return False
    try:
        text = read_regular_text(p, MAX_CONFIG_BYTES, "task YAML")
    except ConfigError:
        return False
    return bool(_TASK_KEY.search(text)) and not _CONFIG_KEY.search(text)


_NAME = re.compile(r"^[\w.\-]+$")
_SKIP = {"__pycache__", ".git", ".ipynb_checkpoints", "node_modules"}


def find_task(name: str, roots: Sequence[Path]) -> Path | None:
    """The YAML under a config root whose ``task:`` is ``name`` (a task folder copied out of
    lm-eval, or lm-eval's own ``tasks/``): the first in sorted walk order, or None."""
    if not _NAME.match(name) or not roots:
        return None
    line = re.compile(r"""^["']?task["']?\s*:\s*["']?""" + re.escape(name) + r"""["']?\s*(#.*)?$""", re.M)
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP)
            for file in sorted(files):
                if not file.endswith((".yaml", ".yml")) and not file.endswith("_yaml"):
                    continue
                path = Path(folder) / file
                try:
                    text = read_regular_text(path, MAX_CONFIG_BYTES, "task YAML")
                except ConfigError:
                    continue
                if line.search(text):
                    return path
    return None
