"""What a config file's text says before it runs, cached by path and content.

Which mode mmengine reads it in (``Config._is_lazy_import``: lazy-import with
``read_base``, or classic ``_base_``), the bases a ``read_base`` block names, and the code
compiled with every dict and list tagged with its line.  The worker precompiles what a
load read, so a reload re-parses only the files that changed.  May import the standard
library, ``core.errors`` and ``loading.files``.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import ast
import hashlib
import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ..files.reading import read_regular
from .code_cache import CodeCache

BASE_KEY = "_base_"
PY_SUFFIX = ".py"
_STDLIB = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)


def is_stdlib(module: str) -> bool:
    """mmengine's "builtin module" test, made deterministic: the standard library."""
    if module.startswith("mmengine.config"):
        return True
    return module.split(".", 1)[0] in _STDLIB


def _is_lazy(tree: ast.Module, path: Path) -> bool:
    """``Config._is_lazy_import``: breadth-first, the first deciding node wins."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == BASE_KEY):
            return False
        if isinstance(node, ast.With):
            if not is_read_base(node):
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


def is_read_base(node: ast.With) -> bool:
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


def fresh_error(error: ConfigError) -> ConfigError:
    return ConfigError(error.message, file=error.file, line=error.line, hint=error.hint)


#: Where compiled files are kept between processes (None: nowhere): set per load by the
#: worker's child, from the request (see :mod:`.code_cache`).
disk_cache: CodeCache | None = None
#: Files parsed and compiled in this process (what the caches saved shows here).
compiled = 0


def analyse(path: Path, source: str) -> Analysis:
    """Parse, detect the mode and compile the lazy-import form; cached by path and content,
    in this process and (``disk_cache``) between processes."""
    key = (str(path), hashlib.blake2b(source.encode("utf-8", "surrogatepass"), digest_size=16).digest())
    found = _ANALYSES.get(key)
    if found is None and disk_cache is not None:
        found = _thawed(disk_cache.get(*key))
    if found is None:
        found = _analyse(path, source)
        if disk_cache is not None and not found.syntax:
            disk_cache.put(*key, _frozen(found))
    if len(_ANALYSES) >= MAX_CACHED:
        _ANALYSES.pop(next(iter(_ANALYSES)))
    _ANALYSES[key] = found
    return found


def _frozen(analysis: Analysis) -> tuple:
    """An analysis as marshal data (code objects, tuples, strings, numbers)."""
    lazy = analysis.lazy
    if isinstance(lazy, LazyCode):
        stored_lazy: tuple | None = ("code", lazy.code, *(tuple((b.key, b.names, b.line) for b in bases)
                                                         for bases in (lazy.bases, lazy.late)),
                                     lazy.imported, lazy.lines)
    else:
        stored_lazy = _frozen_value(lazy)
    return (_frozen_value(analysis.detected), stored_lazy)


def _frozen_value(value: bool | ConfigError | None) -> tuple | None:
    if isinstance(value, ConfigError):
        return ("error", value.message, value.file, value.line, value.hint)
    return None if value is None else ("bool", value)


def _thawed_value(stored: Any) -> bool | ConfigError | None:
    if stored is None:
        return None
    if stored[0] == "error":
        return ConfigError(stored[1], file=stored[2], line=stored[3], hint=stored[4])
    if stored[0] == "bool" and isinstance(stored[1], bool):
        return stored[1]
    raise ValueError("not a stored analysis")


def _thawed(stored: Any) -> Analysis | None:
    """An analysis back from :func:`_frozen`; None for anything else."""
    if stored is None:
        return None
    try:
        detected, lazy = stored
        if isinstance(lazy, tuple) and lazy[0] == "code":
            _, code, bases, late, imported, lines = lazy
            if not (isinstance(code, types.CodeType) and isinstance(imported, frozenset)
                    and isinstance(lines, dict)):
                return None
            thawed: LazyCode | ConfigError | None = LazyCode(
                code, tuple(BaseImport(k, n, line) for k, n, line in bases),
                tuple(BaseImport(k, n, line) for k, n, line in late), imported, lines)
        else:
            thawed = _thawed_value(lazy)
            if thawed is True or thawed is False:
                return None
        found = _thawed_value(detected)
        if found is None:
            return None
        return Analysis(found, thawed)
    except (ValueError, TypeError, IndexError):
        return None


def _analyse(path: Path, source: str) -> Analysis:
    global compiled
    compiled += 1
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        analysis = Analysis(ConfigError(f"SyntaxError: {exc.msg}", file=str(path), line=exc.lineno,
                                        hint="fix the Python syntax at that line"), syntax=True)
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting, size
        analysis = Analysis(_unparsable(path, source, exc), syntax=True)
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
    return analysis


def _unparsable(path: Path, source: str, exc: Exception) -> ConfigError:
    """Why Python's parser gave up on the file (a MemoryError says nothing of itself)."""
    if isinstance(exc, MemoryError):
        return ConfigError(f"cannot parse the config: Python ran out of memory parsing its "
                           f"{len(source):,} characters{_memory_limit()}", file=str(path),
                           hint="a config this large is data: keep the values in a .json or .jsonl "
                           "file and read it from the config")
    if isinstance(exc, RecursionError):
        return ConfigError("cannot parse the config: it nests deeper than Python's parser goes",
                           file=str(path), hint="flatten the deepest expression")
    return ConfigError(f"cannot parse the config: {exc or type(exc).__name__}", file=str(path))


