"""From the app's inputs to everything the panes need, in one blocking call.

Runs in a thread worker (never on the UI thread) and returns a value, never raises:
a config that fails to load is a :class:`Loaded` with problems, and a bug in a lower
layer becomes a problem naming it, so the app keeps its last good render on screen.
No Textual here, so this is testable (and benchmarkable) on its own.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError
from ..core.lazy_pairs import LazyPairs, in_place
from ..core.render import RenderOptions
from ..core.result import PairError
from ..views.errors import Problem
from ..views.options import ViewOptions
from ..views.selection import Catalog
from ..views.template_tree import TreeNode, template_tree
from .answers_job import run_answers

if TYPE_CHECKING:
    from ..loading.lmeval_settings import TaskSettings


@dataclass(frozen=True)
class Inputs:
    """What ``workbench [CONFIG...] --data --models --config-root --chat-template --timeout
    --embedding-model`` and the lm-eval options asked for."""

    configs: tuple[str, ...]
    data: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    chat_template: str | None = None  # FILE|NAME for every chat-template model
    framework_python: str | None = None  # a Python with a framework, for datasets' own load()
    run: str | None = None  # a run folder whose recorded outputs show beside the requests
    timeout: float | None = None  # seconds for each Python config (None: the loader's default)
    embedding_model: str | None = None  # --embedding-model DIR for TopK/VoteK retrievers
    judge: bool = False  # --judge: the LLM judges' requests, shown in the answers view
    judge_models: tuple[str, ...] = ()  # --judge-model FILE: the judge instead of the configs'
    lmeval: TaskSettings | None = None  # --num-fewshot, --apply-chat-template ... for lm-eval tasks

    def wants_judges(self) -> bool:
        """The answers view shows the judge's prompt with a run, or when asked for."""
        return bool(self.judge or self.judge_models or self.run)

    def named_files(self) -> list[Path]:
        """Files the user named: watched even before (or while) they load."""
        out = [Path(c) for c in self.configs] + [Path(m) for m in self.models]
        for d in self.data:
            path = Path(d)
            if "=" in d and not path.exists():
                path = Path(d.partition("=")[2])
            out.append(path)
        return [p.absolute() for p in out]

    def root(self) -> Path:
        """The folder paths are shown relative to: the configs' common folder."""
        parents = [str(Path(c).absolute().parent) for c in self.configs] or [os.getcwd()]
        try:
            return Path(os.path.commonpath(parents))
        except ValueError:
            return Path(parents[0])


@dataclass(frozen=True)
class Loaded:
    generation: int
    ok: bool  # no config errors: this render may replace the last good one
    workspace: Any = None
    catalog: Catalog | None = None
    tree: tuple[TreeNode, ...] = ()
    problems: tuple[Problem, ...] = ()
    files: tuple[Path, ...] = ()  # every file the workspace was built from (or tried)
    absent: tuple[Path, ...] = ()  # files that would change the load if they appeared (watched too)
    seconds: float = 0.0
    datasets: Sequence[Any] = field(default_factory=tuple)
    models: Sequence[Any] = field(default_factory=tuple)
    failed: Sequence[tuple[int, str, Any]] = ()  # datasets that could not be loaded (the workspace's)


def tree_of(loaded: Loaded, opts: ViewOptions, memo: Any = None) -> tuple[TreeNode, ...]:
    """The tree pane's nodes for a load, in ``opts``' colours: datasets open on demand."""
    assert loaded.catalog is not None
    return template_tree(loaded.datasets, loaded.models, opts, kinds=model_kinds(loaded.catalog), memo=memo,
                         lazy=True, failed=loaded.failed)


def _run_outputs(run: str | None) -> tuple[Any, Any, list[str]]:
    """``--run``'s recorded outputs, or the error reading the run (shown like a config error),
    and what of the run could not be read (warnings: the rest is used)."""
    if not run:
        return None, None, []
    # lazy: load() runs in the preload thread: loading imports there while Textual loads
    from ..loading.run_folder import problem_text, run_outputs

    try:
        outputs, problems = run_outputs(Path(run))
    except ConfigError as exc:
        return None, exc, []
    return outputs, None, [problem_text(p) for p in problems]


