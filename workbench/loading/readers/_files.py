"""Reading data files as the framework loaders read them, with errors that name the file and line.

The loaders mostly open a file and hand it to ``json`` or ``csv`` with no checks of their own;
these helpers do the same parsing (so they accept and refuse what the loaders accept and
refuse) and turn a refusal into a one-line ``ConfigError`` instead of a traceback.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError


def read_text(path: Path, hint: str | None = None, errors: str = "strict") -> str:
    """The file's text as ``open(path, encoding='utf-8', errors=errors)`` would give it
    (universal newlines)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"data file not found: {path}", file=str(path),
                          hint=hint or "check the dataset's path and the data folder") from None
    except IsADirectoryError:
        raise ConfigError(f"data path is a folder, not a file: {path}", file=str(path)) from None
    except OSError as exc:
        raise ConfigError(f"cannot read data file: {exc.strerror}", file=str(path)) from None
    try:
        text = raw.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(f"data file is not UTF-8 (byte 0x{raw[exc.start]:02x})", file=str(path),
                          line=line, hint="re-save the file as UTF-8") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def text_lines(path: Path, errors: str = "strict") -> list[str]:
    """The file's lines, each with its newline, as iterating an open text file yields them
    (only ``\\n`` ends a line there: not the U+2028 or form feed ``str.splitlines`` splits on)."""
    pieces = read_text(path, errors=errors).split("\n")
    lines = [piece + "\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines


def parse_json(text: str, path: Path, line: int | None = None, what: str = "JSON") -> Any:
    """``json.loads(text)``, a refusal reported at its line (``line`` is where ``text`` starts)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        at = (line + exc.lineno - 1) if line is not None else exc.lineno
        raise ConfigError(f"invalid {what}: {exc.msg} (column {exc.colno})", file=str(path),
                          line=at, hint="the file is truncated or not valid JSON") from None
    except (ValueError, RecursionError) as exc:
        raise ConfigError(f"invalid {what}: {exc}", file=str(path), line=line) from None


def read_json(path: Path) -> Any:
    """``json.load(open(path))``."""
    return parse_json(read_text(path), path)


def read_jsonl(path: Path, *, skip_blank: bool = False,
               strip: Callable[[str], str] = str.strip) -> list[Any]:
    """One ``json.loads(line.strip())`` per line, as most loaders do (a blank line is an error
    there, unless the loader skips blank lines: ``skip_blank``)."""
    rows = []
    for number, line in enumerate(text_lines(path), 1):
        text = strip(line)
        if skip_blank and not text.strip():
            continue
        rows.append(parse_json(text, path, number, "JSON line"))
    return rows


def iter_csv(path: Path, **options: Any) -> Iterator[tuple[int, list[str]]]:
    """``csv.reader(open(path))`` rows with the line each ends on (headers are not special)."""
    reader = csv.reader(text_lines(path), **options)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ConfigError(f"bad CSV: {exc}", file=str(path), line=reader.line_num) from None
        yield reader.line_num, row


def need(condition: bool, message: str, path: Path, line: int | None = None,
         hint: str | None = None) -> None:
    """A loader's ``assert`` (or the KeyError it would hit) as a located error."""
    if not condition:
        raise ConfigError(message, file=str(path), line=line, hint=hint)


def field(row: Any, key: str, path: Path, line: int | None = None) -> Any:
    """``row[key]`` where the loader indexes it, a missing key reported where it is missing."""
    if not isinstance(row, dict):
        raise ConfigError(f"expected a JSON object, got {type(row).__name__}", file=str(path),
                          line=line)
    if key not in row:
        raise ConfigError(f"missing field {key!r}", file=str(path), line=line,
                          hint="the dataset's loader reads this field from every row")
    return row[key]


@contextmanager
def at_row(path: Path, line: int | None = None) -> Iterator[None]:
    """A row the loader's own code would fail on (a missing key, a short list, a wrong type),
    reported at the row instead of as the loader's traceback."""
    try:
        yield
    except KeyError as exc:
        raise ConfigError(f"missing field {exc}", file=str(path), line=line,
                          hint="the dataset's loader reads this field from every row") from None
    except (IndexError, TypeError, AttributeError, ValueError) as exc:
        raise ConfigError(f"row does not have the loader's shape: {exc}", file=str(path),
                          line=line) from None
