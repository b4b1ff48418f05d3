"""Processes, ports and patience for the serve tests (Linux: processes are read from /proc)."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

PATIENCE = 60.0  # seconds to wait for something that should happen (not a speed budget)


def wait_for(condition: Callable[[], bool], patience: float = PATIENCE,
             sleep: Callable[[float], object] = time.sleep) -> bool:
    """Poll ``condition`` until it holds; False if it never did within ``patience``.

    ``sleep``: how to wait between looks (Playwright's sync API delivers events only while
    one of its own calls waits, so browser tests pass ``lambda s: page.wait_for_timeout(s * 1000)``).
    """
    end = time.monotonic() + patience
    while True:
        if condition():
            return True
        if time.monotonic() > end:
            return False
        sleep(0.1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen) -> bool:
    """Until the server accepts connections (False if it exits first or never does)."""

    def accepting() -> bool:
        if proc.poll() is not None:
            return True
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            return False

    return wait_for(accepting) and proc.poll() is None


def _parents() -> dict[int, int]:
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":  # a zombie has ended; only its parent's wait is missing
            out[int(entry.name)] = int(fields[1])
    return out


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid``."""
    parents = _parents()
    found: list[int] = []
    frontier = [pid]
    while frontier:
        current = frontier.pop()
        children = [child for child, parent in parents.items() if parent == current]
        found += children
        frontier += children
    return sorted(found)
