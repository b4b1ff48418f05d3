"""What a new user hit in the app at 80×24 (issue 29), each checked as the user met it."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from textual.strip import Strip

from workbench.tui.widgets.main.template_tree import TemplateTree
from workbench.tui.widgets.main.view_pane import ViewPane, changed_view_top

from .conftest import make_app, press, settle, wait_for

pytestmark = pytest.mark.anyio


def strips(*texts: str) -> list[Strip]:
    return [Strip([Segment(t)]) for t in texts]


def test_the_view_moves_to_the_first_changed_line_only_when_none_in_view_changed():
    shared = [f"shared {i}" for i in range(10)]
    before = strips(*shared, "question one", "answer")
    after = strips(*shared, "question two", "answer")
    assert changed_view_top(before, after, top=0, height=5) == 9  # one unchanged line above it
    assert changed_view_top(before, after, top=8, height=5) is None  # already in view
    assert changed_view_top(before, before, top=0, height=5) is None  # nothing changed
    assert changed_view_top(before, strips("other", *shared), top=4, height=3) is None  # the view changed


def visible(pane: ViewPane) -> str:
    top, height = pane.scroll_offset.y, pane.scrollable_content_region.height
    return "\n".join(line.text for line in pane.lines[top:top + height])


async def test_next_sample_brings_the_part_that_differs_into_view():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panes = [app.query_one("#prompt-list", ViewPane), app.query_one("#final-input", ViewPane)]
        assert all("capital of" not in visible(p) for p in panes)
        await press(pilot, "n", "n")
        for pane in panes:  # the system prompt and the examples are the same: the question is not
            assert "capital of" in visible(pane), pane.id
        await press(pilot, "w")  # the same sample in another look keeps where it was
        assert all("capital of" in visible(p) for p in panes)


async def test_the_tree_cursor_follows_d_and_m_so_e_opens_the_selected_dataset():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tree = app.query_one(TemplateTree)
        await press(pilot, "d")
        assert tree.cursor_node.data.selects == ("dataset", app.selection.dataset) == ("dataset", "choice")
        assert app._edit_target()[0].endswith("choice_ppl.py")
        await press(pilot, "m")
        assert tree.cursor_node.data.selects == ("model", app.selection.model)
        assert app._edit_target()[0].endswith("api.py")
        await press(pilot, "1", "down")  # the cursor inside the selected dataset stays where it is
        inside = tree.cursor_node
        await press(pilot, "m")
        assert tree.cursor_node.data.selects == ("model", app.selection.model) != ("model", "api-model")
        await press(pilot, "d", "D")
        assert tree.cursor_node is not inside and tree.cursor_node.data.selects == ("dataset", "choice")


async def test_v_without_a_run_says_how_to_load_one():
    app = make_app()
    told: list[str] = []
    app.notify = lambda message, **_: told.append(message)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "v")
        assert not app.options.answers
        (said,) = told
        assert "--run RUN_DIR" in said and "no run loaded" in said


async def test_the_lengths_footer_shows_its_own_keys_and_the_panes_keys_do_nothing_there():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "LengthsScreen")
        shown = {binding.key for _, binding, enabled, _ in app.screen.active_bindings.values()
                 if binding.show and enabled}
        assert {"n", "p", "m", "w", "c"}.isdisjoint(shown) and {"escape", "d", "l", "q"} <= shown
        await pilot.press("n")
        await pilot.press("escape")
        await settle(pilot)
        assert app.selection.sample == 0  # `n` over the lengths screen did not move the hidden panes
        await press(pilot, "n")
        assert app.selection.sample == 1
