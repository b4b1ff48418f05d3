"""Run an OpenCompass/AISBench Python config the way mmengine's ``Config.fromfile`` does.

Neither framework (nor mmengine) is needed.  What mmengine 0.10 does, and what we copy
in behaviour (never in code):

* A config with ``with read_base():``, a relative import or an import of a non-stdlib
  package is read in *lazy-import* mode (``Config._parse_lazy_import``):
  - only the first top-level ``with`` may appear before the bases, it must be
    ``read_base()``, and its body may hold only ``from X import ...`` statements;
  - each base module is a ``.py`` file: relative to the importing file's folder, or by
    package (``opencompass.configs.x.y`` → ``<root>/opencompass/configs/x/y.py``);
  - every base is read (recursively) *before* the importing file runs, and its names
    are put into the importer's globals up front; values are copied into
    ``ConfigDict``s per importing file, so a config that mutates a base value changes
    only its own copy, and two lists that shared a dict in the base no longer do;
  - every other non-stdlib import becomes a lazy object that remembers its dotted name
    (here :class:`FrameworkRef`); calling one fails, as mmengine's ``LazyObject`` does;
  - ``__file__`` is defined; names bound by import statements are not part of the
    config (``Config.to_dict`` drops them).
* Otherwise the *classic* mode (``Config._file2dict``): ``{{ fileDirname }}``-style and
  ``{{$ENV:default}}`` substitutions, ``_base_ = [...]`` files merged under the config
  (``_delete_=True`` replaces instead of merging), ``{{_base_.key}}`` references,
  functions and modules dropped from the config, and no ``__file__``.

Only plain data leaves this module (see :mod:`workbench.loading.config.plain_data`).
"""

from __future__ import annotations

import ast
import builtins
import os
import re
import sys
import traceback
import types
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ..files.reading import MAX_CONFIG_BYTES, decoded, read_regular

FRAMEWORK_ROOTS = ("opencompass", "ais_bench", "mmengine")
BASE_KEY = "_base_"
DELETE_KEY = "_delete_"
PY_SUFFIX = ".py"
DATA_CONFIG_SUFFIXES = (".json", ".yaml", ".yml", ".toml")
_STDLIB = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)


class ConfigTimeout(BaseException):
    """The worker's time limit ran out while the config was running."""


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
        raise _FrameworkCall(self.__workbench_path__)

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
    def __name__(self) -> str:  # type: ignore[override]
        return self.__workbench_path__.rsplit(".", 1)[-1]

    @property
    def __module__(self) -> str:  # type: ignore[override]
        return self.__workbench_path__.rsplit(".", 1)[0]


class _FrameworkCall(Exception):
    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


#: The running executor's "this copy was written where its original was" (the copies
#: ConfigDict makes keep the line of the dict or list they copy).
_COPIED: ContextVar[Callable[[Any, Any], None] | None] = ContextVar("_COPIED", default=None)


def _hook(value: Any) -> Any:
    """ConfigDict's ``_hook``: plain dicts become ConfigDicts, lists/tuples are rebuilt."""
    if type(value) is dict:
        made: Any = ConfigDict(value)
    elif isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        made = type(value)(_hook(v) for v in value)
    else:
        return value
    copied = _COPIED.get()
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
        import copy

        return copy.deepcopy(self)

    def freeze(self, shouldFreeze: bool = True) -> None:
        return None

    def unfreeze(self) -> None:
        return None

    def __deepcopy__(self, memo: dict) -> ConfigDict:
        import copy

        other = ConfigDict()
        memo[id(self)] = other
        for key, value in dict.items(self):
            dict.__setitem__(other, copy.deepcopy(key, memo), copy.deepcopy(value, memo))
        return other

    def __reduce__(self) -> tuple:
        return (ConfigDict, (dict(self),))

    def pop(self, key: Any, default: Any = None) -> Any:  # type: ignore[override]
        return super().pop(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
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


class _FakeModule(types.ModuleType):
    """``mmengine.config`` for configs that import ``read_base`` (it does nothing here)."""


def _read_base():
    class _NoOp:
        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc: Any) -> None:
            return None

    return _NoOp()


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


def is_stdlib(module: str) -> bool:
    """mmengine's "builtin module" test, made deterministic: the standard library."""
    if module.startswith("mmengine.config"):
        return True
    return module.split(".", 1)[0] in _STDLIB


