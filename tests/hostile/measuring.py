"""The hostile suite's command run as ``helpers.run`` runs it, with what it cost: CPU seconds and
peak memory, read from the kernel when the command is reaped (``os.wait4``).

Costs are compared within one test, against a baseline run of the same command on a smaller
input, never against a fixed number of seconds: CPU time, unlike the clock, does not grow when
other work shares the machine.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .helpers import MEMORY, TIMEOUT, Done, _limits


@dataclass
class Measured(Done):
    cpu: float  # seconds, user and system, of the command and every process it reaped
    peak: int  # bytes: the largest resident set among them


def measured(*args: str, cwd: Path, memory: int = MEMORY, timeout: float = TIMEOUT) -> Measured:
    """``workbench ARGS`` in ``cwd``, bounded as ``helpers.run`` bounds it, and measured."""
    environment = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    environment.pop("WORKBENCH_DEBUG_WORKER", None)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "workbench", *args], cwd=cwd, env=environment,
            stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True,
            preexec_fn=lambda: _limits(memory),
        )
        end = time.monotonic() + timeout
        while True:  # (os.wait4 has no timeout: polled, and the session killed past it)
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > end:
                os.killpg(process.pid, signal.SIGKILL)
                os.wait4(process.pid, 0)
                process.returncode = -signal.SIGKILL
                raise subprocess.TimeoutExpired(args, timeout)
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(process.returncode, out.read().decode("utf-8", "replace"),
                        err.read().decode("utf-8", "replace"), usage.ru_utime + usage.ru_stime,
                        usage.ru_maxrss * 1024)
