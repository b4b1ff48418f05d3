"""The installed ``workbench`` in a real terminal (tmux) against a config that kills its process
group, rows swapped for a FIFO and a spinning chat template: the pane survives, the last good
render stays on screen, keys still work, and nothing spins on afterwards.

Skips cleanly where tmux (or the installed command) is missing; each test has its own tmux
server socket, so it never touches the developer's sessions.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.tui.test_tmux import TMUX, WORKBENCH, Terminal

from .app_workspace import CONFIG, KILLPG, SPINNING, make_workspace, save

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed"),
    pytest.mark.skipif(not WORKBENCH.exists(), reason="the workbench command is not installed"),
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc"),
]

GOOD = "What is 2 + 2?"


@pytest.fixture
def term(tmp_path):
    env = {**os.environ, "TERM": "xterm-256color", "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "COLORTERM": ""}
    env.pop("TMUX", None)
    terminal = Terminal(f"wb-hostile-{os.getpid()}-{tmp_path.name}", env)
    yield terminal
    terminal.tmux("kill-server")


def app_pid(term: Terminal) -> int:
    return int(term.tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(pid: int, seconds: float = 2.0) -> float:
    """CPU time the process used over a quiet window."""
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - before


def still_works(term: Terminal) -> None:
    term.keys("?")
    term.wait_for("Keys", timeout=10)
    term.keys("Escape")
    time.sleep(0.3)


def test_a_config_that_kills_its_process_group_does_not_take_the_pane(term, tmp_path):
    config = make_workspace(tmp_path)
    term.start(str(config), size=(120, 40))
    term.wait_for(GOOD, timeout=20)
    save(config, KILLPG + CONFIG)
    term.wait_for("own process group", timeout=20)
    assert term.alive(), "the config's killpg reached the app"
    assert GOOD in term.screen()  # the last good render stays
    still_works(term)
    save(config, CONFIG)
    term.wait_for("● live", timeout=20)
    assert term.alive()


def test_rows_that_become_a_fifo_do_not_block_reloads(term, tmp_path):
    config = make_workspace(tmp_path)
    rows = tmp_path / "data" / "qa.jsonl"
    content = rows.read_text()
    term.start(str(config), size=(120, 40))
    term.wait_for(GOOD, timeout=20)
    rows.unlink()
    os.mkfifo(rows)
    term.wait_for("named pipe", timeout=20)
    assert GOOD in term.screen()
    still_works(term)
    rows.unlink()
    rows.write_text(content.replace("2 + 2", "3 + 3"))
    term.wait_for("What is 3 + 3?", timeout=20)  # reloads went on without an `r`


def test_a_spinning_chat_template_is_stopped_and_nothing_spins_on(term, tmp_path):
    config = make_workspace(tmp_path)
    template = tmp_path / "tpl" / "chat_template.jinja"
    term.start(str(config), size=(120, 40))
    term.wait_for("<|im_start|>assistant", timeout=20)
    pid = app_pid(term)
    baseline = idle_cpu(pid)
    save(template, SPINNING)
    term.wait_for("500,000 steps", timeout=60)
    assert term.alive()
    still_works(term)
    time.sleep(1.0)
    # back to what the app uses when idle: no render thread is left spinning
    assert idle_cpu(pid) < baseline + 0.5