# -- which mode mmengine picks ---------------------------------------------------------

def _is_lazy(tree: ast.Module, path: Path) -> bool:
    """``Config._is_lazy_import``: breadth-first, the first deciding node wins."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == BASE_KEY):
            return False
        if isinstance(node, ast.With):
            if not _is_read_base(node):
                raise _only_read_base(node, path)
            return True
        if isinstance(node, ast.ImportFrom):
            if node.level:
                return True
            if node.module == "mmengine" and [a.name for a in node.names] == ["Config"]:
                continue
            if node.module is None:
                continue
            if not is_stdlib(node.module):
                return True
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not is_stdlib(alias.name):
                    return True
    return False


def _is_read_base(node: ast.With) -> bool:
    expr = node.items[0].context_expr
    return (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
            and expr.func.id == "read_base" and len(node.items) == 1)


def _only_read_base(node: ast.AST, path: Path) -> ConfigError:
    return ConfigError(
        "only `with read_base():` may be used as a `with` block in a config", file=str(path),
        line=node.lineno,
        hint="mmengine refuses any other context manager before the bases; move this code into "
        "a function or after the read_base block",
    )


# -- the executor ------------------------------------------------------------------------

class Executor:
    """Reads one top-level config and everything it pulls in; remembers every file read."""

    def __init__(self, roots: Iterable[str | os.PathLike] = (), memory_limit: int | None = None,
                 timeout: float | None = None, progress: Callable[[str], None] | None = None) -> None:
        self.roots = [Path(r) for r in roots]
        self.progress = progress
        self.memory_limit = memory_limit
        self.timeout = timeout
        self.files: list[Path] = []
        self.dict_lines: dict[int, tuple[str, int]] = {}
        self.keepalive: list[Any] = []
        self.stack: list[Path] = []
        self.warnings: list[str] = []

    # bookkeeping ---------------------------------------------------------------------
    def _record_file(self, path: Path) -> None:
        if path not in self.files:
            self.files.append(path)

    def _at(self, value: Any, file: str, line: int) -> Any:
        if id(value) not in self.dict_lines:
            self.dict_lines[id(value)] = (file, line)
            self.keepalive.append(value)
        return value

    def line_of(self, value: Any) -> tuple[str, int] | None:
        return self.dict_lines.get(id(value))

    # entry point -----------------------------------------------------------------------
    def run(self, path: str | os.PathLike) -> ConfigModule:
        """Run a top-level config; raises ConfigError located at file:line."""
        token = _COPIED.set(self._copied)
        try:
            return self._run_file(Path(os.path.abspath(path)), importer=None)
        finally:
            _COPIED.reset(token)

    def _copied(self, original: Any, copy: Any) -> None:
        where = self.dict_lines.get(id(original))
        if where is not None:
            self._at(copy, *where)

    def _run_file(self, path: Path, importer: tuple[Path, int] | None,
                  lazy: bool | None = None) -> ConfigModule:
        """Run one file. ``lazy``: the importer's mode (None: decide, as for a top config).

        mmengine reads every base of a lazy-import config in lazy-import mode, and refuses
        a lazy-import base under a classic config.
        """
        if path in self.stack:
            chain = " → ".join(p.name for p in [*self.stack, path])
            file, line = importer if importer else (path, None)
            raise ConfigError(f"circular read_base import: {chain}", file=str(file), line=line,
                              hint="a config cannot import itself through its bases; break the cycle")
        if self.progress is not None:
            self.progress(str(path))
        try:
            return self._run_file_at(path, importer, lazy)
        finally:
            if self.progress is not None and self.stack:
                self.progress(str(self.stack[-1]))

    def _run_file_at(self, path: Path, importer: tuple[Path, int] | None,
                     lazy: bool | None) -> ConfigModule:
        if importer is not None and not path.is_file():
            raise ConfigError(f"base config not found: {path}", file=str(importer[0]),
                              line=importer[1], hint="check the file name in `_base_`; it is "
                              "relative to the importing config's folder")
        try:
            with warnings.catch_warnings():
                # e.g. "invalid escape sequence" in prompt strings: Python keeps the text as
                # written, as it does for the frameworks; nothing to tell the user
                warnings.simplefilter("ignore")
                return self._run_any(path, importer, lazy)
        except RecursionError:
            raise ConfigError("the config holds a structure that contains itself", file=str(path),
                              hint="a dict or list must not appear inside itself") from None

    def _run_any(self, path: Path, importer: tuple[Path, int] | None,
                 lazy: bool | None) -> ConfigModule:
        suffix = path.suffix.lower()
        if suffix in DATA_CONFIG_SUFFIXES:
            from .data_config import read_data_config

            self._record_file(path)
            self.stack.append(path)
            try:
                data, lines = read_data_config(path, self)
            finally:
                self.stack.pop()
            return ConfigModule(path, data, lines=lines, lazy=False)
        source = self._read_source(path, importer)
        self._record_file(path)
        analysis = analyse(path, source)
        if isinstance(analysis.detected, ConfigError) and analysis.syntax:
            raise _fresh(analysis.detected)
        self.stack.append(path)
        try:
            if lazy is None:
                if isinstance(analysis.detected, ConfigError):
                    raise _fresh(analysis.detected)
                lazy = analysis.detected
            elif not lazy and analysis.detected is True:
                assert importer is not None
                raise ConfigError(
                    f"{path.name} uses `with read_base():` or framework imports, but the config "
                    "importing it through `_base_` does not",
                    file=str(importer[0]), line=importer[1],
                    hint="mmengine needs one style per inheritance chain: `_base_` files or "
                    "`with read_base():` imports, not both",
                )
            if lazy:
                if isinstance(analysis.lazy, ConfigError):
                    raise _fresh(analysis.lazy)
                assert analysis.lazy is not None
                return self._run_lazy(path, analysis.lazy)
            return self._run_classic(path, source)
        finally:
            self.stack.pop()

    def _read_source(self, path: Path, importer: tuple[Path, int] | None) -> str:
        where = {"file": str(importer[0]), "line": importer[1]} if importer else {"file": str(path)}
        try:
            raw = read_regular(path, MAX_CONFIG_BYTES, "config")
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {path}", **where,
                              hint="check the path") from None
        except ConfigError as exc:  # a folder, a FIFO, a device, a loop, too large
            raise ConfigError(exc.message, **where, hint=exc.hint) from None
        return decoded(raw, path, "config is not UTF-8 text", "utf-8-sig")

    # lazy-import mode (read_base) ------------------------------------------------------
    def _run_lazy(self, path: Path, code: LazyCode) -> ConfigModule:
        bases: dict[str, ConfigModule] = {}
        imported: set[str] = set(code.imported)
        for stmt in code.bases:
            if stmt.key in bases:
                continue
            base_path = self._resolve_base(stmt.key, path, stmt.line)
            module = self._run_file(base_path, importer=(path, stmt.line), lazy=True)
            module.names = {k: self._copy_config(v) for k, v in module.names.items()}
            bases[stmt.key] = module
            imported |= module.imported
        namespace: dict[str, Any] = {"__file__": str(path)}
        lines: dict[str, tuple[str, int]] = {}
        for stmt in (*code.bases, *code.late):  # mmengine fills them in before the code runs
            self._inject(path, bases[stmt.key], stmt, namespace, lines)
        lines.update({name: (str(path), line) for name, line in code.lines.items()})
        namespace["__builtins__"] = self._builtins(path)
        self._exec(code.code, path, namespace)
        names = {k: v for k, v in namespace.items() if not k.startswith("__")}
        return ConfigModule(path, names, imported=imported, lines=lines, lazy=True)

    def _inject(self, path: Path, base: ConfigModule, stmt: BaseImport, namespace: dict[str, Any],
                lines: dict[str, tuple[str, int]]) -> None:
        for name, alias in stmt.names:
            if name == "*":
                namespace.update(base.names)
                for key in base.names:
                    lines[key] = base.lines.get(key, (str(path), stmt.line))
                return
            if name not in base.names:
                defined = ", ".join(sorted(n for n in base.names if not n.startswith("_"))[:12])
                raise ConfigError(
                    f"cannot import name {name!r} from {base.path.name}",
                    file=str(path), line=stmt.line,
                    hint=f"{base.path.name} defines: {defined or 'nothing'}",
                )
            target = alias or name
            namespace[target] = base.names[name]
            lines[target] = base.lines.get(name, (str(path), stmt.line))

    def _resolve_base(self, key: str, importer: Path, line: int) -> Path:
        level = len(key) - len(key.lstrip("."))
        module = key[level:]
        if level:
            folder = importer.parent
            for _ in range(level - 1):
                folder = folder.parent
            target = folder.joinpath(*module.split(".")).with_suffix(PY_SUFFIX)
            if target.is_file():
                return Path(os.path.abspath(target))
            raise ConfigError(
                f"read_base cannot find {key}: no file {target}",
                file=str(importer), line=line,
                hint="check the file name; relative imports start from the importing config's folder",
            )
        parts = module.split(".")
        if len(parts) == 1:
            raise ConfigError(
                f"read_base cannot import the package {module} itself",
                file=str(importer), line=line,
                hint=f"import a config module, e.g. `from {module}.configs.x import *`",
            )
        tried = []
        for root in self.roots:
            target = root.joinpath(*parts).with_suffix(PY_SUFFIX)
            tried.append(str(root))
            if target.is_file():
                return Path(os.path.abspath(target))
        installed = installed_package_root(parts[0])
        if installed is not None:
            target = installed.joinpath(*parts).with_suffix(PY_SUFFIX)
            if target.is_file():
                return Path(os.path.abspath(target))
        rel = "/".join(parts) + PY_SUFFIX
        where = ", ".join(tried) if tried else "no --config-root given"
        raise ConfigError(
            f"read_base cannot find {module}: no {rel} under the config roots ({where})",
            file=str(importer), line=line,
            hint=f"pass --config-root DIR (a folder holding the {parts[0]}/ package tree) or set "
            "WORKBENCH_CONFIG_ROOT",
        )

    def _copy_config(self, value: Any) -> Any:
        """``_dict_to_config_dict_lazy``: a fresh ConfigDict tree per importing file."""
        if isinstance(value, dict):
            made = ConfigDict()
            for key, item in dict.items(value):
                dict.__setitem__(made, key, self._copy_config(item))
            where = self.dict_lines.get(id(value))
            if where:
                self._at(made, *where)
            return made
        if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
            return type(value)(self._copy_config(v) for v in value)
        return value

    # classic mode (_base_ files) --------------------------------------------------------
    def _run_classic(self, path: Path, source: str) -> ConfigModule:
        source = _substitute_predefined(source, path)
        source = self._substitute_env(source, path)
        source, base_vars = _pre_substitute_base_vars(source)
        try:
            tree = ast.parse(source, filename=str(path))
        except SyntaxError as exc:  # a {{ }} substitution made it invalid
            raise ConfigError(f"SyntaxError after substituting {{{{ }}}} values: {exc.msg}",
                              file=str(path), line=exc.lineno,
                              hint="quote the {{ }} placeholder, or give a value valid there") from None
        base_files = _base_files(tree, path)
        base_cfg: dict[str, Any] = ConfigDict()
        base_lines: dict[str, tuple[str, int]] = {}
        for name, line in base_files:
            if "::" in name:
                raise ConfigError(f"external base config {name!r} needs an installed package",
                                  file=str(path), line=line,
                                  hint="the workbench reads only local _base_ files")
            base_path = Path(os.path.abspath(path.parent / name))
            module = self._run_file(base_path, importer=(path, line), lazy=False)
            duplicate = set(base_cfg) & set(module.names)
            if duplicate:
                raise ConfigError(
                    f"Duplicate key is not allowed among bases. Duplicate keys: {sorted(duplicate)}",
                    file=str(path), line=line, hint="each key may come from one _base_ file only",
                )
            base_cfg.update({k: self._copy_config(v) for k, v in module.names.items()})
            base_lines.update(module.lines)
        tree = _RemoveBaseAssign().visit(tree)
        _DictTracker(str(path)).visit(tree)
        ast.fix_missing_locations(tree)
        namespace: dict[str, Any] = {BASE_KEY: base_cfg, "__builtins__": self._builtins(path)}
        self._exec(_compile(tree, path), path, namespace)
        names = {k: v for k, v in namespace.items()
                 if k != BASE_KEY and not k.startswith("__")
                 and not isinstance(v, (types.FunctionType, types.ModuleType))}
        own_lines = _assignment_lines(tree, path)
        for name, value in names.items():
            if _contains_itself(value):
                file, line = own_lines.get(name, (str(path), None))
                raise ConfigError(f"{name} holds a structure that contains itself", file=file,
                                  line=line, hint="a dict or list must not appear inside itself")
        names = _substitute_base_vars(names, base_vars, base_cfg, path)
        merged = merge_a_into_b(names, base_cfg, own_lines)
        lines = {**base_lines, **own_lines}
        return ConfigModule(path, dict(merged), lines=lines, lazy=False)

    def _substitute_env(self, source: str, path: Path) -> str:
        pattern = r"\{\{['\"]?\s*\$(\w+)\s*\:\s*(\S*?)\s*['\"]?\}\}"
        for var_name, default in re.findall(pattern, source):
            value = os.environ.get(var_name, default)
            if not value:
                line = source[: source.find("$" + var_name)].count("\n") + 1
                raise ConfigError(
                    f"`{var_name}` cannot be found in `os.environ`", file=str(path), line=line,
                    hint=f"set {var_name} in the environment or give a default: "
                    f"{{{{${var_name}:default}}}}",
                )
            one = r"\{\{['\"]?\s*\$" + var_name + r"\s*\:\s*" + re.escape(default) + r"\s*['\"]?\}\}"
            source = re.sub(one, value.replace("\\", "\\\\"), source)
        return source

    # running code ----------------------------------------------------------------------
    def _builtins(self, path: Path) -> dict[str, Any]:
        executor = self
        real_open = builtins.open

        def config_import(name: str, globals_=None, locals_=None, fromlist=(), level=0):
            return executor._import(path, name, fromlist or (), level, globals_, locals_)

        def config_open(file, mode="r", *args: Any, **kwargs: Any):
            handle = real_open(file, mode, *args, **kwargs)
            if isinstance(file, (str, os.PathLike)) and not any(m in str(mode) for m in "wax+"):
                executor._record_file(Path(os.path.abspath(os.fspath(file))))
            return handle

        def at(value: Any, line: int) -> Any:
            return executor._at(value, str(path), line)

        table = dict(vars(builtins))
        table["__import__"] = config_import
        table["open"] = config_open
        table["__workbench_at__"] = at
        return table

    def _import(self, importer: Path, name: str, fromlist: tuple, level: int, globals_, locals_) -> Any:
        if level:
            dotted = "." * level + name
            raise ConfigError(
                f"relative import of {dotted} outside `with read_base():`",
                file=str(importer), line=_caller_line(importer),
                hint="mmengine loads base configs only inside the read_base block; move it there",
            )
        if name == "mmengine.config" or (name == "mmengine" and "config" in fromlist):
            fake = _FakeModule("mmengine.config")
            fake.read_base = _read_base  # type: ignore[attr-defined]
            fake.Config = FrameworkRef("mmengine.config.Config")  # type: ignore[attr-defined]
            if name == "mmengine":
                parent = _FakeModule("mmengine")
                parent.config = fake  # type: ignore[attr-defined]
                return parent
            return fake
        if name == "builtins":
            # the config's own copy: what it changes there stays in the config
            own = types.ModuleType("builtins")
            own.__dict__.update(globals_.get("__builtins__", {}) if globals_ else {})
            return own
        if is_stdlib(name):
            if "*" in fromlist:
                raise ConfigError(
                    f"`from {name} import *` is not allowed in a config",
                    file=str(importer), line=_caller_line(importer),
                    hint="import the names you need",
                )
            return builtins.__import__(name, globals_, locals_, fromlist, level)
        if "*" in fromlist:
            raise ConfigError(
                f"`from {name} import *` is only allowed inside `with read_base():`",
                file=str(importer), line=_caller_line(importer),
                hint="outside the read_base block mmengine imports names lazily, one by one; "
                "import the names you need, or move a config import into read_base",
            )
        if fromlist:
            return FrameworkRef(name)
        return FrameworkRef(name.split(".", 1)[0])

    def _exec(self, code: types.CodeType, path: Path, namespace: dict[str, Any]) -> None:
        try:
            exec(code, namespace)
        except ConfigError:
            raise
        except ConfigTimeout:
            file, line = self._config_frame(sys.exc_info()[2], path)
            limit = f"{self.timeout:g} s" if self.timeout else "the time limit"
            raise ConfigError(f"the config did not finish within {limit}", file=file, line=line,
                              hint="an endless loop? the line shown is where it was running; "
                              "raise the limit with --timeout") from None
        except _FrameworkCall as call:
            file, line = self._config_frame(sys.exc_info()[2], path)
            raise ConfigError(
                f"the config calls {call.path}() while loading",
                file=file, line=line,
                hint="imported framework names are lazy (mmengine cannot call them at load time "
                "either); write the value in plain Python",
            ) from None
        except SystemExit as exc:
            file, line = self._config_frame(sys.exc_info()[2], path)
            raise ConfigError(f"the config called sys.exit({exc.code!r})", file=file, line=line,
                              hint="a config must not exit; remove the call") from None
        except RecursionError:
            file, line = self._config_frame(sys.exc_info()[2], path)
            raise ConfigError("the config recurses without end", file=file, line=line,
                              hint="a function in the config calls itself with no way out") from None
        except MemoryError:
            file, line = self._config_frame(sys.exc_info()[2], path)
            limit = f" (limit {self.memory_limit // 2**20} MiB)" if self.memory_limit else ""
            raise ConfigError(f"the config ran out of memory{limit}", file=file, line=line,
                              hint="a config that builds huge values at load time cannot be shown") from None
        except BaseException as exc:  # a config is code: any failure becomes an error with its line
            file, line = self._config_frame(sys.exc_info()[2], path)
            text = str(exc)
            message = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
            raise ConfigError(message, file=file, line=line, hint=_hint_for(exc)) from None

    def _config_frame(self, tb, fallback: Path) -> tuple[str, int | None]:
        """The innermost traceback frame that runs one of the config files."""
        names = {str(f) for f in self.files}
        found: tuple[str, int | None] = (str(fallback), None)
        for frame, line in traceback.walk_tb(tb):
            if frame.f_code.co_filename in names:
                found = (frame.f_code.co_filename, line)
        return found


@dataclass(frozen=True)
class BaseImport:
    """``from <key> import names`` naming a base config (``key`` keeps its leading dots)."""

    key: str
    names: tuple[tuple[str, str | None], ...]  # (name, alias); ("*", None) for all
    line: int


@dataclass(frozen=True)
class LazyCode:
    """A lazy-import config compiled: what runs, and the bases it reads first."""

    code: types.CodeType
    bases: tuple[BaseImport, ...]  # the read_base block
    late: tuple[BaseImport, ...]  # other imports of those same modules (mmengine fills them early too)
    imported: frozenset[str]  # names bound by import statements
    lines: dict[str, int]  # last top-level assignment of each name


@dataclass
class Analysis:
    """What reading a file's text tells, before anything runs (cached by content)."""

    detected: bool | ConfigError  # lazy-import mode as a top config, or why it is refused
    lazy: LazyCode | ConfigError | None = None
    syntax: bool = False  # ``detected`` holds a syntax error: the file cannot be used at all