def _memory_limit() -> str:
    """The address-space limit the parse ran under, as a clause (empty when there is none)."""
    try:
        # lazy: Unix only, and only when a parse ran out of memory (the worker sets this limit)
        import resource
    except ImportError:
        return ""
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return ""
    return f" within the load's memory limit of {limit / 1024**3:.3g} GiB"


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


def compile_tree(tree: ast.Module, path: Path) -> types.CodeType:
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
        if not is_read_base(node):
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
        base_stmts = list(node.body)
        del body[index]
        break
    for node in body:
        if isinstance(node, ast.With) and is_read_base(node):
            raise ConfigError(
                "only the first `with read_base():` block of a config is read",
                file=str(path), line=node.lineno,
                hint="mmengine reads the bases of one block; put every base import in it",
            )
    bases = tuple(_base_import(stmt) for stmt in base_stmts)
    imports = _ImportScan({b.key for b in bases})
    tree = imports.visit(tree)
    DictTracker(str(path)).visit(tree)
    ast.fix_missing_locations(tree)
    lines = {name: line for name, (_, line) in assignment_lines(tree, path).items()}
    return LazyCode(compile_tree(tree, path), bases, tuple(imports.late), frozenset(imports.imported), lines)


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


class DictTracker(ast.NodeTransformer):
    """Wraps ``{...}``, ``{k: v for ...}``, ``dict(...)`` and ``[...]`` so each dict and list
    knows its line (errors and the template tree point at it); a dict written over several lines
    also knows the line of each key written below its first (an unknown key is reported there)."""

    def __init__(self, file: str) -> None:
        self.file = file

    def _wrap(self, node: ast.expr, keys: list[tuple[str, int]] | None = None) -> ast.expr:
        args: list[ast.expr] = [node, ast.Constant(node.lineno)]
        below = tuple((k, line) for k, line in keys or () if line != node.lineno)
        if below:
            args.append(ast.Constant(below))
        call = ast.Call(func=ast.Name(id="__workbench_at__", ctx=ast.Load()), args=args, keywords=[])
        return ast.copy_location(call, node)

    def visit_Dict(self, node: ast.Dict) -> Any:
        self.generic_visit(node)
        keys = [(k.value, k.lineno) for k in node.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        return self._wrap(node, keys)

    def visit_DictComp(self, node: ast.DictComp) -> Any:
        self.generic_visit(node)
        return self._wrap(node)

    def visit_List(self, node: ast.List) -> Any:
        self.generic_visit(node)
        return self._wrap(node) if isinstance(node.ctx, ast.Load) else node

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "dict":
            return self._wrap(node, [(k.arg, k.value.lineno) for k in node.keywords if k.arg is not None])
        return node


def assignment_lines(tree: ast.Module, path: Path) -> dict[str, tuple[str, int]]:
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
