"""One recorder for every picture: the app's ``x`` and ``render --format svg`` draw alike."""

from __future__ import annotations

import re

from rich.text import Text

from workbench.views.recording import svg_of


def test_the_picture_ignores_the_environment_it_is_made_in(monkeypatch):
    drawn = [Text("red [b]not markup[/b] :smile:", style="#ff0000")]
    plain = svg_of(drawn, 40, "t")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "20")
    monkeypatch.setenv("TERM", "dumb")
    assert svg_of(drawn, 40, "t") == plain  # a user's NO_COLOR or narrow COLUMNS change nothing
    assert "#ff0000" in plain
    assert "[b]not&#160;markup[/b]" in plain and ":smile:" in plain  # text as written, no markup


def _view_box(svg: str) -> tuple[float, float]:
    width, height = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups()
    return float(width), float(height)


def test_the_width_is_the_one_asked_for():
    line = [Text("x" * 70)]
    wide, narrow = _view_box(svg_of(line, 80, "t")), _view_box(svg_of(line, 30, "t"))
    assert wide[0] > 2 * narrow[0]  # 80 columns against 30
    assert narrow[1] > wide[1]  # the 70 characters wrap to three lines at 30
