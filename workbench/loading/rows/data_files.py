"""Sample rows from .jsonl / .json / .csv files, with errors that point at the line.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from stat import S_ISREG
from typing import Any

from ...core.errors import ConfigError
from ...core.templates.prompt_list import MAX_FILLED_CHARS
from ..files.reading import LONGEST_LINE, decoded, read_regular, real_path, size_text

DATA_SUFFIXES = (".jsonl", ".json", ".csv")
MAX_DATA_BYTES = 2 * 1024**3


def _row_too_long(path: Path) -> Callable[[int], ConfigError]:
    def refusal(line: int) -> ConfigError:
        return ConfigError(f"a row is longer than {size_text(LONGEST_LINE)} (the file is not read further)",
                           file=str(path), line=line,
                           hint="no prompt holds it: one fill makes at most "
                           f"{MAX_FILLED_CHARS:,} characters; shorten the row's values")
    return refusal


def _decode(path: Path) -> str:
    # a row is a line of a .jsonl file, and at least a line of a .csv one (a .json file may
    # hold every row on one line)
    lines = _row_too_long(path) if path.suffix.lower() in (".jsonl", ".csv") else None
    try:
        raw = read_regular(path, MAX_DATA_BYTES, line_limit=lines)
    except FileNotFoundError:
        raise ConfigError(f"data file not found: {path}", file=str(path),
                          hint="check the path given to --data or the dataset's path") from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ConfigError("data file is UTF-16 text, not UTF-8", file=str(path),
                          hint="re-save the file as UTF-8")
    if b"\x00" in raw[:8192]:
        raise ConfigError("data file is binary, not JSON/JSONL/CSV text", file=str(path),
                          hint="give a .jsonl, .json or .csv file of rows")
    return decoded(raw, path, "data file is not UTF-8", "utf-8-sig")


def _json_refusal(exc: ValueError | RecursionError) -> str:
    """What ``json.loads`` refuses besides syntax: absurd nesting, numbers of thousands of digits."""
    if isinstance(exc, RecursionError):
        return "the JSON nests too deeply"
    return f"invalid JSON: {str(exc).split(';')[0]}"


def _no_duplicate_keys(path: Path, line_of: Any = None):
    def hook(pairs: list[tuple[str, Any]]) -> dict:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise ConfigError(f"duplicate key {key!r} in a JSON object", file=str(path),
                                  line=line_of() if line_of else None,
                                  hint="each column may appear once per row")
            seen[key] = value
        return seen

    return hook


#: Least recently read last; a workspace's files stay while it is in use (the loaded specs hold
#: those rows anyway), older ones go first.
_ROWS_CACHE: OrderedDict[Path, tuple[tuple[int, ...], Any]] = OrderedDict()
_ROWS_CACHE_FILES = 512
_ROWS_CACHE_LOCK = threading.Lock()
#: A file changed this recently may change again within one timestamp tick (coarse clocks,
#: FAT's 2 s) without its version showing it, so its rows are not kept ("racy git").
RACY_NS = 3_000_000_000
_READS = threading.local()


@contextmanager
def recording_reads() -> Iterator[list[tuple[str, tuple[int, ...] | None]]]:
    """Collects (file, version) for each ``read_rows`` in this thread while open.

    The version is that of the very bytes parsed (None when the file changed during the
    read), so it can key a cache of what was rendered from those rows.
    """
    reads: list[tuple[str, tuple[int, ...] | None]] = []
    outer = getattr(_READS, "log", None)
    _READS.log = reads
    try:
        yield reads
    finally:
        _READS.log = outer
        if outer is not None:
            outer.extend(reads)


def file_version(path: str | Path) -> tuple[int, ...] | None:
    """What says a file is unchanged between loads: its mtime, ctime, size and inode (None
    for a path that is not a regular file: nothing read from one is cached).

    The inode and ctime catch what the mtime alone could miss on file systems with coarse
    timestamps: editors that save by renaming a new file over the old one, and writes of
    the same size within one timestamp tick (a write updates the ctime too).
    """
    try:
        stat = os.stat(path)
    except OSError:
        return None
    if not S_ISREG(stat.st_mode):
        return None
    return (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size, stat.st_ino)


def read_rows(path: str | Path) -> list[Any] | dict[str, list[Any]]:
    """A list of rows, or a {split: rows} mapping (a JSON object whose values are lists).

    An unchanged file (see ``file_version``) gives the very same rows object as last time,
    so a reload neither parses it again nor re-renders what depends only on it. Callers
    never modify rows (the core copies what it changes).
    """
    resolved = real_path(path)
    version = file_version(resolved)
    with _ROWS_CACHE_LOCK:
        hit = _ROWS_CACHE.get(resolved)
        if hit is not None:
            _ROWS_CACHE.move_to_end(resolved)
    if hit is not None and version is not None and hit[0] == version:
        _record(resolved, version)
        return hit[1]
    rows = _read_rows(path)
    if version is None or version != file_version(resolved):
        _record(resolved, None)  # changed while read: these rows have no version
        return rows
    if just_written(version):
        _record(resolved, None)  # just written: the next write could keep the same version
        return rows
    with _ROWS_CACHE_LOCK:
        _ROWS_CACHE[resolved] = (version, rows)
        _ROWS_CACHE.move_to_end(resolved)
        while len(_ROWS_CACHE) > _ROWS_CACHE_FILES:
            _ROWS_CACHE.popitem(last=False)
    _record(resolved, version)
    return rows


@contextmanager
def recording_files(paths: list[Path]) -> Iterator[None]:
    """Record the versions of files read by code other than ``read_rows`` (a native reader):
    each is taken before and after the read, and a file that changed meanwhile, or was just
    written, records no version, so nothing made from it is cached."""
    before = [file_version(p) for p in paths]
    yield
    now = _now_ns()
    for path, first in zip(paths, before, strict=True):
        version = file_version(path)
        if version != first or version is None or now - max(version[0], version[1]) < RACY_NS:
            version = None
        _record(real_path(path), version)


def just_written(version: tuple[int, ...]) -> bool:
    """A file of this version may change again without its version showing it (see RACY_NS)."""
    return _now_ns() - max(version[0], version[1]) < RACY_NS


def _now_ns() -> int:
    return time.time_ns()


def _record(path: Path, version: tuple[int, ...] | None) -> None:
    log = getattr(_READS, "log", None)
    if log is not None:
        log.append((str(path), version))


def _read_rows(path: str | Path) -> list[Any] | dict[str, list[Any]]:
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in DATA_SUFFIXES:
        raise ConfigError(f"unsupported data file type {suffix or '(none)'}: {path.name}",
                          file=str(path), hint="use .jsonl, .json or .csv")
    text = _decode(path)
    if not text.strip():
        raise ConfigError("data file is empty", file=str(path), hint="add at least one row")
    if suffix == ".jsonl":
        return _read_jsonl(path, text)
    if suffix == ".json":
        return _read_json(path, text)
    return _read_csv(path, text)


def _read_jsonl(path: Path, text: str) -> list[Any]:
    rows = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line, object_pairs_hook=_no_duplicate_keys(path, lambda n=number: n))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"invalid JSON: {exc.msg} (column {exc.colno})", file=str(path),
                              line=number, hint="each line of a .jsonl file is one JSON object") from None
        except (ValueError, RecursionError) as exc:
            raise ConfigError(_json_refusal(exc), file=str(path), line=number) from None
        if not isinstance(row, dict):
            raise ConfigError(f"a .jsonl line must be a JSON object, got {type(row).__name__}",
                              file=str(path), line=number)
        rows.append(row)
    return rows


def _read_json(path: Path, text: str) -> list[Any] | dict[str, list[Any]]:
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys(path))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"invalid JSON: {exc.msg} (column {exc.colno})", file=str(path),
                          line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise ConfigError(_json_refusal(exc), file=str(path)) from None
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and data and all(isinstance(v, list) for v in data.values()):
        return data
    raise ConfigError(
        "a .json data file must hold a list of rows or an object of splits "
        '({"train": [...], "test": [...]})', file=str(path),
    )


def _cell(value: str) -> Any:
    """pandas-style inference, as `datasets` does for CSV: ints, floats, else text."""
    if value == "":
        return None
    try:
        return int(value)
    except ValueError:
        pass
    try:
        number = float(value)
    except ValueError:
        return value
    return None if math.isnan(number) else number


def _read_csv(path: Path, text: str) -> list[dict[str, Any]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise ConfigError("CSV file has no header row", file=str(path)) from None
    except csv.Error as exc:
        raise ConfigError(f"bad CSV: {exc}", file=str(path), line=1) from None
    if len(set(header)) != len(header):
        raise ConfigError("CSV header repeats a column name", file=str(path), line=1)
    raw_rows: list[list[str]] = []
    try:
        for cells in reader:
            if not cells:
                continue
            if len(cells) != len(header):
                raise ConfigError(
                    f"CSV row has {len(cells)} cell{'s' if len(cells) != 1 else ''} but the header "
                    f"has {len(header)}",
                    file=str(path), line=reader.line_num,
                    hint="quote cells that contain commas or newlines",
                )
            raw_rows.append(cells)
    except csv.Error as exc:
        raise ConfigError(f"bad CSV: {exc}", file=str(path), line=reader.line_num) from None
    # Column types as pandas infers them: all-int → int, all-number → float, else str.
    columns = list(zip(*raw_rows)) if raw_rows else [() for _ in header]
    kinds = []
    for values in columns:
        parsed = [_cell(v) for v in values]
        present = [p for p in parsed if p is not None]
        if present and all(isinstance(p, int) for p in present) and len(present) == len(parsed):
            kinds.append("int")
        elif present and all(isinstance(p, (int, float)) for p in present):
            kinds.append("float")
        else:
            kinds.append("str")
    rows = []
    for cells in raw_rows:
        row: dict[str, Any] = {}
        for name, kind, value in zip(header, kinds, cells):
            if kind == "int":
                row[name] = int(value)
            elif kind == "float":
                row[name] = None if value == "" else float(value)
            else:
                row[name] = None if value == "" else value
        rows.append(row)
    return rows
