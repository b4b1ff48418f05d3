"""Where a dataset's sample rows come from; the first source found wins.

1. ``--data ABBR=FILE`` for that dataset, then ``--data FILE`` for every dataset;
2. a ``workbench.toml`` beside the config: ``[data]`` maps dataset abbrs to files;
3. the dataset's ``path``, resolved as the framework resolves it (data ids through its id
   table, ``$COMPASS_DATA_CACHE``, ``~/.cache/opencompass``; see ``data_paths``), read by
   the native reader of the dataset's class when there is one (``readers``), else by the
   class's own ``load()`` when a framework can be asked (``framework_load``), else as a
   ``.jsonl``/``.json``/``.csv`` file or a folder of split files that holds the reader's
   splits;
4. placeholder rows built from ``reader_cfg``, with a note of where rows were looked for, or
   of what was found and why it could not serve, and the way that would.

For a class with no native reader the files are its own format: the workbench's reading of
them is a guess, so a guess that fails goes on to placeholders and never fails the render.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ...core.spec import AISBENCH, OPENCOMPASS, RowsSource, type_module, type_name
from ..files.reading import MAX_SETTINGS_BYTES, loop_error, read_regular_text
from .data_files import DATA_SUFFIXES, file_version, just_written, read_rows, recording_files
from .data_paths import PathLookup, lookup_data_path
from .framework_load import FrameworkUnavailable, framework_python, framework_rows
from .placeholder_rows import placeholder_rows
from .readers import Declined, ReaderCall, data_argument, find_reader

SETTINGS_FILE = "workbench.toml"
MAX_SPLIT_FILES = 32
MAX_WATCHED_FILES = 256
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


def unknown_data_abbrs(data: Sequence[str], abbrs: Sequence[str]) -> list[str]:
    """``--data ABBR=FILE`` values whose ABBR names none of the datasets, as messages naming
    the ones there are (the rows would otherwise be silently unused)."""
    # lazy: only an unknown --data abbr needs it
    import difflib

    known = sorted(set(abbrs))
    out = []
    for text in data:
        abbr = DataArg.parse(text).abbr
        if abbr is None or abbr in known:
            continue
        close = difflib.get_close_matches(abbr, known, n=1)
        guess = f"did you mean {close[0]!r}? " if close else ""
        out.append(f"--data {text}: no dataset is named {abbr!r} ({guess}datasets: "
                   f"{', '.join(known) or 'none'})")
    return out


@dataclass
class Settings:
    """``workbench.toml`` beside a config: ``[data]`` abbr → rows file."""

    path: Path | None = None
    data: dict[str, Path] = field(default_factory=dict)


#: The last ``workbench.toml`` read per path, with its version: a save of a config reads it again.
_SETTINGS: dict[Path, tuple[tuple[int, ...], Settings]] = {}


def read_settings(folder: Path) -> Settings:
    """The settings file in ``folder`` (empty settings when there is none).

    An unchanged file (its ``file_version``, not just written) gives the very same settings
    as last time without parsing it again: a suite's lists every dataset. Callers never
    modify them."""
    path = folder / SETTINGS_FILE
    version = file_version(path)
    if version is None:
        if not path.is_file():
            return Settings()
    else:
        kept = _SETTINGS.get(path)
        if kept is not None and kept[0] == version:
            return kept[1]
    settings = _parse_settings(folder, path)
    if version is not None and version == file_version(path) and not just_written(version):
        _SETTINGS[path] = (version, settings)
    return settings


def _parse_settings(folder: Path, path: Path) -> Settings:
    # lazy: only a folder with a settings file needs it
    import tomllib

    try:
        text = read_regular_text(path, MAX_SETTINGS_BYTES, "settings")
    except OSError as exc:
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


@dataclass
class RowsFound:
    rows: Any
    origin: str
    files: list[Path] = field(default_factory=list)
    source: RowsSource | None = None


def _data_arg_for(abbr: str, data: Sequence[DataArg]) -> DataArg | None:
    """The ``--data`` value that gives this dataset its rows: ``ABBR=FILE``, else ``FILE``."""
    return next((a for a in data if a.abbr == abbr), None) or next((a for a in data if a.abbr is None), None)


def named_rows_file(abbr: str, data: Sequence[DataArg], settings: Settings) -> Path | None:
    """The file ``find_rows`` reads for this dataset when one is named outright (``--data``,
    then ``workbench.toml``), else None. Nothing is looked up on the way to it, so the same
    name and an unchanged file (its ``file_version``) give the same rows: a reload may keep
    them without finding them again."""
    arg = _data_arg_for(abbr, data)
    return arg.path if arg is not None else settings.data.get(abbr)


def find_rows(cfg: Mapping[str, Any], abbr: str, data: Sequence[DataArg], settings: Settings,
              bases: Sequence[Path], framework: str = OPENCOMPASS,
              python: str | None = None) -> RowsFound:
    """The rows for one dataset; ConfigError when a named file is unreadable."""
    arg = _data_arg_for(abbr, data)
    if arg is not None:
        return RowsFound(read_rows(arg.path), str(arg.path), [arg.path], RowsSource("file", str(arg.path)))
    if abbr in settings.data:
        file = settings.data[abbr]
        try:
            return RowsFound(read_rows(file), str(file), [file], RowsSource("file", str(file)))
        except ConfigError as exc:
            if exc.file == str(file) and "not found" in exc.message:
                raise ConfigError(f"{SETTINGS_FILE} names {file}, which does not exist",
                                  file=str(settings.path), line=_line_of_settings(settings, abbr),
                                  hint="fix the path (relative to the workbench.toml folder)") from None
            raise
    class_name = type_name(cfg.get("type", ""))
    reader = find_reader(class_name, type_module(cfg.get("type", ""))) if class_name else None
    # the load() argument naming the data: `path`, but `data_files` for load_dataset('json', ...)
    key = data_argument(reader, load_kwargs(cfg)) if reader is not None else "path"
    if reader is not None and key is None:
        # a class that makes its rows from its arguments alone (no data files)
        try:
            rows = reader(ReaderCall(load_kwargs(cfg), Path, framework))
        except Declined as exc:
            return _next_route(cfg, class_name, framework, python, PathLookup("", ()), [], exc)
        return RowsFound(rows, f"made as {class_name}.load() makes them", [],
                         RowsSource("native-reader", None, None, class_name))
    path = cfg.get(key or "path")
    if not isinstance(path, str) or not path:
        if class_name and reader is None:
            # a class may make its rows from its other arguments (AISBench's SyntheticDataset)
            return _next_route(cfg, class_name, framework, python, PathLookup("", ()), [])
        return _placeholders(cfg, "the dataset has no path")
    lookup = lookup_data_path(path, framework, bases, class_name=class_name)
    found = lookup.found()
    read = lookup.resolve()
    started = _named_from(read) if found is None and reader is not None else []
    if started:
        # a path that names nothing but starts the names of files: WikiBench and GaokaoBench add
        # their filename to it as strings ('.../wiki_' + 'one.jsonl'); the reader knows which
        try:
            with recording_files(started):
                rows = reader(ReaderCall(load_kwargs(cfg), lookup.resolve, framework))
        except (Declined, ConfigError):
            return _next_route(cfg, class_name, framework, python, lookup, [])
        return RowsFound(rows, f"{read} (read as {class_name}.load() reads it)", started,
                         RowsSource("native-reader", str(read), lookup.data_id, class_name))
    if found is None:
        return _next_route(cfg, class_name, framework, python, lookup, [])
    if reader is not None:
        files = _files_under(found)
        try:
            with recording_files(files):
                rows = reader(ReaderCall(load_kwargs(cfg), lookup.resolve, framework))
        except Declined as exc:
            return _next_route(cfg, class_name, framework, python, lookup, files, exc)
        except ConfigError as exc:
            plain = _plain_rows(found, lookup)
            if plain is None:
                raise
            # a rows file in the workbench's own format under a class that reads another layout:
            # shown as plain rows, and said, since the framework's load() would fail on it
            note = (f"{class_name}.load() cannot read {found} ({exc.message}); its rows are shown "
                    "as a plain rows file, but a run of the framework fails here")
            return replace(plain, source=replace(plain.source, note=note))
        return RowsFound(rows, f"{found} (read as {class_name}.load() reads it)", files,
                         RowsSource("native-reader", str(found), lookup.data_id, class_name))
    if not class_name:
        # no class: the path names rows in the workbench's own format, and an unreadable one is an error
        plain = _plain_rows(found, lookup)
        if plain is not None:
            return plain
        return _placeholders(cfg, f"{lookup.describe()} (found {found}, but no rows file the workbench "
                                  "can read)")
    return _next_route(cfg, class_name, framework, python, lookup, _files_under(found))


def _named_from(prefix: Path) -> list[Path]:
    """The files whose names start with ``prefix``'s last part, in its folder (at most 64)."""
    folder, start = prefix.parent, prefix.name
    if not start or not folder.is_dir():
        return []
    try:
        found = sorted(p for p in folder.iterdir() if p.name.startswith(start) and p.is_file())
    except OSError:
        return []
    return found[:64]


