"""Selected samples, pair by pair, rendered here or spread over worker processes.

Every exporter takes ``samples_of(pair)``, an iterator of the pair's samples, and
writes each one as it comes, so memory stays flat however many requests a render has.
With ``jobs > 1`` the samples are rendered in chunks by worker processes (each
rebuilds the same RenderResult from a picklable *recipe*) and handed back in order,
so the output is byte-for-byte the output of a serial run.  A pair that fails part-way
raises :class:`RenderError` after the samples before the failure, in both modes.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import RenderError
from ..core.result import RenderResult, Sample
from .progress import Progress
from .select import Selection

Recipe = Callable[[], RenderResult]

#: Samples in the smallest chunk a worker process renders.
MIN_CHUNK = 4


class WorkersUnavailable(RuntimeError):
    """``--jobs`` worker processes could not start, or one stopped: one line, status 2."""

    exit_status = 2


def worker_count(jobs: int, samples: int) -> int:
    """How many processes ``--jobs N`` starts: at most one per CPU and one per chunk of samples."""
    chunks = -(-samples // MIN_CHUNK)
    return max(1, min(jobs, os.cpu_count() or 1, chunks))


@dataclass
class Entry:
    """One selected pair: where it sits in the full result, and which samples to render."""

    position: int
    pair: Any  # PairRenderer
    indices: Sequence[int]


def select(result: RenderResult, selection: Selection) -> tuple[RenderResult, list[Entry]]:
    """The result narrowed to the selected pairs (errors and warnings too), and the plan."""
    narrowed = RenderResult(config=result.config)
    entries: list[Entry] = []
    for position, pair in enumerate(result.pairs):
        if selection.wants_pair(pair.dataset_abbr, pair.model_abbr):
            narrowed.pairs.append(pair)
            entries.append(Entry(position, pair, selection.indices(len(pair))))
    shown = {pair.dataset_abbr for pair in narrowed.pairs}

    def keep(item: Any) -> bool:
        # a dataset's own problem (model None) stays while any of its pairs is selected
        if item.dataset is None or (item.model is None and item.dataset in shown):
            return True
        return selection.wants_pair(item.dataset, item.model)

    narrowed.errors = [e for e in result.errors if keep(e)]
    models = {pair.model_abbr for pair in narrowed.pairs}
    # a model's own warning (dataset None) stays while any of its pairs is selected
    narrowed.warnings = [w for w in result.warnings
                         if keep(w) and (w.dataset is not None or w.model is None or w.model in models)]
    return narrowed, entries


class SampleStream:
    """``samples_of`` for the exporters, with progress and optional worker processes."""

    def __init__(self, entries: list[Entry], selection: Selection, jobs: int = 1,
                 recipe: Recipe | None = None, progress: Progress | None = None) -> None:
        self.entries = {id(e.pair): e for e in entries}
        self.selection = selection
        self.progress = progress or Progress(sum(len(e.indices) for e in entries), enabled=False)
        self.pool: _Pool | None = None
        jobs = worker_count(jobs, sum(len(e.indices) for e in entries))
        if jobs > 1 and recipe is not None:
            self.pool = _Pool(jobs, recipe, entries)

    def __call__(self, pair: Any) -> Iterator[Sample]:
        entry = self.entries[id(pair)]
        label = f"{pair.dataset_abbr} × {pair.model_abbr or 'no model'}"
        if self.pool is None:
            for i in entry.indices:
                sample = pair.sample(i)
                self.progress.advance(1, label)
                kept = self.selection.filter_sample(sample)
                if kept is not None:
                    yield kept
            return
        for samples, messages, error in self.pool.results(entry.position):
            for message in messages:
                pair.notes.warn(message)
            for sample in samples:
                kept = self.selection.filter_sample(sample)
                if kept is not None:
                    yield kept
            self.progress.advance(len(samples), label)
            if error is not None:
                raise RenderError(error[0], hint=error[1], file=error[2], line=error[3], key_path=error[4],
                                  in_model=error[5])

    def close(self) -> None:
        self.progress.close()
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def __enter__(self) -> SampleStream:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# -- worker processes -----------------------------------------------------------------

# (message, hint, file, line, key_path, in_model) of a pair that failed part-way
ChunkError = tuple[str, "str | None", "str | None", "int | None", "tuple | None", bool]
ChunkResult = tuple[list[Sample], list[str], "ChunkError | None"]
_WORKER: dict[str, Any] = {}


def _init_worker(recipe: Recipe) -> None:
    # Ctrl-C reaches the whole process group: the main process stops the pool, the
    # workers must not each print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["result"] = recipe()


def _render_chunk(position: int, abbrs: tuple[str, str | None], indices: Sequence[int]) -> ChunkResult:
    pair = _WORKER["result"].pairs[position]
    if (pair.dataset_abbr, pair.model_abbr) != abbrs:
        raise RuntimeError(f"a worker rendered {pair.dataset_abbr} × {pair.model_abbr} where the main "
                           f"process has {abbrs[0]} × {abbrs[1]}: the inputs changed during the render")
    before = {m: pair.notes.count(m) for m in pair.notes.messages}
    samples: list[Sample] = []
    error = None
    try:
        for i in indices:
            samples.append(pair.sample(i))
    except RenderError as exc:
        error = (exc.message, exc.hint, exc.file, exc.line, exc.key_path, exc.in_model)
    seen = [m for m in pair.notes.messages if pair.notes.count(m) > before.get(m, 0)]
    return samples, seen, error


@dataclass
class _Pool:
    """Chunks submitted in pair order, a bounded number in flight, results taken in order."""

    jobs: int
    recipe: Recipe
    entries: list[Entry]
    pending: deque[tuple[int, Future]] = field(default_factory=deque)
    floor: int = 0

    def __post_init__(self) -> None:
        self.executor = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_init_worker, initargs=(self.recipe,))
        self.tasks = self._chunks()
        self.window = self.jobs * 3

    def _chunks(self) -> Iterator[tuple[int, tuple[str, str | None], Sequence[int]]]:
        for entry in self.entries:
            n = len(entry.indices)
            size = max(MIN_CHUNK, min(256, n // (self.jobs * 4) or 1))
            abbrs = (entry.pair.dataset_abbr, entry.pair.model_abbr)
            for start in range(0, n, size):
                yield entry.position, abbrs, entry.indices[start:start + size]

    def _fill(self) -> None:
        while len(self.pending) < self.window:
            task = next(self.tasks, None)
            if task is None:
                return
            if task[0] < self.floor:
                continue
            try:
                future = self.executor.submit(_render_chunk, *task)
            except (OSError, BrokenProcessPool) as exc:  # a process cannot start (a limit, memory)
                raise self._unavailable(exc) from None
            self.pending.append((task[0], future))

    def results(self, position: int) -> Iterator[ChunkResult]:
        self.floor = position
        while True:
            self._fill()
            if not self.pending:
                return
            where, future = self.pending[0]
            if where < position:  # left over from a pair that stopped early
                self.pending.popleft()
                future.cancel()
                continue
            if where > position:
                return
            self.pending.popleft()
            try:
                result = future.result()
            except BrokenProcessPool as exc:
                raise self._unavailable(exc) from None
            yield result
            if result[2] is not None:  # the pair failed: its later chunks are not wanted
                self.floor = position + 1
                return

    def _unavailable(self, exc: BaseException) -> WorkersUnavailable:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return WorkersUnavailable(f"the --jobs {self.jobs} worker processes cannot run ({reason}); "
                                  "try fewer with --jobs, or --jobs 1")

    def close(self) -> None:
        for _, future in self.pending:
            future.cancel()
        self.pending.clear()
        with contextlib.suppress(OSError, BrokenProcessPool):
            self.executor.shutdown(wait=True, cancel_futures=True)
