"""Python configs run in a warm worker process, each load in a fresh fork of it.

A config is code: it may loop forever, exhaust memory, call ``sys.exit`` or
``os._exit``, or crash the interpreter.  None of that may take the workbench down.

* The *worker* is one long-lived process (started on first use, restarted if it dies)
  that has already imported the loader, so a load costs a ``fork`` rather than an
  interpreter start.  The parent talks to it over its stdin/stdout pipes.
* Each load runs in a *child* forked from the worker: a clean copy every time (nothing a
  config does to module state leaks into the next load), with an address-space limit
  (``RLIMIT_AS``), a CPU-time backstop, and an alarm at the time limit that stops the
  config where it is, so the error names the line it was stuck on.  A child that does
  not answer by then is killed; the worker reaps every child it forks.
* Only plain data comes back (:mod:`workbench.loading.plain`), never a pickle.

Frames on every pipe: one kind byte, a 4-byte big-endian length, the payload.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from . import plain

DEFAULT_TIMEOUT = 10.0
DEFAULT_MEMORY_LIMIT = 2 * 1024**3
GRACE = 1.0  # past the time limit, before the worker kills a child that ignores its alarm
PARENT_GRACE = 4.0  # past that, before the parent gives up on the worker itself
START_TIMEOUT = 20.0
MAX_FRAME = 1 << 31

LOAD, RESULT, PROGRESS, PING, PONG, CANCEL = b"L", b"R", b"P", b"?", b"!", b"C"
_HEADER = struct.Struct(">cI")


class WorkerUnavailable(RuntimeError):
    """This platform cannot fork a worker (the loader then runs configs in-process)."""


def available() -> bool:
    return hasattr(os, "fork") and sys.platform != "win32"


# -- framing ------------------------------------------------------------------------------

def _write_frame(fd: int, kind: bytes, payload: bytes, _write=os.write) -> None:
    # os.write bound at import: a config that patches the os module cannot mute its answer
    data = _HEADER.pack(kind, len(payload)) + payload
    view = memoryview(data)
    while view:
        written = _write(fd, view)
        view = view[written:]


class _FrameReader:
    """Frames from a file descriptor, with an optional deadline."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.eof = False

    def _fill(self, deadline: float | None) -> bool:
        """Read what is there; False when the deadline passed first."""
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                return False
        chunk = os.read(self.fd, 1 << 20)
        if not chunk:
            self.eof = True
        self.buffer += chunk
        return True

    def frame(self) -> tuple[bytes, bytes] | None:
        """A complete frame from what has been read, if there is one."""
        if len(self.buffer) < _HEADER.size:
            return None
        kind, length = _HEADER.unpack_from(self.buffer)
        if len(self.buffer) < _HEADER.size + length:
            return None
        payload = bytes(self.buffer[_HEADER.size:_HEADER.size + length])
        del self.buffer[:_HEADER.size + length]
        return kind, payload

    def read(self, deadline: float | None = None) -> tuple[bytes, bytes] | None:
        """The next frame; None on end of file or when the deadline passes."""
        while True:
            got = self.frame()
            if got is not None:
                return got
            if self.eof or not self._fill(deadline):
                return None


# -- the worker process -------------------------------------------------------------------

def _error(message: str, file: str | None, line: int | None = None, hint: str | None = None) -> dict:
    return {"message": message, "file": file, "line": line, "hint": hint}


def _failed(request: dict, error: dict, files: list[str] | None = None) -> bytes:
    return plain.dumps({"path": request["path"], "files": files or [], "error": error,
                        "datasets": [], "models": [], "warnings": []})


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, number)


def _read_quiet(fd: int, first: float, quiet: float) -> str:
    """What arrives on a pipe: waits up to ``first`` for data, then until ``quiet`` passes
    with nothing new (a faulthandler dump comes in several writes)."""
    chunks = []
    wait = first
    while True:
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
        wait = quiet
    return b"".join(chunks).decode("utf-8", "replace")