_ANALYSES: dict[tuple[str, bytes], Analysis] = {}
MAX_CACHED = 4096
MAX_PRECOMPILE_BYTES = 2 * 1024**2


def _fresh(error: ConfigError) -> ConfigError:
    return ConfigError(error.message, file=error.file, line=error.line, hint=error.hint)


def analyse(path: Path, source: str) -> Analysis:
    """Parse, detect the mode and compile the lazy-import form; cached by path and content."""
    import hashlib

    key = (str(path), hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=16).digest())
    found = _ANALYSES.get(key)
    if found is not None:
        return found
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        analysis = Analysis(ConfigError(f"SyntaxError: {exc.msg}", file=str(path), line=exc.lineno,
                                        hint="fix the Python syntax at that line"), syntax=True)
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        analysis = Analysis(ConfigError(f"cannot parse the config: {exc}", file=str(path)), syntax=True)
    else:
        try:
            detected: bool | ConfigError = _is_lazy(tree, path)
        except ConfigError as exc:
            detected = exc
        try:
            lazy: LazyCode | ConfigError = _compile_lazy(tree, path)
        except ConfigError as exc:
            lazy = exc
        analysis = Analysis(detected, lazy)
    if len(_ANALYSES) >= MAX_CACHED:
        _ANALYSES.pop(next(iter(_ANALYSES)))
    _ANALYSES[key] = analysis
    return analysis


