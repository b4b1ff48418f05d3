"""The run's answers for the answers view: ``workbench extract RUN_DIR`` run as a child.

``extract`` already runs each pair's postprocessors in a bounded child (a pattern that
backtracks forever over a model's output ends that pair, not the program) and speaks a JSON
contract (``prompt-workbench/extract@1``); the app reads that document
instead of repeating the machinery, and keeps it while the run's prediction files and the
configs are unchanged. The extraction uses the config the run saved (what it was scored
with); a run folder without one is read with the app's first config.

May import: views, loading, the core and the other tui modules; not headless, commands or ``cli``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..loading.rows.data_files import file_version
from ..views.answers import PairVerdicts, RunAnswers, SampleVerdict

#: The most the whole extraction may take (each pair is bounded again inside, at 60 s).
TIMEOUT = 300.0
#: The most of its output read back (the document of a very large run).
MAX_OUTPUT = 512 * 1024**2

_CACHE: dict[tuple, RunAnswers] = {}
_LOCK = threading.Lock()


def _key(run: Path, configs: Sequence[str]) -> tuple:
    folder = run / "predictions"
    files = sorted(folder.glob("*/*.json")) if folder.is_dir() else []
    saved = sorted((run / "configs").glob("*.py")) if (run / "configs").is_dir() else []
    return (str(run.resolve()), tuple((str(f), file_version(f)) for f in [*files, *saved]),
            tuple((c, file_version(Path(c))) for c in configs))


def run_answers(run_dir: str, configs: Sequence[str]) -> RunAnswers:
    """What ``extract`` makes of the run (a problem instead when it cannot say)."""
    run = Path(run_dir)
    key = _key(run, configs)
    with _LOCK:
        found = _CACHE.get(key)
    if found is not None:
        return found
    made = _extract(run, configs)
    with _LOCK:
        _CACHE.clear()  # one run per app: the newest version is the one kept
        _CACHE[key] = made
    return made


def _extract(run: Path, configs: Sequence[str]) -> RunAnswers:
    saved = (run / "configs").is_dir() and any((run / "configs").glob("*.py"))
    argv = [sys.executable, "-m", "workbench", "extract", str(run), "--format", "json"]
    if not saved and configs:
        argv += ["--config", configs[0]]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return RunAnswers(problem=f"workbench extract took more than {TIMEOUT:.0f} s")
    except OSError as exc:
        return RunAnswers(problem=f"workbench extract could not start: {exc}")
    if len(done.stdout) > MAX_OUTPUT:
        return RunAnswers(problem="workbench extract wrote more than 512 MiB")
    try:
        document = json.loads(done.stdout.decode("utf-8", "replace"))
    except ValueError:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return RunAnswers(problem=said[-1] if said else f"workbench extract exited {done.returncode}")
    return answers_of(document)


def answers_of(document: Mapping[str, Any]) -> RunAnswers:
    """The extract@1 document as the views hold it: verdicts by (dataset, model) and sample."""
    pairs: dict[tuple[str, str], PairVerdicts] = {}
    warnings: dict[tuple[str, str], list[str]] = {}
    general: list[str] = []
    for text in document.get("warnings") or ():
        if isinstance(text, str) and text.startswith("[") and "] " in text:
            head, _, message = text[1:].partition("] ")
            dataset, _, model = head.partition(" × ")
            warnings.setdefault((dataset, model), []).append(message)
        elif isinstance(text, str):
            general.append(text)
    for pair in document.get("pairs") or ():
        key = (str(pair.get("dataset")), str(pair.get("model")))
        samples = {}
        for position, sample in enumerate(pair.get("samples") or ()):
            index = sample.get("index")
            number = int(index) if isinstance(index, str) and index.isdigit() else position
            samples[number] = SampleVerdict(sample.get("extracted"), sample.get("gold"),
                                            sample.get("correct"), sample.get("match"),
                                            sample.get("prediction"))
        pairs[key] = PairVerdicts(samples, pair.get("accuracy"), pair.get("metric"), pair.get("evaluator"),
                                  pair.get("note"), warnings=tuple(warnings.get(key, ())))
    for error in document.get("errors") or ():
        key = (str(error.get("dataset")), str(error.get("model")))
        where = f" ({error['file']}:{error['line']})" if error.get("file") and error.get("line") else ""
        if error.get("dataset") is not None:
            said = tuple(warnings.get(key, ()))
            pairs[key] = PairVerdicts(error=f"{error.get('message')}{where}", warnings=said)
    return RunAnswers(pairs, general=tuple(general))
