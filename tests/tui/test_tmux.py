"""The installed ``workbench`` command in a real terminal (tmux): paint, keys, live edit, safety.

Skips cleanly when tmux (or the installed command) is missing.  Each test uses its own
tmux server socket so it never touches the developer's sessions.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import FIXTURE

TMUX = shutil.which("tmux")
WORKBENCH = Path(sys.executable).with_name("workbench")
if not WORKBENCH.exists():
    WORKBENCH = Path(shutil.which("workbench") or "workbench")

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed"),
    pytest.mark.skipif(not WORKBENCH.exists(), reason="the workbench command is not installed"),
]


class Terminal:
    def __init__(self, socket: str, env: dict[str, str]) -> None:
        self.socket = socket
        self.env = env

    def tmux(self, *args: str) -> str:
        out = subprocess.run([TMUX, "-L", self.socket, "-f", os.devnull, *args], capture_output=True,
                             text=True, env=self.env, timeout=20)
        return out.stdout

    def start(self, *argv: str, size=(80, 24)) -> None:
        command = " ".join(f"'{a}'" for a in (str(WORKBENCH), *argv))
        self.tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), command)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, text: str, timeout: float = 10.0) -> float:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if text in self.screen():
                return time.monotonic() - started
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def alive(self) -> bool:
        return subprocess.run([TMUX, "-L", self.socket, "-f", os.devnull, "has-session", "-t", "t"],
                              capture_output=True, env=self.env).returncode == 0


@pytest.fixture
def term(tmp_path):
    env = {**os.environ, "TERM": "xterm-256color", "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
           "COLORTERM": ""}
    env.pop("TMUX", None)
    terminal = Terminal(f"wb-test-{os.getpid()}-{tmp_path.name}", env)
    yield terminal
    terminal.tmux("kill-server")


def test_the_demo_opens_at_80x24_with_all_four_panes_and_quits(term):
    term.start()
    term.wait_for("Timeline ·")
    screen = term.screen()
    for pane in ("Templates", "PromptList ·", "Final input ·", "Timeline ·", "sample 0 (1/"):
        assert pane in screen, screen
    term.keys("n")
    term.wait_for("sample 1 (2/")
    term.keys("q")
    deadline = time.monotonic() + 10
    while term.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not term.alive(), "q did not quit"


def test_an_edit_in_another_terminal_shows_up(term, tmp_path):
    workspace = tmp_path / "workspace"
    shutil.copytree(FIXTURE, workspace)
    term.start(str(workspace / "eval_fixture.py"))
    term.wait_for("Answer briefly.")
    target = workspace / "datasets" / "qa_gen.py"
    tmp = target.with_name(".qa_gen.py.tmp")
    tmp.write_text(target.read_text().replace("Answer briefly.", "Answer tersely."))
    os.replace(tmp, target)  # the way most editors save
    term.wait_for("Answer tersely.", timeout=5)
    target.write_text(target.read_text() + "\nbroken = (\n")
    term.wait_for("SyntaxError", timeout=5)
    assert "Answer tersely." in term.screen()  # the last good render stays
    target.write_text(target.read_text().replace("\nbroken = (\n", ""))
    term.wait_for("● live", timeout=5)


def test_a_hostile_row_cannot_drive_the_terminal(term, tmp_path):
    workspace = tmp_path / "workspace"
    shutil.copytree(FIXTURE, workspace)
    rows = workspace / "data" / "qa.jsonl"
    hostile = {"question": "X\x1b]0;pwned\x07\x1b[2J\x1b[31mRED\u202eevil", "answer": "ok"}
    rows.write_text(json.dumps(hostile) + "\n" + rows.read_text())
    term.start(str(workspace / "eval_fixture.py"), size=(120, 40))
    term.wait_for("␛[31mRED")
    screen = term.screen()
    assert "␛]0;pwned␇" in screen and "\\u202eevil" in screen
    assert "pwned" not in term.tmux("display-message", "-p", "-t", "t", "#{pane_title}")
