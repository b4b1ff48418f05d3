"""A finished or partial OpenCompass run, as ``opencompass`` writes it, read for ``verify``.

``<run>/configs/<time>_<pid>.py`` is the config the run used (mmengine's dump: plain dicts,
``type`` as dotted strings); ``<run>/predictions/<model abbr>/<dataset abbr>.json`` holds
one record per test sample (``"0"``, ``"1"``, ...), with ``origin_prompt`` (what the model
got), ``prediction`` and ``gold``; PPL records hold ``label: X`` entries with the ``prompt``
of each label. A dataset the size partitioner split is written as ``<abbr>_0.json``,
``<abbr>_1.json``, ..., each numbered from 0 over its slice of the test split.

AISBench writes ``predictions/<model abbr>/<dataset abbr>.jsonl`` instead: one JSON object a
line, in the order requests finished, each with the sample's ``id``, ``origin_prompt`` and
``prediction`` (failed requests go to ``_failed.jsonl``, performance runs to
``_details.jsonl``; neither holds prompts to compare).

May import: the core and every loading folder (config, rows, models, files); not views or a front
end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from .files.reading import read_regular_text
from .rows.data_files import file_version

_SHARD = re.compile(r"^(?P<abbr>.+)_(?P<k>\d+)$")
MAX_PREDICTION_BYTES = 512 * 1024**2


@dataclass
class RecordedPair:
    """One model × dataset's records, by sample index in the whole test split."""

    model: str
    dataset: str
    records: dict[int, Mapping[str, Any]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    #: Shards missing between the ones present (their samples count as missing).
    shard_gaps: list[int] = field(default_factory=list)


@dataclass
class RecordedRun:
    folder: Path
    config: Path | None
    pairs: dict[tuple[str, str], RecordedPair] = field(default_factory=dict)


def read_run(folder: Path) -> RecordedRun:
    """The run in ``folder``; ConfigError (file, line) when it cannot be read."""
    if not folder.is_dir():
        raise ConfigError(f"run folder not found: {folder}", file=str(folder),
                          hint="give the run's folder, e.g. outputs/default/20241124_120000")
    predictions = folder / "predictions"
    if not predictions.is_dir():
        raise ConfigError(f"{folder} has no predictions/ folder: not an OpenCompass run (or it has not "
                          "started inference yet)", file=str(folder),
                          hint="give the timestamped folder under the work_dir")
    run = RecordedRun(folder, _saved_config(folder))
    for model_dir in sorted(p for p in predictions.iterdir() if p.is_dir()):
        groups: dict[str, dict[int, Path]] = {}
        for file in sorted(model_dir.glob("*.jsonl")):
            if not file.name.startswith("tmp_") and not file.stem.endswith(("_failed", "_details")):
                pair = RecordedPair(model_dir.name, file.stem, _jsonl_records(file), [file])
                run.pairs[(model_dir.name, file.stem)] = pair
        for file in sorted(model_dir.glob("*.json")):
            if file.name.startswith("tmp_"):
                continue
            match = _SHARD.match(file.stem)
            whole, shard = (file.stem, -1) if not match else (match["abbr"], int(match["k"]))
            if shard >= 0 and (model_dir / f"{whole}.json").exists():
                whole, shard = file.stem, -1  # an abbr that ends in _<n> of its own
            groups.setdefault(whole, {})[shard] = file
        for dataset, files in groups.items():
            run.pairs[(model_dir.name, dataset)] = _read_pair(model_dir.name, dataset, files)
    if not run.pairs:
        raise ConfigError(f"{predictions} holds no prediction files", file=str(predictions),
                          hint="the run wrote no predictions yet: wait for inference, or check the folder")
    return run


def _saved_config(folder: Path) -> Path | None:
    configs = sorted((folder / "configs").glob("*.py")) if (folder / "configs").is_dir() else []
    return configs[-1] if configs else None


def _read_pair(model: str, dataset: str, files: Mapping[int, Path]) -> RecordedPair:
    pair = RecordedPair(model, dataset)
    if -1 in files:
        pair.files.append(files[-1])
        for key, record in _records(files[-1]).items():
            pair.records[key] = record
        return pair
    shards = sorted(files)
    first = _records(files[shards[0]]) if shards[0] == 0 else None
    size = len(first) if first is not None else None
    for k in range(shards[-1] + 1):
        if k not in files:
            pair.shard_gaps.append(k)
            continue
        records = first if k == 0 and first is not None else _records(files[k])
        pair.files.append(files[k])
        if size is None:  # shard 0 missing: where the others start is unknown
            pair.shard_gaps.append(k)
            continue
        for key, record in records.items():
            pair.records[k * size + key] = record
    return pair


def _jsonl_records(file: Path) -> dict[int, Mapping[str, Any]]:
    """AISBench's records, by their ``id`` (lines come in the order requests finished)."""
    records: dict[int, Mapping[str, Any]] = {}
    for number, line in enumerate(_text(file).splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"prediction line is not valid JSON ({exc.msg}): truncated by a stopped run?",
                              file=str(file), line=number,
                              hint="re-run the inference for this pair, or remove the line") from None
        if not isinstance(record, Mapping) or not isinstance(record.get("id"), int):
            raise ConfigError("prediction line has no integer id", file=str(file), line=number,
                              hint='AISBench writes {"data_abbr": ..., "id": 0, "origin_prompt": ...}')
        records[record["id"]] = record
    return records


def _text(file: Path) -> str:
    try:
        return read_regular_text(file, MAX_PREDICTION_BYTES, "prediction")
    except OSError as exc:
        raise ConfigError(f"cannot read prediction file: {exc}", file=str(file)) from None


def _records(file: Path) -> dict[int, Mapping[str, Any]]:
    text = _text(file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"prediction file is not valid JSON ({exc.msg}): truncated by a stopped run?",
                          file=str(file), line=exc.lineno,
                          hint="re-run the inference for this pair, or remove the file") from None
    if not isinstance(data, Mapping) or not all(isinstance(k, str) and k.isdigit() for k in data):
        raise ConfigError("prediction file is not an object of numbered records", file=str(file),
                          hint='OpenCompass writes {"0": {"origin_prompt": ...}, "1": ...}')
    return {int(key): value for key, value in data.items() if isinstance(value, Mapping)}


def recorded_outputs(run: RecordedRun):
    """The run's model outputs as a prediction lookup ``(dataset, model, index, turn) -> text``:
    a multi-round record's ``prediction`` is a list, one answer a turn; any other record's is
    the answer to its one request (turn 0)."""

    def lookup(dataset: str, model: str | None, index: int, turn: int) -> str | None:
        pair = run.pairs.get((model or "", dataset))
        record = pair.records.get(index) if pair is not None else None
        if record is None:
            return None
        prediction = record.get("prediction")
        if isinstance(prediction, list):
            answer = prediction[turn] if 0 <= turn < len(prediction) else None
        else:
            answer = prediction if turn == 0 else None
        return answer if isinstance(answer, str) else None

    return lookup


_OUTPUTS: dict[Path, tuple[Any, Any]] = {}


def run_outputs(folder: Path):
    """``recorded_outputs`` of the run in ``folder``, the same lookup while its prediction files
    are unchanged (render caches key on it); ConfigError when the run cannot be read."""
    files = sorted((folder / "predictions").glob("*/*.json")) if (folder / "predictions").is_dir() else []
    key = tuple((str(f), file_version(f)) for f in files)
    hit = _OUTPUTS.get(folder)
    if hit is not None and hit[0] == key:
        return hit[1]
    lookup = recorded_outputs(read_run(folder))
    _OUTPUTS[folder] = (key, lookup)
    return lookup