def precompile(paths: Iterable[str]) -> None:
    """Analyse files ahead of the next load (the worker does this; nothing is executed)."""
    for name in dict.fromkeys(paths):
        path = Path(name)
        if path.suffix != PY_SUFFIX:
            continue
        try:
            raw = read_regular(path, MAX_PRECOMPILE_BYTES, "config")  # never a FIFO's wait
            if len(raw) <= MAX_PRECOMPILE_BYTES:
                analyse(path, raw.decode("utf-8-sig"))
        except Exception:  # the load itself reports any problem with the file
            continue


def _compile(tree: ast.Module, path: Path) -> types.CodeType:
    try:
        return compile(tree, str(path), "exec")
    except SyntaxError as exc:  # e.g. `return` outside a function: found only when compiling
        raise ConfigError(f"SyntaxError: {exc.msg}", file=str(path), line=exc.lineno,
                          hint="fix the Python syntax at that line") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise ConfigError(f"cannot compile the config: {exc}", file=str(path)) from None


def _base_import(node: ast.ImportFrom) -> BaseImport:
    return BaseImport("." * node.level + (node.module or ""),
                      tuple((a.name, a.asname) for a in node.names), node.lineno)


def _compile_lazy(tree: ast.Module, path: Path) -> LazyCode:
    """``Config._parse_lazy_import`` up to running the code (which needs the bases)."""
    body = tree.body
    base_stmts: list[ast.ImportFrom] = []
    for index, node in enumerate(body):
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == BASE_KEY):
            raise ConfigError(
                "`_base_ = ...` cannot be mixed with `with read_base():` or framework imports",
                file=str(path), line=node.lineno,
                hint="mmengine needs one style per inheritance chain: import the bases inside "
                "`with read_base():`",
            )
        if not isinstance(node, ast.With):
            continue
        if not _is_read_base(node):
            raise _only_read_base(node, path)
        for stmt in node.body:
            if not isinstance(stmt, ast.ImportFrom):
                raise ConfigError(
                    "only `from ... import ...` statements may appear inside `with read_base():`",
                    file=str(path), line=stmt.lineno,
                    hint="move other code below the read_base block",
                )
            if stmt.module is None:
                raise ConfigError(
                    "`from . import name` is not allowed in `with read_base():`",
                    file=str(path), line=stmt.lineno,
                    hint="name the module: `from .name import name_datasets`",
                )
        base_stmts = list(node.body)  # type: ignore[arg-type]
        del body[index]
        break
    for node in body:
        if isinstance(node, ast.With) and _is_read_base(node):
            raise ConfigError(
                "only the first `with read_base():` block of a config is read",
                file=str(path), line=node.lineno,
                hint="mmengine reads the bases of one block; put every base import in it",
            )
    bases = tuple(_base_import(stmt) for stmt in base_stmts)
    imports = _ImportScan({b.key for b in bases})
    tree = imports.visit(tree)
    _DictTracker(str(path)).visit(tree)
    ast.fix_missing_locations(tree)
    lines = {name: line for name, (_, line) in _assignment_lines(tree, path).items()}
    return LazyCode(_compile(tree, path), bases, tuple(imports.late), frozenset(imports.imported), lines)


