"""A cache that keeps what the last round used, and nothing older.

A round is one reload. What a render used is kept for the next one, so an unchanged
dataset is reused, while what an edit replaced is dropped a round later: memory is bounded
by one workspace, not by the number of saves.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class RoundCache(Generic[V]):
    def __init__(self) -> None:
        self._last: dict[Hashable, V] = {}
        self._this: dict[Hashable, V] = {}
        self._lock = threading.Lock()
        self.hits = 0

    def next_round(self) -> None:
        """Start a round: what the last one used stays available, anything older goes."""
        with self._lock:
            self._last, self._this = self._this, {}

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._this.get(key)
            if found is None:
                found = self._last.get(key)
                if found is not None:
                    self._this[key] = found
            if found is not None:
                self.hits += 1
            return found

    def put(self, key: Hashable, value: V) -> V:
        with self._lock:
            self._this[key] = value
        return value

    def get_or_build(self, key: Hashable, build: Callable[[], V]) -> V:
        """The value for ``key``, built (outside the lock) when this round and the last lack it."""
        found = self.get(key)
        return found if found is not None else self.put(key, build())

    def __len__(self) -> int:
        with self._lock:
            return len(self._this.keys() | self._last.keys())
