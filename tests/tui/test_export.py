"""``x`` asks where to write an SVG of the screen (``X``: every pane in full), offering a folder
outside the working tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Input

from workbench.tui.export_file import default_export_dir, export_target

from .conftest import make_app, settle

pytestmark = pytest.mark.anyio

NAME = "workbench-qa-chatml-7b-sample0-request0.svg"


@pytest.fixture
def places(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """(the working directory, XDG_DATA_HOME), both empty."""
    cwd, data = tmp_path / "repo", tmp_path / "data"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    return cwd, data


async def ask(pilot, key: str = "x") -> Input:
    await pilot.press(key)
    await pilot.pause()
    assert type(pilot.app.screen).__name__ == "AskScreen"
    return pilot.app.screen.query_one(Input)


async def finish(pilot) -> None:
    app = pilot.app
    await app.workers.wait_for_complete([w for w in app.workers if w.group == "export"])
    await pilot.pause()


async def test_enter_writes_to_the_offered_folder_outside_the_working_tree(places):
    cwd, data = places
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        field = await ask(pilot)
        offered = data / "prompt-workbench" / "exports" / NAME
        assert field.value == str(offered)
        await pilot.press("enter")
        await finish(pilot)
        svg = offered.read_text()
        assert "PromptList" in svg and "Final" in svg
        assert list(cwd.iterdir()) == []
        # the next export offers the folder used last
        await pilot.press("n")
        await settle(pilot)
        field = await ask(pilot)
        assert field.value == str(offered.parent / NAME.replace("sample0", "sample1"))


async def test_a_typed_path_is_used_and_escape_writes_nothing(places, tmp_path):
    cwd, data = places
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await ask(pilot)
        await pilot.press("escape")
        await finish(pilot)
        assert type(app.screen).__name__ != "AskScreen"
        assert not data.exists() and list(cwd.iterdir()) == []
        field = await ask(pilot)
        field.value = "shots/view.svg"  # relative: to the working directory, as in a shell
        await pilot.press("enter")
        await finish(pilot)
        assert "Final" in (cwd / "shots" / "view.svg").read_text()
        field = await ask(pilot)
        assert field.value == str(cwd / "shots" / NAME)
        field.value = str(tmp_path) + "/"  # a folder: the view's own name inside it
        await pilot.press("enter")
        await finish(pilot)
        assert (tmp_path / NAME).is_file()


def rows(svg: str) -> int:
    """How many terminal rows an SVG recording has."""
    return 1 + max(int(n) for n in re.findall(r"-line-(\d+)\)", svg))


def svg_words(svg: str) -> str:
    """The text of an SVG recording, spaces as spaces (Rich writes them as &#160;)."""
    return svg.replace("&#160;", " ")


async def test_x_writes_the_screen_as_it_is_and_capital_x_every_pane_in_full(places):
    _, data = places
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await ask(pilot)
        await pilot.press("enter")
        await finish(pilot)
        field = await ask(pilot, "X")
        assert field.value.endswith(NAME.replace(".svg", "-full.svg"))
        await pilot.press("enter")
        await finish(pilot)
    screen = svg_words((data / "prompt-workbench" / "exports" / NAME).read_text())
    full = svg_words((data / "prompt-workbench" / "exports" / NAME.replace(".svg", "-full.svg")).read_text())
    # the screen: its 24 rows with the status line and footer, not the question that asked where
    assert "not watching" in screen and "palette" in screen and "Export" not in screen
    assert rows(screen) == 24
    # in full: every pane's every line (the whole tree alone is longer than the screen)
    assert "Export" not in full and "not watching" not in full and rows(full) > 24


async def test_a_failed_write_is_a_notification(places, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    app = make_app()
    told: list[tuple[str, str]] = []
    app.notify = lambda message, severity="information", **_: told.append((message, severity))
    async with app.run_test() as pilot:
        await settle(pilot)
        field = await ask(pilot)
        field.value = str(blocker / "view.svg")
        await pilot.press("enter")
        await finish(pilot)
        (failed,) = [(m, s) for m, s in told if "export failed" in m]
        assert failed[1] == "error" and "a-file" in failed[0] and not (blocker / "view.svg").exists()


def test_the_default_folder_follows_xdg_and_falls_back_to_local_share(tmp_path):
    home = Path.home()
    assert default_export_dir({"XDG_DATA_HOME": "/x/data"}) == Path("/x/data/prompt-workbench/exports")
    fallback = home / ".local" / "share" / "prompt-workbench" / "exports"
    assert default_export_dir({}) == fallback
    assert default_export_dir({"XDG_DATA_HOME": "relative/data"}) == fallback  # ignored, per the spec
    assert export_target("~/v.svg", tmp_path, "n.svg") == home / "v.svg"
    assert export_target(" out.svg ", tmp_path, "n.svg") == tmp_path / "out.svg"
    assert export_target(str(tmp_path), Path("/"), "n.svg") == tmp_path / "n.svg"
