"""Watcher events: the app survives a config that kills its group, rows swapped for a FIFO and
a chat template that spins, keeps its last good render, stays responsive, and leaves no
thread or process behind (the real app, its real watcher, real files)."""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
import traceback
from pathlib import Path

import pytest

from tests.tui.conftest import pane_text, plain, wait_for
from workbench.tui.app import create_app
from workbench.tui.session import Inputs

from .app_workspace import CONFIG, KILLPG, SPINNING, make_workspace, save
from .helpers import alive, needs_fork

pytestmark = [pytest.mark.anyio, needs_fork]
GOOD = "Answer briefly. What is 2 + 2?"


@pytest.fixture(autouse=True)
def _no_user_config(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg")))


@pytest.fixture
def anyio_backend():
    return "asyncio"


def _app(config):
    return create_app(Inputs(configs=(str(config),)), watch=True, deterministic=True)


def banner(app) -> str:
    widget = app.query_one("#banner")
    return plain(widget.content) if widget.has_class("-shown") else ""


def stale(app) -> bool:
    return app.query_one("#final-input").has_class("-stale")


async def responsive(pilot) -> None:
    """Keys still open and close the help: the UI thread is free."""
    app = pilot.app
    await pilot.press("question_mark")
    await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
    await pilot.press("escape")
    await wait_for(pilot, lambda: type(app.screen).__name__ != "HelpScreen")


async def test_a_config_that_kills_its_process_group_keeps_the_last_render(tmp_path):
    config = make_workspace(tmp_path)
    app = _app(config)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: GOOD in pane_text(app, "final-input"))
        save(config, KILLPG + CONFIG)
        await wait_for(pilot, lambda: "SIGTERM to its own process group" in banner(app), timeout=30)
        assert "eval.py:2" in banner(app)
        assert stale(app) and GOOD in pane_text(app, "final-input")
        await responsive(pilot)
        save(config, CONFIG)
        await wait_for(pilot, lambda: not banner(app) and not stale(app), timeout=30)


async def test_rows_replaced_by_a_fifo_keep_the_last_render_and_reloads_go_on(tmp_path):
    config = make_workspace(tmp_path)
    rows = tmp_path / "data" / "qa.jsonl"
    content = rows.read_text()
    app = _app(config)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: GOOD in pane_text(app, "final-input"))
        rows.unlink()
        os.mkfifo(rows)
        await wait_for(pilot, lambda: "named pipe (FIFO)" in banner(app), timeout=30)
        assert stale(app) and GOOD in pane_text(app, "final-input")
        await responsive(pilot)
        rows.unlink()
        rows.write_text(content.replace("2 + 2", "3 + 3"))
        await wait_for(pilot, lambda: "What is 3 + 3?" in pane_text(app, "final-input"), timeout=30)
        assert not banner(app)


def _busy_threads() -> dict[int, str]:
    """The threads running the workbench's or Jinja's code now, each with where it is.

    Textual runs thread workers in asyncio's default executor, whose threads stay alive idle
    once started: a thread that exists is no leak, one still inside a render is."""
    busy = {}
    for ident, frame in sys._current_frames().items():
        if ident == threading.main_thread().ident:
            continue
        stack = traceback.extract_stack(frame)
        if any(f"{os.sep}workbench{os.sep}" in f.filename or f"{os.sep}jinja2{os.sep}" in f.filename
               for f in stack):
            busy[ident] = "".join(traceback.format_list(stack[-6:]))
    return busy


async def test_a_spinning_chat_template_is_stopped_and_leaves_no_thread(tmp_path):
    config = make_workspace(tmp_path)
    template = tmp_path / "tpl" / "chat_template.jinja"
    good = template.read_text()
    app = _app(config)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "<|im_start|>assistant" in pane_text(app, "final-input"))
        save(template, SPINNING)
        await wait_for(pilot, lambda: "500,000 steps" in pane_text(app, "final-input") + banner(app), timeout=60)
        await responsive(pilot)
        # every render the save started has ended: no thread spins on in the template
        deadline = time.monotonic() + 30
        busy = _busy_threads()
        while time.monotonic() < deadline and busy:
            await pilot.pause(0.1)
            busy = _busy_threads()
        assert busy == {}  # the look that ended the wait: a job queued before may start after it
        save(template, good)
        await wait_for(pilot, lambda: "<|im_start|>assistant" in pane_text(app, "final-input")
                       and "500,000 steps" not in pane_text(app, "final-input"), timeout=30)


async def test_a_config_that_leaves_a_sleeping_child_leaves_nothing_behind(tmp_path):
    config = make_workspace(tmp_path)
    app = _app(config)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: GOOD in pane_text(app, "final-input"))
        pidfile = tmp_path / "child.pid"
        save(config, "import os, time\nif os.fork() == 0:\n    time.sleep(300)\n    os._exit(0)\n"
             f"open({str(pidfile)!r}, 'w').write('x')\n" + CONFIG)
        await wait_for(pilot, lambda: pidfile.exists(), timeout=30)
        await wait_for(pilot, lambda: not banner(app), timeout=30)
    # the app's config worker is gone with the app, and so is every process a config started
    for proc in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if proc.isdigit() and alive(int(proc)):
            try:
                cmdline = Path(f"/proc/{proc}/cmdline").read_bytes()
            except OSError:
                continue
            assert str(tmp_path).encode() not in cmdline


async def test_memory_of_a_large_config_goes_after_a_revert(tmp_path):
    config = make_workspace(tmp_path)
    big = CONFIG.replace("abbr='qa',", "abbr='qa', blob='x' * (40 * 1024 * 1024),")
    app = _app(config)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: GOOD in pane_text(app, "final-input"))
        save(config, big)
        await wait_for(pilot, lambda: app.good is not None and any(
            "blob" in d.cfg for d in app.good.workspace.datasets), timeout=60)
        save(config, CONFIG)
        await wait_for(pilot, lambda: app.good is not None and not any(
            "blob" in d.cfg for d in app.good.workspace.datasets), timeout=60)
        gc.collect()
        # no cache holds the large load's values: not one 40 MiB string is alive
        assert not [o for o in gc.get_objects() if isinstance(o, dict)
                    and any(type(v) is str and len(v) >= 40 * 1024 * 1024 for v in o.values())]
