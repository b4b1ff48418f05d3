"""The footer does not keep the keys of its earlier compositions alive (Textualize/textual#6666)."""

from __future__ import annotations

import gc

import pytest

from workbench.tui.widgets.main.footer import WorkbenchFooter

from .conftest import make_app, settle

pytestmark = pytest.mark.anyio

PANES = ("1", "2", "3", "4")


def live_footer_keys() -> int:
    gc.collect()
    return sum(type(o).__name__ == "FooterKey" for o in gc.get_objects())


async def focus_changes(pilot, rounds: int) -> None:
    for _ in range(rounds):
        for key in PANES:
            await pilot.press(key)
            await pilot.pause()


async def test_focus_changes_leave_no_dead_footer_keys():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await focus_changes(pilot, 2)
        shown = len(app.query_one(WorkbenchFooter).children)
        before = live_footer_keys()
        await focus_changes(pilot, 10)
        after = live_footer_keys()
        assert shown > 5
        # every composition replaces the keys: 40 focus changes leave as many as there were
        assert after <= before, f"{after - before} footer keys outlived their composition"
