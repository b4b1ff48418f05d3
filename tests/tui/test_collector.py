"""What the app froze out of the garbage collector's walks stays frozen through a save's load
(unfreezing a suite there let a full collection, 80–250 ms, land in a save), and is still
freed: by reference counting when dropped, and its cycles by the idle collection."""

from __future__ import annotations

import gc
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
        monkeypatch.setattr(gc, "unfreeze", lambda: unfrozen.append(gc.get_freeze_count()) or real())
        target = workspace / "datasets" / "qa_gen.py"
        target.write_text(target.read_text().replace(OLD, NEW))
        await wait_for(pilot, lambda: NEW in pane_text(app, "final-input"))
        assert unfrozen == []
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