class _ImportScan(ast.NodeTransformer):
    """mmengine's ImportTransformer, statically: imports of base modules come out (their
    names are filled in before the code runs); every other imported name is noted."""

    def __init__(self, base_keys: set[str]) -> None:
        self.base_keys = base_keys
        self.late: list[BaseImport] = []
        self.imported: set[str] = set()

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        key = "." * node.level + (node.module or "")
        if node.module is not None and key in self.base_keys:
            self.late.append(_base_import(node))
            return ast.copy_location(ast.Pass(), node)
        for alias in node.names:
            if alias.name != "*":
                self.imported.add(alias.asname or alias.name)
        return node

    def visit_Import(self, node: ast.Import) -> Any:
        for alias in node.names:
            if alias.asname is not None:
                self.imported.add(alias.asname)
            elif not is_stdlib(alias.name):
                self.imported.add(alias.name.split(".", 1)[0])
        return node


class _DictTracker(ast.NodeTransformer):
    """Wraps ``{...}``, ``{k: v for ...}``, ``dict(...)`` and ``[...]`` so each dict and list
    knows its line (errors and the template tree point at it)."""

    def __init__(self, file: str) -> None:
        self.file = file

    def _wrap(self, node: ast.expr) -> ast.expr:
        call = ast.Call(func=ast.Name(id="__workbench_at__", ctx=ast.Load()),
                        args=[node, ast.Constant(node.lineno)], keywords=[])
        return ast.copy_location(call, node)

    def visit_Dict(self, node: ast.Dict) -> Any:
        self.generic_visit(node)
        return self._wrap(node)

    def visit_DictComp(self, node: ast.DictComp) -> Any:
        self.generic_visit(node)
        return self._wrap(node)

    def visit_List(self, node: ast.List) -> Any:
        self.generic_visit(node)
        return self._wrap(node) if isinstance(node.ctx, ast.Load) else node

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "dict":
            return self._wrap(node)
        return node


