"""A whole evaluation suite: OpenCompass's chat_OC15 (234 datasets) through two chat models.

``python -m benchmarks --only suite`` prints every row of the suite targets (issue 16's table)
beside its figure. The workspace is ``benchmarks/suite/`` with rows generated from a seed
(``suite_rows.py``: 100 test and 10 train rows per dataset, 46,800 requests in all), copied
to a temporary folder. What is timed:

- the app (``suite_app.py``, a process of its own): first frame, every navigation key,
  a save of one dataset file, memory; and the same keys on the bundled demo, to show a
  key's cost does not grow with the suite;
- the first paint in a real terminal (tmux), as ``startup.py`` does for the demo;
- ``workbench render`` of the whole suite to JSON and text, serial and ``--jobs 2``, and to
  HTML, as fresh processes (medians of ``runs``);
- the bad-input case: the same suite with three datasets whose rows cannot be read.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .suite_rows import write_suite

ROOT = Path(__file__).resolve().parents[1]
SAVE_FILE = "datasets/gsm8k_gen_1d7fe4.py"
SAVE_MARKER = "Question: Angelo and Melanie"
BROKEN = 3  # datasets whose rows file is broken, in the bad-input run


@dataclass
class Timed:
    seconds: float
    output_bytes: int
    code: int
    stderr: str


def run_render(workbench: str, folder: Path, args: list[str], runs: int, env: dict[str, str]) -> Timed:
    """Median wall time of ``workbench render eval_suite.py ARGS --out out``, as fresh processes."""
    out = folder / "out.render"
    times, last = [], None
    for _ in range(runs):
        started = time.perf_counter()
        last = subprocess.run([workbench, "render", "eval_suite.py", *args, "--out", str(out)], cwd=folder,
                              env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - started)
    assert last is not None
    size = out.stat().st_size if out.exists() else 0
    out.unlink(missing_ok=True)
    return Timed(statistics.median(times), size, last.returncode, last.stderr)


def app_figures(folder: Path, env: dict[str, str], saves: int, scale: float) -> dict:
    command = [sys.executable, "-m", "benchmarks.suite_app", str(folder / "eval_suite.py"),
               str(folder / SAVE_FILE), SAVE_MARKER, str(saves), str(scale)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode:
        raise RuntimeError(f"suite_app failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def demo_keys(env: dict[str, str], scale: float) -> dict:
    command = [sys.executable, "-m", "benchmarks.suite_app", str(ROOT / "demo_data" / "eval_demo.py"),
               "", "", "0", str(scale)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise RuntimeError(f"suite_app (demo) failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def break_rows(folder: Path, count: int = BROKEN) -> list[str]:
    """Make ``count`` datasets' rows unreadable (bad JSON, a missing file): their abbrs."""
    table = (folder / "workbench.toml").read_text(encoding="utf-8").splitlines()
    broken = []
    for i, line in enumerate(table[1:count + 1], start=1):
        abbr, _, name = line.partition(" = ")
        target = folder / json.loads(name)
        if i % 2:
            target.write_text('{"test": [{"question": ', encoding="utf-8")
        else:
            target.unlink()
        broken.append(json.loads(abbr))
    return broken


def first_paint(folder: Path, env: dict[str, str], runs: int) -> tuple[list[float], list[float]] | None:
    from .startup import startup_times

    return startup_times(runs, env=env, args=["eval_suite.py"], cwd=folder)


def measure(workbench: str, env: dict[str, str], runs: int = 3, quick: bool = False) -> dict:
    """Every suite figure, as numbers (seconds, bytes, MB)."""
    out: dict = {"load": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="wb-bench-suite-") as tmp:
        folder = Path(tmp) / "suite"
        write_suite(folder)
        paint = first_paint(folder, env, 3 if quick else 5)
        if paint is not None:
            out["paint_s"], out["shown_s"] = statistics.median(paint[0]), statistics.median(paint[1])
        out["app"] = app_figures(folder, env, 5 if quick else 15, 0.5 if quick else 1.0)
        out["demo"] = demo_keys(env, 0.5 if quick else 1.0)
        for name, args in (("json", []), ("text", ["-f", "text"]), ("json_jobs2", ["--jobs", "2"]),
                           ("text_jobs2", ["-f", "text", "--jobs", "2"]), ("html", ["-f", "html"])):
            # a text render of the suite takes a minute: once is enough to see where it stands
            once = quick or name.startswith("text")
            quiet = [] if "--jobs" in args else ["--quiet"]  # a --jobs run says when it renders serially
            timed = run_render(workbench, folder, [*args, *quiet], 1 if once else runs, env)
            out[name] = {"s": timed.seconds, "bytes": timed.output_bytes, "code": timed.code,
                         "stderr": timed.stderr[:2000]}
        stderr = run_render(workbench, folder, ["--limit", "1", "-f", "text"], 1, env).stderr
        out["warning_lines"] = sum(1 for line in stderr.splitlines() if line.startswith("warning:"))
        broken_folder = Path(tmp) / "broken"
        shutil.copytree(folder, broken_folder)
        broken = break_rows(broken_folder)
        # a new folder: its configs' compiled code is not kept yet (the key holds the path);
        # one render keeps it, so both suites open as a user reopening them would
        run_render(workbench, broken_folder, ["--limit", "1", "--quiet"], 1, env)
        out["broken"] = {"datasets": broken,
                         "app": app_figures(broken_folder, env, 0, 0.25)}
    out["load_after"] = os.getloadavg()
    return out