def model_kinds(catalog: Catalog) -> dict[str, str]:
    return catalog.model_kinds()


def _failed(failed: Sequence[tuple[int, str, Any]]) -> dict[str, Any]:
    return {abbr: PairError(abbr, None, error.message, error.file, error.line, error.hint)
            for _, abbr, error in failed}


def _dataset_order(workspace: Any) -> list[str]:
    """The datasets as the configs list them, the ones that failed to load in their place."""
    return in_place([d.abbr for d in workspace.datasets],
                    [(position, abbr) for position, abbr, _ in workspace.failed_datasets])


def _judges(inputs: Inputs, workspace: Any, loader: Any, outputs: Any) -> list[Problem]:
    """The judge pairs (``workspace.judges``); what stops one is shown as a warning, never as a
    load error: the answers view says the judge is missing, the prompts render as ever."""
    # lazy: load() runs in the preload thread: loading imports there while Textual loads
    from ..loading.workspace import shared_loader

    before = len(workspace.errors)
    (loader or shared_loader()).add_judges(workspace, inputs.judge_models, outputs, inputs.data, inputs.roots,
                                           inputs.timeout)
    found = [replace(Problem.of(error), kind="warning", scope="the judge")
             for error in workspace.errors[before:]]
    del workspace.errors[before:]
    return found


def _problems(workspace: Any, listed: set[int]) -> list[Problem]:
    """The load's errors and warnings. The datasets listed as not loaded are named, the first in
    full and the rest once with their count: a half-copied data folder is one cause, not 56
    banners (each dataset's own error shows in the panes when it is selected). An lm-eval task's
    error is its own cause: each is said in full, scoped to its task."""
    problems: list[Problem] = []
    tasks = {id(error): abbr for abbr, error in workspace.task_errors}
    more = -1  # how many listed datasets past the first (-1: none yet)
    for error in workspace.errors:
        if id(error) in tasks:
            problems.append(Problem.of(error, scope=tasks[id(error)]))
        elif id(error) not in listed:
            problems.append(Problem.of(error))
        elif more < 0:
            problems.append(Problem.of(error, scope=workspace.failed_dataset_of(error)))
            more = 0
        else:
            more += 1
    if more > 0:
        problems.append(Problem(f"and {more} more dataset{'s' if more != 1 else ''} could not load "
                                "their rows: each is ✖ not loaded in the tree, its error shown when "
                                "it is selected", kind="warning"))
    problems += [Problem(str(w), kind="warning") for w in workspace.warnings]
    return problems


def missing(files: Iterable[Path]) -> list[Path]:
    """Files that are not there (a dangling symlink included); one that is there but cannot be
    read (a symlink loop, a FIFO) is not missing: its reader says what is wrong with it."""
    out = []
    for f in files:
        try:
            os.stat(f)
        except FileNotFoundError:
            out.append(f)
        except OSError:
            pass
    return out