def _next_route(cfg: Mapping[str, Any], class_name: str, framework: str, python: str | None,
                lookup: PathLookup, files: list[Path], declined: Declined | None = None) -> RowsFound:
    """The rows of a class no native reader reads (or one that declined): the framework's own
    ``load()`` when a framework is installed or named; else, or when it cannot be asked, the
    found path read as a rows file or a folder of split files when that gives the rows the
    reader needs; else placeholders. What was tried is said once, with the way that would work."""
    reasons = [declined.message] if declined else []
    interpreter = framework_python(framework, python) if class_name else None
    if interpreter is not None:
        try:
            return _framework(cfg, class_name, framework, interpreter, lookup, files)
        except FrameworkUnavailable as exc:
            reasons.append(exc.message)
    found = lookup.found()
    if found is not None and declined is None:
        unreadable = None
        try:
            plain = _plain_rows(found, lookup, _splits_for(cfg))
        except ConfigError as exc:
            plain, unreadable = None, exc.located()
        if plain is not None:
            if reasons:
                note = (f"{'; '.join(reasons)}: {found} is shown as a plain rows file, which may "
                        f"differ from what {class_name}.load() makes of it")
                plain = replace(plain, source=replace(plain.source, note=note))
            return plain
        reasons.append(f"found {found}, but no native reader for {class_name}, and "
                       + (f"as a rows file: {unreadable}" if unreadable else
                          "no rows file or folder of split files holding the reader's splits "
                          f"({' and '.join(dict.fromkeys(_splits_for(cfg)))})"))
    if not reasons and not lookup.candidates:
        reasons.append(f"the dataset has no path, and no native reader makes {class_name}'s rows")
    if not reasons:
        return _placeholders(cfg, lookup.describe())
    named = _FRAMEWORK_NAMES.get(framework, framework)
    way = (declined.hint if declined is not None and declined.hint else
           f"--framework-python PATH runs {class_name}.load() in a Python where {named} imports, or "
           "give the rows with --data FILE" if class_name else "give the rows with --data FILE")
    where = "" if found is not None or not lookup.candidates else f" (looked for {lookup.describe()})"
    note = f"{'; '.join(reasons)}{where}: showing placeholders from reader_cfg (hint: {way})"
    return RowsFound(placeholder_rows(cfg), PLACEHOLDER_ORIGIN, source=RowsSource("placeholder", note=note))


