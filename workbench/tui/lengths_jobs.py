"""What the lengths screen measures, in what order, in chunks a worker can stop between.

No Textual here: the screen's worker runs :func:`run_jobs` and posts each partial summary
it yields. The selected dataset's pairs come first (they are on screen), then the rest of
the suite for the table. A pair whose render failed outright is still measured where it
can be: its samples rendered without a tokenizer and estimated, each listed as failed.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.lengths import (
    LengthTally,
    PairLengths,
    estimating_twin,
    max_seq_len_of,
    measure_samples,
    measure_unrendered,
    tally_for,
)

CHUNK = 32  # samples between two partial summaries (and two looks at the cancel flag)
Key = tuple[str, "str | None"]


@dataclass
class Job:
    """One dataset × model pair to measure."""

    key: Key
    tally: LengthTally
    pair: Any = None  # the PairRenderer, or None when its render failed
    twin: Any = None  # the same pair rendered without token counts (estimates for failures)
    error: str | None = None  # why the render failed

    @property
    def total(self) -> int:
        return self.tally.total

    def estimating(self) -> Any:
        """The twin, made the first time a sample fails (most pairs never need it)."""
        if self.twin is None and self.pair is not None:
            self.twin = estimating_twin(self.pair.dataset, self.pair.model_spec, self.pair.options) or False
        return self.twin or None


def _spec(specs: Sequence[Any], abbr: str | None) -> Any:
    return next((s for s in specs if getattr(s, "abbr", None) == abbr), None)


def plan_jobs(catalog: Any, datasets: Sequence[Any], models: Sequence[Any], first: str | None,
              skip: Callable[[Key], bool] = lambda key: False) -> list[Job]:
    """Every pair of the catalog (``first`` dataset's first), minus those ``skip`` says are done."""
    order = sorted(catalog.datasets, key=lambda d: d != first)
    jobs: list[Job] = []
    for dataset in order:
        for model in catalog.models_for(dataset):
            key = (dataset, model)
            if skip(key):
                continue
            pair = catalog.pair(dataset, model)
            if pair is not None:
                jobs.append(Job(key, tally_for(pair), pair=pair))
                continue
            error = catalog.error(dataset, model)
            jobs.append(_failed_job(key, error.message if error else "not rendered", datasets, models))
    return jobs


def _failed_job(key: Key, message: str, datasets: Sequence[Any], models: Sequence[Any]) -> Job:
    dataset, model = key
    dataset_spec, model_spec = _spec(datasets, dataset), _spec(models, model)
    twin = estimating_twin(dataset_spec, model_spec) if dataset_spec is not None else None
    total = len(twin) if twin is not None else 0
    tally = LengthTally(dataset, model, total, max_seq_len_of(twin) if twin is not None else None)
    return Job(key, tally, twin=twin, error=message)


def run_jobs(jobs: Sequence[Job], cancelled: Callable[[], bool]) -> Iterator[tuple[Key, PairLengths]]:
    """Measure every job a chunk at a time, yielding each pair's summary so far after each chunk."""
    for job in jobs:
        total = job.total
        if total == 0:
            if job.error is not None:
                job.tally.fail(None, job.error)  # nothing to estimate either: the failure still shows
            yield job.key, job.tally.summary()
            continue
        for start in range(0, total, CHUNK):
            indices = range(start, min(start + CHUNK, total))
            if job.pair is not None:
                finished = measure_samples(job.pair, indices, job.tally, cancelled, job.estimating)
            else:
                finished = measure_unrendered(job.twin, f"not rendered: {job.error}", indices, job.tally,
                                              cancelled)
            if not finished:
                return
            yield job.key, job.tally.summary()