def load(inputs: Inputs, generation: int, opts: ViewOptions, known: Iterable[Path] = (),
         loader: Any = None, cache: Any = None, tree_memo: Any = None,
         shown: Iterable[str] = (), tree: bool = True) -> Loaded:
    """Load and render the workspace; every failure comes back as a problem.

    ``known`` are files earlier loads were built from: one that has gone missing makes
    this load not ok even when the loader copes without it (a data file falls back to
    placeholder rows), so a file deleted mid-save never replaces the good render.
    ``loader`` is the :class:`~workbench.loading.workspace.Loader` to use (default: the
    process's shared one), so the app can cancel a load a newer change supersedes.
    ``cache`` (a :class:`~workbench.core.render.RenderCache`) reuses the pairs a change
    did not touch, ``tree_memo`` (a :class:`~workbench.core.memo.RoundCache`) the tree nodes.
    ``shown`` are the datasets of the render on screen: a dataset whose rows cannot be read is
    listed in the tree while the rest renders, unless it is one of these (then the load is not
    ok, and the last good render stays, dimmed, under the problem).
    ``tree=False`` leaves the tree's nodes to the caller (the app's start builds them in its
    theme's colours, which the load started before the app cannot know).
    """
    started = time.perf_counter()
    named = inputs.named_files()
    known = tuple(known)
    try:
        # lazy: load() runs in the preload thread: loading imports there while Textual loads
        from ..loading.models.embeddings import embedding_lookup
        from ..loading.workspace import load_workspace

        outputs, outputs_error, outputs_warnings = _run_outputs(inputs.run)
        workspace = load_workspace(list(inputs.configs), data=list(inputs.data),
                                   model_files=list(inputs.models), roots=list(inputs.roots),
                                   timeout=inputs.timeout, loader=loader,
                                   chat_template=inputs.chat_template,
                                   framework_python=inputs.framework_python, lmeval=inputs.lmeval)
        judge_problems = _judges(inputs, workspace, loader, outputs) if inputs.wants_judges() else []
        # pairs are rendered when first shown: opening a suite costs one pair, not all of them
        pairs = LazyPairs(workspace.datasets, workspace.models, config=" ".join(inputs.configs),
                          options=RenderOptions(embeddings=embedding_lookup(inputs.embedding_model),
                                                predictions=outputs),
                          cache=cache, failed=_failed(workspace.failed_datasets),
                          dataset_order=_dataset_order(workspace), judges=workspace.judges)
        if outputs_error is not None:
            workspace.errors.append(outputs_error)
        workspace.warnings += outputs_warnings
        catalog = Catalog(pairs)
        if inputs.run and outputs_error is None:
            catalog.answers = run_answers(inputs.run, inputs.configs)
    except Exception as exc:  # a bug below us: show it, keep the last good render
        detail = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        problem = Problem(f"internal error: {type(exc).__name__}: {exc}",
                          file=detail.filename if detail else None, line=detail.lineno if detail else None,
                          hint="this is a bug in the workbench; the last good render stays on screen")
        return Loaded(generation, ok=False, problems=(problem,), files=tuple(dict.fromkeys([*named, *known])),
                      seconds=time.perf_counter() - started)
    files = list(dict.fromkeys([*named, *(Path(f) for f in workspace.files), *known]))
    for error in workspace.errors:
        if error.file and Path(error.file) not in files:
            files.append(Path(error.file))
    # a dataset whose rows cannot be read is listed in the tree; the rest of the suite renders
    shown = frozenset(shown)
    listed = {id(error) for _, abbr, error in workspace.failed_datasets if abbr not in shown}
    # an lm-eval task's error is the task's: the others render (unless it is the task on screen)
    listed |= {id(error) for abbr, error in workspace.task_errors if abbr not in shown}
    problems = _problems(workspace, listed) + judge_problems
    # a listed dataset's missing data file is watched (it renders when the file comes), but it is
    # that dataset's failure, not a file gone mid-save that must hold the whole load back (a
    # dataset on screen is never listed: its file going missing keeps the last good render)
    theirs = {Path(e.file) for e in workspace.errors if id(e) in listed and e.file}
    gone = [f for f in missing(files) if f not in theirs]
    problems += [Problem("file is missing (deleted, or mid-save); it is picked up again when it comes back",
                         file=str(f), kind="missing",
                         hint="press r to reload without it if it is gone for good") for f in gone]
    blocking = [e for e in workspace.errors if id(e) not in listed]
    loaded = Loaded(generation, ok=not blocking and not gone, workspace=workspace, catalog=catalog,
                    problems=tuple(problems), files=tuple(files),
                    absent=tuple(Path(f) for f in workspace.absent_files if Path(f) not in files),
                    datasets=tuple(workspace.datasets), models=tuple(workspace.models),
                    failed=tuple(workspace.failed_datasets))
    built = tree_of(loaded, opts, tree_memo) if tree else ()
    return replace(loaded, tree=built, seconds=time.perf_counter() - started)