class _RemoveBaseAssign(ast.NodeTransformer):
    def visit_Assign(self, node: ast.Assign) -> Any:
        if isinstance(node.targets[0], ast.Name) and node.targets[0].id == BASE_KEY:
            return ast.copy_location(ast.Pass(), node)
        return node


def _assignment_lines(tree: ast.Module, path: Path) -> dict[str, tuple[str, int]]:
    """Where the last top-level statement binding each name is (for errors about a name)."""
    lines: dict[str, tuple[str, int]] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Name):
                    lines[sub.id] = (str(path), node.lineno)
    return lines


def _contains_itself(value: Any) -> bool:
    """Whether a dict or list holds itself, at any depth.

    Each container is explored once (one shared many times over, ``a = [a, a]`` forty
    times, costs forty steps, not 2**40); the walk is iterative, so depth costs no stack.
    """
    if not isinstance(value, (dict, list, tuple)):
        return False
    on_path: set[int] = set()
    done: set[int] = set()
    keep: list[Any] = []  # ids stay unique while their objects are held
    stack: list[tuple[Any, Iterator[Any]]] = []

    def enter(node: Any) -> None:
        on_path.add(id(node))
        keep.append(node)
        stack.append((node, iter(dict.values(node) if isinstance(node, dict) else node)))

    enter(value)
    while stack:
        node, items = stack[-1]
        for item in items:
            if isinstance(item, (dict, list, tuple)):
                if id(item) in on_path:
                    return True
                if id(item) not in done:
                    enter(item)
                    break
        else:
            stack.pop()
            on_path.discard(id(node))
            done.add(id(node))
    return False