_FRAMEWORK_NAMES = {OPENCOMPASS: "OpenCompass", AISBENCH: "AISBench"}


def _framework(cfg: Mapping[str, Any], class_name: str, framework: str, interpreter: str,
               lookup: PathLookup, files: list[Path]) -> RowsFound:
    with recording_files(files):
        rows = framework_rows(interpreter, framework, class_name, init_kwargs(cfg), files,
                              module=type_module(cfg.get("type", "")), cwd=lookup.working_folder())
    where = str(lookup.found() or lookup.written)
    return RowsFound(rows, f"{where} (from {class_name}.load() in {interpreter})", files,
                     RowsSource("framework-load", where, lookup.data_id, class_name))


def _splits_for(cfg: Mapping[str, Any]) -> tuple[str, str]:
    """The (train, test) splits the dataset's reader takes rows from."""
    reader = cfg.get("reader_cfg")
    reader = reader if isinstance(reader, Mapping) else {}
    return str(reader.get("train_split", "train")), str(reader.get("test_split", "test"))


def _plain_rows(found: Path, lookup: PathLookup, splits: tuple[str, str] | None = None) -> RowsFound | None:
    """``found`` read as the workbench's own rows file or folder of split files; None when it
    is neither, or (with ``splits``, the reader's) when what it holds names no split the
    reader can take (a folder of per-subject files is not a folder of splits)."""
    kind = "data-id" if lookup.data_id else "file"
    looping = loop_error(found)  # (neither a file nor a folder, whatever its name)
    if looping is not None:
        raise looping
    # a rows file's name that is not a regular file (a FIFO, a device) is refused by read_rows
    if not found.is_dir() and found.suffix.lower() in DATA_SUFFIXES:
        rows = read_rows(found)
        if not _has_splits(rows, splits):
            return None
        return RowsFound(rows, str(found), [found], RowsSource(kind, str(found), lookup.data_id))
    if found.is_dir():
        try:
            splits_found = split_folder(found)
        except OSError:
            splits_found = None
        if splits_found and _has_splits(splits_found, splits):
            files = sorted(p for p in found.iterdir() if p.is_file() and p.suffix.lower() in DATA_SUFFIXES)
            return RowsFound(splits_found, f"{found}{os.sep} ({', '.join(splits_found)})",
                             files[:MAX_SPLIT_FILES], RowsSource(kind, str(found), lookup.data_id))
    return None


