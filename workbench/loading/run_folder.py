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
``_details.jsonl``; neither holds prompts to compare). A multi-turn conversation is a line per
turn, all with the sample's ``id`` and the conversation's ``uuid``, in turn order.

A file, line or record that cannot be read is one located problem of the run; the rest is read
(``verify`` compares it, ``--run`` uses it).

May import: the core and every loading folder (config, rows, models, files); not views or a front
end.
"""

from __future__ import annotations

import glob
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.verify import answer_slots, conversations
from .files.reading import read_regular_text
from .rows.data_files import file_version

_SHARD = re.compile(r"^(?P<abbr>.+)_(?P<k>\d+)$")
MAX_PREDICTION_BYTES = 512 * 1024**2
_TOO_DEEP = "prediction JSON nested too deep to read (not a record either framework writes): skipped"


@dataclass
class RecordedPair:
    """One model × dataset's records, by sample index in the whole test split.

    A sample's records are a list: OpenCompass writes one per sample; AISBench a line per
    request, so a multi-turn conversation is a line per turn and a repeated sample (``n``,
    pass@k) a line per draw, all under the sample's ``id`` in the order they were written.
    """

    model: str
    dataset: str
    records: dict[int, list[Mapping[str, Any]]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    #: Shards missing between the ones present (their samples count as missing).
    shard_gaps: list[int] = field(default_factory=list)
    #: AISBench's layout: a line per request (``<abbr>.jsonl``), not a record per sample.
    per_request: bool = False


@dataclass
class RecordedRun:
    folder: Path
    config: Path | None
    pairs: dict[tuple[str, str], RecordedPair] = field(default_factory=dict)
    #: What could not be read (a file, a line, a record), one located error each; the rest
    #: of the run is read all the same.
    problems: list[ConfigError] = field(default_factory=list)


def read_run(folder: Path) -> RecordedRun:
    """The run in ``folder``; ConfigError (file, line) when it cannot be read at all. A prediction
    file, line or record that cannot be read is one of ``problems``; the rest is read."""
    if not folder.is_dir():
        raise ConfigError(f"run folder not found: {folder}", file=str(folder),
                          hint="give the run's folder, e.g. outputs/default/20241124_120000")
    predictions = folder / "predictions"
    config = _saved_config(folder)
    if not predictions.is_dir() and config and _has_task_logs(folder):
        # AISBench makes predictions/ when a task writes its first one: its tasks ran and failed
        return RecordedRun(folder, config)
    if not predictions.is_dir():
        raise ConfigError(f"{folder} has no predictions/ folder: not an OpenCompass run (or it has not "
                          "started inference yet)", file=str(folder),
                          hint="give the timestamped folder under the work_dir")
    run = RecordedRun(folder, config)
    for model_dir in sorted(p for p in predictions.iterdir() if p.is_dir()):
        groups: dict[str, dict[int, Path]] = {}
        for file in sorted(model_dir.glob("*.jsonl")):
            if not file.name.startswith("tmp_") and not file.stem.endswith(("_failed", "_details")):
                pair = RecordedPair(model_dir.name, file.stem, _jsonl_records(file, run.problems), [file],
                                    per_request=True)
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
            run.pairs[(model_dir.name, dataset)] = _read_pair(model_dir.name, dataset, files, run.problems)
    if not run.pairs and not run.problems and not (config and _has_task_logs(folder)):
        raise ConfigError(f"{predictions} holds no prediction files", file=str(predictions),
                          hint="the run wrote no predictions yet: wait for inference, or check the folder")
    # no predictions, but the inference tasks wrote their logs: they ran and wrote nothing (each
    # pair of the config is then reported with the failure its log ends with)
    return run


def _has_task_logs(folder: Path) -> bool:
    """Whether an inference task wrote its log (``logs/infer/<model>/<dataset>.out``): it ran."""
    logs = folder / "logs" / "infer"
    return logs.is_dir() and any(logs.glob("*/*.out"))


#: The most of a task's log read for its failure (its end: the traceback is last).
MAX_LOG_TAIL = 64 * 1024
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_RAISED = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Failure)\b(?::.*)?)$", re.M)


def task_failure(folder: Path, model: str, dataset: str) -> tuple[Path, str] | None:
    """The exception an inference task's log ends with (``logs/infer/<model>/<dataset>.out``, or
    a shard's ``<dataset>_<n>.out``) and that log; None: no log, or none that ends in one."""
    logs = folder / "logs" / "infer" / model
    if not logs.is_dir():
        return None
    shards = sorted(p for p in logs.glob(f"{glob.escape(dataset)}_*.out")
                    if p.stem[len(dataset) + 1:].isdigit())
    for log in [logs / f"{dataset}.out", *shards]:
        if not log.is_file():
            continue
        with open(log, "rb") as f:  # a run folder is untrusted: its end only, bounded
            f.seek(max(0, log.stat().st_size - MAX_LOG_TAIL))
            tail = f.read(MAX_LOG_TAIL).decode("utf-8", "replace")
        found = _RAISED.findall(_ANSI.sub("", tail))  # AISBench colours its errors
        if found:
            line = found[-1].strip()
            return log, line if len(line) <= 300 else line[:297] + "..."
    return None