_FRAME = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+) in ', re.MULTILINE)


def _innermost_config_frame(stack: str, configs: list[str]) -> tuple[str, int] | None:
    """From a faulthandler dump (most recent call first): the first frame in a config."""
    known = set(configs)
    for match in _FRAME.finditer(stack):
        if match.group("file") in known:
            return match.group("file"), int(match.group("line"))
    return None


def _exit_line(file: str | None) -> int | None:
    """Where a file calls os._exit / abort / kill, when a child died without a word."""
    if not file:
        return None
    try:
        tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("_exit", "abort", "kill", "killpg", "raise_signal"):
                return node.lineno
    return None


def _child(request: dict, fd: int, fault_fd: int) -> None:
    """In the forked child: limits, alarm, load, answer; never returns."""
    code = 0
    try:
        import faulthandler
        import resource

        # a crash, or the worker's "where are you?" signal, writes the Python stack here
        faulthandler.enable(file=fault_fd, all_threads=True)
        faulthandler.register(signal.SIGUSR1, file=fault_fd, all_threads=True)

        from .config_file import load_config_file
        from .python_config import ConfigTimeout

        timeout = float(request["timeout"])
        memory = request.get("memory_limit")
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if memory:
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            limit = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        cpu = int(timeout + GRACE + 2)
        _, hard_cpu = resource.getrlimit(resource.RLIMIT_CPU)
        if hard_cpu == resource.RLIM_INFINITY or hard_cpu > cpu:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        os.chdir(request["cwd"])

        def alarm(signum: int, frame: Any) -> None:
            raise ConfigTimeout()

        def progress(path: str) -> None:
            _write_frame(fd, PROGRESS, path.encode("utf-8", "surrogateescape"))

        signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            result = load_config_file(request["path"], request["roots"], request["want_datasets"],
                                      timeout=timeout, memory_limit=memory, progress=progress)
            payload = plain.dumps(result)
        except ConfigTimeout:
            payload = _failed(request, _error(f"the config did not finish within {timeout:g} s",
                                              request["path"], hint="raise the limit with --timeout"))
        except MemoryError:
            payload = _failed(request, _error("the config ran out of memory", request["path"]))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        _write_frame(fd, RESULT, payload)
    except BaseException as exc:
        code = 70
        with contextlib.suppress(BaseException):
            _write_frame(fd, RESULT, _failed(request, _error(
                f"the loader failed: {type(exc).__name__}: {exc}", request.get("path"))))
    finally:
        os._exit(code)


