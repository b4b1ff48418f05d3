"""Execute an OpenCompass/AISBench Python config without the frameworks installed.

Imports from ``opencompass``, ``ais_bench`` and ``mmengine`` become
:class:`FrameworkRef` markers that remember their dotted name; ``with read_base():``
imports load the named config files (relative, or by package through config roots)
the way mmengine's ``Config`` does.  Only plain data leaves this module: dicts,
lists, strings, numbers, and type names as dotted strings.
"""

from __future__ import annotations

import builtins
import os
import sys
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError

FRAMEWORK_ROOTS = ("opencompass", "ais_bench", "mmengine")
CONFIG_PACKAGES = ("opencompass.configs", "ais_bench.benchmark.configs")


class FrameworkRef:
    """Stands for a class or function imported from a framework (never runs it)."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def __getattr__(self, name: str) -> FrameworkRef:
        if name.startswith("__"):
            raise AttributeError(name)
        return FrameworkRef(f"{self.path}.{name}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise _FrameworkCall(self.path)

    def __repr__(self) -> str:
        return self.path

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FrameworkRef) and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.path.rsplit(".", 1)[-1]

    @property
    def __module__(self) -> str:  # type: ignore[override]
        return self.path.rsplit(".", 1)[0]


class _FrameworkCall(Exception):
    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


class AttrDict(dict):
    """mmengine's ConfigDict allows ``cfg.key``; base-config values keep that."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value


@dataclass
class ModuleResult:
    """One executed config file: its public names and where each dict was made."""

    path: Path
    namespace: dict[str, Any]


@dataclass
class Execution:
    """The whole load: the top file, every file it read, and dict source lines."""

    main: ModuleResult
    files: list[Path] = field(default_factory=list)
    dict_lines: dict[int, tuple[str, int]] = field(default_factory=dict)
    keepalive: list[Any] = field(default_factory=list)


class _ReadBase:
    def __init__(self, loader: _Loader) -> None:
        self.loader = loader

    def __enter__(self) -> None:
        self.loader.in_read_base += 1

    def __exit__(self, *exc: Any) -> None:
        self.loader.in_read_base -= 1


