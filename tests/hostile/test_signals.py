"""Signals and process groups: a config cannot kill the workbench, and leaves no process behind.

Each load runs in a process group of its own (in the worker's own session), so the
common cleanup line ``os.killpg(os.getpgid(0), SIGTERM)`` reaches only the load; every
process a config starts is killed when its load ends.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from workbench.loading.workspace import Loader

from .helpers import GOOD_CONFIG, alive, gone_soon, needs_fork, needs_proc, run, write

pytestmark = [needs_fork, needs_proc]

KILLERS = [
    ("import os, signal\n\nos.killpg(os.getpgid(0), signal.SIGTERM)\ndatasets = []\n",
     "the config sent SIGTERM to its own process group (os.killpg), which ended its load"),
    ("import os, signal\n\nos.killpg(0, signal.SIGKILL)\ndatasets = []\n",
     "the config sent SIGKILL to its own process group (os.killpg), which ended its load"),
    ("import os, signal\n\nos.kill(0, signal.SIGKILL)\ndatasets = []\n",
     "the config sent SIGKILL to its own process group (os.kill), which ended its load"),
    ("import os, signal\n\nos.kill(os.getpid(), signal.SIGTERM)\ndatasets = []\n",
     "the config sent SIGTERM to its own process (os.kill), which ended its load"),
]
HINT = "(hint: the workbench is fine: each load runs in a process group of its own; remove the call)"


@pytest.mark.parametrize(("source", "message"), KILLERS, ids=["killpg-getpgid-term", "killpg-0-kill",
                                                               "kill-0-kill", "kill-self-term"])
def test_a_config_that_signals_its_group_ends_only_its_own_load(ws, source, message):
    write(ws / "killer.py", source)
    done = run("render", "killer.py", "good.py", "--data", "rows.jsonl", "-f", "text", cwd=ws)
    assert done.code == 3, done.err  # not -15 or -9: the command itself survived
    assert f"{ws / 'killer.py'}:3: {message} {HINT}" in done.lines
    assert "Q: What is 2+2?" in done.out  # and went on to render the good config


SLEEPER = """\
import os, time

pid = os.fork()
if pid == 0:
    time.sleep(300)
    os._exit(0)
open('child.pid', 'w').write(str(pid))
datasets = []
"""

DAEMON = """\
import os, time

first = os.fork()
if first == 0:
    os.setsid()  # leaves the load's process group and session
    pid = os.fork()
    if pid:
        open('child.pid', 'w').write(str(pid))
        os._exit(0)
    time.sleep(300)
    os._exit(0)
os.waitpid(first, 0)  # the daemon runs and its pid is written (a fixed sleep could end first)
datasets = []
"""


@pytest.mark.parametrize("source", [SLEEPER, DAEMON], ids=["sleeping-child", "setsid-daemon"])
def test_processes_a_config_starts_do_not_outlive_its_load(tmp_path, source):
    config = write(tmp_path / "spawner.py", source)
    good = write(tmp_path / "good.py", GOOD_CONFIG)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with Loader() as loader:
            workspace = loader.load([config])
            child = int((tmp_path / "child.pid").read_text())
            assert gone_soon(child, 2.0), f"the config's process {child} outlived its load"
            assert not workspace.errors
            assert not loader.load([good]).errors  # the worker is fine
            worker = loader.worker_pid
        assert worker is not None and gone_soon(worker)
    finally:
        os.chdir(cwd)


def test_the_cli_leaves_no_process_behind(ws):
    write(ws / "spawner.py", SLEEPER)
    done = run("render", "spawner.py", "good.py", "--data", "rows.jsonl", "-f", "text", cwd=ws)
    assert done.code == 0, done.err
    child = int((ws / "child.pid").read_text())
    assert not alive(child)


def test_a_config_that_kills_the_worker_is_reported_and_the_next_load_works(tmp_path):
    config = write(tmp_path / "parricide.py", textwrap.dedent("""\
        import os, signal
        os.kill(os.getppid(), signal.SIGKILL)
        datasets = []
    """))
    with Loader() as loader:
        (error,) = loader.load([config]).errors
        assert error.message == "the config worker stopped answering; it has been restarted"
        assert error.file == str(config)
        assert not loader.load([write(tmp_path / "good.py", GOOD_CONFIG)]).errors


def test_the_worker_runs_in_a_session_of_its_own(tmp_path):
    with Loader() as loader:
        loader.load([write(tmp_path / "good.py", GOOD_CONFIG)])
        worker = loader.worker_pid
        assert worker is not None
        assert os.getsid(worker) == worker and os.getpgid(worker) == worker
        assert os.getpgid(worker) != os.getpgid(0)


def test_a_load_runs_in_a_group_of_its_own(tmp_path):
    config = write(tmp_path / "groups.py", textwrap.dedent("""\
        import os
        open('groups.txt', 'w').write(f"{os.getpid()} {os.getpgid(0)} {os.getsid(0)} {os.getppid()}")
        datasets = []
    """))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with Loader() as loader:
            assert not loader.load([config]).errors
            pid, group, session, parent = map(int, Path("groups.txt").read_text().split())
            assert group == pid  # it leads its own group...
            assert session == parent == loader.worker_pid  # ...inside the worker's session
    finally:
        os.chdir(cwd)
