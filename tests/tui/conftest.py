"""Helpers for the app's tests: a deterministic app factory and ways to wait for it.

Determinism by construction (STYLE.md): the watcher is off unless a test is about it,
the cursor does not blink, there is no animation, user themes are not read, and every
look waits until the load and view workers have finished.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.tui.app import WorkbenchApp, create_app
from workbench.tui.driving import pane_text, plain, wait_for  # noqa: F401 - the tests' helpers
from workbench.tui.session import Inputs

FIXTURE = Path(__file__).parent / "fixtures" / "workspace"
FIXTURE_CONFIG = FIXTURE / "eval_fixture.py"


@pytest.fixture(autouse=True)
def _no_user_config(tmp_path_factory, monkeypatch):
    """Never read the developer's own ~/.config themes."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg")))


@pytest.fixture
def workspace(tmp_path) -> Path:
    """A private copy of the fixture workspace, for tests that edit files."""
    target = tmp_path / "workspace"
    shutil.copytree(FIXTURE, target)
    return target


def make_app(*configs: str | Path, watch: bool = False, **settings) -> WorkbenchApp:
    inputs = Inputs(configs=tuple(str(c) for c in (configs or (FIXTURE_CONFIG,))),
                    data=tuple(settings.pop("data", ())), chat_template=settings.pop("chat_template", None),
                    lmeval=settings.pop("lmeval", None))
    settings.setdefault("deterministic", True)
    return create_app(inputs, watch=watch, **settings)


async def settle(pilot, timeout: float = 10.0) -> None:
    """Wait until the first load is shown and nothing is in flight."""
    await wait_for(pilot, lambda: pilot.app.loads > 0, timeout)


async def press(pilot, *keys: str) -> None:
    """Press keys one at a time, letting the panes catch up after each."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


@pytest.fixture
def anyio_backend():
    """Async tests run on asyncio (anyio's pytest plugin; Textual needs asyncio)."""
    return "asyncio"
