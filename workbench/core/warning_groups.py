"""One warning per cause: the same message, wherever it applies, said once with where.

A chat model given by a hub id says "not a local folder" for every dataset it meets: 234
times in a suite, burying the warnings that matter. Grouped, it is one warning that
applies to 234 pairs. Groups keep the order in which each message was first seen.

May import: render and every core module below it; nothing outside the core (loading, views and
the front ends build on this, not the reverse).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .result import PairWarning

Place = tuple["str | None", "str | None"]  # (dataset, model)


@dataclass(frozen=True)
class WarningGroup:
    message: str
    applies_to: tuple[Place, ...]  # every (dataset, model) it was said for, first first
    # a finding's (core/findings.py): its id, where its cause was written, what to do
    rule: str | None = None
    file: str | None = None
    line: int | None = None
    hint: str | None = None

    @property
    def dataset(self) -> str | None:
        return self.applies_to[0][0]

    @property
    def model(self) -> str | None:
        return self.applies_to[0][1]

    @property
    def count(self) -> int:
        return len(self.applies_to)

    def elsewhere(self) -> str:
        """Where else it applies, in a few words ("" when only here)."""
        return elsewhere(self.applies_to)


def group_warnings(warnings: Iterable[PairWarning]) -> list[WarningGroup]:
    places: dict[str, list[Place]] = {}
    first: dict[str, PairWarning] = {}
    for w in warnings:
        found = places.setdefault(w.message, [])
        first.setdefault(w.message, w)
        if (w.dataset, w.model) not in found:
            found.append((w.dataset, w.model))
    return [WarningGroup(message, tuple(where), first[message].rule, first[message].file, first[message].line,
                         first[message].hint) for message, where in places.items()]


def elsewhere(places: Sequence[Place]) -> str:
    """"and 233 more datasets with template-chat", "and 1 more model for TheoremQA"..."""
    more = len(places) - 1
    if more <= 0:
        return ""
    models = {m for _, m in places}
    datasets = {d for d, _ in places}
    if models == {None}:  # said of datasets (their rows), not of pairs
        return f"and {more} more dataset{'s' if more != 1 else ''}"
    if len(models) == 1 and places[0][1] is not None:
        return f"and {more} more dataset{'s' if more != 1 else ''} with {places[0][1]}"
    if len(datasets) == 1 and places[0][0] is not None:
        return f"and {more} more model{'s' if more != 1 else ''} for {places[0][0]}"
    return f"and {more} more pair{'s' if more != 1 else ''}"
