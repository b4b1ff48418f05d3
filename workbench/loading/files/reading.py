"""Untrusted paths are read only when they name a regular file, and never past a size.

A path given with ``--data``, in ``workbench.toml``, as a dataset's ``path`` or in a model
folder may name anything: a named pipe (opening it waits for a writer that never comes),
a character device (``/dev/zero`` never ends), a folder, a socket, a symlink loop.  Every
such file is read through :func:`read_regular`: it refuses what is not a regular file
before opening it, opens without blocking (a path swapped for a FIFO in between cannot
hang it either), and stops reading past the size limit instead of trusting ``st_size``.

May import: the standard library and the core's errors; nothing else of the workbench (every layer
above reads and writes through it).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

from ...core.errors import ConfigError

_CHUNK = 1 << 20
#: The longest line ``read_regular(line_limit=...)`` reads (more than any prompt can hold).
LONGEST_LINE = 128 * 1024**2

#: The largest config file read (Python, JSON or YAML): real ones are kilobytes.
MAX_CONFIG_BYTES = 64 * 1024**2
#: The largest ``workbench.toml``.
MAX_SETTINGS_BYTES = 16 * 1024**2
#: The largest file read from a model folder (a ``tokenizer.json`` of a large vocabulary is
#: tens of MiB).
MAX_MODEL_FILE_BYTES = 512 * 1024**2


def kind_name(mode: int) -> str | None:
    """What a file that is not a regular file is, for messages; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def size_text(limit: int) -> str:
    if limit >= 1024**3 and limit % 1024**3 == 0:
        return f"{limit // 1024**3} GiB"
    if limit >= 1024**2 and limit % 1024**2 == 0:
        return f"{limit // 1024**2} MiB"
    return f"{limit:,} bytes"


def real_path(path: str | os.PathLike) -> Path:
    """The path with symlinks followed; a loop is left as it is instead of raising
    (``Path.resolve`` raises RuntimeError on one before Python 3.13)."""
    return Path(os.path.realpath(os.path.abspath(path)))


def _refuse(what: str, path: Path, kind: str) -> ConfigError:
    return ConfigError(f"{what} path is {kind}, not a file: {path}", file=str(path),
                       hint="give a regular file (a pipe, a device or a folder cannot be read as one)")


def _checked(what: str, path: Path, mode: int, size: int, limit: int) -> None:
    kind = kind_name(mode)
    if kind is not None:
        raise _refuse(what, path, kind)
    if size > limit:
        raise ConfigError(f"{what} file is larger than {size_text(limit)}", file=str(path))


def read_regular(path: str | os.PathLike, limit: int, what: str = "data",
                 line_limit: Callable[[int], ConfigError] | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises FileNotFoundError when nothing is there (callers word that with their own
    hint), and a :class:`ConfigError` at the file for a symlink loop, a path that is not a
    regular file, a file over ``limit`` (also one that grows past it while read), or a
    read that fails. With ``line_limit``, a line longer than ``LONGEST_LINE`` bytes stops the
    read as soon as it is, with ``line_limit(its line number)``: a file of rows is not read
    whole to find a row no prompt could hold.
    """
    path = Path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise _os_error(what, path, exc) from None
    _checked(what, path, info.st_mode, info.st_size, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise _os_error(what, path, exc) from None
    try:
        opened = os.fstat(fd)  # what was opened, if the path changed since the stat
        _checked(what, path, opened.st_mode, opened.st_size, limit)
        chunks: list[bytes] = []
        total = 0
        line = newlines = 0  # the bytes of the line read so far; the newlines before it
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise ConfigError(f"{what} file is larger than {size_text(limit)}", file=str(path))
            if line_limit is not None:
                # (a line within one chunk is shorter than the limit: only the one that runs
                # across chunks is counted)
                first = chunk.find(b"\n")
                line += len(chunk) if first < 0 else first
                if line > LONGEST_LINE:
                    raise line_limit(newlines + 1)
                if first >= 0:
                    newlines += chunk.count(b"\n")
                    line = len(chunk) - chunk.rfind(b"\n") - 1
    except OSError as exc:
        raise _os_error(what, path, exc) from None
    finally:
        os.close(fd)


def loop_error(path: str | os.PathLike, what: str = "data") -> ConfigError | None:
    """The refusal of ``path`` when it is a symlink loop (which neither exists nor is missing:
    a lookup that skipped it would report "not found" past the file at fault)."""
    try:
        os.stat(path)
    except OSError as exc:
        return _os_error(what, Path(path), exc) if exc.errno == errno.ELOOP else None
    return None


def _os_error(what: str, path: Path, exc: OSError) -> ConfigError:
    if exc.errno == errno.ELOOP:
        return ConfigError(f"{what} path is a symlink loop: {path}", file=str(path),
                           hint="the link points, through other links, back at itself")
    if exc.errno == errno.EISDIR:
        return _refuse(what, path, "a folder")
    return ConfigError(f"cannot read {what} file: {exc.strerror or exc}", file=str(path))


def decoded(raw: bytes, path: str | os.PathLike, refusal: str, encoding: str = "utf-8",
            errors: str = "strict") -> str:
    """``raw`` as text; a byte that is not ``encoding`` is a ConfigError at its line, worded
    ``refusal (byte 0x..)``."""
    try:
        return raw.decode(encoding, errors)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(f"{refusal} (byte 0x{raw[exc.start]:02x})", file=str(path), line=line,
                          hint="re-save the file as UTF-8") from None


def read_regular_text(path: str | os.PathLike, limit: int, what: str = "data") -> str:
    """:func:`read_regular` decoded as UTF-8 (a ConfigError at the line of a bad byte)."""
    return decoded(read_regular(path, limit, what), path, f"{what} file is not UTF-8")
