"""How fast the app paints and reloads: run ``python benchmarks/tui_startup_reload.py``.

startup: the installed ``workbench`` on the bundled demo in a real terminal (tmux, 80×24):
  seconds until the first screen, and until the panes show the first sample.
reload:  in-process with the real watcher: seconds from a file write (rename-over, as
  editors save) until the final-input pane shows the change. The goal is under 0.5 s.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "tui" / "fixtures" / "workspace"


def startup_times(runs: int = 5, env: dict[str, str] | None = None) -> tuple[list[float], list[float]] | None:
    """Seconds to the first screen and to the first sample shown, per run; None without tmux."""
    tmux = shutil.which("tmux")
    command = Path(sys.executable).with_name("workbench")
    if tmux is None or not command.exists():
        return None
    skeleton, content = [], []
    for n in range(runs):
        sock = f"wb-bench-{os.getpid()}-{n}"
        base = [tmux, "-L", sock, "-f", os.devnull]
        started = time.monotonic()
        subprocess.run([*base, "new-session", "-d", "-s", "b", "-x", "80", "-y", "24", str(command)],
                       check=True, env={**(env or os.environ), "TERM": "xterm-256color"})
        first = None
        while time.monotonic() - started < 10:
            screen = subprocess.run([*base, "capture-pane", "-p", "-t", "b"], capture_output=True,
                                    text=True).stdout
            if first is None and "Templates" in screen:
                first = time.monotonic() - started
            if "Timeline ·" in screen:
                skeleton.append(first or time.monotonic() - started)
                content.append(time.monotonic() - started)
                break
            time.sleep(0.01)
        subprocess.run([*base, "kill-server"], capture_output=True)
    return skeleton, content


def startup(runs: int = 5) -> None:
    times = startup_times(runs)
    if times is None:
        print("startup: skipped (needs tmux and the installed workbench command)")
        return
    skeleton, content = times
    print(f"startup: first paint median {statistics.median(skeleton):.3f}s (max {max(skeleton):.3f}s); "
          f"first sample shown median {statistics.median(content):.3f}s (max {max(content):.3f}s)")


async def _reload(runs: int) -> list[float]:
    from workbench.tui.app import create_app
    from workbench.tui.headless import pane_text, wait_for
    from workbench.tui.session import Inputs

    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "workspace"
        shutil.copytree(FIXTURE, workspace)
        target = workspace / "datasets" / "qa_gen.py"
        app = create_app(Inputs(configs=(str(workspace / "eval_fixture.py"),)), watch=True,
                         deterministic=True)
        async with app.run_test() as pilot:
            await wait_for(pilot, lambda: "Answer briefly." in pane_text(app, "final-input"))
            previous = "Answer briefly."
            for n in range(runs):
                await pilot.pause(0.3)
                text = f"Answer version {n}."
                tmp_file = target.with_name(".qa_gen.py.tmp")
                tmp_file.write_text(target.read_text().replace(previous, text))
                started = time.monotonic()
                os.replace(tmp_file, target)
                await wait_for(pilot, lambda text=text: text in pane_text(app, "final-input"), timeout=10)
                times.append(time.monotonic() - started)
                previous = text
    return times


def reload(runs: int = 10) -> None:
    times = asyncio.run(_reload(runs))
    print(f"reload: save to panes median {statistics.median(times):.3f}s (max {max(times):.3f}s)")


if __name__ == "__main__":
    startup()
    reload()
