"""Keeping Python's garbage collector off the keys.

A suite is millions of long-lived objects (rows, pairs, built frames). CPython's full
collections walk all of them: 50–120 ms each, several a second while keys are pressed,
which was most of a key's worst case. So the app freezes what it just built to last (a
load's pairs once checked, the frames built ahead): frozen objects are never walked, and
still freed by reference counting when dropped. What froze stays frozen through the next
load (unfrozen there, a suite's millions of objects were walked by the next full collection,
80–250 ms, which now and then landed in a save), and after the reader has been idle for a
moment it is collected once (cycles among frozen objects are only found then), so memory
stays bounded in a long session.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import gc
import threading
import time

#: Seconds without a key before a collection may run, and the least time between two.
IDLE_AFTER = 2.0
COLLECT_EVERY = 10.0


class Collector:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frozen_since_collect = False
        self._collected_at = 0.0
        self._started = False  # an idle collection was started and has not finished

    def keep(self) -> None:
        """What exists now lives on: out of the collector's walks (any thread)."""
        with self._lock:
            gc.freeze()
            self._frozen_since_collect = True

    def due(self, last_key: float, now: float | None = None) -> bool:
        """Whether an idle collection should run (the reader has not pressed a key for a while)."""
        now = time.monotonic() if now is None else now
        return (not self._started and self._frozen_since_collect and now - last_key >= IDLE_AFTER
                and now - self._collected_at >= COLLECT_EVERY)

    def start(self) -> None:
        """An idle collection is on its way (in a worker): none other is due until it has run.

        The app looks every second; a collection can take longer (a suite's heap on a busy
        machine), and one started behind it would walk the whole heap again."""
        self._started = True

    def collect(self) -> int:
        """Find the garbage among what was kept, then keep the rest again (run it while idle)."""
        with self._lock:
            try:
                gc.unfreeze()
                found = gc.collect()
                gc.freeze()
                self._frozen_since_collect = False
                self._collected_at = time.monotonic()
            finally:
                self._started = False
        return found
