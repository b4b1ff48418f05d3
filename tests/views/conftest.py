"""Render the TUI fixture workspace once for the view tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.loading.workspace import load_workspace
from workbench.views.options import ViewOptions
from workbench.views.selection import Catalog

FIXTURE = Path(__file__).parents[1] / "tui" / "fixtures" / "workspace"


@pytest.fixture(scope="module")
def loaded():
    workspace = load_workspace([str(FIXTURE / "eval_fixture.py")])
    assert not workspace.errors, workspace.errors
    result = render_workspace(workspace.datasets, workspace.models)
    catalog = Catalog(result, [d.abbr for d in workspace.datasets], [m.abbr for m in workspace.models])
    return workspace, catalog


@pytest.fixture
def opts() -> ViewOptions:
    return ViewOptions(root=FIXTURE)


def plain(renderable, width: int = 120) -> str:
    from rich.console import Console

    console = Console(width=width, color_system=None, legacy_windows=False)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()
