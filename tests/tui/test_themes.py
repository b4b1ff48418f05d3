"""Themes are data files: bundled ones load, a user's folder is read, mistakes are reported."""

from __future__ import annotations

import os

import pytest

from workbench.tui.themes import bundled_themes_dir, load_themes, palette_for, user_themes_dir

from .conftest import make_app, settle


def test_the_bundled_themes_load_and_set_the_panes_colours():
    themes, problems = load_themes([bundled_themes_dir()])
    assert not problems
    assert {"workbench-dark", "workbench-light", "workbench-high-contrast"} <= set(themes)
    assert themes["workbench-light"].dark is False
    assert palette_for(themes["workbench-high-contrast"]).row == "bold #00ff00"
    assert palette_for(themes["workbench-dark"]).ice == ("#87afff", "#5fd7d7")


def test_bundled_colours_are_exact_in_256_colours():
    """Every hex colour in the bundled themes is one of the xterm-256 cube or grey levels."""
    import re

    cube = {0, 0x5F, 0x87, 0xAF, 0xD7, 0xFF}
    greys = {8 + 10 * i for i in range(24)}
    for path in bundled_themes_dir().glob("*.toml"):
        for value in re.findall(r"#([0-9a-fA-F]{6})", path.read_text()):
            r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
            assert {r, g, b} <= cube or (r == g == b and r in greys), f"{path.name}: #{value}"


def test_a_bad_theme_file_is_reported_not_fatal(tmp_path):
    (tmp_path / "broken.toml").write_text("name = 'x'\nprimary = \n")
    (tmp_path / "unknown.toml").write_text("name = 'y'\nprimary = '#ffffff'\ncolour = 'red'\n")
    (tmp_path / "mine.toml").write_text("name = 'mine'\nprimary = '#ff0000'\n[variables]\nwb-row = 'bold'\n")
    themes, problems = load_themes([tmp_path])
    assert set(themes) == {"mine"}
    assert sorted(p.file.name for p in problems) == ["broken.toml", "unknown.toml"]
    assert "unknown keys colour" in next(p.message for p in problems if p.file.name == "unknown.toml")


@pytest.mark.anyio
async def test_a_users_theme_folder_is_read_and_chosen_with_theme(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    folder = user_themes_dir()
    os.makedirs(folder)
    (folder / "mine.toml").write_text("name = 'mine'\nprimary = '#ff0000'\n[variables]\nwb-row = '#00ff00'\n")
    app = make_app(theme="mine")
    async with app.run_test() as pilot:
        await settle(pilot)
        assert app.theme == "mine" and app.options.palette.row == "#00ff00"