def _base_files(tree: ast.Module, path: Path) -> list[tuple[str, int]]:
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


def _substitute_predefined(source: str, path: Path) -> str:
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


def _pre_substitute_base_vars(source: str) -> tuple[str, dict[str, str]]:
    base_vars: dict[str, str] = {}
    for var in set(re.findall(r"\{\{\s*" + BASE_KEY + r"\.([\w\.]+)\s*\}\}", source)):
        token = f"_{var}_{uuid.uuid4().hex[:6]}"
        base_vars[token] = var
        source = re.sub(r"\{\{\s*" + BASE_KEY + r"\." + re.escape(var) + r"\s*\}\}",
                        f'"{token}"', source)
    return source, base_vars


def _substitute_base_vars(cfg: Any, base_vars: dict[str, str], base_cfg: dict, path: Path) -> Any:
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


def installed_package_root(package: str) -> Path | None:
    """The folder holding an installed ``package`` (found without importing it)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    if locations:
        return Path(locations[0]).parent
    if spec.origin:
        return Path(spec.origin).parent
    return None


def _caller_line(path: Path) -> int | None:
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == str(path):
            return frame.f_lineno
        frame = frame.f_back  # type: ignore[assignment]
    return None


def _hint_for(exc: BaseException) -> str | None:
    if isinstance(exc, NameError) and getattr(exc, "name", None) == "__file__":
        return ("mmengine defines __file__ only for configs read in lazy-import mode (with "
                "`with read_base():` or framework imports)")
    if isinstance(exc, NameError):
        return ("define the name, or import it (framework names import from opencompass.* or "
                "ais_bench.*; bases inside `with read_base():`)")
    if isinstance(exc, ImportError):
        return "only standard-library modules are really imported in a config"
    return "the config fails when run as Python; fix the code at that line"