class _Loader:
    def __init__(self, roots: Iterable[Path]) -> None:
        self.roots = [Path(r) for r in roots]
        self.in_read_base = 0
        self.stack: list[Path] = []
        self.execution: Execution | None = None
        self.files: list[Path] = []
        self.dict_lines: dict[int, tuple[str, int]] = {}
        self.keepalive: list[Any] = []

    # -- executing one file -------------------------------------------------------
    def run_file(self, path: Path, module_name: str = "__main__") -> ModuleResult:
        path = path.resolve()
        if path in self.stack:
            chain = " → ".join(p.name for p in [*self.stack, path])
            raise ConfigError(f"circular read_base import: {chain}", file=str(path),
                              hint="a config cannot import itself through its bases")
        try:
            source = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {path}", file=str(path)) from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"config is not UTF-8 text ({exc.reason} at byte {exc.start})",
                              file=str(path)) from None
        except OSError as exc:
            raise ConfigError(f"cannot read config: {exc.strerror}", file=str(path)) from None
        if path not in self.files:
            self.files.append(path)
        try:
            code = compile(source, str(path), "exec")
        except SyntaxError as exc:
            raise ConfigError(
                f"SyntaxError: {exc.msg}", file=str(path), line=exc.lineno,
                hint="fix the Python syntax at that line",
            ) from None
        namespace: dict[str, Any] = {
            "__file__": str(path),
            "__name__": module_name,
            "__builtins__": self._builtins(path),
        }
        self.stack.append(path)
        try:
            exec(code, namespace)
        except ConfigError:
            raise
        except _FrameworkCall as call:
            file, line = _config_frame(sys.exc_info()[2], self.files)
            raise ConfigError(
                f"the config calls {call.path}() while loading; the workbench never runs "
                "framework code",
                file=file, line=line,
                hint="compute that value in plain Python, or give it in the config",
            ) from None
        except SystemExit as exc:
            file, line = _config_frame(sys.exc_info()[2], self.files)
            raise ConfigError(f"the config called sys.exit({exc.code!r})", file=file, line=line) from None
        except RecursionError:
            raise ConfigError("the config recurses without end", file=str(path)) from None
        except Exception as exc:  # a config is code: any failure becomes an error with its line
            file, line = _config_frame(sys.exc_info()[2], self.files)
            raise ConfigError(f"{type(exc).__name__}: {exc}", file=file or str(path), line=line,
                              hint=_hint_for(exc)) from None
        finally:
            self.stack.pop()
        public = {k: v for k, v in namespace.items() if not k.startswith("__")}
        return ModuleResult(path, public)

    def _builtins(self, path: Path) -> dict[str, Any]:
        real_import = builtins.__import__
        loader = self
        record = self.dict_lines
        keep = self.keepalive

        def tracked_dict(*args: Any, **kwargs: Any) -> dict:
            made = dict(*args, **kwargs)
            frame = sys._getframe(1)
            record[id(made)] = (frame.f_code.co_filename, frame.f_lineno)
            keep.append(made)
            return made

        def config_import(name: str, globals_=None, locals_=None, fromlist=(), level=0):
            return loader.do_import(path, name, fromlist or (), level, real_import,
                                    globals_, locals_)

        table = dict(vars(builtins))
        table["__import__"] = config_import
        table["dict"] = tracked_dict
        return table

    # -- imports ---------------------------------------------------------------------
    def do_import(self, importer: Path, name: str, fromlist: tuple, level: int, real_import,
                  globals_, locals_) -> Any:
        root = name.split(".", 1)[0]
        if level > 0:
            return self._import_config(self._relative(importer, name, level, fromlist), name,
                                       fromlist, importer)
        if (self.in_read_base and name.startswith(CONFIG_PACKAGES)) or (
                self.in_read_base and root not in FRAMEWORK_ROOTS and self._find(name)):
            found = self._find(name)
            if found is None:
                raise ConfigError(
                    f"read_base cannot find {name}: no {name.replace('.', '/')}.py under the "
                    f"config roots ({', '.join(map(str, self.roots)) or 'none given'})",
                    file=str(importer), line=_caller_line(importer),
                    hint="pass --config-root DIR (a folder holding the opencompass/ or ais_bench/ "
                    "package tree) or set WORKBENCH_CONFIG_ROOT",
                )
            return self._import_config(found, name, fromlist, importer)
        if root in FRAMEWORK_ROOTS:
            if name in ("mmengine.config", "mmengine") and fromlist and "read_base" in fromlist:
                return _Namespace({"read_base": lambda: _ReadBase(self)}, name)
            return FrameworkRef(name) if fromlist else FrameworkRef(root)
        return real_import(name, globals_, locals_, fromlist, level)

    def _relative(self, importer: Path, name: str, level: int, fromlist: tuple) -> list[Path]:
        base = importer.parent
        for _ in range(level - 1):
            base = base.parent
        if name:
            target = base.joinpath(*name.split("."))
            return [_module_file(target, importer, name)]
        # `from . import a, b`: each name is a sibling config file
        return [_module_file(base / item, importer, item) for item in fromlist]

    def _find(self, dotted: str) -> Path | None:
        for root in self.roots:
            target = root.joinpath(*dotted.split("."))
            for candidate in (target.with_suffix(".py"), target / "__init__.py"):
                if candidate.is_file():
                    return candidate
        return None

    def _import_config(self, found: Path | list[Path], name: str, fromlist: tuple,
                       importer: Path) -> Any:
        if isinstance(found, list) and not name:
            # `from . import a`: each name is a module of its own
            return _Namespace({item: _Namespace(self._load_base(p).namespace, item)
                               for item, p in zip(fromlist, found)}, name)
        path = found[0] if isinstance(found, list) else found
        result = self._load_base(path)
        ns = result.namespace
        for item in fromlist:
            if item != "*" and item not in ns:
                raise ConfigError(
                    f"cannot import name {item!r} from {path.name}",
                    file=str(importer), line=_caller_line(importer),
                    hint=f"{path.name} defines: {', '.join(sorted(ns)[:12]) or 'nothing'}",
                )
        return _Namespace(ns, name)

    def _load_base(self, path: Path) -> ModuleResult:
        result = self.run_file(path, module_name=path.stem)
        result.namespace = {k: self._attrify(v) for k, v in result.namespace.items()}
        return result

    def _attrify(self, value: Any) -> Any:
        """Base-config dicts allow attribute access, as mmengine's ConfigDict does."""
        if isinstance(value, dict) and not isinstance(value, AttrDict):
            made = AttrDict({k: self._attrify(v) for k, v in value.items()})
            if id(value) in self.dict_lines:
                self.dict_lines[id(made)] = self.dict_lines[id(value)]
            self.keepalive.append(made)
            return made
        if isinstance(value, list):
            return [self._attrify(v) for v in value]
        return value


