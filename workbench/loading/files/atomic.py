"""Files the workbench writes are replaced whole or not at all.

A write goes to a temporary file beside the target (same folder, so the rename stays
on one filesystem), is flushed and fsynced, and only then renamed over the target.
An export killed half-way leaves the old file as it was, plus at worst a stray
``.NAME.wb-tmp-*`` file that a later write of the same target removes once it is old.

May import: the standard library and the core's errors; nothing else of the workbench (every layer
above reads and writes through it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

TMP_MARK = ".wb-tmp-"
STALE_AFTER = 600.0  # seconds


def _tmp_prefix(target: Path) -> str:
    return f".{target.name}{TMP_MARK}"


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # e.g. Windows cannot open folders; the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _mode_for(target: Path) -> int:
    """Keep the target's permission bits; a new file gets 0o666 minus the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _remove_stale(target: Path) -> None:
    """Temp files of earlier writes of this target that were killed before the rename.

    Only ones untouched for a while: a concurrent writer's live temp file is left alone.
    """
    prefix = _tmp_prefix(target)
    cutoff = time.time() - STALE_AFTER
    try:
        for entry in os.scandir(target.parent):
            if entry.name.startswith(prefix):
                with contextlib.suppress(OSError):
                    if entry.stat().st_mtime < cutoff:
                        os.unlink(entry.path)
    except OSError:
        pass


def written_at(path: Path) -> tuple[Path, bool]:
    """Where a write of ``path`` goes, and whether it replaces a file there (else: in place).

    A link is never replaced: a write goes through it, to the regular file it names (replaced
    beside it, in its own folder), or in place into what is not a regular file (a pipe, a
    terminal). A link into /proc (``/dev/stdout`` is ``/proc/self/fd/1``) names an open
    descriptor, whatever it is open on: written in place too.
    """
    try:
        regular = stat.S_ISREG(path.stat().st_mode)
    except FileNotFoundError:
        regular = True  # (a new file, or a link to one: made where the link points)
    if not regular or _names_a_descriptor(path):
        return path, False
    return Path(os.path.realpath(path)), True


def _names_a_descriptor(path: Path) -> bool:
    """Whether ``path``, its links followed, is in /proc (``/proc/PID/fd/N``: an open descriptor)."""
    current = os.path.abspath(path)
    for _ in range(40):  # (a loop was refused before: stat above would have failed)
        folder = os.path.realpath(os.path.dirname(current))
        if Path(folder).parts[1:2] == ("proc",):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.join(folder, os.readlink(current))
    return False


class AtomicFile:
    """A text stream whose content replaces ``path`` only when the block ends normally.

    ``newline=""`` writes ``\\n`` as is on every platform, so snapshot files are the
    same bytes everywhere.  With ``keep_if_same`` an identical result leaves the old file
    untouched (its mtime too): the new content is compared chunk by chunk, never read
    whole.  After the block, ``changed`` says whether the target was replaced.  Special
    files (a FIFO, ``/dev/stdout``) are written directly, and a link is written through
    (``target`` becomes the file it names: see ``written_at``).
    """

    def __init__(self, path: str | os.PathLike, *, keep_if_same: bool = False,
                 encoding: str = "utf-8") -> None:
        self.target = Path(path)
        self.keep_if_same = keep_if_same
        self.encoding = encoding
        self.changed: bool | None = None
        self._tmp: Path | None = None
        self._out: TextIO | None = None

    def __enter__(self) -> TextIO:
        self.target, replaced = written_at(self.target)
        if not replaced:
            # (appending: a descriptor open on a file writes where it is, as a shell's >> wants)
            self._out = open(self.target, "a", encoding=self.encoding, newline="")
            return self._out
        folder = self.target.parent
        if not folder.is_dir():
            raise FileNotFoundError(f"no such folder: {folder}")
        _remove_stale(self.target)
        fd, tmp_name = tempfile.mkstemp(prefix=_tmp_prefix(self.target), dir=folder)
        self._tmp = Path(tmp_name)
        self._out = os.fdopen(fd, "w", encoding=self.encoding, newline="")
        return self._out

    def __exit__(self, exc_type, exc, tb) -> None:
        out, tmp = self._out, self._tmp
        assert out is not None
        if tmp is None:  # a special file, written in place
            out.close()
            self.changed = exc_type is None
            return
        if exc_type is not None:
            with contextlib.suppress(OSError):
                out.close()
            with contextlib.suppress(OSError):
                tmp.unlink()
            return
        try:
            out.flush()
            os.fsync(out.fileno())
            out.close()
            if self.keep_if_same and self.target.exists() and same_content(tmp, self.target):
                tmp.unlink()
                self.changed = False
                return
            os.chmod(tmp, _mode_for(self.target))
            os.replace(tmp, self.target)
            self.changed = True
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        _fsync_dir(self.target.parent)


def same_content(a: Path, b: Path, chunk: int = 1 << 20) -> bool:
    """Byte equality without reading either file whole."""
    try:
        if a.stat().st_size != b.stat().st_size:
            return False
        with open(a, "rb") as fa, open(b, "rb") as fb:
            while True:
                x, y = fa.read(chunk), fb.read(chunk)
                if x != y:
                    return False
                if not x:
                    return True
    except OSError:
        return False


def atomic_write(path: str | os.PathLike, *, keep_if_same: bool = False) -> AtomicFile:
    return AtomicFile(path, keep_if_same=keep_if_same)


@contextlib.contextmanager
def terminate_as_exit() -> Iterator[None]:
    """SIGTERM raises SystemExit for the block, so temp files are cleaned up on the way out."""
    if not hasattr(signal, "SIGTERM"):
        yield
        return

    def handler(signum, frame):
        raise SystemExit(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
