"""What is selected (dataset, model, sample, request) and how to move it, over one RenderResult.

Pure: the TUI keeps a :class:`Selection` and asks a :class:`Catalog` for the next one;
a headless export builds the same Selection from its arguments.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.result import PairError, RenderResult, Sample


@dataclass(frozen=True)
class Selection:
    dataset: str | None = None
    model: str | None = None
    sample: int = 0  # index in the dataset's test split
    request: int = 0  # which request of the sample (a PPL label, a multi-turn turn)


class Catalog:
    """An index of a RenderResult: pairs and pair errors by (dataset, model), samples cached."""

    def __init__(self, result: RenderResult, dataset_order: Sequence[str] = (),
                 model_order: Sequence[str] = ()) -> None:
        self.result = result
        self.pairs: dict[tuple[str, str | None], Any] = {}
        self.errors: dict[tuple[str | None, str | None], PairError] = {}
        datasets: list[str] = list(dataset_order)
        models: list[str | None] = list(model_order)
        for pair in result.pairs:
            self.pairs[(pair.dataset_abbr, pair.model_abbr)] = pair
            if pair.dataset_abbr not in datasets:
                datasets.append(pair.dataset_abbr)
            if pair.model_abbr not in models:
                models.append(pair.model_abbr)
        for error in result.errors:
            key = (error.dataset, error.model)
            self.errors.setdefault(key, error)
            if error.dataset is not None and error.dataset not in datasets:
                datasets.append(error.dataset)
            if error.dataset is not None and error.model not in models:
                models.append(error.model)
        self.datasets = datasets
        self.models = models or [None]
        self._samples: OrderedDict[tuple[int, int], Sample] = OrderedDict()
        self._lock = threading.Lock()

    # -- lookups --------------------------------------------------------------------------
    def pair(self, dataset: str | None, model: str | None):
        return self.pairs.get((dataset, model)) if dataset is not None else None

    def error(self, dataset: str | None, model: str | None) -> PairError | None:
        return self.errors.get((dataset, model))

    def models_for(self, dataset: str | None) -> list[str | None]:
        return [m for m in self.models if (dataset, m) in self.pairs or (dataset, m) in self.errors]

    def sample_count(self, dataset: str | None) -> int:
        for (d, _), pair in self.pairs.items():
            if d == dataset:
                return len(pair)
        return 0

    def sample(self, pair, index: int) -> Sample:
        """``pair.sample(index, provenance=True)``, remembered for the last few samples."""
        key = (id(pair), index)
        with self._lock:
            if key in self._samples:
                self._samples.move_to_end(key)
                return self._samples[key]
        sample = pair.sample(index, provenance=True)
        with self._lock:
            self._samples[key] = sample
            while len(self._samples) > 64:
                self._samples.popitem(last=False)
        return sample

    # -- selections -------------------------------------------------------------------------
    def normalize(self, sel: Selection) -> Selection:
        """The nearest valid selection: known dataset and model, sample in range."""
        dataset = sel.dataset
        if dataset not in self.datasets:
            dataset = self.datasets[0] if self.datasets else None
        models = self.models_for(dataset)
        if sel.model in models:
            model = sel.model
        else:
            with_pairs = [m for m in models if (dataset, m) in self.pairs]
            model = (with_pairs or models or [None])[0]
        count = self.sample_count(dataset)
        sample = min(max(sel.sample, 0), max(count - 1, 0))
        return Selection(dataset, model, sample, max(sel.request, 0))

    def step_dataset(self, sel: Selection, delta: int) -> Selection:
        if not self.datasets:
            return sel
        i = self.datasets.index(sel.dataset) if sel.dataset in self.datasets else 0
        return self.normalize(replace(sel, dataset=self.datasets[(i + delta) % len(self.datasets)],
                                      request=0))

    def step_model(self, sel: Selection, delta: int) -> Selection:
        models = self.models_for(sel.dataset)
        if not models:
            return sel
        i = models.index(sel.model) if sel.model in models else 0
        return self.normalize(replace(sel, model=models[(i + delta) % len(models)]))

    def step_sample(self, sel: Selection, delta: int) -> Selection:
        count = self.sample_count(sel.dataset)
        if not count:
            return sel
        return self.normalize(replace(sel, sample=(sel.sample + delta) % count, request=0))

    def jump(self, sel: Selection, index: int) -> Selection:
        return self.normalize(replace(sel, sample=index, request=0))

    def step_request(self, sel: Selection, delta: int, count: int) -> Selection:
        if count <= 0:
            return sel
        return replace(sel, request=(sel.request + delta) % count)