def _has_splits(rows: Any, splits: tuple[str, str] | None) -> bool:
    """Whether the reader finds both its splits in ``rows`` (a list serves as every split;
    a ``{split: rows}`` needs each split, or ``train``/``test`` in its place, as
    ``build_splits`` takes them)."""
    if splits is None or not isinstance(rows, Mapping):
        return True
    return all(wanted in rows or fallback in rows for wanted, fallback in zip(splits, ("train", "test")))


def init_kwargs(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """What the dataset class is built with: the dataset dict less what
    ``build_dataset_from_cfg`` pops (``infer_cfg``, ``eval_cfg``) and the class itself."""
    return {key: value for key, value in cfg.items() if key not in ("type", "infer_cfg", "eval_cfg")}


def load_kwargs(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments a dataset class's ``load()`` receives: the dataset dict less what
    ``build_dataset_from_cfg`` and ``BaseDataset.__init__`` take for themselves."""
    return {key: value for key, value in cfg.items() if key not in _NOT_FOR_LOAD}


_NOT_FOR_LOAD = frozenset({"type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "k", "n",
                           "task_state_manager"})


def _files_under(found: Path) -> list[Path]:
    """The files a reader may have read at or below ``found`` (two levels: per-subject files,
    splits in sub-folders), watched for changes; bounded."""
    if found.is_file():
        return [found]
    files: list[Path] = []
    for root, folders, names in os.walk(found):
        depth = len(Path(root).relative_to(found).parts)
        folders[:] = sorted(folders) if depth < 2 else []
        files += [Path(root) / name for name in sorted(names)]
        if len(files) >= MAX_WATCHED_FILES:
            break
    return files[:MAX_WATCHED_FILES]


def _placeholders(cfg: Mapping[str, Any], looked_for: str) -> RowsFound:
    return RowsFound(placeholder_rows(cfg), PLACEHOLDER_ORIGIN,
                     source=RowsSource("placeholder", looked_for=looked_for))


def _line_of_settings(settings: Settings, abbr: str) -> int | None:
    if settings.path is None:
        return None
    try:
        return _line_of(settings.path.read_text(encoding="utf-8"), abbr)
    except OSError:
        return None
