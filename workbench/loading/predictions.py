"""One (model, dataset) pair's predictions read as OpenCompass 0.5.4's evaluation task reads them
(``OpenICLEvalTask._load_predictions``), for ``extract``.

``predictions/<model abbr>/<dataset abbr>.json`` when it exists: every record ``"0"`` ..
``"<n-1>"`` in order, ``n`` the file's number of keys (a key missing from that range fails the
task: KeyError). Otherwise the partial files ``<abbr>_0.json``, ``_1.json``, ... in order until
one is absent; a partial file the task cannot read is logged and ends the reading there (the
records before it are evaluated), which is said as a warning. Neither file: the task fails.

Unlike ``run_folder`` (which ``verify`` reads by sample index), the order and the failures here
are the task's own. Files are read within ``run_folder.MAX_PREDICTION_BYTES``.

May import: the core, loading/files and ``run_folder``; not views or a front end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from .files.reading import read_regular_text
from .run_folder import MAX_PREDICTION_BYTES


@dataclass
class PairPredictions:
    """The records in the task's order as ``(index, record)``: ``index`` the sample's position
    (for a whole file, the file's own key)."""

    model: str
    dataset: str
    records: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    #: Where each record is written: its file and its key there (for a located error).
    origins: list[tuple[Path, str]] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    #: Why the real task cannot read these predictions (the pair then fails).
    error: ConfigError | None = None
    warnings: list[str] = field(default_factory=list)


def key_line(text: str, key: str) -> int | None:
    """The line a top-level record key is written on (json.dump writes one key a line)."""
    at = text.find(json.dumps(key) + ":")
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def _load(file: Path) -> tuple[list[tuple[int, Mapping[str, Any]]], str]:
    """A prediction file's records ``"0"``..``"<n-1>"``, as the task indexes them; ConfigError
    where the task fails (not JSON, not an object, a key missing, a record not an object)."""
    text = read_regular_text(file, MAX_PREDICTION_BYTES, "prediction")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"prediction file is not valid JSON ({exc.msg}): truncated by a stopped run?",
                          file=str(file), line=exc.lineno,
                          hint="re-run the inference for this pair") from None
    except RecursionError:
        raise ConfigError("prediction JSON nested too deep to read", file=str(file)) from None
    if not isinstance(data, dict):
        raise ConfigError(f"prediction file holds a {type(data).__name__}, not an object of numbered "
                          "records", file=str(file), hint='OpenCompass writes {"0": {...}, "1": ...}')
    records = []
    for i in range(len(data)):
        record = data.get(str(i))
        if str(i) not in data:
            strays = [k for k in data if not (k.isdigit() and int(k) < len(data) and str(int(k)) == k)]
            raise ConfigError(f"record {str(i)!r} is missing ({len(data)} records, so the task reads "
                              f"\"0\"..\"{len(data) - 1}\"; stray keys: {', '.join(map(repr, strays[:3]))}): "
                              "its preds[str(i)] raises KeyError", file=str(file),
                              line=key_line(text, strays[0]) if strays else None)
        if not isinstance(record, Mapping):
            raise ConfigError(f"record {str(i)!r} is a {type(record).__name__}, not an object: the task "
                              "fails on it", file=str(file), line=key_line(text, str(i)))
        records.append((i, record))
    return records, text


def record_line(file: Path, key: str) -> int | None:
    """The line record ``key`` starts on in ``file`` (None when the file cannot be read again)."""
    try:
        return key_line(read_regular_text(file, MAX_PREDICTION_BYTES, "prediction"), key)
    except (ConfigError, OSError):
        return None


def read_pair_predictions(run: Path, model: str, dataset: str) -> PairPredictions:
    pair = PairPredictions(model, dataset)
    folder = run / "predictions" / model
    whole, first = folder / f"{dataset}.json", folder / f"{dataset}_0.json"
    if not whole.exists() and not first.exists():
        pair.error = ConfigError(f"no predictions for {model} × {dataset}: neither {whole.name} nor "
                                 f"{first.name} exists (the task fails: FileNotFoundError)", file=str(folder),
                                 hint="the inference of this pair did not run or did not finish")
        return pair
    if whole.exists():
        try:
            records, _ = _load(whole)
        except ConfigError as exc:
            pair.error = exc
            return pair
        pair.files.append(whole)
        pair.records = [(str(i), r) for i, r in records]
        pair.origins = [(whole, str(i)) for i, _ in records]
        return pair
    k, file = 0, first
    while file.exists():
        try:
            records, _ = _load(file)
        except ConfigError as exc:
            pair.warnings.append(f"{exc.file}{':' + str(exc.line) if exc.line else ''}: {exc.message}: "
                                 f"OpenCompass logs it and evaluates only the {len(pair.records)} records "
                                 "of the partial files before it")
            break
        pair.files.append(file)
        start = len(pair.records)
        pair.records += [(str(start + i), r) for i, r in records]
        pair.origins += [(file, str(i)) for i, _ in records]
        k += 1
        file = folder / f"{dataset}_{k}.json"
    later = sorted(int(p.stem.rsplit("_", 1)[1]) for p in folder.glob(f"{dataset}_*.json")
                   if p.stem.rsplit("_", 1)[1].isdigit() and int(p.stem.rsplit("_", 1)[1]) > k)
    if later and file == folder / f"{dataset}_{k}.json" and not file.exists():
        pair.warnings.append(f"{folder / (dataset + f'_{k}.json')} is missing but _{later[0]} exists: "
                             "OpenCompass stops reading at the gap and evaluates "
                             f"{len(pair.records)} records (its evaluation fails if the test set has more)")
    return pair
