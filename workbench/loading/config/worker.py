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
* Each child leads a process group of its own, inside the worker's own session: a config
  that signals "its" group (``os.killpg(0, ...)``, the common cleanup line) reaches only
  itself, never the workbench or the shell, and every process a config starts is killed
  when its load ends (the worker is their subreaper, so even a daemon that left the group
  is found).
* Only plain data comes back (:mod:`workbench.loading.config.plain_data`), never a pickle, and at most
  ``MAX_RESULT_BYTES`` of it: a config that returns more is a located error.
* An lm-eval task's code (its ``!function`` utilities and Jinja over its docs) runs the same
  way: ``ConfigWorker.run_task`` sends a request of kind ``lmeval_task``, which the child hands to
  :mod:`.lmeval_child` instead of the config loader.
* A dataset's extraction self-test (PW213, for the app's tree) the same way:
  ``ConfigWorker.self_test`` sends a request of kind ``self_test`` (the configs and the few rows
  the checks read, as plain data), which the child hands to :mod:`.self_test_child`.

Frames on every pipe: one kind byte, a 4-byte big-endian length, the payload.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core.errors import WorkbenchError
from . import answers, plain_data

DEFAULT_TIMEOUT = 10.0
DEFAULT_MEMORY_LIMIT = 2 * 1024**3
PRUNE_EVERY = 200  # loads between two prunings of the code cache (the first load prunes too)
GRACE = 1.0  # past the time limit, before the worker kills a child that ignores its alarm
PARENT_GRACE = 4.0  # past that, before the parent gives up on the worker itself
START_TIMEOUT = 20.0
#: The most one config file may hand back (its datasets and models as plain JSON): far above
#: any real config tree, far below what would strain the workbench's own memory.
MAX_RESULT_BYTES = 64 * 1024**2
#: The longest frame a pipe reader accepts (the result plus its file list and warnings).
MAX_FRAME = MAX_RESULT_BYTES + 8 * 1024**2
#: A request's ``kind`` for an lm-eval task (:mod:`.lmeval_child`); a config load has none.
LMEVAL_TASK = "lmeval_task"
#: A request's ``kind`` for a dataset's extraction self-test (:mod:`.self_test_child`).
SELF_TEST = "self_test"
#: Exit status of a child whose answer pipe was closed under it (by the config).
_PIPE_CLOSED = 71

