"""Processes, ports and patience for the serve tests (Linux: processes are read from /proc)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class Served:
    """A ``workbench serve`` of a test: its process, its port, what it printed, every process it started."""

    def __init__(self, proc: subprocess.Popen, port: int, log: Path) -> None:
        self.proc, self.port, self.log = proc, port, log
        self.seen: set[int] = set()  # every process ever seen below the server (apps, config workers)

    def apps(self) -> list[int]:
        """The live processes below the server now (remembered, to check later that they ended)."""
        found = descendants(self.proc.pid)
        self.seen.update(found)
        return found

    def app_roots(self) -> list[int]:
        """The server's own children: one per app it runs (what runs below an app, its config
        worker and the children that worker forks for a check, comes and goes on its own)."""
        return sorted(child for child, parent in _parents().items() if parent == self.proc.pid and alive(child))

    def left(self) -> list[int]:
        """Every process the server ever started (as far as seen) that still runs."""
        self.apps()
        return sorted(pid for pid in self.seen if alive(pid))

    def lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8", errors="replace").splitlines()

    def said(self, line: str) -> bool:
        return line in self.lines()


@contextmanager
def served(cwd: Path, *args: str) -> Iterator[Served]:
    """``workbench serve ARGS --port FREE`` in ``cwd`` until the block ends; nothing of it left after."""
    port = free_port()
    log = cwd / f"serve-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "workbench", "serve", *args, "--port", str(port)],
                                cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                env={**os.environ, "COLUMNS": "200"})
    server = Served(proc, port, log)
    try:
        if not wait_port(port, proc):
            raise AssertionError(f"workbench serve did not start: {log.read_text(errors='replace')}")
        yield server
    finally:
        left = server.left()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def websocket(port: int, *, origin: str | None, host: str | None = None, query: str = "width=100&height=30",
              then: Callable[[Any], Awaitable[Any]] | None = None) -> tuple[int, Any]:
    """Open the server's websocket as a page of ``origin`` would; (HTTP status, what ``then`` returned).

    ``then(ws)`` runs while the websocket is open (aiohttp's client); 101 means it was accepted.
    """
    import aiohttp  # the serve extra brings it

    headers = {"Origin": origin} if origin else {}
    if host:
        headers["Host"] = host

    async def talk() -> tuple[int, Any]:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(f"http://127.0.0.1:{port}/ws?{query}", headers=headers) as ws:
                    return 101, (await then(ws) if then is not None else None)
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status, None

    return asyncio.run(asyncio.wait_for(talk(), PATIENCE))


async def read_until(ws: Any, condition: Callable[[bytes], bool]) -> bytes:
    """The app's output on ``ws`` until ``condition`` holds for all of it (or the socket closes)."""
    import aiohttp

    got = b""
    async for message in ws:
        if message.type == aiohttp.WSMsgType.BINARY:
            got += message.data
            if condition(got):
                break
    return got
