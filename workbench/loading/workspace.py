"""From command-line inputs (configs, --data, --models, --config-root) to a Workspace."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.abbr import dataset_abbr_from_cfg, model_abbr_from_cfg
from ..core.errors import ConfigError
from ..core.spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec, Source
from .data_files import DATA_SUFFIXES, read_rows
from .placeholder_rows import placeholder_rows
from .python_config import execute, to_plain

# Names only AISBench defines: a bare type string naming one means an AISBench config.
AIS_ONLY = {"MultiTurnPromptTemplate", "MMPromptTemplate", "MultiTurnGenInferencer",
            "LMMGenInferencer", "BFCLV3FunctionCallInferencer"}


@dataclass(frozen=True)
class DataArg:
    """One ``--data`` value: FILE (every dataset) or ABBR=FILE."""

    path: Path
    abbr: str | None = None

    @classmethod
    def parse(cls, text: str) -> DataArg:
        if "=" in text and not Path(text).exists():
            abbr, _, path = text.partition("=")
            return cls(Path(path), abbr)
        return cls(Path(text))


@dataclass
class Workspace:
    """Everything a render needs, and every file it was built from (for the watcher)."""

    configs: list[str]
    datasets: list[DatasetSpec] = field(default_factory=list)
    models: list[ModelSpec] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    errors: list[ConfigError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def add_file(self, path: Path) -> None:
        path = path.resolve()
        if path not in self.files:
            self.files.append(path)


def config_roots(explicit: Iterable[str | os.PathLike] = ()) -> list[Path]:
    """--config-root folders first, then WORKBENCH_CONFIG_ROOT (os.pathsep-separated)."""
    roots = [Path(r) for r in explicit]
    env = os.environ.get("WORKBENCH_CONFIG_ROOT", "")
    roots += [Path(p) for p in env.split(os.pathsep) if p]
    return roots


def _framework_of(cfg: Any, default: str = OPENCOMPASS) -> str:
    """AISBench if any type in the config comes from ais_bench (or is AISBench-only)."""
    found = default
    stack = [cfg]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            t = value.get("type")
            if isinstance(t, str):
                if t.startswith("ais_bench"):
                    return AISBENCH
                if t.startswith("opencompass"):
                    found = OPENCOMPASS
                elif t.rsplit(".", 1)[-1] in AIS_ONLY:
                    return AISBENCH
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return found


def _collect(namespace: Mapping[str, Any], suffix: str, exact: str) -> tuple[list[Any], list[str]]:
    """``exact`` if it is a list, else every ``*suffix`` list, in definition order."""
    warnings: list[str] = []
    if isinstance(namespace.get(exact), list):
        return list(namespace[exact]), warnings
    out: list[Any] = []
    for name, value in namespace.items():
        if name.endswith(suffix):
            if isinstance(value, list):
                out.extend(value)
            else:
                warnings.append(f"{name} is a {type(value).__name__}, not a list; skipped")
    return out, warnings


def _source(execution, value: Any) -> Source:
    where = execution.dict_lines.get(id(value))
    if where:
        return Source(where[0], where[1])
    return Source(str(execution.main.path), None)


def load_python(path: Path, roots: Sequence[Path], workspace: Workspace,
                want_datasets: bool = True) -> tuple[list[tuple[Any, Source]], list[tuple[Any, Source]]]:
    execution, _ = execute(path, roots)
    for f in execution.files:
        workspace.add_file(f)
    ns = execution.main.namespace
    datasets, w1 = _collect(ns, "_datasets", "datasets") if want_datasets else ([], [])
    models, w2 = _collect(ns, "_models", "models")
    workspace.warnings += [f"{path.name}: {w}" for w in (*w1, *w2)]
    return ([(d, _source(execution, d)) for d in datasets],
            [(m, _source(execution, m)) for m in models])


def _rows_for(cfg: Mapping[str, Any], abbr: str, data: Sequence[DataArg], bases: Sequence[Path],
              workspace: Workspace) -> tuple[Any, str]:
    """--data first, then a local rows file named by the dataset's path, else placeholders.

    A relative path is tried against the working directory (as the frameworks do), then the
    folder of the file defining the dataset, then the top config's folder.
    """
    for arg in data:
        if arg.abbr is None or arg.abbr == abbr:
            workspace.add_file(arg.path)
            return read_rows(arg.path), str(arg.path)
    path = cfg.get("path")
    if isinstance(path, str) and path.lower().endswith(DATA_SUFFIXES):
        for candidate in (Path(path), *(base / path for base in bases)):
            if candidate.is_file():
                workspace.add_file(candidate)
                return read_rows(candidate), str(candidate)
    return placeholder_rows(cfg), "placeholders from reader_cfg"


def load_workspace(
    configs: Sequence[str | os.PathLike],
    data: Sequence[str] = (),
    model_files: Sequence[str | os.PathLike] = (),
    roots: Iterable[str | os.PathLike] = (),
) -> Workspace:
    """Load configs into a Workspace; problems become errors, never exceptions."""
    workspace = Workspace(configs=[str(c) for c in configs])
    root_dirs = config_roots(roots)
    data_args = [DataArg.parse(d) for d in data]
    raw_models: list[tuple[Any, Source]] = []
    for config in configs:
        path = Path(config)
        try:
            found_datasets, found_models = load_python(path, root_dirs, workspace)
        except ConfigError as exc:
            workspace.errors.append(exc)
            workspace.add_file(path)
            continue
        for cfg, source in found_datasets:
            try:
                plain = to_plain(cfg)
                if not isinstance(plain, dict):
                    raise ConfigError(f"a dataset entry is a {type(plain).__name__}, not a dict",
                                      file=source.file, line=source.line)
                abbr = dataset_abbr_from_cfg(plain)
                bases = [Path(source.file).parent] if source.file else []
                rows, origin = _rows_for(plain, abbr, data_args, [*bases, path.parent], workspace)
            except ConfigError as exc:
                if exc.file is None:
                    exc.file, exc.line = source.file, source.line
                workspace.errors.append(exc)
                continue
            except (KeyError, TypeError, ValueError) as exc:
                workspace.errors.append(ConfigError(f"bad dataset entry: {exc}", file=source.file,
                                                    line=source.line))
                continue
            workspace.datasets.append(DatasetSpec(abbr=abbr, cfg=plain, rows=rows,
                                                  framework=_framework_of(plain), source=source,
                                                  rows_origin=origin))
        raw_models += found_models
    for model_file in model_files:
        try:
            _, found_models = load_python(Path(model_file), root_dirs, workspace, want_datasets=False)
        except ConfigError as exc:
            workspace.errors.append(exc)
            continue
        raw_models += found_models
    for cfg, source in raw_models:
        plain = to_plain(cfg)
        if not isinstance(plain, dict):
            workspace.errors.append(ConfigError(f"a model entry is a {type(plain).__name__}, not a dict",
                                                file=source.file, line=source.line))
            continue
        framework = _framework_of(plain)
        try:
            abbr = model_abbr_from_cfg(plain, framework=framework)
        except (KeyError, TypeError) as exc:
            workspace.errors.append(ConfigError(f"model has no abbr and no path to derive one ({exc})",
                                                file=source.file, line=source.line,
                                                hint="add abbr='my-model' to the model dict"))
            continue
        workspace.models.append(ModelSpec(abbr=abbr, cfg=plain, framework=framework, source=source))
    return workspace
