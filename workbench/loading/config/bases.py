"""Classic ``_base_`` inheritance, as mmengine's ``Config._file2dict`` does it.

The ``{{ fileDirname }}`` and ``{{_base_.key}}`` substitutions, reading the files a config
names in ``_base_`` and merging the config over them (``_delete_=True`` replaces instead).
One loop serves Python, JSON, YAML and TOML configs; the files themselves are run by a
:class:`BaseRunner` (the executor), so nothing here reaches up to it.  May import the
standard library, ``core.errors`` and the sibling modules ``stand_ins`` and ``analysis``.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import ast
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ...core.errors import ConfigError
from .analysis import BASE_KEY
from .stand_ins import ConfigDict

DELETE_KEY = "_delete_"


@dataclass
class ConfigModule:
    """One executed config file: every module-level name, as mmengine's cfg dict holds them."""

    path: Path
    names: dict[str, Any]
    imported: set[str] = field(default_factory=set)  # dropped from the config (to_dict)
    # where each name was last bound at top level: (file, line)
    lines: dict[str, tuple[str, int]] = field(default_factory=dict)
    lazy: bool = True

    def config_names(self) -> dict[str, Any]:
        """The names that make up the config (imports, dunders and helpers left out)."""
        return {k: v for k, v in self.names.items()
                if k not in self.imported and not k.startswith("__")}


class BaseRunner(Protocol):
    """What merging bases needs from whoever runs config files (the executor)."""

    def run_base(self, path: Path, importer: tuple[Path, int]) -> ConfigModule:
        """Run the base file ``path`` (named at ``importer``'s file and line), classic mode."""
        ...

    def copy_config(self, value: Any) -> Any:
        """A fresh ConfigDict tree of ``value`` for the importing file."""
        ...


def merge_bases(runner: BaseRunner, path: Path,
                names: list[tuple[str, int]]) -> tuple[ConfigDict, dict[str, tuple[str, int]]]:
    """The ``_base_`` files of ``path`` (each with the line naming it), run and merged in order.

    A key may come from one base only; what the bases define is copied per importing file.
    """
    merged = ConfigDict()
    base_lines: dict[str, tuple[str, int]] = {}
    for name, line in names:
        if "::" in name:
            raise ConfigError(f"external base config {name!r} needs an installed package",
                              file=str(path), line=line,
                              hint="the workbench reads only local _base_ files")
        base_path = Path(os.path.abspath(path.parent / name))
        module = runner.run_base(base_path, importer=(path, line))
        duplicate = set(merged) & set(module.names)
        if duplicate:
            raise ConfigError(
                f"Duplicate key is not allowed among bases. Duplicate keys: {sorted(duplicate)}",
                file=str(path), line=line, hint="each key may come from one _base_ file only",
            )
        merged.update({k: runner.copy_config(v) for k, v in module.names.items()})
        base_lines.update(module.lines)
    return merged, base_lines


def base_files(tree: ast.Module, path: Path) -> list[tuple[str, int]]:
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == BASE_KEY):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                raise ConfigError("`_base_` must be a file name or a list of file names",
                                  file=str(path), line=node.lineno,
                                  hint="e.g. _base_ = ['./datasets.py', './models.py']") from None
            names = value if isinstance(value, list) else [value]
            if not all(isinstance(n, str) for n in names):
                raise ConfigError("`_base_` must be a file name or a list of file names",
                                  file=str(path), line=node.lineno,
                                  hint="e.g. _base_ = ['./datasets.py', './models.py']")
            return [(n, node.lineno) for n in names]
    return []


class RemoveBaseAssign(ast.NodeTransformer):
    def visit_Assign(self, node: ast.Assign) -> Any:
        if isinstance(node.targets[0], ast.Name) and node.targets[0].id == BASE_KEY:
            return ast.copy_location(ast.Pass(), node)
        return node


def substitute_predefined(source: str, path: Path) -> str:
    support = {
        "fileDirname": str(path.parent),
        "fileBasename": path.name,
        "fileBasenameNoExtension": path.stem,
        "fileExtname": path.suffix,
    }
    for key, value in support.items():
        value = value.replace("\\", "/")
        source = re.sub(r"\{\{\s*" + key + r"\s*\}\}", lambda _m, v=value: v, source)
    return source


def pre_substitute_base_vars(source: str) -> tuple[str, dict[str, str]]:
    base_vars: dict[str, str] = {}
    for var in set(re.findall(r"\{\{\s*" + BASE_KEY + r"\.([\w\.]+)\s*\}\}", source)):
        token = f"_{var}_{uuid.uuid4().hex[:6]}"
        base_vars[token] = var
        source = re.sub(r"\{\{\s*" + BASE_KEY + r"\." + re.escape(var) + r"\s*\}\}",
                        f'"{token}"', source)
    return source, base_vars


def substitute_base_vars(cfg: Any, base_vars: dict[str, str], base_cfg: dict, path: Path) -> Any:
    if not base_vars:
        return cfg

    def lookup(token: str) -> Any:
        value: Any = base_cfg
        for key in base_vars[token].split("."):
            try:
                value = value[key]
            except (KeyError, TypeError, IndexError):
                raise ConfigError(f"{{{{_base_.{base_vars[token]}}}}} names no value of the bases",
                                  file=str(path), hint="check the key path") from None
        return value

    def walk(value: Any) -> Any:
        if isinstance(value, str) and value in base_vars:
            return lookup(value)
        if isinstance(value, dict):
            return type(value)({k: walk(v) for k, v in dict.items(value)}) if not isinstance(
                value, ConfigDict) else ConfigDict({k: walk(v) for k, v in dict.items(value)})
        if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
            return type(value)(walk(v) for v in value)
        return value

    return walk(cfg)


def merge_a_into_b(a: dict, b: dict, lines: dict[str, tuple[str, int]] | None = None,
                   _where: tuple[str, int] | None = None) -> dict:
    """``Config._merge_a_into_b``: ``a`` over ``b``; ``_delete_=True`` replaces instead.

    ``lines`` locates the child's top-level keys, for the error when a dict meets a
    base value that is not one.
    """
    b = ConfigDict(dict.items(b)) if isinstance(b, ConfigDict) else dict(b)
    for key, value in dict.items(a):
        where = _where or (lines or {}).get(str(key))
        if isinstance(value, dict):
            value = dict(value)
            delete = value.pop(DELETE_KEY, False)
            if key in b and not delete:
                if not isinstance(b[key], dict):
                    raise ConfigError(
                        f"{key} is a dict in the child config but a {type(b[key]).__name__} in the "
                        "base config", file=where[0] if where else None,
                        line=where[1] if where else None,
                        hint=f"set `{DELETE_KEY}=True` in the child dict to replace the base value",
                    )
                b[key] = merge_a_into_b(value, b[key], lines, where)
            else:
                b[key] = ConfigDict(value)
        else:
            b[key] = value
    return b
