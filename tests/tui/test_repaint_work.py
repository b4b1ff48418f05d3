"""A navigation key repaints what changed, not the whole screen (issue 16: keys at suite scale).

Counted, not timed: how many full-screen layouts (every widget measured and placed again)
and full-screen repaints a key causes. A reflow of a suite's screen cost a key 25-40 ms; a
status line, a fixed-height pane showing a sample of another length, or a focus move needs
neither, while a pane sized by its text (the timeline) still must be laid out again.
"""

from __future__ import annotations

import pytest
from rich.text import Text
from textual._compositor import Compositor
from textual.screen import Screen
from textual.widget import Widget

from workbench.tui.widgets.main.view_pane import ViewPane, render_lines

from .conftest import make_app, press, settle

pytestmark = pytest.mark.anyio


class Counts:
    def __init__(self, monkeypatch) -> None:
        self.layouts = 0
        self.full_repaints = 0
        layout, full = Screen._refresh_layout, Compositor.render_full_update

        def counted_layout(screen, size=None, scroll=False):
            if not scroll:
                self.layouts += 1
            return layout(screen, size, scroll)

        def counted_full(compositor, *args, **kwargs):
            self.full_repaints += 1
            return full(compositor, *args, **kwargs)

        monkeypatch.setattr(Screen, "_refresh_layout", counted_layout)
        monkeypatch.setattr(Compositor, "render_full_update", counted_full)

    def reset(self) -> None:
        self.layouts = self.full_repaints = 0


def text_of(lines: int) -> Text:
    return Text("\n".join(f"line {i}" for i in range(lines)))


async def show(pilot, pane: ViewPane, lines: int) -> None:
    text = text_of(lines)
    pane.show(text, "t", render_lines(text, pane.text_width))
    await pilot.pause()
    await pilot.pause()


async def test_a_fixed_height_pane_shows_another_length_without_a_layout(monkeypatch):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        pane = app.query_one("#final-input", ViewPane)
        await show(pilot, pane, 40)  # more than fits: the scrollbar is there from now on
        counts = Counts(monkeypatch)
        for lines in (50, 60, 45):
            await show(pilot, pane, lines)
        assert counts.layouts == 0
        assert pane.virtual_size.height == 45 and pane.max_scroll_y == 45 - pane.scrollable_content_region.height
        await show(pilot, pane, 2)  # the scrollbar goes: the pane's content area changes
        assert counts.layouts == 1
        assert pane.max_scroll_y == 0


async def test_the_timeline_sized_by_its_text_is_laid_out_again(monkeypatch):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        timeline = app.query_one("#timeline", ViewPane)
        await show(pilot, timeline, 1)
        one = timeline.size.height
        counts = Counts(monkeypatch)
        await show(pilot, timeline, 3)
        assert counts.layouts >= 1
        assert timeline.size.height == one + 2  # it grew with its text


async def test_navigation_and_focus_keys_repaint_no_whole_screen(monkeypatch):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "n", "p")
        counts = Counts(monkeypatch)
        await press(pilot, "n", "p")
        assert counts.full_repaints == 0
        counts.reset()
        # the first focus of each pane styles its scrollbars (a layout, once); after that a
        # move to and from the tree or a pane lays nothing out (Textual's Tree laid the screen
        # out on each move) and repaints no whole screen (Textual repainted it on each)
        await press(pilot, "2", "3", "4", "1")
        counts.reset()
        await press(pilot, "2", "3", "4", "1", "2")
        assert counts.full_repaints == 0
        assert counts.layouts == 0
        assert app.focused is app.query_one("#prompt-list")
        await press(pilot, "3")
        assert app.focused is app.query_one("#final-input")
        assert counts.full_repaints == 0
        # the focused pane still looks focused: its border is restyled and repainted
        assert app.query_one("#final-input").styles.border_top[1] != app.query_one("#prompt-list").styles.border_top[1]


async def test_the_location_line_follows_dataset_and_model_keys_without_a_layout(monkeypatch):
    # the tree's cursor follows ``d`` and ``m``, and the location line under the tree then
    # says where the new node is: a line of fixed height, so its new text needs no layout (it
    # laid the whole screen out and repainted it a moment after each such key: at suite scale
    # one more full paint, 25-40 ms, a key)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "d", "d", "d", "d", "m", "m", "m", "m")  # every node's parent open
        location = app.query_one("#location")
        asked: list[str] = []
        refresh = Widget.refresh

        def recorded(widget, *args, **kwargs):
            if kwargs.get("layout"):
                asked.append(widget.id or type(widget).__name__)
            return refresh(widget, *args, **kwargs)

        monkeypatch.setattr(Widget, "refresh", recorded)
        for key in ("d", "m", "D", "M"):
            before = str(location.render())
            await press(pilot, key)
            assert str(location.render()) != before, key  # the line follows the cursor
        assert "location" not in asked
