"""Where a dataset's sample rows come from; the first source found wins.

1. ``--data ABBR=FILE`` for that dataset, then ``--data FILE`` for every dataset;
2. a ``workbench.toml`` beside the config: ``[data]`` maps dataset abbrs to files;
3. the dataset's ``path``, when it names a local ``.jsonl``/``.json``/``.csv`` file or a
   folder of split files (``train.jsonl``, ``test.jsonl``, ``dev.csv``...), looked up
   from the working directory (as the frameworks do), the folder of the file defining
   the dataset, the top config's folder, ``$COMPASS_DATA_CACHE`` and OpenCompass's
   default cache ``~/.cache/opencompass``;
4. placeholder rows built from ``reader_cfg``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from .data_files import DATA_SUFFIXES, read_rows
from .placeholder_rows import placeholder_rows

SETTINGS_FILE = "workbench.toml"
MAX_SPLIT_FILES = 32
PLACEHOLDER_ORIGIN = "placeholders from reader_cfg"


@dataclass(frozen=True)
class DataArg:
    """One ``--data`` value: FILE (every dataset) or ABBR=FILE."""

    path: Path
    abbr: str | None = None

    @classmethod
    def parse(cls, text: str) -> DataArg:
        if "=" in text and not Path(text).exists():
            abbr, _, path = text.partition("=")
            return cls(Path(path), abbr)
        return cls(Path(text))


@dataclass
class Settings:
    """``workbench.toml`` beside a config: ``[data]`` abbr → rows file."""

    path: Path | None = None
    data: dict[str, Path] = field(default_factory=dict)


def read_settings(folder: Path) -> Settings:
    """The settings file in ``folder`` (empty settings when there is none)."""
    import tomllib

    path = folder / SETTINGS_FILE
    if not path.is_file():
        return Settings()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {SETTINGS_FILE}: {exc}", file=str(path)) from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message, line = str(exc), None
        if "(at line " in message:
            message, _, where = message.rpartition(" (at line ")
            line = int(where.split(",", 1)[0])
        raise ConfigError(f"invalid TOML: {message}", file=str(path), line=line,
                          hint="check the TOML syntax at that line") from None
    data = table.get("data", {})
    if not isinstance(data, dict):
        raise ConfigError("[data] must be a table of dataset abbr = \"rows file\"", file=str(path),
                          line=_line_of(text, "data"), hint='[data]\ngsm8k = "data/gsm8k.jsonl"')
    files: dict[str, Path] = {}
    for abbr, value in data.items():
        if not isinstance(value, str):
            raise ConfigError(f"[data] {abbr} must be a file name, got {type(value).__name__}",
                              file=str(path), line=_line_of(text, abbr),
                              hint=f'{abbr} = "data/{abbr}.jsonl"')
        files[abbr] = folder / value
    return Settings(path=path, data=files)


def _line_of(text: str, key: str) -> int | None:
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith((f"{key} ", f"{key}=", f'"{key}"', f"[{key}]")):
            return number
    return None


def split_folder(folder: Path) -> dict[str, list[Any]] | list[Any] | None:
    """A folder of split files as ``{split: rows}``; None when it holds no rows file."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in DATA_SUFFIXES)
    if not files:
        return None
    if len(files) > MAX_SPLIT_FILES:
        files = files[:MAX_SPLIT_FILES]
    splits: dict[str, list[Any]] = {}
    for file in files:
        rows = read_rows(file)
        if isinstance(rows, dict):
            for name, part in rows.items():
                splits.setdefault(str(name), part)
        else:
            splits.setdefault(file.stem, rows)
    return splits


def _candidates(path: str, bases: Sequence[Path]) -> list[Path]:
    out = [Path(path)]
    if not os.path.isabs(path):
        out += [base / path for base in bases]
        cache = os.environ.get("COMPASS_DATA_CACHE")
        if cache:
            out.append(Path(cache) / path)
        out.append(Path.home() / ".cache" / "opencompass" / path)
    return out


@dataclass
class RowsFound:
    rows: Any
    origin: str
    files: list[Path] = field(default_factory=list)


def find_rows(cfg: Mapping[str, Any], abbr: str, data: Sequence[DataArg], settings: Settings,
              bases: Sequence[Path]) -> RowsFound:
    """The rows for one dataset; ConfigError when a named file is unreadable."""
    for arg in [*(a for a in data if a.abbr == abbr), *(a for a in data if a.abbr is None)]:
        return RowsFound(read_rows(arg.path), str(arg.path), [arg.path])
    if abbr in settings.data:
        file = settings.data[abbr]
        try:
            return RowsFound(read_rows(file), str(file), [file])
        except ConfigError as exc:
            if exc.file == str(file) and "not found" in exc.message:
                raise ConfigError(f"{SETTINGS_FILE} names {file}, which does not exist",
                                  file=str(settings.path), line=_line_of_settings(settings, abbr),
                                  hint="fix the path (relative to the workbench.toml folder)") from None
            raise
    path = cfg.get("path")
    if isinstance(path, str) and path:
        for candidate in _candidates(path, bases):
            if candidate.is_file() and candidate.suffix.lower() in DATA_SUFFIXES:
                return RowsFound(read_rows(candidate), str(candidate), [candidate])
            if candidate.is_dir():
                try:
                    splits = split_folder(candidate)
                except OSError:
                    splits = None
                if splits:
                    files = sorted(p for p in candidate.iterdir()
                                   if p.is_file() and p.suffix.lower() in DATA_SUFFIXES)
                    return RowsFound(splits, f"{candidate}{os.sep} ({', '.join(splits)})",
                                     files[:MAX_SPLIT_FILES])
    return RowsFound(placeholder_rows(cfg), PLACEHOLDER_ORIGIN)


def _line_of_settings(settings: Settings, abbr: str) -> int | None:
    if settings.path is None:
        return None
    try:
        return _line_of(settings.path.read_text(encoding="utf-8"), abbr)
    except OSError:
        return None