LOAD, RESULT, PROGRESS, PING, PONG, CANCEL, SIGNALLED = b"L", b"R", b"P", b"?", b"!", b"C", b"S"
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
    """Frames from a file descriptor, with an optional deadline.

    A frame announced longer than ``limit`` is never buffered: the reader stops there
    (``oversized`` is set and it reads as end of file), so a writer cannot make it hold more.
    """

    def __init__(self, fd: int, limit: int = MAX_FRAME) -> None:
        self.fd = fd
        self.limit = limit
        self.buffer = bytearray()
        self.eof = False
        self.oversized = False

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
        if length > self.limit:
            self.oversized = self.eof = True
            self.buffer.clear()
            return None
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
    return plain_data.dumps({"path": request["path"], "files": files or [], "error": error,
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


def _call_line(file: str | None, names: tuple[str, ...]) -> int | None:
    """Where a file calls one of ``names`` (``os._exit``, ``closerange``...), when a child
    died without a word."""
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
            if name in names:
                return node.lineno
    return None


def _exit_line(file: str | None) -> int | None:
    return _call_line(file, ("_exit", "abort", "kill", "killpg", "raise_signal"))


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _watch_signals(fd: int, configs: list[str]) -> None:
    """Tell the worker, before it happens, where a config sends a signal (``os.kill``,
    ``os.killpg``): if the child then dies of it, the error says who sent it and from where.

    The two functions are wrapped in the child (``os`` and ``posix`` alike), not watched with
    an audit hook: a hook is called for every audited event, and ``id()`` is one, tens of
    thousands of times per load of a suite (the executor tracks each dict by its id)."""
    own = os.getpid()

    def note(event: str, target: Any, number: Any) -> None:
        if not isinstance(number, int) or number == 0:
            return
        frame: Any = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename not in configs:
            frame = frame.f_back
        if frame is None:
            return
        if event == "os.kill" and target == own:
            what = "its own process"
        elif target in ((0, -own) if event == "os.kill" else (0, own)):
            what = "its own process group"  # a child leads its group: its pgid is its pid
        else:
            return
        said = {"file": frame.f_code.co_filename, "line": frame.f_lineno, "call": event,
                "signal": number, "what": what}
        with contextlib.suppress(OSError):
            _write_frame(fd, SIGNALLED, json.dumps(said).encode("utf-8", "surrogateescape"))

    def watched(event: str, real: Any) -> Any:
        def send(target: Any, number: Any, /) -> Any:
            note(event, target, number)
            return real(target, number)

        send.__name__ = send.__qualname__ = real.__name__
        send.__doc__ = real.__doc__
        return send

    # lazy: the child only; ``os.kill`` is ``posix.kill``, and a config may import either
    import posix

    for name, event in (("kill", "os.kill"), ("killpg", "os.killpg")):
        real = getattr(posix, name, None)
        if real is not None:
            wrapped = watched(event, real)
            setattr(posix, name, wrapped)
            setattr(os, name, wrapped)


def _located_overflow(request: dict, result: dict, sizes: list[tuple[int, str, dict]]) -> bytes:
    """The error for a result over ``MAX_RESULT_BYTES``, at the largest entry seen."""
    limit = MAX_RESULT_BYTES // 1024**2
    if not sizes:
        return _failed(request, _error(
            f"the config's answer (its warnings and file list) is larger than {limit} MiB",
            request["path"]), result.get("files"))
    size, kind, entry = max(sizes, key=lambda item: item[0])
    cfg = entry.get("cfg")
    abbr = cfg.get("abbr") if isinstance(cfg, dict) else None
    name = f"{kind} {abbr!r}" if isinstance(abbr, str) else f"a {kind}"
    return _failed(request, _error(
        f"the config returns more than {limit} MiB of datasets and models ({name} alone is "
        f"{size / 1024**2:.1f} MiB); the workbench takes at most {limit} MiB from one config",
        entry.get("file") or request["path"], entry.get("line"),
        hint="keep sample rows in data files (--data FILE), not in the config"), result.get("files"))


def _wire_size(entry: Any) -> int:
    try:
        return len(plain_data.dumps(entry))
    except MemoryError:
        return MAX_FRAME + 1


#: The last complete answer to each request (``answers.request_key``), kept by the worker
#: between loads: a child, forked with it, sends only the entries that differ from it.
_KEPT: dict[str, answers.Kept] = {}


def _answer(request: dict, result: dict) -> bytes:
    """The result as a frame's payload (entries the parent already holds as ``{"same": N}``),
    or a located error when it is too large to send."""
    kept = _KEPT.get(answers.request_key(request))
    if kept is not None and kept.id != request.get("have"):
        kept = None  # the parent holds another answer (or none): send every entry
    sent, sizes = answers.reuse(result, kept, _wire_size)
    total = 0
    for n, (size, _, _) in enumerate(sizes):
        total += size
        if total > MAX_RESULT_BYTES:
            return _located_overflow(request, result, sizes[:n + 1])
    payload = plain_data.dumps(sent)
    if len(payload) > MAX_FRAME:
        return _located_overflow(request, result, [])
    return payload


def _child(request: dict, fd: int, fault_fd: int) -> None:
    """In the forked child: limits, alarm, load, answer; never returns."""
    code = 0
    try:
        # lazy: only the forked child sets limits; the parent importing this module never does
        import faulthandler
        import resource

        # a crash, or the worker's "where are you?" signal, writes the Python stack here
        faulthandler.enable(file=fault_fd, all_threads=True)
        faulthandler.register(signal.SIGUSR1, file=fault_fd, all_threads=True)

        # lazy: warm in the worker (serve); render imports this module early to prestart it
        from . import analysis
        from .code_cache import CodeCache
        from .config_file import load_config_file
        from .executor import ConfigTimeout

        folder = request.get("code_cache")
        analysis.disk_cache = CodeCache(folder) if isinstance(folder, str) else None

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
        configs: list[str] = []
        _watch_signals(fd, configs)

        def alarm(signum: int, frame: Any) -> None:
            raise ConfigTimeout()

        def progress(path: str) -> None:
            configs.append(path)
            _write_frame(fd, PROGRESS, path.encode("utf-8", "surrogateescape"))

        signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            if request.get("kind") == LMEVAL_TASK:
                # lazy: only an lm-eval task's load needs it
                from . import lmeval_child

                payload = plain_data.dumps(lmeval_child.run(request, progress))
                if len(payload) > MAX_FRAME:
                    payload = _failed(request, _error("the task's docs are too large to send back",
                                                      request["path"]))
            elif request.get("kind") == SELF_TEST:
                # lazy: only a self-test needs it
                from . import self_test_child

                payload = plain_data.dumps(self_test_child.run(request))
            else:
                result = load_config_file(request["path"], request["roots"], request["want_datasets"],
                                          timeout=timeout, memory_limit=memory, progress=progress)
                payload = _answer(request, result)
        except ConfigTimeout:
            payload = _failed(request, _error(f"the config did not finish within {timeout:g} s",
                                              request["path"], hint="raise the limit with --timeout"))
        except MemoryError:
            payload = _failed(request, _error("the config ran out of memory", request["path"]))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            _write_frame(fd, RESULT, payload)
        except OSError:
            code = _PIPE_CLOSED  # the config closed (or replaced) the pipe the answer goes to
    except BaseException as exc:
        code = 70
        with contextlib.suppress(BaseException):
            _write_frame(fd, RESULT, _failed(request, _error(
                f"the loader failed: {type(exc).__name__}: {exc}", request.get("path"))))
    finally:
        os._exit(code)


def _wait_child(pid: int, seconds: float) -> int | None:
    """The child's status once it has exited by itself, or None if it has not within ``seconds``."""
    end = time.monotonic() + max(seconds, 0.0)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() >= end:
            return None
        time.sleep(0.005)


def _kill_group(pgid: int) -> None:
    """Every process still in a load's group: what the config started and left running."""
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)


def _reap_strays() -> None:
    """Processes a config started that left its group (a daemon's ``setsid``): the worker is
    their subreaper, so they are its children now; kill and reap them all (between loads
    the worker has no child of its own)."""
    try:
        children = [int(pid) for task in Path(f"/proc/{os.getpid()}/task").iterdir()
                    for pid in (task / "children").read_text().split()]
    except (OSError, ValueError):
        children = []
    for pid in children:
        _signal(pid, signal.SIGKILL)
    for pid in children:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    while True:  # strays that ended by themselves since
        try:
            done, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not done:
            return


def _become_subreaper() -> None:
    """Orphans of a config's processes are re-parented to the worker, not to init (Linux)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        # lazy: Linux only, once per worker
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def _run_request(request: dict, requests: _FrameReader) -> tuple[bytes, bool, list[str]]:
    """Fork a child for one load; (answer, whether the parent is still there, files read)."""
    read_fd, write_fd = os.pipe()
    fault_read, fault_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)  # a group of its own: killpg(0) in a config reaches only the load
        os.close(read_fd)
        os.close(fault_read)
        os.close(requests.fd)
        if _ANSWERS_FD is not None:
            os.close(_ANSWERS_FD)
        _child(request, write_fd, fault_write)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also here: whichever runs first, the group exists before any signal
    os.close(write_fd)
    os.close(fault_write)
    configs: list[str] = []
    timeout = float(request["timeout"])
    deadline = time.monotonic() + timeout + GRACE
    reader = _FrameReader(read_fd)
    answer: bytes | None = None
    running: str | None = None
    signalled: dict | None = None
    outcome = "done"
    parent_alive = True
    status: int | None = None
    try:
        while answer is None:
            got = reader.frame()
            if got is not None:
                kind, payload = got
                if kind == PROGRESS:
                    running = payload.decode("utf-8", "surrogateescape")
                    configs.append(running)
                elif kind == SIGNALLED:
                    with contextlib.suppress(ValueError):
                        signalled = json.loads(payload.decode("utf-8", "surrogateescape"))
                elif kind == RESULT:
                    answer = payload
                continue
            if reader.eof:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                outcome = "timeout"
                break
            message = requests.frame()  # (a cancel sent right behind the load was read with it)
            ready: list[int] = []
            if message is None:
                ready, _, _ = select.select([read_fd, requests.fd], [], [], remaining)
                if requests.fd in ready:
                    message = requests.read()
                    if message is None:
                        parent_alive = False
                        outcome = "cancelled"
                        break
            if message is not None and message[0] == CANCEL \
                    and message[1] == str(request.get("id")).encode("ascii"):
                outcome = "cancelled"
                break  # (a cancel naming another request came after that one ended)
            if read_fd in ready:
                reader._fill(None)
    finally:
        stack = ""
        if answer is None:
            if outcome == "timeout":
                _signal(pid, signal.SIGUSR1)  # ask for the stack first
                stack = _read_quiet(fault_read, first=1.0, quiet=0.1)
            elif outcome == "done" and not reader.oversized:
                # the pipe closed without an answer: let the child end by itself, so its
                # status says what happened (an exit, a signal) rather than our SIGKILL
                status = _wait_child(pid, min(deadline - time.monotonic(), 2.0))
            if status is None:
                _signal(pid, signal.SIGKILL)
        _kill_group(pid)
        if status is None:
            _, status = os.waitpid(pid, 0)
        _reap_strays()
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
    if outcome == "timeout" and request.get("kind") == SELF_TEST:
        error = _error(f"the self-test ran past {timeout:g} s", file, None,
                       hint="a pattern that backtracks in C code ignores the alarm")
    elif outcome == "timeout":
        error = _error(f"the config did not finish within {timeout:g} s", file, line,
                       hint="an endless loop in C code, or a config that ignores the alarm; "
                       "raise the limit with --timeout")
    elif outcome == "cancelled":
        error = _error("the load was cancelled", request["path"])
    elif reader.oversized:
        error = _error(f"the config's process sent more than {MAX_FRAME // 1024**2} MiB at once",
                       file, line, hint="a config must not write to the workbench's pipes")
    elif os.WIFSIGNALED(status):
        error = _killed(os.WTERMSIG(status), signalled, file, line)
    else:
        code = os.WEXITSTATUS(status)
        if code in (_PIPE_CLOSED, 0):  # 0: the answer was written, but not to the pipe
            error = _error("the config closed or replaced the pipe the loader answers on, so no answer "
                           "came back",
                           file, line or _call_line(file, ("closerange", "close", "dup2")),
                           hint="a config must not close file descriptors it did not open")
        else:
            error = _error(f"the config ended the loader process with exit status {code}", file,
                           line or _exit_line(file),
                           hint="a config must not call os._exit(); remove the call")
    return _failed(request, error, [file] if file else []), parent_alive, configs


def _killed(number: int, signalled: dict | None, file: str, line: int | None) -> dict:
    """The error for a child that died of a signal: who sent it, when the config did."""
    name = _signal_name(number)
    if signalled is not None and signalled.get("signal") == number:
        return _error(f"the config sent {name} to {signalled.get('what')} ({signalled.get('call')}), "
                      "which ended its load", signalled.get("file") or file, signalled.get("line") or line,
                      hint="the workbench is fine: each load runs in a process group of its own; "
                      "remove the call")
    what = {"SIGKILL": "was killed (SIGKILL: out of memory, or killed from outside)",
            "SIGXCPU": "used too much CPU time",
            "SIGSEGV": "crashed (segmentation fault)"}.get(name, f"was stopped by {name}")
    return _error(f"the config's process {what}", file, line or _exit_line(file),
                  hint="the workbench is fine; fix the config and save to reload")


_ANSWERS_FD: int | None = None


def _remember(request: dict, answer: bytes) -> None:
    """Keep a complete answer (after it has been sent) for the next fork to compare with."""
    key = answers.request_key(request)
    try:
        result = plain_data.loads(answer)
        if result.get("error") is None and isinstance(request.get("id"), int):
            kept = _KEPT.get(key)
            if kept is not None and kept.id != request.get("have"):
                kept = None
            _KEPT[key] = answers.remembered(request["id"], result, kept, _wire_size)
            return
    except (ValueError, TypeError, KeyError, IndexError):
        pass
    _KEPT.pop(key, None)


#: What every load needs and configs commonly import, beside the loader's own modules.
WARM_MODULES = ("copy", "itertools", "functools", "collections", "math", "random", "string",
                "os.path", "json", "tomllib", "yaml", "resource", "faulthandler", "encodings.utf_8_sig")


def warm() -> None:
    """Import and read, in the worker, what every forked load would otherwise import or read
    again (and lose when it exits): a reload's fork then runs the config and nothing else."""
    # lazy: warm, in the worker only
    from . import analysis, code_cache, config_file, data_config, executor, framework_modules  # noqa: F401

    # (its table, read in each fork, cost ~7 ms of every load; a table that cannot be read
    # fails each load as it did, located, rather than the worker)
    with contextlib.suppress(Exception):
        framework_modules.warm()
    for name in WARM_MODULES:
        with contextlib.suppress(ImportError):
            __import__(name)


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
    _become_subreaper()
    warm()
    # lazy: warm() has imported them, in the worker only
    from . import analysis, code_cache

    requests = _FrameReader(requests_fd)
    loads = 0
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
            if request.get("kind") in (LMEVAL_TASK, SELF_TEST):
                continue  # nothing to keep or precompile: its files are the task's utilities
            _remember(request, answer)
            # parse and compile (never run) what this load read, so the next fork of this
            # worker starts with it: a reload re-reads only the files that changed (the
            # child's disk cache entries make this a read, not a compile, on a first load)
            folder = request.get("code_cache")
            analysis.disk_cache = code_cache.CodeCache(folder) if isinstance(folder, str) else None
            analysis.precompile(files)
            if analysis.disk_cache is not None and loads % PRUNE_EVERY == 0:
                analysis.disk_cache.prune()
            loads += 1


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
        self._requests = 0
        self._kept: dict[str, answers.Kept] = {}  # the last complete answer per request (answers.py)
        self.reused = 0  # entries the last answer did not resend (the parent held them)
        self._early: dict[str, Any] | None = None  # a request sent ahead, its answer not read yet
        self.early_taken = 0  # loads answered by a request sent ahead
        # the id of the request whose answer a load waits for (under _write_lock): a cancel
        # names it, so a cancel can neither be lost before the worker reads the load nor stop
        # a later one
        self._in_flight: int | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc and self._proc.poll() is None else None

    def _start(self) -> None:
        # the parent's import path (editable installs, user site...), minus the working
        # directory, whose files must not shadow the standard library a config imports
        path = [p for p in sys.path if p not in ("", ".")]
        path.insert(0, str(Path(__file__).resolve().parents[2]))
        boot = (f"import sys; sys.path[:] = {path!r}; "
                "from workbench.loading.config.worker import serve; serve()")
        stderr = None if os.environ.get("WORKBENCH_DEBUG_WORKER") else subprocess.DEVNULL
        self._proc = subprocess.Popen(
            [sys.executable, "-P", "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=stderr, bufsize=0, close_fds=True,
            start_new_session=True,  # no signal a config sends to "its group" reaches this one
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
        self._kept.clear()  # a new worker keeps nothing
        self._early = None  # and answers nothing asked of the old one

    def _send(self, kind: bytes, payload: bytes) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        with self._write_lock:
            _write_frame(self._proc.stdin.fileno(), kind, payload)

    def _request(self, path: str, roots: list[str], want_datasets: bool, timeout: float,
                 code_cache: str | None) -> dict[str, Any]:
        timeout = max(float(timeout), 0.05)  # 0 would switch the alarm off
        return {"path": path, "roots": roots, "want_datasets": want_datasets,
                "timeout": timeout, "memory_limit": self.memory_limit, "cwd": os.getcwd(),
                "code_cache": code_cache}

    def ask_early(self, path: str, roots: list[str], want_datasets: bool = True,
                  timeout: float = DEFAULT_TIMEOUT, code_cache: str | None = None) -> None:
        """Send a load now and read its answer later: the first ``load`` with the very same
        request takes it (any other load reads it and throws it away first). What the answer
        says is what a load started now would say: the files are read once, as always."""
        request = self._request(path, roots, want_datasets, timeout, code_cache)
        with self._lock:
            if self._proc is None or self._proc.poll() is not None or self._early is not None:
                return
            self._requests += 1
            request.update(id=self._requests, have=None)
            try:
                self._send(LOAD, json.dumps(request).encode("utf-8"))
            except OSError:
                return
            self._early = request

    def _ready(self, timeout: float) -> tuple[dict[str, Any] | None, float]:
        """Under the lock: the worker running (started again if it died), the request sent early
        (now taken: its answer comes first), and when an answer is due."""
        fresh = self._proc is None or self._proc.poll() is not None
        if fresh:
            self._kill()
            self._start()
        early, self._early = self._early, None
        return early, time.monotonic() + timeout + GRACE + PARENT_GRACE + (START_TIMEOUT if fresh else 0)

    def load(self, path: str, roots: list[str], want_datasets: bool = True,
             timeout: float = DEFAULT_TIMEOUT, code_cache: str | None = None,
             cancelled: Callable[[], bool] | None = None) -> dict[str, Any]:
        """One config file's result (see ``load_config_file``); errors come back as data.
        ``code_cache``: the folder compiled configs are kept in between processes (None: none).
        ``cancelled``: whether the caller's load was cancelled already (a cancel that came
        before this request was sent then stops it at once)."""
        request = self._request(path, roots, want_datasets, timeout, code_cache)
        timeout = request["timeout"]
        key = answers.request_key(request)
        with self._lock:
            early, deadline = self._ready(timeout)
            try:
                if early is not None and {k: early[k] for k in request} == request:
                    kept = None  # asked before anything was kept
                    request = early
                    self.early_taken += 1
                else:
                    if early is not None:  # another request's answer comes first: not ours
                        self._reader.read(deadline + early["timeout"])  # type: ignore[union-attr]
                    self._requests += 1
                    kept = self._kept.pop(key, None)
                    request.update(id=self._requests, have=kept.id if kept is not None else None)
                    self._send(LOAD, json.dumps(request).encode("utf-8"))
                self._awaiting(request["id"], cancelled)
                got = self._reader.read(deadline)  # type: ignore[union-attr]
            except OSError:
                got = None
            finally:
                self._awaiting(None)
            if got is None or got[0] != RESULT:
                self._kill()
                return plain_data.loads(_failed(request, _error(
                    "the config worker stopped answering; it has been restarted", path,
                    hint="try again; if it persists, run with WORKBENCH_DEBUG_WORKER=1")))
            try:
                result = plain_data.loads(got[1])
                shared = sum(1 for kind in answers.KINDS for e in result.get(kind) or ()
                             if isinstance(e, dict) and answers.SAME in e)
                result = answers.restore(result, kept)
            except (ValueError, TypeError, KeyError, AttributeError):
                return plain_data.loads(_failed(request, _error("the config worker sent malformed data",
                                                           path)))
            self.reused = shared
            if result.get("error") is None:
                self._kept[key] = answers.Kept(request["id"], result, {})
            return result

    def run_task(self, request: dict[str, Any], timeout: float = DEFAULT_TIMEOUT,
                 cancelled: Callable[[], bool] | None = None) -> dict[str, Any]:
        """An lm-eval task's utilities and Jinja run over its docs in a child, bounded like a
        config (see :mod:`.lmeval_child`); errors come back as data."""
        return self._run_kind(LMEVAL_TASK, request, timeout, cancelled)

    def self_test(self, dataset: Any, model: Any, rows: Any, path: str, timeout: float = DEFAULT_TIMEOUT,
                  cancelled: Callable[[], bool] | None = None) -> dict[str, Any]:
        """One dataset's extraction self-test (its config, its model's, the rows it reads:
        :mod:`.self_test_child`) in a child, bounded like a config: ``{"checks": [...]}``, else
        ``{"error", "hint", "kind"}``; ``kind`` is ``bounded`` where the child ran past its
        time, crashed or could not answer. ``path`` is the dataset's config file."""
        try:
            job = plain_data.dumps(plain_data.to_plain({"dataset": dataset, "model": model, "rows": rows}))
        except (TypeError, ValueError, WorkbenchError) as exc:
            return {"error": f"its rows could not be sent to the self-test: {exc}", "hint": None,
                    "kind": "unreadable"}
        answer = self._run_kind(SELF_TEST, {"path": path, "job": job.decode("utf-8", "surrogatepass")},
                                timeout, cancelled)
        error = answer.get("error")
        if isinstance(error, dict):  # the child did not answer: killed past its time, crashed
            message = error.get("message") or "failed"
            said = message if message.startswith("the self-test") else f"the self-test failed: {message}"
            return {"error": said, "hint": error.get("hint"), "kind": "bounded"}
        return answer

    def _run_kind(self, kind: str, request: dict[str, Any], timeout: float,
                  cancelled: Callable[[], bool] | None) -> dict[str, Any]:
        path = request["path"]
        full = {**request, "kind": kind, "roots": [], "want_datasets": True,
                "timeout": max(float(timeout), 0.05), "memory_limit": self.memory_limit,
                "cwd": os.getcwd(), "code_cache": None}
        with self._lock:
            early, deadline = self._ready(full["timeout"])
            try:
                if early is not None:  # a config's answer asked for early: read and dropped
                    self._reader.read(deadline + early["timeout"])  # type: ignore[union-attr]
                self._requests += 1
                full.update(id=self._requests, have=None)
                self._send(LOAD, json.dumps(full).encode("utf-8"))
                self._awaiting(full["id"], cancelled)
                got = self._reader.read(deadline)  # type: ignore[union-attr]
            except OSError:
                got = None
            finally:
                self._awaiting(None)
            if got is None or got[0] != RESULT:
                self._kill()
                return {"error": _error("the config worker stopped answering; it has been restarted",
                                        path), "files": [], "warnings": []}
            try:
                return plain_data.loads(got[1])
            except (ValueError, TypeError):
                return {"error": _error("the config worker sent malformed data", path), "files": [],
                        "warnings": []}

    def _awaiting(self, request_id: int | None, cancelled: Callable[[], bool] | None = None) -> None:
        """Mark the request a load now waits for (None: none); one its caller cancelled
        before it was marked is cancelled now."""
        with self._write_lock:
            self._in_flight = request_id
        if request_id is not None and cancelled is not None and cancelled():
            self.cancel()

    def cancel(self) -> None:
        """Stop the load that is running (its answer is then a 'cancelled' error). The cancel
        names the request, so the worker drops one that arrives after that load ended."""
        with self._write_lock:
            if self._in_flight is None or self._proc is None or self._proc.poll() is not None:
                return
            with contextlib.suppress(OSError):
                _write_frame(self._proc.stdin.fileno(), CANCEL,  # type: ignore[union-attr]
                             str(self._in_flight).encode("ascii"))

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


def prestart(memory_limit: int | None = DEFAULT_MEMORY_LIMIT, first: dict[str, Any] | None = None) -> None:
    """Start the config worker now, so its interpreter boots while this one imports the rest.

    A command calls this first thing; the Loader then adopts the running worker instead of
    starting one when the first config is loaded. ``first`` (``ConfigWorker.load``'s
    arguments: path, roots, want_datasets, timeout, code_cache) is asked for at once, so
    the worker runs the config while this process imports the rest; the load asking the
    same then takes that answer (see ``ConfigWorker.ask_early``).
    """
    global _prestarted
    if not available():
        return
    with _prestart_lock:
        if _prestarted is None:
            started = ConfigWorker(memory_limit)
            with started._lock:
                started._start()
            if first is not None:
                started.ask_early(**first)
            _prestarted = started


def prestart_for(config: str | os.PathLike, roots: list[str] | None = None, timeout: float | None = None,
                 code_cache: str | os.PathLike | None = None) -> None:
    """``prestart``, asking at once for ``config`` as the Loader will ask for it (``roots``:
    --config-root; ``timeout``: --timeout; ``code_cache``: default the user's cache folder)."""
    # lazy: the light modules only, so the request goes out before the loader is imported
    from .code_cache import default_folder
    from .roots import config_roots

    folder = default_folder() if code_cache is None else code_cache
    prestart(first={"path": os.path.abspath(config), "roots": [str(r) for r in config_roots(roots or ())],
                    "want_datasets": True, "timeout": DEFAULT_TIMEOUT if timeout is None else timeout,
                    "code_cache": os.fspath(folder)})


def adopt_prestarted(memory_limit: int | None) -> ConfigWorker | None:
    """The worker ``prestart`` began, if it was started with these limits (once)."""
    global _prestarted
    with _prestart_lock:
        found, _prestarted = _prestarted, None
    if found is not None and found.memory_limit != memory_limit:
        found.close()
        return None
    return found