class _Namespace:
    """What an import statement gets back: attribute access to a config's names."""

    def __init__(self, names: Mapping[str, Any], name: str) -> None:
        self.__dict__.update(names)
        self.__name__ = name
        self.__all__ = [k for k in names if not k.startswith("_")]


def _module_file(target: Path, importer: Path, name: str) -> Path:
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            return candidate
    raise ConfigError(
        f"read_base cannot find .{name}: no {target.with_suffix('.py')}",
        file=str(importer), line=_caller_line(importer),
        hint="check the file name; relative imports are resolved from the importing config's folder",
    )


def _caller_line(path: Path) -> int | None:
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == str(path):
            return frame.f_lineno
        frame = frame.f_back  # type: ignore[assignment]
    return None


def _config_frame(tb, files: list[Path]) -> tuple[str | None, int | None]:
    """The innermost traceback frame that is in one of the config files."""
    names = {str(f) for f in files}
    found: tuple[str | None, int | None] = (None, None)
    for frame, line in traceback.walk_tb(tb):
        if frame.f_code.co_filename in names:
            found = (frame.f_code.co_filename, line)
    return found


def _hint_for(exc: Exception) -> str | None:
    if isinstance(exc, NameError):
        return "define the name, or import it (framework names import from opencompass.*)"
    if isinstance(exc, ImportError):
        return "the workbench fakes opencompass/ais_bench/mmengine imports; other packages must be installed"
    if isinstance(exc, (KeyError, IndexError, AttributeError, TypeError)):
        return "the config fails when run as Python; fix the expression at that line"
    return None


def execute(path: str | os.PathLike, roots: Iterable[str | os.PathLike] = ()) -> tuple[Execution, _Loader]:
    """Run a config file and everything it reads; raises ConfigError with file:line."""
    loader = _Loader(Path(r) for r in roots)
    main = loader.run_file(Path(path))
    execution = Execution(main=main, files=list(loader.files), dict_lines=loader.dict_lines,
                          keepalive=loader.keepalive)
    return execution, loader


def to_plain(value: Any, _seen: set[int] | None = None) -> Any:
    """Config values as plain data; framework and config-defined types become dotted names."""
    seen = _seen if _seen is not None else set()
    if isinstance(value, FrameworkRef):
        return value.path
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if id(value) in seen:
        raise ConfigError("the config holds a structure that contains itself")
    if isinstance(value, dict):
        seen.add(id(value))
        out = {k: to_plain(v, seen) for k, v in value.items()}
        seen.discard(id(value))
        return out
    if isinstance(value, (list, tuple)):
        seen.add(id(value))
        items = [to_plain(v, seen) for v in value]
        seen.discard(id(value))
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, type) or callable(value):
        module = getattr(value, "__module__", "") or ""
        name = getattr(value, "__qualname__", getattr(value, "__name__", repr(value)))
        return f"{module}.{name}" if module and module != "builtins" else str(name)
    return repr(value)