def _saved_config(folder: Path) -> Path | None:
    configs = sorted((folder / "configs").glob("*.py")) if (folder / "configs").is_dir() else []
    return configs[-1] if configs else None


def _read_pair(model: str, dataset: str, files: Mapping[int, Path],
               problems: list[ConfigError]) -> RecordedPair:
    pair = RecordedPair(model, dataset)
    if -1 in files:
        pair.files.append(files[-1])
        for key, record in _records(files[-1], problems).items():
            pair.records[key] = [record]
        return pair
    shards = sorted(files)
    first = _records(files[shards[0]], problems) if shards[0] == 0 else None
    size = len(first) if first else None  # an unreadable shard 0 says no more than a missing one
    for k in range(shards[-1] + 1):
        if k not in files:
            pair.shard_gaps.append(k)
            continue
        records = first if k == 0 and first is not None else _records(files[k], problems)
        pair.files.append(files[k])
        if size is None:  # shard 0 missing: where the others start is unknown
            pair.shard_gaps.append(k)
            continue
        for key, record in records.items():
            pair.records[k * size + key] = [record]
    return pair


def _jsonl_records(file: Path, problems: list[ConfigError]) -> dict[int, list[Mapping[str, Any]]]:
    """AISBench's lines, by their ``id``, in the order written (lines come in the order requests
    finished; a conversation's turns in turn order, since turn k+1 is asked after turn k)."""
    records: dict[int, list[Mapping[str, Any]]] = {}
    text = _text(file, problems)
    for number, line in enumerate((text or "").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(ConfigError(
                f"prediction line is not valid JSON ({exc.msg}): truncated by a stopped run?",
                file=str(file), line=number, hint="re-run the inference for this pair, or remove the line"))
            continue
        except RecursionError:
            problems.append(ConfigError(_TOO_DEEP, file=str(file), line=number))
            continue
        if not isinstance(record, Mapping) or not isinstance(record.get("id"), int) \
                or isinstance(record.get("id"), bool):
            problems.append(ConfigError(
                "prediction line has no integer id: skipped", file=str(file), line=number,
                hint='AISBench writes {"data_abbr": ..., "id": 0, "origin_prompt": ...}'))
            continue
        records.setdefault(record["id"], []).append(record)
    return records


def _text(file: Path, problems: list[ConfigError]) -> str | None:
    try:
        return read_regular_text(file, MAX_PREDICTION_BYTES, "prediction")
    except ConfigError as exc:
        problems.append(ConfigError(f"{exc.message}: its records are not read", file=exc.file or str(file),
                                    line=exc.line, hint=exc.hint))
    except OSError as exc:
        problems.append(ConfigError(f"cannot read prediction file: {exc.strerror or exc}", file=str(file)))
    return None


def _records(file: Path, problems: list[ConfigError]) -> dict[int, Mapping[str, Any]]:
    text = _text(file, problems)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(ConfigError(
            f"prediction file is not valid JSON ({exc.msg}): truncated by a stopped run?",
            file=str(file), line=exc.lineno, hint="re-run the inference for this pair, or remove the file"))
        return {}
    except RecursionError:
        problems.append(ConfigError(_TOO_DEEP, file=str(file)))
        return {}
    if not isinstance(data, Mapping) or not all(isinstance(k, str) and k.isdigit() for k in data):
        problems.append(ConfigError("prediction file is not an object of numbered records", file=str(file),
                                    hint='OpenCompass writes {"0": {"origin_prompt": ...}, "1": ...}'))
        return {}
    records = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            records[int(key)] = value
        else:
            problems.append(ConfigError(f"record {key!r} is not an object: skipped", file=str(file),
                                        line=_line_of_key(text, key)))
    return records


def _line_of_key(text: str, key: str) -> int | None:
    """The line a top-level record key is written on (json.dump writes one key a line)."""
    at = text.find(json.dumps(key) + ":")
    return text.count("\n", 0, at) + 1 if at >= 0 else None


class RecordedOutputs:
    """The run's model outputs as a prediction lookup ``(dataset, model, index, turn) -> text``
    (None: the run recorded no answer for that turn; see :func:`recorded_answer`), which also
    says whether the run has any record of a sample (so a missing turn and a missing sample are
    told apart)."""

    def __init__(self, run: RecordedRun) -> None:
        self.run = run

    def _records(self, dataset: str, model: str | None, index: int) -> tuple[RecordedPair | None, Any]:
        pair = self.run.pairs.get((model or "", dataset))
        return pair, (pair.records.get(index) if pair is not None else None)

    def __call__(self, dataset: str, model: str | None, index: int, turn: int) -> str | None:
        pair, records = self._records(dataset, model, index)
        if pair is None or not records:
            return None
        return recorded_answer(records, turn, pair.per_request)

    def recorded(self, dataset: str, model: str | None, index: int) -> bool:
        return bool(self._records(dataset, model, index)[1])


def recorded_outputs(run: RecordedRun) -> RecordedOutputs:
    return RecordedOutputs(run)


def recorded_answer(records: list[Mapping[str, Any]], turn: int, per_request: bool) -> str | None:
    """The answer to ``turn`` (0-based) in one sample's records, None when none is recorded.

    - AISBench (a line per request): the ``prediction`` of the first conversation's line ``turn``
      (a failed turn has no line, and ends its conversation);
    - OpenCompass, ``prediction`` a list: a string per turn (ChatInferencer), every assistant
      message's content (GenInferencer multiround: its ``origin_prompt``, the chat before any
      answer, says which were answered), or ChatInferencer's dialogue mode,
      ``{"round", "user", "assistant"}`` per round;
    - any other record: its ``prediction`` answers its one request (turn 0).
    """
    if per_request:
        first = conversations(records)[0]
        answer = first[turn].get("prediction") if 0 <= turn < len(first) else None
        return answer if isinstance(answer, str) else None
    prediction = records[0].get("prediction")
    if isinstance(prediction, list):
        # GenInferencer(multiround=True): every assistant message's content, given ones too
        slots = answer_slots(records[0].get("origin_prompt"))
        if slots is not None:
            turn = slots[turn] if 0 <= turn < len(slots) else -1
        answer = prediction[turn] if 0 <= turn < len(prediction) else None
        if isinstance(answer, Mapping):  # dialogue mode: round k+1's assistant is turn k's answer
            answer = answer.get("assistant")
    else:
        answer = prediction if turn == 0 else None
    return answer if isinstance(answer, str) else None


def problem_text(problem: ConfigError) -> str:
    """A problem of the run as a warning: ``file:line: message (hint: ...)``."""
    where = f"{problem.file}:{problem.line}" if problem.line else str(problem.file)
    return f"--run: {where}: {problem.message}" + (f" (hint: {problem.hint})" if problem.hint else "")


_OUTPUTS: dict[Path, tuple[Any, Any]] = {}


def run_outputs(folder: Path) -> tuple[Any, list[ConfigError]]:
    """``recorded_outputs`` of the run in ``folder`` and what of it could not be read, the same
    lookup while its prediction files are unchanged (render caches key on it); ConfigError when
    the run cannot be read at all."""
    predictions = folder / "predictions"
    files = sorted([*predictions.glob("*/*.json"), *predictions.glob("*/*.jsonl")]) \
        if predictions.is_dir() else []
    key = tuple((str(f), file_version(f)) for f in files)
    hit = _OUTPUTS.get(folder)
    if hit is not None and hit[0] == key:
        return hit[1]
    run = read_run(folder)
    found = (recorded_outputs(run), run.problems)
    _OUTPUTS[folder] = (key, found)
    return found
