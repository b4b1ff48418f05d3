"""Selected samples, pair by pair, rendered here or spread over worker processes.

Every exporter takes ``samples_of(pair)``, an iterator of the pair's samples, and
writes each one as it comes, so memory stays flat however many requests a render has.
With ``jobs > 1`` the samples are rendered in chunks by worker processes and handed back
in order, so the output is byte-for-byte the output of a serial run. A worker builds only
the pairs it is given (its *recipe* loads the workspace, not its renders), and, when the
exporter says how (``serialize``), writes each sample's text itself: the main process
then only writes what comes back, which is what lets two workers beat one process.
A pair that fails part-way raises :class:`RenderError` after the samples before the
failure, in both modes.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import io
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import RenderError
from ..core.lengths import SampleLengths, tally_for
from ..core.reference import reference, set_reference
from ..core.replicas.numpy_argsort import numpy_sort, set_numpy_sort
from ..core.result import RenderResult, Sample, Stamp
from .progress import Progress
from .render_filter import RenderFilter

if TYPE_CHECKING:
    from .formats.stamp_writer import StampWriter

# builds what the workers render from: anything with get(dataset, model) -> the pair (a
# PairRenderer) or its error (LazyPairs), or a RenderResult (its pairs looked up by abbrs)
Recipe = Callable[[], Any]
# (the pair, one of its samples) -> that sample as the exporter writes it; picklable
Serializer = Callable[[Any, Sample], str]


def utf8_sink(out: Any) -> Any | None:
    """The byte stream under ``out`` where text written to ``out`` reaches it as its UTF-8 bytes,
    unchanged (a text file in UTF-8 that translates no newline: POSIX's); None otherwise."""
    if not isinstance(out, io.TextIOWrapper) or os.linesep != "\n":
        return None
    try:
        return out.buffer if codecs.lookup(out.encoding).name == "utf-8" else None
    except LookupError:
        return None


class Chunks:
    """Text joined and written about 64 KB at a time (``flush`` writes what is held): a
    write a piece cost a call, an encode and a system call each.

    With ``raw``, where ``out`` has a UTF-8 byte stream under it (``utf8_sink``), the pieces are
    bytes and go there, and ``write`` also takes text already encoded (a stamp's constant pieces
    are encoded once per form, not once per sample: for a suite's JSON, most of its encoding).
    ``raw`` then says whether it is so.
    """

    def __init__(self, out: Any, size: int = 1 << 16, raw: bool = False) -> None:
        self.out = out
        self.size = size
        self.parts: list[Any] = []  # str, or bytes where raw
        self.held = 0
        self.sink = utf8_sink(out) if raw else None
        self._errors = getattr(out, "errors", None) or "strict"
        if self.sink is not None:
            out.flush()  # what was written to it as text goes first

    @property
    def raw(self) -> bool:
        return self.sink is not None

    def write(self, text: str | bytes) -> None:
        """Text, or (only where ``raw``) its UTF-8."""
        self.parts.append(text.encode("utf-8", self._errors) if self.sink is not None and type(text) is str
                          else text)
        self.held += len(text)
        if self.held >= self.size:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            if self.sink is not None:
                self.sink.write(b"".join(self.parts))
            else:
                self.out.write("".join(self.parts))
            self.parts.clear()
            self.held = 0


@dataclass(frozen=True)
class Serialized:
    """A sample a worker already wrote out: the exporter writes ``text`` as it is, and tallies
    ``lengths`` (measured in the worker, where the sample was)."""

    index: int
    text: str
    lengths: SampleLengths


class SampleWriter:
    """A format's text of whatever a :class:`SampleStream` hands out, the one place a writer
    tells them apart: a worker's :class:`Serialized` as the worker wrote it, a stamp by
    ``stamps`` (its form's pieces: headless/formats/stamp_writer.py), and a sample, or a stamp
    where there is no ``stamps``, by ``usual`` (the format's walk of its requests)."""

    __slots__ = ("stamps", "usual")

    def __init__(self, usual: Callable[[Any], Any], stamps: StampWriter | None = None) -> None:
        self.usual = usual
        self.stamps = stamps

    def text(self, item: Sample | Stamp | Serialized) -> Any:
        """The item's text (str, or UTF-8 bytes where the stamp writer makes them)."""
        if type(item) is Serialized:
            return item.text
        if type(item) is Stamp and self.stamps is not None:
            return self.stamps.text(item)
        return self.usual(item)

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


def select(result: RenderResult, selection: RenderFilter) -> tuple[RenderResult, list[Entry]]:
    """The result narrowed to the selected pairs (errors and warnings too), and the plan."""
    narrowed = RenderResult(config=result.config, judged=dict(result.judged))
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
        if item.model is None:  # a dataset that made no pair (its rows failed): --dataset decides
            return selection.wants_dataset(item.dataset)
        return selection.wants_pair(item.dataset, item.model)

    narrowed.errors = [e for e in result.errors if keep(e)]
    models = {pair.model_abbr for pair in narrowed.pairs}
    # a model's own warning (dataset None) stays while any of its pairs is selected
    narrowed.warnings = [w for w in result.warnings
                         if keep(w) and (w.dataset is not None or w.model is None or w.model in models)]
    return narrowed, entries


class SampleStream:
    """``samples_of`` for the exporters, with progress and optional worker processes."""

    def __init__(self, entries: list[Entry], selection: RenderFilter, jobs: int = 1,
                 recipe: Recipe | None = None, progress: Progress | None = None,
                 serialize: Serializer | None = None, pool: Workers | None = None,
                 stamps: bool = False) -> None:
        self.entries = {id(e.pair): e for e in entries}
        self.selection = selection
        # hand out stamps where a sample can be one (core/inferencers/sample_form.py): for an
        # exporter that writes them from their forms; a label selection reads every request
        self.stamps = stamps and not selection.labels
        self.progress = progress or Progress(sum(len(e.indices) for e in entries), enabled=False)
        self.pool: _Pool | None = None
        if jobs > 1 and recipe is not None and sum(len(e.indices) for e in entries) > 1:
            workers = pool if pool is not None else Workers(jobs, recipe)
            self.pool = _Pool(workers, entries, selection, serialize)
        elif pool is not None:
            pool.close()

    def __call__(self, pair: Any) -> Iterator[Sample | Serialized]:
        entry = self.entries[id(pair)]
        label = f"{pair.dataset_abbr} × {pair.model_abbr or 'no model'}"
        if self.pool is None:
            make = pair.stamp if self.stamps else pair.sample
            for i in entry.indices:
                sample = make(i)
                self.progress.advance(1, label)
                kept = self.selection.filter_sample(sample)
                if kept is not None:
                    yield kept
            return
        for samples, rendered, messages, error in self.pool.results(entry.position):
            for message in messages:
                pair.notes.warn(message)
            yield from samples  # selected (filter_sample) in the worker already
            self.progress.advance(rendered, label)
            if error is not None:
                raise RenderError(error[0], hint=error[1], file=error[2], line=error[3], key_path=error[4],
                                  in_model=error[5], role=error[6])

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

# (message, hint, file, line, key_path, in_model, role) of a pair that failed part-way
ChunkError = tuple[str, "str | None", "str | None", "int | None", "tuple | None", bool, "str | None"]
# (the selected samples, as Samples or Serialized; how many were rendered; new warnings; the error)
ChunkResult = tuple[list, int, list[str], "ChunkError | None"]
_WORKER: dict[str, Any] = {}


def _init_worker(recipe: Recipe, reference_on: bool = False, sort: str = "baseline") -> None:
    # Ctrl-C reaches the whole process group: the main process stops the pool, the
    # workers must not each print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_reference(reference_on)  # (a forked worker inherits the switches; a spawned one is told)
    set_numpy_sort(sort)
    _WORKER["source"] = recipe()


def _ready() -> bool:
    """A task that returns once the worker has loaded its recipe (starts the workers early)."""
    return "source" in _WORKER


def _init_forked() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pair(abbrs: tuple[str, str | None]) -> Any:
    source = _WORKER["source"]
    if isinstance(source, dict):  # forked: the main process's own pairs
        found = source.get(abbrs)
    elif hasattr(source, "get"):
        found = source.get(*abbrs)
    else:
        found = next((p for p in source.pairs if (p.dataset_abbr, p.model_abbr) == abbrs), None)
    if found is None or not hasattr(found, "sample"):
        raise RuntimeError(f"a worker cannot render {abbrs[0]} × {abbrs[1]}, which the main process "
                           "rendered: the inputs changed during the render")
    return found


def _render_chunk(abbrs: tuple[str, str | None], indices: Sequence[int], selection: RenderFilter,
                  serialize: Serializer | None) -> ChunkResult:
    pair = _pair(abbrs)
    tally = tally_for(pair, total=0)
    before = {m: pair.notes.count(m) for m in pair.notes.messages}
    out: list = []
    rendered = 0
    error = None
    # a serializer that writes stamps from their forms gets them where a sample can be one
    make = pair.stamp if getattr(serialize, "stamps", False) and not selection.labels else pair.sample
    try:
        for i in indices:
            sample = make(i)
            rendered += 1
            kept = selection.filter_sample(sample)
            if kept is not None:
                out.append(kept if serialize is None else
                           Serialized(kept.index, serialize(pair, kept), tally.measure(kept)))
    except RenderError as exc:
        error = (exc.message, exc.hint, exc.file, exc.line, exc.key_path, exc.in_model, exc.role)
    seen = [m for m in pair.notes.messages if pair.notes.count(m) > before.get(m, 0)]
    return out, rendered, seen, error


def can_fork() -> bool:
    """Linux forks safely here (the render runs no threads): workers start with the main
    process's pairs, built already, instead of loading the workspace again."""
    return sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()


class Workers:
    """The worker processes :class:`SampleStream` hands the work to.

    Forked (Linux) when the work is handed out: each starts with the main process's pairs.
    Elsewhere spawned at once, each loading the *recipe* while the main process loads."""

    def __init__(self, jobs: int, recipe: Recipe) -> None:
        self.jobs = worker_count(jobs, jobs * MIN_CHUNK)  # at most one per CPU
        self.forked = can_fork()
        self.warming: list[Future] = []
        self._executor: ProcessPoolExecutor | None = None
        if not self.forked:
            self._executor = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_init_worker,
                                                 initargs=(recipe, reference(), numpy_sort()))
            try:
                self.warming = [self._executor.submit(_ready) for _ in range(self.jobs)]
            except (OSError, BrokenProcessPool) as exc:
                raise self.unavailable(exc) from None

    def executor(self, entries: Sequence[Entry]) -> ProcessPoolExecutor:
        if self._executor is None:
            # no more processes than chunks of samples
            self.jobs = worker_count(self.jobs, sum(len(e.indices) for e in entries))
            # the children inherit this: the pairs, as the main process built them
            _WORKER["source"] = {(e.pair.dataset_abbr, e.pair.model_abbr): e.pair for e in entries}
            # what the children inherit is never garbage: without this every collection in every
            # child walks the whole inherited heap (and copies its pages)
            gc.freeze()
            self._executor = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("fork"),
                                                 initializer=_init_forked)
        return self._executor

    def unavailable(self, exc: BaseException) -> WorkersUnavailable:
        """The one-line error of processes that cannot start or run (a process limit, memory)."""
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return WorkersUnavailable(f"the --jobs {self.jobs} worker processes cannot run ({reason}); "
                                  "try fewer with --jobs, or --jobs 1")

    def close(self) -> None:
        for future in self.warming:
            future.cancel()
        if self._executor is not None:
            with contextlib.suppress(OSError, BrokenProcessPool):
                self._executor.shutdown(wait=True, cancel_futures=True)
        _WORKER.pop("source", None)


@dataclass
class _Pool:
    """Chunks submitted in pair order, a bounded number in flight, results taken in order."""

    workers: Workers
    entries: list[Entry]
    selection: RenderFilter
    serialize: Serializer | None = None
    pending: deque[tuple[int, Future]] = field(default_factory=deque)
    floor: int = 0

    def __post_init__(self) -> None:
        self.executor = self.workers.executor(self.entries)
        self.jobs = self.workers.jobs
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
            position, abbrs, indices = task
            try:
                future = self.executor.submit(_render_chunk, abbrs, indices, self.selection, self.serialize)
            except (OSError, BrokenProcessPool) as exc:  # a process cannot start (a limit, memory)
                raise self._unavailable(exc) from None
            self.pending.append((position, future))

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
            if result[3] is not None:  # the pair failed: its later chunks are not wanted
                self.floor = position + 1
                return

    def _unavailable(self, exc: BaseException) -> WorkersUnavailable:
        return self.workers.unavailable(exc)

    def close(self) -> None:
        for _, future in self.pending:
            future.cancel()
        self.pending.clear()
        self.workers.close()
