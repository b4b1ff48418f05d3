"""What the app froze out of the garbage collector's walks stays frozen through a save's load
(unfreezing a suite there let a full collection, 80–250 ms, land in a save), and is still
freed: by reference counting when dropped, and its cycles by the idle collection."""

from __future__ import annotations

import gc
import sys
import threading
import time
import weakref

import pytest

from workbench.tui.collector import Collector

from .conftest import make_app, pane_text, wait_for

pytestmark = pytest.mark.anyio

OLD = "Answer briefly."
NEW = "Answer in one word."


async def test_a_save_loads_without_unfreezing_what_the_last_load_kept(workspace, monkeypatch):
    app = make_app(workspace / "eval_fixture.py", watch=True)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: OLD in pane_text(app, "final-input") and app.is_settled)
        assert gc.get_freeze_count() > 0  # the checked pairs were kept
        unfrozen = []
        real = gc.unfreeze

        def unfreeze() -> None:
            # the idle collection unfreezes by design, and its tick may come at any moment of the
            # save (on a busy machine the save spans several): only other callers are counted
            if sys._getframe(1).f_code is not Collector.collect.__code__:
                unfrozen.append(gc.get_freeze_count())
            real()

        monkeypatch.setattr(gc, "unfreeze", unfreeze)
        target = workspace / "datasets" / "qa_gen.py"
        target.write_text(target.read_text().replace(OLD, NEW))
        await wait_for(pilot, lambda: NEW in pane_text(app, "final-input"))
        assert unfrozen == []
    gc.unfreeze()


async def test_an_idle_collection_still_running_is_not_started_again(monkeypatch):
    """The idle tick comes every second; a collection that takes longer (a suite's heap on a busy
    machine) must not have a second one started behind it, each walking the whole heap again."""
    app = make_app()
    ticks: list[float] = []
    started: list[int] = []
    finished = threading.Event()
    async with app.run_test() as pilot:
        collector = app._collector
        real_due, real_collect, real_start = collector.due, collector.collect, app._collect_idle

        def due(*args, **kwargs) -> bool:
            ticks.append(time.monotonic())
            return real_due(*args, **kwargs)

        def slow_collect() -> int:
            seen = len(ticks)
            deadline = time.monotonic() + 30  # only a guard against a hang
            while len(ticks) < seen + 2 and time.monotonic() < deadline:  # two more idle ticks
                time.sleep(0.01)
            try:
                return real_collect()
            finally:
                finished.set()

        def start() -> None:
            started.append(len(ticks))
            real_start()

        monkeypatch.setattr(collector, "due", due)
        monkeypatch.setattr(collector, "collect", slow_collect)
        monkeypatch.setattr(app, "_collect_idle", start)
        await wait_for(pilot, lambda: finished.is_set(), timeout=60)
        assert len(ticks) >= started[0] + 2  # the ticks came while it ran ...
        assert len(started) == 1, f"collections started at ticks {started}"  # ... and started none
    gc.unfreeze()


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: reference counting alone never frees it


def test_a_cycle_kept_frozen_is_freed_by_the_idle_collection():
    collector = Collector()
    node = Node()
    alive = weakref.ref(node)
    try:
        collector.keep()
        del node
        gc.collect()
        assert alive() is not None  # frozen: an ordinary collection does not walk it
        assert collector.due(last_key=0.0, now=1e9)
        collector.collect()
        assert alive() is None
    finally:
        gc.unfreeze()


def test_a_started_collection_is_not_due_again_until_it_has_run():
    collector = Collector()
    try:
        collector.keep()
        assert collector.due(last_key=0.0, now=1e9)
        collector.start()
        assert not collector.due(last_key=0.0, now=1e9)  # on its way: the next tick starts none
        collector.collect()
        collector.keep()
        assert collector.due(last_key=0.0, now=1e9)  # run: the next one is due in its time
    finally:
        gc.unfreeze()
