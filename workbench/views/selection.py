"""What is selected (dataset, model, sample, request) and how to move it, over one RenderResult.

Pure: the TUI keeps a :class:`Selection` and asks a :class:`Catalog` for the next one;
a headless export builds the same Selection from its arguments.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import WorkbenchError
from ..core.lazy_pairs import LazyPairs
from ..core.models.model_input import ModelAdapter
from ..core.render_notes import Notes
from ..core.result import PairError, RenderResult, Sample


@dataclass(frozen=True)
class Selection:
    dataset: str | None = None
    model: str | None = None
    sample: int = 0  # index in the dataset's test split
    request: int = 0  # which request of the sample (a PPL label, a multi-turn turn)


class Catalog:
    """An index of a render: pairs and pair errors by (dataset, model), samples cached.

    Over a :class:`RenderResult` every pair is there already; over a
    :class:`~workbench.core.lazy_pairs.LazyPairs` (the app's, for whole suites) a pair is
    built the first time a lookup needs it, so what a key costs does not grow with the suite.
    """

    def __init__(self, result: RenderResult | LazyPairs, dataset_order: Sequence[str] = (),
                 model_order: Sequence[str] = ()) -> None:
        self._samples: OrderedDict[tuple[int, int], Sample] = OrderedDict()
        self._lock = threading.Lock()
        # each warning's message -> every (dataset, model) it applies to, once known (the app
        # sets it when every pair has been checked): the panes then say where else it applies
        self.warning_places: dict[str, tuple] | None = None
        # with --run: what the run's evaluation made of each answer (views/answers.py)
        self.answers: Any = None
        self.pairs: dict[tuple[str, str | None], Any] = {}
        self.errors: dict[tuple[str | None, str | None], PairError] = {}
        if isinstance(result, LazyPairs):
            self.lazy: LazyPairs | None = result
            self.result = None
            self.datasets: list[str] = list(result.datasets)
            self.models: list[str | None] = list(result.models)
            return
        self.lazy = None
        self.result = result
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

    # -- lookups --------------------------------------------------------------------------
    def pair(self, dataset: str | None, model: str | None, build: bool = True):
        """The pair's renderer (None: it failed, or is not built and ``build`` is False)."""
        if dataset is None:
            return None
        if self.lazy is None:
            return self.pairs.get((dataset, model))
        found = self.lazy.get(dataset, model) if build else self.lazy.built(dataset, model)
        return None if found is None or isinstance(found, PairError) else found

    def judge_for(self, dataset: str | None, model: str | None) -> Any:
        """The judge pair of (dataset, model) (``--judge``/``--run``): its renderer, its
        PairError, or None when the dataset has no LLM judge (or judges were not loaded). The
        run's pair for this model first, else the one before a run (the placeholder's)."""
        judged = self.lazy.judges if self.lazy is not None else None
        if judged is not None:
            owners = {(j.of_dataset, j.of_model): key for key, j in judged.items()}
        else:
            result = self.result
            owners = {of: key for key, of in result.judged.items()} if result is not None else {}
        key = owners.get((dataset, model)) or owners.get((dataset, None))
        if key is None:
            return None
        if self.lazy is not None:
            return self.lazy.get(*key)
        return self.pairs.get(key) or self.errors.get(key)

    def error(self, dataset: str | None, model: str | None) -> PairError | None:
        if self.lazy is None or dataset is None:
            return self.errors.get((dataset, model))
        found = self.lazy.get(dataset, model)
        return found if isinstance(found, PairError) else None

    def models_for(self, dataset: str | None) -> list[str | None]:
        if self.lazy is not None:
            return list(self.models) if dataset in self.lazy.specs or dataset in self.lazy.failed else []
        return [m for m in self.models if (dataset, m) in self.pairs or (dataset, m) in self.errors]

    def sample_count(self, dataset: str | None, build: bool = True) -> int:
        """How many test samples the dataset has (-1: unknown until a pair is built, and
        ``build`` is False)."""
        if self.lazy is not None:
            unknown = False
            for model in self.models_for(dataset):
                pair = self.pair(dataset, model, build)
                if pair is not None:
                    return len(pair)
                unknown = unknown or not self.lazy.is_built(dataset, model)
            return -1 if unknown and not build else 0
        for (d, _), pair in self.pairs.items():
            if d == dataset:
                return len(pair)
        return 0

    def model_spec(self, model: str | None) -> Any:
        """The model's spec (None for no model, or a model no pair was made for)."""
        if model is None:
            return None
        if self.lazy is not None:
            return self.lazy.model_specs.get(model)
        for (_, m), pair in self.pairs.items():
            if m == model:
                return pair.model_spec
        return None

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

    def model_kinds(self) -> dict[str, str]:
        """Each model's kind ("lm", "api", "chat_template"), for the tree's model lines."""
        if self.lazy is None:
            return {p.model_abbr: p.model_kind for p in self.pairs.values() if p.model_abbr}
        kinds = {}
        for abbr, spec in self.lazy.model_specs.items():
            try:
                kinds[abbr] = ModelAdapter(spec, Notes()).kind
            except WorkbenchError:
                continue  # the model's own error shows with its pairs
        return kinds

    # -- selections -------------------------------------------------------------------------
    def normalize(self, sel: Selection, build: bool = True) -> Selection:
        """The nearest valid selection: known dataset and model, sample in range.

        ``build=False`` (the UI thread: a key must not wait for a pair to render) leaves what
        only an unbuilt pair could tell as it is; the frame worker normalises fully."""
        dataset = sel.dataset
        if dataset not in self.datasets:
            dataset = self.datasets[0] if self.datasets else None
        models = self.models_for(dataset)
        if sel.model in models:
            model = sel.model
        else:
            with_pairs = [m for m in models if self.pair(dataset, m, build) is not None]
            model = (with_pairs or models or [None])[0]
        count = self.sample_count(dataset, build)
        sample = max(sel.sample, 0) if count < 0 else min(max(sel.sample, 0), max(count - 1, 0))
        return Selection(dataset, model, sample, max(sel.request, 0))

    def step_dataset(self, sel: Selection, delta: int, build: bool = True) -> Selection:
        if not self.datasets:
            return sel
        i = self.datasets.index(sel.dataset) if sel.dataset in self.datasets else 0
        return self.normalize(replace(sel, dataset=self.datasets[(i + delta) % len(self.datasets)],
                                      request=0), build)

    def step_model(self, sel: Selection, delta: int, build: bool = True) -> Selection:
        models = self.models_for(sel.dataset)
        if not models:
            return sel
        i = models.index(sel.model) if sel.model in models else 0
        return self.normalize(replace(sel, model=models[(i + delta) % len(models)]), build)

    def step_sample(self, sel: Selection, delta: int, build: bool = True) -> Selection:
        count = self.sample_count(sel.dataset, build)
        if count <= 0:
            return sel
        return self.normalize(replace(sel, sample=(sel.sample + delta) % count, request=0), build)

    def jump(self, sel: Selection, index: int, build: bool = True) -> Selection:
        return self.normalize(replace(sel, sample=index, request=0), build)

    def step_request(self, sel: Selection, delta: int, count: int) -> Selection:
        if count <= 0:
            return sel
        return replace(sel, request=(sel.request + delta) % count)
