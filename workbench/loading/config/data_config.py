"""Configs as data: JSON, YAML and TOML files with the structure of a Python config.

A top-level object of names (``datasets``, ``models``, ``gsm8k_datasets``, ...) whose
values are what the Python config would hold, with class names as strings
(``"type": "PromptTemplate"`` or the dotted ``"opencompass.openicl.PromptTemplate"``).
``_base_`` names files to inherit from, merged as mmengine merges them.  Every dict and
list remembers its line, so errors point at the entry that is wrong.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner
import re
from pathlib import Path
from typing import Any, Protocol

from ...core.errors import ConfigError
from ...core.extras import install_hint
from ..files.reading import MAX_CONFIG_BYTES, decoded, read_regular
from .analysis import BASE_KEY
from .bases import BaseRunner, merge_a_into_b, merge_bases


class DataConfigRunner(BaseRunner, Protocol):
    """What reading a data config needs from the executor: merging its bases, and the line
    of every dict and list (so errors point at the entry that is wrong)."""

    def at(self, value: Any, file: str, line: int) -> Any: ...

    def line_of(self, value: Any) -> tuple[Any, ...] | None: ...


class _Lines:
    """Offset → 1-based line number."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


def _decode_text(path: Path) -> str:
    try:
        raw = read_regular(path, MAX_CONFIG_BYTES, "config")
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}", file=str(path)) from None
    return decoded(raw, path, "config is not UTF-8 text", "utf-8-sig")


# -- JSON -----------------------------------------------------------------------------------

class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def read_json(path: Path, text: str, record) -> Any:
    lines = _Lines(text)
    decoder = json.JSONDecoder(object_pairs_hook=_no_duplicates)

    def parse_object(s_and_end, *args: Any, **kwargs: Any):
        start = s_and_end[1] - 1
        try:
            value, end = json.decoder.JSONObject(s_and_end, *args, **kwargs)
        except _Duplicate as dup:
            raise ConfigError(f"duplicate key {dup.key!r} in a JSON object", file=str(path),
                              line=lines(start), hint="each key may appear once per object") from None
        record(value, lines(start))
        return value, end

    def parse_array(s_and_end, scan_once, **kwargs: Any):
        start = s_and_end[1] - 1
        value, end = json.decoder.JSONArray(s_and_end, scan_once)
        record(value, lines(start))
        return value, end

    decoder.parse_object = parse_object
    decoder.parse_array = parse_array
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"invalid JSON: {exc.msg} (column {exc.colno})", file=str(path),
                          line=exc.lineno, hint="check the JSON syntax at that line") from None
    except RecursionError:
        raise ConfigError("the JSON nests too deeply", file=str(path)) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ConfigError(f"invalid JSON: {str(exc).split(';')[0]}", file=str(path)) from None


# -- YAML -----------------------------------------------------------------------------------

def read_yaml(path: Path, text: str, record) -> Any:
    try:
        # lazy: PyYAML (the yaml extra) is needed only for a YAML config
        import yaml
    except ImportError:
        raise ConfigError(
            "reading YAML configs needs PyYAML, which is not installed", file=str(path),
            hint=f"{install_hint('yaml')}, or write the config as JSON/TOML",
        ) from None

    class Loader(yaml.SafeLoader):
        pass

    def construct_map(loader: Any, node: Any):
        data: dict[Any, Any] = {}
        record(data, node.start_mark.line + 1)
        yield data
        loader.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise ConfigError("a YAML mapping key must be a plain value", file=str(path),
                                  line=key_node.start_mark.line + 1) from None
            data[key] = loader.construct_object(value_node, deep=True)

    def construct_seq(loader: Any, node: Any):
        data: list[Any] = []
        record(data, node.start_mark.line + 1)
        yield data
        data.extend(loader.construct_sequence(node, deep=True))

    Loader.add_constructor("tag:yaml.org,2002:map", construct_map)
    Loader.add_constructor("tag:yaml.org,2002:seq", construct_seq)
    try:
        return yaml.load(text, Loader=Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        message = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(f"invalid YAML: {message}", file=str(path), line=line,
                          hint="check the YAML syntax at that line") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", file=str(path)) from None
    except RecursionError:
        raise ConfigError("the YAML nests too deeply", file=str(path)) from None


# -- TOML -----------------------------------------------------------------------------------

_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_ARRAY_TABLE = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]")
_TOML_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
_TOML_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")


def read_toml(path: Path, text: str, record) -> Any:
    # lazy: only a TOML config needs it
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line = None
        where = _TOML_WHERE.search(message)
        if where:
            line = int(where.group(1))
            message = message[: where.start()]
        raise ConfigError(f"invalid TOML: {message}", file=str(path), line=line,
                          hint="check the TOML syntax at that line") from None
    except RecursionError:
        raise ConfigError("the TOML nests too deeply", file=str(path)) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ConfigError(f"invalid TOML: {str(exc).split(';')[0]}", file=str(path)) from None
    # tomllib keeps no positions: top-level names and [[array]] entries by their headers
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        match = _TOML_ARRAY_TABLE.match(raw)
        if match:
            name = match.group(1)
            index = seen.get(name, 0)
            seen[name] = index + 1
            value = data.get(name)
            if isinstance(value, list) and index < len(value):
                if index == 0:
                    record(value, number)
                record(value[index], number)
            continue
        match = _TOML_KEY.match(raw) or _TOML_TABLE.match(raw)
        if match and match.group(1) in data and match.group(1) not in seen:
            seen[match.group(1)] = 0
            value = data[match.group(1)]
            record(value, number)
            if isinstance(value, list):
                for item in value:
                    record(item, number)
    return data


def _key_line(text: str, key: str) -> int:
    """The first line that starts a top-level ``key`` (JSON, YAML or TOML spelling)."""
    pattern = re.compile(r'^\s*(?:"' + re.escape(key) + r'"\s*:|' + re.escape(key) + r"\s*[:=])")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return 1


# -- the config -----------------------------------------------------------------------------

READERS = {".json": read_json, ".yaml": read_yaml, ".yml": read_yaml, ".toml": read_toml}


def read_data_config(path: Path,
                     runner: DataConfigRunner) -> tuple[dict[str, Any], dict[str, tuple[str, int]]]:
    """A data config as the names a Python config would define, plus each name's line."""
    text = _decode_text(path)
    file = str(path)

    def record(value: Any, line: int) -> None:
        runner.at(value, file, line)

    data = READERS[path.suffix.lower()](path, text, record)
    kind = path.suffix.lower().lstrip(".").upper().replace("YML", "YAML")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"a {kind} config must be a mapping of names (datasets, models, ...), "
                          f"got {type(data).__name__}", file=file, line=1,
                          hint='e.g. {"datasets": [...], "models": [...]}')
    lines: dict[str, tuple[str, int]] = {}
    for key, value in data.items():
        where = runner.line_of(value)
        lines[str(key)] = (file, where[1]) if where else (file, _key_line(text, str(key)))
    bases = data.pop(BASE_KEY, None)
    if bases is None:
        return data, lines
    names = bases if isinstance(bases, list) else [bases]
    base_line = lines.get(BASE_KEY, (file, 1))[1]
    if not all(isinstance(n, str) for n in names):
        raise ConfigError("`_base_` must be a file name or a list of file names", file=file,
                          line=base_line, hint='e.g. "_base_": ["datasets.json"]')
    merged, base_lines = merge_bases(runner, path, [(name, base_line) for name in names])
    lines.pop(BASE_KEY, None)
    result = merge_a_into_b(data, merged, lines)
    return dict(result), {**base_lines, **lines}
