"""From command-line inputs (configs, --data, --models, --config-root) to a Workspace.

Config files are read in the worker process (:mod:`workbench.loading.config.worker`); what
comes back is plain data, turned here into the core's ``DatasetSpec``/``ModelSpec``
with their rows.  A :class:`Loader` keeps the worker warm between loads (the TUI
reloads through one); :func:`load_workspace` uses a shared one.

May import: the core and every loading folder (config, rows, models, files); not views or a front
end.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.abbr import dataset_abbr_from_cfg, model_abbr_from_cfg
from ..core.answers.self_test import self_test_rows
from ..core.dataset_reader import ReaderConfig, build_splits
from ..core.errors import ConfigError, WorkbenchError
from ..core.judge import JudgePair
from ..core.models.model_text import OVERRIDE_KEY
from ..core.spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec, Source
from .config import analysis, worker
from .config.code_cache import CodeCache, default_folder
from .config.config_file import load_config_file
from .config.lmeval_yaml import looks_like_task
from .config.roots import config_roots
from .duplicate_abbrs import one_per_abbr
from .files.reading import real_path
from .judges import Predictions, attach_judges
from .lmeval_settings import TaskSettings
from .models.model_assets import asset_files, chat_template_value, model_assets
from .rows.data_files import file_version, recording_reads
from .rows.sample_rows import (
    SETTINGS_FILE,
    DataArg,
    Settings,
    find_rows,
    named_rows_file,
    read_settings,
    unknown_data_abbrs,
)

__all__ = ["DataArg", "Loader", "Workspace", "config_roots", "load_workspace"]

# Names only AISBench defines: a bare type string naming one means an AISBench config.
AIS_ONLY = {"MultiTurnPromptTemplate", "MMPromptTemplate", "MultiTurnGenInferencer",
            "LMMGenInferencer", "BFCLV3FunctionCallInferencer"}
# Files beside a local model that decide its chat template.
MODEL_FILES = ("tokenizer_config.json", "chat_template.jinja", "chat_template.json")
MODEL_PATH_KEYS = ("path", "tokenizer_path", "hf_path", "model_path")
#: ``Loader(code_cache=DEFAULT)``: the user's cache folder.
DEFAULT: Any = object()


@dataclass
class Workspace:
    """Everything a render needs, and every file it was built from (for the watcher)."""

    configs: list[str]
    datasets: list[DatasetSpec] = field(default_factory=list)
    models: list[ModelSpec] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    errors: list[ConfigError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # files that do not exist yet but would change the load if they appeared
    # (a workbench.toml beside a config, a chat template beside a local model)
    absent_files: list[Path] = field(default_factory=list)
    # datasets whose rows could not be read: (where they sit among `datasets`, abbr, the
    # error, which is in `errors` too), so a suite can open with the others and list these
    failed_datasets: list[tuple[int, str, ConfigError]] = field(default_factory=list)
    #: errors of one lm-eval task each (abbr, the error, which is in `errors` too): a task that
    #: failed (also in `failed_datasets`) or stopped at a doc (its docs before it are rendered);
    #: each is that task's alone, so the others render beside it
    task_errors: list[tuple[str, ConfigError]] = field(default_factory=list)
    #: ``--judge``: each LLM-judged dataset × its judge model (loading/judges.py)
    judges: list[JudgePair] = field(default_factory=list)
    _seen: set[Path] = field(default_factory=set, repr=False, compare=False)

    def failed_dataset_of(self, error: ConfigError) -> str | None:
        """The dataset whose rows (or lm-eval task) ``error`` is about (None: an error of the
        load itself)."""
        found = next((abbr for _, abbr, failed in self.failed_datasets if failed is error), None)
        return found or next((abbr for abbr, failed in self.task_errors if failed is error), None)

    def add_file(self, path: str | os.PathLike) -> None:
        self.add_resolved(real_path(path))

    def add_resolved(self, resolved: Path) -> None:
        """``add_file`` for a path whose symlinks are followed already."""
        if resolved not in self._seen:  # a suite adds hundreds: a set, not a scan of the list
            self._seen.add(resolved)
            self.files.append(resolved)

    def add_absent(self, path: str | os.PathLike) -> None:
        resolved = real_path(path)
        if resolved not in self.absent_files:
            self.absent_files.append(resolved)


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


def _default_framework(file: str | None) -> str:
    parts = Path(file).parts if file else ()
    return AISBENCH if "ais_bench" in parts else OPENCOMPASS


def _locations(entry: Mapping[str, Any]) -> dict[tuple, Source]:
    """Where each dict (and list) inside a dataset or model dict was written."""
    return {tuple(path): Source(file, line) for path, file, line in entry.get("locations") or ()}


@dataclass(frozen=True)
class _NamedRows:
    """A dataset whose rows came from a file named outright (``--data``, ``workbench.toml``),
    as the last load built it: the next load reuses ``spec`` for the same entry object when
    the same file is named and its version is unchanged (one ``stat``, no path lookups)."""

    entry: Mapping[str, Any]
    named: Path
    resolved: Path
    version: tuple[int, ...]
    spec: DatasetSpec


def _error(data: Mapping[str, Any]) -> ConfigError:
    return ConfigError(data["message"], file=data.get("file"), line=data.get("line"),
                       hint=data.get("hint"))


class Loader:
    """Loads workspaces; holds the warm worker process between loads.

    ``timeout`` (seconds) and ``memory_limit`` (bytes) bound each config file's run.
    ``isolate=False`` runs configs in this process (no limits): for debugging, and for
    platforms that cannot fork. ``code_cache`` is the folder config files' compiled code is
    kept in between processes (default: the user's cache folder; None: not kept).
    """

    def __init__(self, timeout: float = worker.DEFAULT_TIMEOUT,
                 memory_limit: int | None = worker.DEFAULT_MEMORY_LIMIT, isolate: bool = True,
                 code_cache: str | os.PathLike | None = DEFAULT) -> None:
        self.timeout = timeout
        self.memory_limit = memory_limit
        folder = default_folder() if code_cache is DEFAULT else code_cache
        self.code_cache = None if folder is None else os.fspath(folder)
        self.isolate = isolate and worker.available()
        self._worker: worker.ConfigWorker | None = None
        self._lock = threading.Lock()
        self._epoch = 0  # bumped by cancel(): a load started before it stops at its next file
        # what each dataset entry of the last load gave that depends on the entry alone (its
        # framework, where its parts were written), by identity: an entry the worker did not
        # resend is the very object of last time (config/answers.py)
        self._derived: dict[int, tuple[Mapping[str, Any], str, dict[tuple, Source]]] = {}
        self.derived_reused = 0  # entries of the last load that reused it
        # datasets whose rows were read from a named file, by entry identity (see _NamedRows)
        self._named: dict[int, _NamedRows] = {}
        self.rows_reused = 0  # datasets of the last load that reused their spec and rows
        # each lm-eval task's name (its `task:`) by file, as the last load that could read it saw it
        self._task_names: dict[str, str] = {}

    # -- config files ------------------------------------------------------------------
    def load_file(self, path: str | os.PathLike, roots: Sequence[Path] = (),
                  want_datasets: bool = True, timeout: float | None = None,
                  epoch: int | None = None) -> dict[str, Any]:
        """One config file as plain data (``load_config_file``'s shape). ``epoch``: the load's,
        so a ``cancel()`` since it began stops this file even before the worker has it."""
        text_roots = [str(r) for r in roots]
        if not self.isolate:
            analysis.disk_cache = CodeCache(self.code_cache) if self.code_cache else None
            return load_config_file(os.fspath(path), text_roots, want_datasets)
        running = self._running_worker()
        cancelled = None if epoch is None else (lambda: self._epoch != epoch)
        return running.load(os.path.abspath(path), text_roots, want_datasets,
                            self.timeout if timeout is None else timeout, self.code_cache, cancelled)

    def _running_worker(self) -> worker.ConfigWorker:
        with self._lock:
            if self._worker is None:
                self._worker = (worker.adopt_prestarted(self.memory_limit)
                                or worker.ConfigWorker(self.memory_limit))
            return self._worker

    def self_test(self, spec: DatasetSpec, model: ModelSpec | None, timeout: float,
                  cancelled: Any = None) -> dict[str, Any]:
        """The dataset's extraction self-test (PW213) in the config worker, bounded: what
        :meth:`~.config.worker.ConfigWorker.self_test` answers. Its rows are split here, and only
        those the checks read are sent."""
        if not self.isolate:
            return {"error": "the self-test runs in the config worker, which this platform cannot fork",
                    "hint": None, "kind": "bounded"}
        try:
            splits = build_splits(spec.rows, ReaderConfig.from_cfg(spec.cfg.get("reader_cfg")), spec.abbr,
                                  spec.framework)
            rows = self_test_rows(spec.cfg, splits.train, splits.test)
        except WorkbenchError as exc:
            return {"error": exc.message, "hint": exc.hint, "kind": "unreadable"}
        return self._running_worker().self_test(spec.cfg, model.cfg if model is not None else {}, rows,
                                                spec.source.file or "", timeout, cancelled)

    @property
    def worker_pid(self) -> int | None:
        return self._worker.pid if self._worker else None

    def cancel(self) -> None:
        """Stop the load that is running now (the TUI calls this when a newer save wins): the
        config running in the worker stops, and that load skips the files it has not read yet.
        Loads started afterwards are not affected."""
        with self._lock:
            self._epoch += 1
            running = self._worker
        if running is not None:
            running.cancel()

    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.close()
                self._worker = None

    def __enter__(self) -> Loader:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- the workspace -------------------------------------------------------------------
    def load(self, configs: Sequence[str | os.PathLike], data: Sequence[str] = (),
             model_files: Sequence[str | os.PathLike] = (),
             roots: Iterable[str | os.PathLike] = (), timeout: float | None = None,
             chat_template: str | None = None, framework_python: str | None = None,
             lmeval: TaskSettings | None = None) -> Workspace:
        """Load configs into a Workspace; problems become errors, never exceptions.

        ``timeout`` overrides the loader's time limit (per config file) for this load;
        ``chat_template`` is ``--chat-template FILE|NAME`` for every model; ``lmeval``, the lm-eval
        options every lm-eval task renders with (default: none given).
        """
        workspace = Workspace(configs=[str(c) for c in configs])
        epoch = self._epoch
        derived, self._derived = self._derived, {}
        named, self._named = self._named, {}
        self.derived_reused = self.rows_reused = 0
        root_dirs = config_roots(roots)
        data_args = [DataArg.parse(d) for d in data]
        raw_models: list[tuple[dict, Path]] = []
        dataset_configs: list[Path] = []  # the config each of workspace.datasets came from
        tasks: list[str] = []  # the lm-eval tasks, by name
        random_state = None  # the global random state the tasks' code left, from task to task
        lmeval = lmeval or TaskSettings()
        for config in configs:
            path = Path(config)
            workspace.add_file(path)
            if self._cancelled(epoch, path, workspace):
                return workspace
            if looks_like_task(path):
                name, random_state = self._add_task(path, data, workspace, timeout, chat_template, lmeval,
                                                    random_state)
                tasks.append(name)
                dataset_configs += [path] * (len(workspace.datasets) - len(dataset_configs))
                continue
            result = self.load_file(path, root_dirs, timeout=timeout, epoch=epoch)
            self._take(result, workspace)
            if result["error"]:
                workspace.errors.append(_error(result["error"]))
                continue
            settings = self._settings(path.parent, workspace)
            before = len(workspace.datasets)
            for entry in result["datasets"]:
                self._add_dataset(entry, path, settings, data_args, workspace, root_dirs, framework_python,
                                  derived, named)
            refusal = result.get("ais_cli_refusal")
            added = workspace.datasets[before:]
            # an AISBench config (one mixing the frameworks is run by neither, and said so per pair)
            if refusal and added and all(d.framework == AISBENCH for d in added):
                workspace.warnings.append(
                    f"{path.name}: AISBench's command line refuses this config (ais_bench {path.name}): "
                    f"{refusal}, so a run of it fails before inference; the render shows what its pairs "
                    "would send")
            dataset_configs += [path] * (len(workspace.datasets) - len(dataset_configs))
            raw_models += [(entry, path) for entry in result["models"]]
        for model_file in model_files:
            path = Path(model_file)
            workspace.add_file(path)
            if self._cancelled(epoch, path, workspace):
                return workspace
            result = self.load_file(path, root_dirs, want_datasets=False, timeout=timeout, epoch=epoch)
            self._take(result, workspace)
            if result["error"]:
                workspace.errors.append(_error(result["error"]))
                continue
            if not result["models"]:
                workspace.warnings.append(f"{path.name}: defines no `models` list")
            raw_models += [(entry, path) for entry in result["models"]]
        override = chat_template_value(chat_template) if chat_template else None
        model_configs: list[Path] = []
        for entry, config in raw_models:
            self._add_model(entry, config, workspace, override)
            model_configs += [config] * (len(workspace.models) - len(model_configs))
        workspace.datasets = one_per_abbr(workspace.datasets, dataset_configs, "dataset", workspace.errors,
                                          workspace.warnings.append)
        workspace.models = one_per_abbr(workspace.models, model_configs, "model", workspace.errors,
                                        workspace.warnings.append)
        if not workspace.errors and not tasks:  # a task's --data names its splits, not abbrs
            workspace.warnings += unknown_data_abbrs(data, [d.abbr for d in workspace.datasets])
        unapplied = lmeval.unapplied_chat(chat_template, tasks)
        if unapplied:
            workspace.warnings.append(unapplied)
        return workspace

    def add_judges(self, workspace: Workspace, judge_model_files: Sequence[str | os.PathLike] = (),
                   predictions: Predictions | None = None, data: Sequence[str] = (),
                   roots: Iterable[str | os.PathLike] = (), timeout: float | None = None) -> None:
        """``--judge``: the workspace's judge pairs (``workspace.judges``), their judge models
        from ``judge_model_files`` when given, else each evaluator's own or the fallback."""
        root_dirs = config_roots(roots)
        scratch = Workspace(configs=[])
        for model_file in judge_model_files:
            path = Path(model_file)
            workspace.add_file(path)
            result = self.load_file(path, root_dirs, want_datasets=False, timeout=timeout)
            self._take(result, workspace)
            if result["error"]:
                workspace.errors.append(_error(result["error"]))
                continue
            if not result["models"]:
                workspace.errors.append(ConfigError(f"--judge-model {path.name}: defines no `models` list",
                                                    file=str(path), hint="models = [dict(type=..., ...)]"))
            for entry in result["models"]:
                self._add_model(entry, path, scratch)
        named = list(scratch.models)

        def make_model(cfg: Mapping[str, Any], source: Source) -> ModelSpec | None:
            made = Workspace(configs=[])
            config = Path(source.file) if source.file else Path(os.getcwd())
            entry = {"cfg": cfg, "file": source.file, "line": source.line, "error": None}
            self._add_model(entry, config, made)
            workspace.errors += made.errors
            for file in made.files:
                workspace.add_file(file)
            return made.models[0] if made.models else None

        found = attach_judges(workspace.datasets, workspace.models, make_model, named, predictions,
                              [DataArg.parse(d) for d in data])
        workspace.errors += scratch.errors + found.errors
        workspace.warnings += found.warnings
        for file in scratch.files:
            workspace.add_file(file)
        workspace.judges = found.pairs

    def _add_task(self, path: Path, data: Sequence[str], workspace: Workspace,
                  timeout: float | None, chat_template: str | None, settings: TaskSettings,
                  random_state: dict[str, Any] | None) -> tuple[str, dict[str, Any] | None]:
        """An lm-eval task YAML, rendered with the lm-eval options as lm-eval renders it: one
        dataset whose rows are its requests (:func:`lmeval_tasks.task_dataset`); its name, and the
        global random state it leaves for the next task (the tasks of a load are one lm-eval run)."""
        # lazy: the prompt rules and the chat sandbox (jinja2) are needed only for a task
        from ..core.errors import WorkbenchError
        from .lmeval_tasks import render_tasks, task_dataset

        try:
            options = settings.options(chat_template)
        except WorkbenchError as exc:
            workspace.errors.append(ConfigError(exc.message, file=exc.file, line=exc.line, hint=exc.hint))
            return path.stem, random_state
        running = self._running_worker() if self.isolate else None
        [task] = render_tasks([str(path)], list(data), options, settings.num_fewshot,
                              timeout=self.timeout if timeout is None else timeout,
                              isolate=self.isolate, config_worker=running, random_state=random_state)
        if task.fields:
            self._task_names[task.file] = task.name
        else:  # its YAML could not be read (a cycle, a syntax error): the name it had, so a task
            # broken mid-edit stays the task on screen, its last good render under the error
            task.name = self._task_names.get(task.file, task.name)
        for file in task.files:
            workspace.add_file(file)
        workspace.warnings += [f"{task.name}: {message}" for message in task.warnings]
        if task.error is not None:
            error = ConfigError(task.error.message, file=task.error.file, line=task.error.line,
                                hint=task.error.hint)
            workspace.errors.append(error)
            workspace.task_errors.append((task.name, error))
            if not task.samples:
                workspace.failed_datasets.append((len(workspace.datasets), task.name, error))
                return task.name, task.random_state
        workspace.datasets.append(task_dataset(task, options, settings.given()))
        return task.name, task.random_state

    def _cancelled(self, epoch: int, path: Path, workspace: Workspace) -> bool:
        if epoch == self._epoch:
            return False
        workspace.errors.append(ConfigError("the load was cancelled: a newer change replaced it",
                                            file=str(path), hint="the newer load follows"))
        return True

    def _take(self, result: Mapping[str, Any], workspace: Workspace) -> None:
        for file in result["files"]:
            workspace.add_file(file)
        workspace.warnings += result["warnings"]

    def _settings(self, folder: Path, workspace: Workspace) -> Settings:
        try:
            settings = read_settings(folder)
        except ConfigError as exc:
            workspace.add_file(folder / SETTINGS_FILE)
            workspace.errors.append(exc)
            return Settings()
        if settings.path is not None:
            workspace.add_file(settings.path)
        else:
            workspace.add_absent(folder / SETTINGS_FILE)
        return settings

    def _derived_of(self, entry: Mapping[str, Any], source: Source,
                    before: Mapping[int, tuple[Mapping[str, Any], str, dict[tuple, Source]]],
                    ) -> tuple[str, dict[tuple, Source]]:
        """The entry's framework and locations: last load's when it is the same entry object."""
        found = before.get(id(entry))
        if found is not None and found[0] is entry:
            self.derived_reused += 1
        else:
            found = (entry, _framework_of(entry["cfg"], _default_framework(source.file)), _locations(entry))
        self._derived[id(entry)] = found
        return found[1], found[2]

    def _add_dataset(self, entry: Mapping[str, Any], config: Path, settings: Settings,
                     data_args: Sequence[DataArg], workspace: Workspace,
                     roots: Sequence[Path] = (), framework_python: str | None = None,
                     derived: Mapping[int, tuple[Mapping[str, Any], str, dict[tuple, Source]]] | None = None,
                     named_before: Mapping[int, _NamedRows] | None = None) -> None:
        source = Source(entry["file"], entry["line"])
        if entry["error"]:
            workspace.errors.append(_error(entry["error"]))
            return
        cfg = entry["cfg"]
        abbr: Any = None
        try:
            try:
                abbr = dataset_abbr_from_cfg(cfg)
            except KeyError:
                raise ConfigError("dataset has no abbr and no path to derive one from",
                                  hint="add abbr='my_dataset' to the dataset dict") from None
            except TypeError as exc:
                raise ConfigError(f"cannot derive the dataset abbr: {exc}",
                                  hint="add abbr='my_dataset' to the dataset dict") from None
            if not isinstance(abbr, str):
                raise ConfigError(f"dataset abbr must be a string, got {abbr!r}",
                                  hint="abbr='my_dataset'")
            framework, locations = self._derived_of(entry, source, derived or {})
            named = named_rows_file(abbr, data_args, settings)
            kept = self._named_rows(entry, named, named_before or {})
            if kept is not None:
                workspace.add_resolved(kept.resolved)
                workspace.datasets.append(kept.spec)
                return
            bases = [*([Path(source.file).parent] if source.file else []), config.parent, *roots]
            with recording_reads() as reads:
                found = find_rows(cfg, abbr, data_args, settings, bases, framework, framework_python)
        except ConfigError as exc:
            if exc.file is None:
                exc.file, exc.line = source.file, source.line
            elif os.path.exists(exc.file):
                exc.file = os.path.abspath(exc.file)
                workspace.add_file(exc.file)  # a broken rows file is watched like a good one
            # a rows file that is not there yet is watched too: the dataset renders when it comes
            named = settings.data.get(abbr) if isinstance(abbr, str) else None
            for wanted in (exc.file, named):
                if wanted and not os.path.lexists(wanted):
                    workspace.add_absent(os.path.abspath(wanted))
            workspace.errors.append(exc)
            if isinstance(abbr, str):
                workspace.failed_datasets.append((len(workspace.datasets), abbr, exc))
            return
        for file in found.files:
            workspace.add_file(file)
        # What the rows were read from, exactly (None: a file changed while read, never cached).
        version = None if any(v is None for _, v in reads) else ("files", tuple(reads))
        spec = DatasetSpec(abbr=abbr, cfg=cfg, rows=found.rows, framework=framework, source=source,
                           rows_origin=found.origin, rows_source=found.source, locations=locations,
                           rows_version=version)
        workspace.datasets.append(spec)
        if named is not None and found.files == [named] and len(reads) == 1 and reads[0][1] is not None:
            self._named[id(entry)] = _NamedRows(entry, named, Path(reads[0][0]), reads[0][1], spec)

    def _named_rows(self, entry: Mapping[str, Any], named: Path | None,
                    before: Mapping[int, _NamedRows]) -> _NamedRows | None:
        """Last load's dataset for this very entry, when its rows file is named the same and is
        unchanged: the version ``stat`` follows symlinks, so a file edited, replaced, removed
        or a link pointed elsewhere gives another version (or None) and is read again."""
        kept = before.get(id(entry))
        if kept is None or kept.entry is not entry or named is None or kept.named != named:
            return None
        if file_version(named) != kept.version:
            return None
        self._named[id(entry)] = kept
        self.rows_reused += 1
        return kept

    def _add_model(self, entry: Mapping[str, Any], config: Path, workspace: Workspace,
                   chat_template: str | None = None) -> None:
        source = Source(entry["file"], entry["line"])
        if entry["error"]:
            workspace.errors.append(_error(entry["error"]))
            return
        cfg = entry["cfg"]
        framework = _framework_of(cfg, _default_framework(source.file))
        try:
            abbr = model_abbr_from_cfg(cfg, framework=framework, realpath=os.path.realpath)
        except KeyError as exc:
            workspace.errors.append(ConfigError(
                f"model has no abbr and no {exc.args[0]} to derive one from", file=source.file,
                line=source.line, hint="add abbr='my-model' to the model dict"))
            return
        except TypeError as exc:
            workspace.errors.append(ConfigError(f"cannot derive the model abbr: {exc}", file=source.file,
                                                line=source.line, hint="add abbr='my-model'"))
            return
        if not isinstance(abbr, str):
            workspace.errors.append(ConfigError(f"model abbr must be a string, got {abbr!r}",
                                                file=source.file, line=source.line,
                                                hint="abbr='my-model'"))
            return
        if chat_template is not None:
            cfg = {**cfg, OVERRIDE_KEY: chat_template}
        self._model_files(cfg, source, config, workspace)
        spec = ModelSpec(abbr=abbr, cfg=cfg, framework=framework, source=source, locations=_locations(entry))
        spec = replace(spec, assets=model_assets(spec))
        for path in asset_files(spec):
            workspace.add_file(path)
        workspace.models.append(spec)

    def _model_files(self, cfg: Mapping[str, Any], source: Source, config: Path,
                     workspace: Workspace) -> None:
        """Tokenizer / chat-template files of a model whose path is a local folder."""
        bases = [Path(os.getcwd()), *([Path(source.file).parent] if source.file else []), config.parent]
        for key in MODEL_PATH_KEYS:
            value = cfg.get(key)
            if not isinstance(value, str) or not value:
                continue
            for base in bases:
                folder = base / value
                if folder.is_dir():
                    for name in MODEL_FILES:
                        if (folder / name).is_file():
                            workspace.add_file(folder / name)
                        else:
                            workspace.add_absent(folder / name)
                    break


_shared: Loader | None = None
_shared_lock = threading.Lock()


def shared_loader() -> Loader:
    """One Loader per process for callers that do not hold their own."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Loader()
            atexit.register(_shared.close)
        return _shared


def load_workspace(
    configs: Sequence[str | os.PathLike],
    data: Sequence[str] = (),
    model_files: Sequence[str | os.PathLike] = (),
    roots: Iterable[str | os.PathLike] = (),
    timeout: float | None = None,
    loader: Loader | None = None,
    chat_template: str | None = None,
    framework_python: str | None = None,
    lmeval: TaskSettings | None = None,
) -> Workspace:
    """Load configs into a Workspace; problems become errors, never exceptions.

    Uses ``loader`` (or the process's shared one, whose worker stays warm); ``timeout``
    overrides its time limit per config file for this call; ``chat_template`` is
    ``--chat-template FILE|NAME`` for every model; ``lmeval``, the lm-eval options for its tasks.
    """
    return (loader or shared_loader()).load(configs, data, model_files, roots, timeout, chat_template,
                                            framework_python, lmeval)
