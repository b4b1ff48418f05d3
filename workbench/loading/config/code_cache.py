"""Config files' compiled code kept on disk, so opening a suite again parses nothing.

A suite is hundreds of kilobytes of Python: parsing it, tagging every dict with its line
and compiling it costs a few hundred milliseconds on the first load of each app or render,
the largest part of opening a suite. What :func:`analysis.analyse` makes of a file is a
pure function of the file's path and text, the Python that compiles it and the
workbench's own transform (``analysis.py``), so it is stored under a key made of all
four, the way Python keeps ``__pycache__``: a file edited, a new Python or a new
workbench can never meet an old entry.

Entries are ``marshal`` data (code objects, strings, numbers), never a pickle: read only
from a folder and files this user owns, and anything that does not read back exactly as
written is ignored (and recompiled). Writes go to a temporary file renamed into place,
so a load killed half-way leaves no partial entry. The folder is pruned to
``MAX_ENTRIES``, oldest first, by the worker between loads.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

#: Bumped when the layout of an entry changes.
FORMAT = 1
#: Entries kept: a suite's files many times over; each is tens of kilobytes.
MAX_ENTRIES = 2000
SUFFIX = ".wbcode"
FOLDER_NAME = "config-code"


def default_folder() -> Path:
    """``$XDG_CACHE_HOME/prompt-workbench/config-code`` (``~/.cache/...`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "prompt-workbench" / FOLDER_NAME


def _transform_digest() -> bytes:
    """The workbench's own part of the key: the source of the module that transforms and
    compiles configs (a changed transform never meets code compiled by the old one)."""
    here = Path(__file__).with_name("analysis.py")
    try:
        text = here.read_bytes()
    except OSError:
        text = b""
    return hashlib.blake2b(text + importlib.util.MAGIC_NUMBER + bytes([FORMAT]), digest_size=16).digest()


_TRANSFORM = _transform_digest()


def _owned(info: os.stat_result, kind: int) -> bool:
    """Created by this user and not writable by anyone else (what ``marshal`` may read)."""
    if not hasattr(os, "getuid"):
        return stat.S_IFMT(info.st_mode) == kind
    return (stat.S_IFMT(info.st_mode) == kind and info.st_uid == os.getuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


class CodeCache:
    """One folder of compiled configs; every method fails quietly (the cache is optional)."""

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)
        self.hits = 0
        self.writes = 0

    def _key(self, path: str, digest: bytes) -> bytes:
        return hashlib.blake2b(_TRANSFORM + digest + os.fsencode(path), digest_size=20).digest()

    def _entry(self, key: bytes) -> Path:
        return self.folder / (key.hex() + SUFFIX)

    def _folder_ok(self) -> bool:
        try:
            return _owned(os.stat(self.folder), stat.S_IFDIR)
        except OSError:
            return False

    def get(self, path: str, digest: bytes) -> Any:
        """What was stored for this path and content digest; None when there is nothing usable."""
        key = self._key(path, digest)
        try:
            if not self._folder_ok():
                return None
            fd = os.open(self._entry(key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            try:
                if not _owned(os.fstat(fd), stat.S_IFREG):
                    return None
                with os.fdopen(fd, "rb") as handle:
                    fd = -1
                    data = handle.read()
            finally:
                if fd >= 0:
                    os.close(fd)
            stored = marshal.loads(data)
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if not (isinstance(stored, tuple) and len(stored) == 3 and stored[0] == key
                and stored[1] == path):
            return None
        self.hits += 1
        return stored[2]

    def put(self, path: str, digest: bytes, value: Any) -> None:
        """Store ``value`` (marshal data) for this path and content digest."""
        key = self._key(path, digest)
        try:
            data = marshal.dumps((key, path, value))
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not self._folder_ok():
                return
            fd, staged = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(staged, self._entry(key))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(staged)
                raise
        except (OSError, ValueError):
            return
        self.writes += 1

    def prune(self, keep: int = MAX_ENTRIES) -> int:
        """Remove all but the ``keep`` most recently written entries (and stray temporary
        files); how many were removed."""
        try:
            entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(self.folder)
                       if e.name.endswith(SUFFIX) or e.name.endswith(".tmp")]
        except OSError:
            return 0
        entries.sort(reverse=True)
        removed = 0
        for _, name in entries[keep:]:
            with contextlib.suppress(OSError):
                os.unlink(name)
                removed += 1
        return removed
