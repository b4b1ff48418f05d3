"""The command palette jumps anywhere by name: datasets, models, labels (and turns), samples.

A suite has hundreds of datasets; stepping with ``d`` to the one you want is no way to get
there. ``ctrl+p`` then part of a name (fuzzy, as Textual matches commands) lists every
dataset and model that fits; the current sample's labels and turns, and the current
dataset's samples (``sample 17``), are there too.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from ..views.timeline import request_tag

#: Added to the score of a name that holds what was typed, so it ranks above fuzzy matches.
NAME_BONUS = 1000.0
#: The most samples of one dataset listed (a larger dataset: `g` jumps to any number).
MAX_SAMPLES = 2000


def jump_targets(app: Any) -> Iterator[tuple[str, str, Callable[[], None]]]:
    """(what is shown, help text, what choosing it does), for the app as it is now; what is
    shown is the kind, a space, then the name ("dataset gsm8k", "model gpt-4o")."""
    good = getattr(app, "good", None)
    catalog = good.catalog if good is not None else None
    if catalog is None:
        return
    selection = app.selection
    for abbr in catalog.datasets:
        yield f"dataset {abbr}", "show this dataset", partial(app.jump_to, dataset=abbr)
    for model in catalog.models:
        if model is not None:
            yield f"model {model}", "show this model", partial(app.jump_to, model=model)
    frame = app.frame
    pair = catalog.pair(selection.dataset, selection.model, build=False)
    if frame is not None and frame.requests > 1 and pair is not None:
        requests = catalog.sample(pair, selection.sample).requests  # on screen: rendered already
        for r, request in enumerate(requests):
            yield (request_tag(request, r + 1), f"request {r + 1} of sample {selection.sample}",
                   partial(app.jump_to, request=r))
    count = catalog.sample_count(selection.dataset, build=False)
    for index in range(min(max(count, 0), MAX_SAMPLES)):
        yield (f"sample {index} · {selection.dataset}", f"sample {index} of {count:,}",
               partial(app.jump_to, sample=index))


class JumpProvider(Provider):
    """Datasets, models, labels and samples, matched fuzzily against what was typed."""

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        typed = query.strip().casefold()
        for text, help_text, command in jump_targets(self.app):
            name = text.split(" ", 1)[-1].casefold()
            score = max(matcher.match(text), matcher.match(name))
            if score > 0 and typed and (typed in name or typed in text.casefold()):
                # a name holding what was typed ranks above commands that only fuzzily match it
                # (Textual's fuzzy scores are not bounded: a command can score 12 on "api")
                score += NAME_BONUS * (2 if typed in (name, text.casefold()) else 1)
            if score > 0:
                yield Hit(score, matcher.highlight(text), command, text=text, help=help_text)

    async def discover(self) -> Hits:
        for text, help_text, command in jump_targets(self.app):
            if not text.startswith("sample "):  # typing narrows the samples; listing them all would not
                yield DiscoveryHit(text, command, text=text, help=help_text)
