"""A workspace's (dataset, model) pairs, each built the first time someone asks for it.

A whole suite is hundreds of pairs, and the app shows one at a time: building them all
before the first paint made opening a suite (and every reload) cost the whole suite. Here
a pair is built when first asked for and then kept; :meth:`LazyPairs.result` builds every
pair in the workspace's order, which is what a headless render does
(:func:`render_workspace`), so both paths share the rules for errors
and warnings. Safe to use from several threads: one build per pair. Judge pairs (``--judge``,
core/judge.py) are kept beside the cross product: each is one judge dataset × its judge model,
listed after every model's own pairs.

May import: render and every core module below it; nothing outside the core (loading, views and
the front ends build on this, not the reverse).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

from .errors import RenderError
from .judge import JudgePair
from .models.wire import model_wire_warnings
from .render import PairRenderer, RenderCache, RenderOptions, error_source
from .result import PairError, PairWarning, RenderResult
from .spec import DatasetSpec, ModelSpec

PairKey = tuple[str, "str | None"]
T = TypeVar("T")


def in_place(items: Sequence[T], placed: Sequence[tuple[int, T]]) -> list[T]:
    """``items`` with each ``(position, item)`` of ``placed`` put back where it was listed:
    ``position`` counts the ``items`` before it (so several at one position keep their order)."""
    out: list[T] = []
    pending = sorted(placed, key=lambda p: p[0])
    at = 0
    for i, item in enumerate(items):
        while at < len(pending) and pending[at][0] <= i:
            out.append(pending[at][1])
            at += 1
        out.append(item)
    out += [p[1] for p in pending[at:]]
    return out


class LazyPairs:
    """Pairs by (dataset abbr, model abbr): a ``PairRenderer``, or the ``PairError`` of one
    that cannot render. ``failed`` are datasets that could not be loaded at all (their rows
    were unreadable): every pair of theirs is that error, and they keep their place in the
    order."""

    def __init__(self, datasets: Sequence[DatasetSpec], models: Sequence[ModelSpec], config: str = "",
                 options: RenderOptions | None = None, cache: RenderCache | None = None,
                 failed: Mapping[str, PairError] | None = None,
                 dataset_order: Sequence[str] = (), judges: Sequence[JudgePair] = ()) -> None:
        self.config = config
        self.options = options or RenderOptions()
        self.cache = cache
        self.specs = {d.abbr: d for d in datasets}
        self.model_specs = {m.abbr: m for m in models}
        self.failed = dict(failed or {})
        order = [a for a in dataset_order if a in self.specs or a in self.failed]
        order += [d.abbr for d in datasets if d.abbr not in order]
        order += [a for a in self.failed if a not in order]
        self.datasets: list[str] = order
        self.models: list[str | None] = [m.abbr for m in models] or [None]
        # judge pairs (--judge): not crossed with the models, each one dataset × its judge
        self.judges: dict[PairKey, JudgePair] = {(j.dataset.abbr, j.model.abbr): j for j in judges}
        self._built: dict[PairKey, Any] = {}
        self._locks: dict[PairKey, threading.Lock] = {}
        self._lock = threading.Lock()
        self._splits: dict[int, tuple[DatasetSpec, Any]] = {}
        if cache is not None:
            cache.next_round()

    # -- one pair ------------------------------------------------------------------------
    def get(self, dataset: str, model: str | None) -> Any:
        """The pair's ``PairRenderer`` or its ``PairError`` (None: no such pair)."""
        key = (dataset, model)
        found = self._built.get(key)
        if found is not None:
            return found
        known = (dataset in self.specs or dataset in self.failed) and \
            (model is None or model in self.model_specs)
        if not known and key not in self.judges:
            return None
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            found = self._built.get(key)
            if found is None:
                found = self._build(dataset, model)
                self._built[key] = found
        return found

    def built(self, dataset: str, model: str | None) -> Any:
        """The pair if it was built already, else None (never builds)."""
        return self._built.get((dataset, model))

    def is_built(self, dataset: str, model: str | None) -> bool:
        return (dataset, model) in self._built

    def _build(self, dataset: str, model: str | None) -> Any:
        judge = self.judges.get((dataset, model))
        if judge is not None:
            made = self._render(judge.dataset, judge.model)
            if not isinstance(made, PairError):
                for message in judge.notes:  # the pair's own warnings: every view and export shows them
                    made.notes.warn(message)
            return made
        if dataset in self.failed:
            error = self.failed[dataset]
            return PairError(dataset, model, error.message, error.file, error.line, error.hint, error.rule)
        return self._render(self.specs[dataset], self.model_specs.get(model) if model is not None else None)

    def _render(self, spec: DatasetSpec, model_spec: ModelSpec | None) -> Any:
        dataset, model = spec.abbr, model_spec.abbr if model_spec is not None else None
        try:
            if self.cache is not None:
                return self.cache.pair(spec, model_spec, self.options, self.splits)
            return PairRenderer(spec, model_spec, self.options, self.splits)
        except RenderError as exc:
            where = error_source(exc, spec, model_spec)
            return PairError(dataset, model, exc.message, where.file, where.line, exc.hint, exc.rule)

    def splits(self, dataset: DatasetSpec, build: Any) -> Any:
        """``build()`` once per dataset: every model of a dataset reads the same splits."""
        found = self._splits.get(id(dataset))
        if found is not None and found[0] is dataset:
            return found[1]
        made = build()
        self._splits[id(dataset)] = (dataset, made)
        return made

    # -- every pair ----------------------------------------------------------------------
    def pair_keys(self) -> Iterator[PairKey]:
        for dataset in self.datasets:
            for model in self.models:
                yield dataset, model
        yield from self.judges

    def dataset_warnings(self, dataset: str) -> list[PairWarning]:
        """What a dataset's rows say before any pair renders (placeholders, a reader's note)."""
        spec = self.specs.get(dataset)
        source = spec.rows_source if spec is not None else None
        if source is not None and source.kind == "placeholder" and source.looked_for:
            return [PairWarning(dataset, None, f"no rows found (looked for {source.looked_for}): showing "
                                "placeholders from reader_cfg (hint: --data FILE, or set COMPASS_DATA_CACHE "
                                "to the folder holding data/)")]
        if source is not None and source.note:
            return [PairWarning(dataset, None, source.note)]
        return []

    def result(self) -> RenderResult:
        """Every pair built, in the workspace's order, as a RenderResult (what exports read)."""
        result = RenderResult(config=self.config)
        for dataset in self.datasets:
            if dataset in self.failed:
                continue
            result.warnings += self.dataset_warnings(dataset)
            for model in self.models:
                found = self.get(dataset, model)
                if isinstance(found, PairError):
                    result.errors.append(found)
                    continue
                result.pairs.append(found)
                result.warnings += found.warnings()
        for key, judge in self.judges.items():
            found = self.get(*key)
            result.judged[key] = (judge.of_dataset, judge.of_model)
            if isinstance(found, PairError):
                result.errors.append(found)
                continue
            result.pairs.append(found)
            result.warnings += found.warnings()
        if self.options.measure:  # a model's own warnings: once per model, not per dataset
            for spec in self.model_specs.values():
                result.warnings += [PairWarning(None, spec.abbr, m) for m in model_wire_warnings(spec)]
        return result


def render_workspace(
    datasets: Sequence[DatasetSpec],
    models: Sequence[ModelSpec],
    config: str = "",
    options: RenderOptions | None = None,
    cache: RenderCache | None = None,
    judges: Sequence[JudgePair] = (),
) -> RenderResult:
    """Every dataset × model pair (dataset × no model when there are none), then the judge
    pairs.

    With a ``cache`` (the app keeps one across reloads), unchanged pairs are reused.
    """
    return LazyPairs(datasets, models, config, options, cache, judges=judges).result()
