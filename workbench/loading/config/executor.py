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

The pieces: :mod:`.stand_ins` (ConfigDict, FrameworkRef, ``read_base``), :mod:`.analysis`
(the mode, the bases and the compiled code, cached), :mod:`.bases` (classic ``_base_``
merging); this module runs the code.  Only plain data leaves the worker
(:mod:`.plain_data`).  May import the standard library, ``core.errors``, ``loading.files``
and its sibling modules.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import os
import re
import sys
import traceback
import types
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ..files.reading import MAX_CONFIG_BYTES, decoded, read_regular
from .analysis import (
    BASE_KEY,
    PY_SUFFIX,
    BaseImport,
    DictTracker,
    LazyCode,
    analyse,
    assignment_lines,
    compile_tree,
    fresh_error,
    is_stdlib,
)
from .bases import (
    ConfigModule,
    RemoveBaseAssign,
    base_files,
    merge_a_into_b,
    merge_bases,
    pre_substitute_base_vars,
    substitute_base_vars,
    substitute_predefined,
)
from .data_config import read_data_config
from .framework_modules import missing_module
from .stand_ins import COPIED, ConfigDict, FakeModule, FrameworkCall, FrameworkRef, read_base

FRAMEWORK_ROOTS = ("opencompass", "ais_bench", "mmengine")
DATA_CONFIG_SUFFIXES = (".json", ".yaml", ".yml", ".toml")


class ConfigTimeout(BaseException):
    """The worker's time limit ran out while the config was running."""


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

    def at(self, value: Any, file: str, line: int, keys: tuple[tuple[str, int], ...] = ()) -> Any:
        """Record where ``value`` was written; ``keys``: (key, line) of a dict's keys written on
        lines below its first (kept as a third item, so copies carry them along)."""
        if id(value) not in self.dict_lines:
            self.dict_lines[id(value)] = (file, line, keys) if keys else (file, line)
            self.keepalive.append(value)
        return value

    def line_of(self, value: Any) -> tuple[Any, ...] | None:
        """(file, line), or (file, line, key lines) for a dict with keys below its first line."""
        return self.dict_lines.get(id(value))

    def run_base(self, path: Path, importer: tuple[Path, int]) -> ConfigModule:
        """A classic ``_base_`` file (of a Python or a data config), for :func:`merge_bases`."""
        return self._run_file(path, importer=importer, lazy=False)

    # entry point -----------------------------------------------------------------------
    def run(self, path: str | os.PathLike) -> ConfigModule:
        """Run a top-level config; raises ConfigError located at file:line."""
        token = COPIED.set(self._copied)
        try:
            return self._run_file(Path(os.path.abspath(path)), importer=None)
        finally:
            COPIED.reset(token)

    def _copied(self, original: Any, copy: Any) -> None:
        where = self.dict_lines.get(id(original))
        if where is not None:
            self.at(copy, *where)

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
            raise fresh_error(analysis.detected)
        self.stack.append(path)
        try:
            if lazy is None:
                if isinstance(analysis.detected, ConfigError):
                    raise fresh_error(analysis.detected)
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
                    raise fresh_error(analysis.lazy)
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
            module.names = {k: self.copy_config(v) for k, v in module.names.items()}
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

    def copy_config(self, value: Any) -> Any:
        """``_dict_to_config_dict_lazy``: a fresh ConfigDict tree per importing file.

        A suite copies tens of thousands of values on every load, so the walk is one tight
        closure: leaves (most of them strings) return first, lookups are bound once."""
        lines = self.dict_lines
        lines_of = lines.get
        keep = self.keepalive.append
        new_dict = ConfigDict.__new__  # ConfigDict() less its __init__, which has nothing to do
        set_item = dict.__setitem__
        items = dict.items
        leaf = {str, int, float, bool, type(None)}  # checked before a call: most values are these

        def copy(node: Any) -> Any:
            kind = type(node)
            if kind in leaf:
                return node
            if kind is list:
                return [v if type(v) in leaf else copy(v) for v in node]
            if kind is tuple:
                return tuple([v if type(v) in leaf else copy(v) for v in node])
            if not isinstance(node, dict):
                return node
            made = new_dict(ConfigDict)
            for key, item in items(node):
                set_item(made, key, item if type(item) in leaf else copy(item))
            where = lines_of(id(node))
            if where:  # self.at(made, *where), inlined: ``made`` is new, so never recorded yet
                lines[id(made)] = where
                keep(made)
            return made

        return copy(value)

    # classic mode (_base_ files) --------------------------------------------------------
    def _run_classic(self, path: Path, source: str) -> ConfigModule:
        source = substitute_predefined(source, path)
        source = self._substitute_env(source, path)
        source, base_vars = pre_substitute_base_vars(source)
        try:
            tree = ast.parse(source, filename=str(path))
        except SyntaxError as exc:  # a {{ }} substitution made it invalid
            raise ConfigError(f"SyntaxError after substituting {{{{ }}}} values: {exc.msg}",
                              file=str(path), line=exc.lineno,
                              hint="quote the {{ }} placeholder, or give a value valid there") from None
        base_cfg, base_lines = merge_bases(self, path, base_files(tree, path))
        tree = RemoveBaseAssign().visit(tree)
        DictTracker(str(path)).visit(tree)
        ast.fix_missing_locations(tree)
        namespace: dict[str, Any] = {BASE_KEY: base_cfg, "__builtins__": self._builtins(path)}
        self._exec(compile_tree(tree, path), path, namespace)
        names = {k: v for k, v in namespace.items()
                 if k != BASE_KEY and not k.startswith("__")
                 and not isinstance(v, (types.FunctionType, types.ModuleType))}
        own_lines = assignment_lines(tree, path)
        for name, value in names.items():
            if contains_itself(value):
                file, line = own_lines.get(name, (str(path), None))
                raise ConfigError(f"{name} holds a structure that contains itself", file=file,
                                  line=line, hint="a dict or list must not appear inside itself")
        names = substitute_base_vars(names, base_vars, base_cfg, path)
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

        def at(value: Any, line: int, keys: tuple[tuple[str, int], ...] = ()) -> Any:
            return executor.at(value, str(path), line, keys)

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
            fake = FakeModule("mmengine.config")
            fake.read_base = read_base
            fake.Config = FrameworkRef("mmengine.config.Config")
            if name == "mmengine":
                parent = FakeModule("mmengine")
                parent.config = fake
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
        self._check_module(importer, name, fromlist)
        if fromlist:
            return FrameworkRef(name)
        return FrameworkRef(name.split(".", 1)[0])

    def _check_module(self, importer: Path, name: str, fromlist: tuple) -> None:
        """Say, once per import, a framework module the framework does not have: the config
        loads, and the run fails where it builds the name (see framework_modules.py)."""
        framework = missing_module(name)
        if framework is None:
            return
        line = _caller_line(importer)
        where = f"{importer.name}:{line}" if line else importer.name
        names = ", ".join(str(n) for n in fromlist) or name
        warning = (f"{where}: imports {name}, which {framework} does not have (ModuleNotFoundError "
                   f"where the run builds {names}): the config loads, and the run fails there")
        if warning not in self.warnings:
            self.warnings.append(warning)

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
        except FrameworkCall as call:
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


def contains_itself(value: Any) -> bool:
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


def installed_package_root(package: str) -> Path | None:
    """The folder holding an installed ``package`` (found without importing it)."""
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
        frame = frame.f_back
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