def _run_request(request: dict, requests: _FrameReader) -> tuple[bytes, bool, list[str]]:
    """Fork a child for one load; (answer, whether the parent is still there, files read)."""
    read_fd, write_fd = os.pipe()
    fault_read, fault_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        os.close(fault_read)
        os.close(requests.fd)
        if _ANSWERS_FD is not None:
            os.close(_ANSWERS_FD)
        _child(request, write_fd, fault_write)
    os.close(write_fd)
    os.close(fault_write)
    configs: list[str] = []
    timeout = float(request["timeout"])
    deadline = time.monotonic() + timeout + GRACE
    reader = _FrameReader(read_fd)
    answer: bytes | None = None
    running: str | None = None
    outcome = "done"
    parent_alive = True
    try:
        while answer is None:
            got = reader.frame()
            if got is not None:
                kind, payload = got
                if kind == PROGRESS:
                    running = payload.decode("utf-8", "surrogateescape")
                    configs.append(running)
                elif kind == RESULT:
                    answer = payload
                continue
            if reader.eof:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                outcome = "timeout"
                break
            ready, _, _ = select.select([read_fd, requests.fd], [], [], remaining)
            if requests.fd in ready:
                message = requests.read()
                if message is None:
                    parent_alive = False
                    outcome = "cancelled"
                    break
                if message[0] == CANCEL:
                    outcome = "cancelled"
                    break
            if read_fd in ready:
                reader._fill(None)
    finally:
        stack = ""
        if answer is None:
            if outcome == "timeout":
                _signal(pid, signal.SIGUSR1)  # ask for the stack first
                stack = _read_quiet(fault_read, first=1.0, quiet=0.1)
            _signal(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        os.close(read_fd)
        stack += _read_quiet(fault_read, first=0.0, quiet=0.0)
        os.close(fault_read)
    if answer is not None:
        return answer, parent_alive, configs
    file = running or request["path"]
    line = None
    where = _innermost_config_frame(stack, configs)
    if where is not None:
        file, line = where
    if outcome == "timeout":
        error = _error(f"the config did not finish within {timeout:g} s", file, line,
                       hint="an endless loop in C code, or a config that ignores the alarm; "
                       "raise the limit with --timeout")
    elif outcome == "cancelled":
        error = _error("the load was cancelled", request["path"])
    elif os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        what = {"SIGKILL": "was killed (out of memory?)", "SIGXCPU": "used too much CPU time",
                "SIGSEGV": "crashed (segmentation fault)"}.get(name, f"was stopped by {name}")
        error = _error(f"the config's process {what}", file, line or _exit_line(file),
                       hint="the workbench is fine; fix the config and save to reload")
    else:
        code = os.WEXITSTATUS(status)
        error = _error(f"the config ended the loader process with exit status {code}", file,
                       line or _exit_line(file), hint="a config must not call os._exit(); remove the call")
    return _failed(request, error, [file] if file else []), parent_alive, configs


_ANSWERS_FD: int | None = None


def serve() -> None:
    """The worker's main loop: one frame in, one frame out, until stdin closes."""
    global _ANSWERS_FD
    requests_fd = os.dup(0)
    answers_fd = _ANSWERS_FD = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - a config's print goes nowhere
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # warm: what every load needs, and what configs commonly import
    from . import config_file, data_config, python_config  # noqa: F401
    for name in ("copy", "itertools", "functools", "collections", "math", "random", "string",
                 "os.path", "json", "tomllib", "yaml", "resource"):
        with contextlib.suppress(ImportError):
            __import__(name)
    requests = _FrameReader(requests_fd)
    while True:
        message = requests.read()
        if message is None:
            return
        kind, payload = message
        if kind == PING:
            _write_frame(answers_fd, PONG, payload)
        elif kind == LOAD:
            request = json.loads(payload)
            answer, parent_alive, files = _run_request(request, requests)
            if not parent_alive:
                return
            _write_frame(answers_fd, RESULT, answer)
            # parse and compile (never run) what this load read, so the next fork of this
            # worker starts with it: a reload re-reads only the files that changed
            python_config.precompile(files)


# -- the parent's side --------------------------------------------------------------------

def _shutdown(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    try:
        if proc.stdin:
            proc.stdin.close()
        proc.wait(2)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
    finally:
        if proc.stdout:
            proc.stdout.close()


class ConfigWorker:
    """The parent's handle on the worker: ``load()`` blocks until an answer or the limit.

    Thread-safe (one load at a time); ``cancel()`` may be called from another thread.
    """

    def __init__(self, memory_limit: int | None = DEFAULT_MEMORY_LIMIT) -> None:
        if not available():
            raise WorkerUnavailable("this platform cannot fork a config worker")
        self.memory_limit = memory_limit
        self._proc: subprocess.Popen | None = None
        self._reader: _FrameReader | None = None
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._finalizer: weakref.finalize | None = None
        self.starts = 0

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc and self._proc.poll() is None else None

    def _start(self) -> None:
        # the parent's import path (editable installs, user site...), minus the working
        # directory, whose files must not shadow the standard library a config imports
        path = [p for p in sys.path if p not in ("", ".")]
        path.insert(0, str(Path(__file__).resolve().parents[2]))
        boot = (f"import sys; sys.path[:] = {path!r}; "
                "from workbench.loading.worker import serve; serve()")
        stderr = None if os.environ.get("WORKBENCH_DEBUG_WORKER") else subprocess.DEVNULL
        self._proc = subprocess.Popen(
            [sys.executable, "-P", "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=stderr, bufsize=0, close_fds=True,
        )
        self._reader = _FrameReader(self._proc.stdout.fileno())  # type: ignore[union-attr]
        self._finalizer = weakref.finalize(self, _shutdown, self._proc)
        self.starts += 1

    def _kill(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            for pipe in (self._proc.stdin, self._proc.stdout):
                if pipe:
                    pipe.close()
        if self._finalizer is not None:
            self._finalizer.detach()
        self._proc = None
        self._reader = None

    def _send(self, kind: bytes, payload: bytes) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        with self._write_lock:
            _write_frame(self._proc.stdin.fileno(), kind, payload)

    def load(self, path: str, roots: list[str], want_datasets: bool = True,
             timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """One config file's result (see ``load_config_file``); errors come back as data."""
        timeout = max(float(timeout), 0.05)  # 0 would switch the alarm off
        request = {"path": path, "roots": roots, "want_datasets": want_datasets,
                   "timeout": timeout, "memory_limit": self.memory_limit, "cwd": os.getcwd()}
        with self._lock:
            fresh = self._proc is None or self._proc.poll() is not None
            if fresh:
                self._kill()
                self._start()
            deadline = time.monotonic() + timeout + GRACE + PARENT_GRACE + (START_TIMEOUT if fresh else 0)
            try:
                self._send(LOAD, json.dumps(request).encode("utf-8"))
                got = self._reader.read(deadline)  # type: ignore[union-attr]
            except OSError:
                got = None
            if got is None or got[0] != RESULT:
                self._kill()
                return plain.loads(_failed(request, _error(
                    "the config worker stopped answering; it has been restarted", path,
                    hint="try again; if it persists, run with WORKBENCH_DEBUG_WORKER=1")))
            try:
                return plain.loads(got[1])
            except (ValueError, TypeError, KeyError):
                return plain.loads(_failed(request, _error("the config worker sent malformed data",
                                                           path)))

    def cancel(self) -> None:
        """Stop the load that is running (its answer is then a 'cancelled' error)."""
        if self._proc is not None and self._proc.poll() is None:
            with contextlib.suppress(OSError):
                self._send(CANCEL, b"")

    def ping(self, timeout: float = START_TIMEOUT) -> bool:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._kill()
                self._start()
            try:
                self._send(PING, b"ok")
                got = self._reader.read(time.monotonic() + timeout)  # type: ignore[union-attr]
            except OSError:
                return False
            return got == (PONG, b"ok")

    def close(self) -> None:
        with self._lock:
            if self._finalizer is not None:
                self._finalizer()
                self._finalizer = None
            self._proc = None
            self._reader = None

    def __enter__(self) -> ConfigWorker:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


_prestarted: ConfigWorker | None = None
_prestart_lock = threading.Lock()


def prestart(memory_limit: int | None = DEFAULT_MEMORY_LIMIT) -> None:
    """Start the config worker now, so its interpreter boots while this one imports the rest.

    A command calls this first thing; the Loader then adopts the running worker instead of
    starting one when the first config is loaded.
    """
    global _prestarted
    if not available():
        return
    with _prestart_lock:
        if _prestarted is None:
            started = ConfigWorker(memory_limit)
            with started._lock:
                started._start()
            _prestarted = started


def adopt_prestarted(memory_limit: int | None) -> ConfigWorker | None:
    """The worker ``prestart`` began, if it was started with these limits (once)."""
    global _prestarted
    with _prestart_lock:
        found, _prestarted = _prestarted, None
    if found is not None and found.memory_limit != memory_limit:
        found.close()
        return None
    return found

