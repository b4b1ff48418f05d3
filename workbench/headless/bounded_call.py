"""A pure function run on untrusted text in a forked child, bounded in time and memory.

Python's ``re`` holds the interpreter inside one C call and checks no signal there, so a pattern
that backtracks catastrophically over a model's output (a config's ``answer_pattern``, or a
framework pattern on hostile text) cannot be interrupted in-process. ``extract`` therefore runs
each pair in a child: the child reports progress (a line per sample started) and its JSON
answer over a pipe; past the time limit it is killed, and the last progress line says which
sample it was stuck on. Only JSON comes back, never a pickle.

May import: the standard library only (its callers hand it plain functions and data).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: The most a child's answer may be: far above any real pair's extraction (the predictions
#: themselves are read within 512 MiB), and the parent never holds more.
MAX_ANSWER = 1024**3


@dataclass
class Outcome:
    """``value`` the function's JSON answer; else ``failure`` (timed out, crashed, too big) and
    ``last_progress`` the last line the child reported before it."""

    value: Any = None
    failure: str | None = None
    last_progress: str | None = None


def run_bounded(function: Callable[[Callable[[str], None]], Any], timeout: float,
                memory_limit: int | None = 2 * 1024**3) -> Outcome:
    """``function(progress)`` in a forked child; ``progress(text)`` reports where it is. The child
    may map ``memory_limit`` bytes more than the parent maps at the fork."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: limits, run, answer, exit without cleanup
        code = 0
        try:
            os.close(read_fd)
            _limit_memory(memory_limit)
            out = os.fdopen(write_fd, "wb", buffering=1 << 16)

            def progress(text: str) -> None:  # unbuffered: the parent must see it before a hang
                _write_all(write_fd, b"P" + text[:200].replace("\n", " ").encode("utf-8", "replace") + b"\n")

            try:
                answer = json.dumps({"ok": function(progress)}, ensure_ascii=True, allow_nan=True)
            except MemoryError:
                answer = json.dumps({"crash": "ran out of memory"})
            except BaseException as exc:  # reported to the parent as a value, never a traceback
                answer = json.dumps({"crash": f"{type(exc).__name__}: {exc}"})
            out.write(b"R" + answer.encode("ascii") + b"\n")
            out.flush()
        except BaseException:
            code = 70
        os._exit(code)
    os.close(write_fd)
    return _collect(pid, read_fd, timeout)


def run_bounded_each(jobs: Sequence[Callable[[], Any]], timeout: float,
                     memory_limit: int | None = 2 * 1024**3) -> list[Outcome]:
    """Each of ``jobs`` bounded as ``run_bounded`` bounds one, ``timeout`` seconds each, in as few
    forked children as they allow: one child runs them in order and answers each as it ends; a
    job that runs past its time or takes its child down is that job's failure, and a new child
    goes on with the next. (A child per job cost a render of a whole suite ~290 forks.)"""
    outcomes: list[Outcome | None] = [None] * len(jobs)
    start = 0
    while start < len(jobs):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.close(read_fd)
                _limit_memory(memory_limit)
                for index in range(start, len(jobs)):
                    try:
                        answer = json.dumps({"i": index, "ok": jobs[index]()}, ensure_ascii=True,
                                            allow_nan=True)
                    except MemoryError:
                        answer = json.dumps({"i": index, "crash": "ran out of memory"})
                    except BaseException as exc:  # reported as a value, never a traceback
                        answer = json.dumps({"i": index, "crash": f"{type(exc).__name__}: {exc}"})
                    _write_all(write_fd, answer.encode("ascii") + b"\n")
            except BaseException:
                code = 70
            os._exit(code)
        os.close(write_fd)
        start = _collect_each(pid, read_fd, timeout, start, outcomes)
    return [outcome if outcome is not None else Outcome(failure="not run") for outcome in outcomes]


def _collect_each(pid: int, fd: int, timeout: float, start: int, outcomes: list[Outcome | None]) -> int:
    """Read a ``run_bounded_each`` child's answers into ``outcomes``; the index to go on from."""
    current, pending, failure = start, b"", None
    deadline = time.monotonic() + timeout
    try:
        while current < len(outcomes):
            data = _read_before(fd, deadline)
            if data is None:
                failure = f"ran past {timeout:g} s"
                break
            if not data:
                failure = "the child ended without an answer (killed, or out of memory)"
                break
            pending += data
            if len(pending) > MAX_ANSWER:
                failure = "answered more than 1 GiB"
                break
            while (end := pending.find(b"\n")) >= 0:
                line, pending = pending[:end], pending[end + 1:]
                value = json.loads(line)
                outcomes[current] = (Outcome(failure=value["crash"]) if "crash" in value
                                     else Outcome(value=value["ok"]))
                current += 1
                deadline = time.monotonic() + timeout
    finally:
        os.close(fd)
        _kill(pid)
        _reap(pid)
    if failure is not None and current < len(outcomes):
        outcomes[current] = Outcome(failure=failure)
        current += 1
    return current


def _read_before(fd: int, deadline: float) -> bytes | None:
    """What the child wrote next (``b""``: it closed its end), or None once ``deadline`` passed."""
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            return os.read(fd, 1 << 16)
    return None


def _limit_memory(memory_limit: int | None) -> None:
    """In a child: at most ``memory_limit`` bytes mapped on top of what the fork already maps."""
    if memory_limit:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = _mapped() + memory_limit
        if hard == resource.RLIM_INFINITY or limit <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _collect(pid: int, fd: int, timeout: float) -> Outcome:
    deadline = time.monotonic() + timeout
    answer = bytearray()
    in_answer = False
    last: str | None = None
    pending = b""
    failure = None
    try:
        while True:
            data = _read_before(fd, deadline)
            if data is None:
                failure = f"ran past {timeout:g} s"
                break
            if not data:
                break
            if in_answer:
                answer += data
            else:
                pending += data
                while pending:
                    if pending.startswith(b"R"):  # the answer: everything from here on
                        in_answer = True
                        answer += pending[1:]
                        pending = b""
                        break
                    end = pending.find(b"\n")
                    if end < 0:
                        break
                    line, pending = pending[:end], pending[end + 1:]
                    last = line[1:].decode("utf-8", "replace")
            if len(answer) > MAX_ANSWER:
                failure = "answered more than 1 GiB"
                break
    finally:
        os.close(fd)
        if failure is not None:
            _kill(pid)
        _reap(pid)
    if failure is not None:
        return Outcome(failure=failure, last_progress=last)
    if not in_answer:
        return Outcome(failure="the child ended without an answer (killed, or out of memory)",
                       last_progress=last)
    value = json.loads(bytes(answer))
    if "crash" in value:
        return Outcome(failure=value["crash"], last_progress=last)
    return Outcome(value=value["ok"], last_progress=last)


def _mapped() -> int:
    """The address space this process maps now (0 where /proc does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
