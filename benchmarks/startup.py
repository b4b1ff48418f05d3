"""How fast the app paints: run ``python benchmarks/startup.py`` (reload: ``reload.py``).

The installed ``workbench`` on the bundled demo in a real terminal (tmux, 80×24): seconds
until the first screen, and until the panes show the first sample.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def startup_times(runs: int = 5, env: dict[str, str] | None = None, args: list[str] | None = None,
                  cwd: Path | None = None, size: tuple[int, int] = (80, 24),
                  ) -> tuple[list[float], list[float]] | None:
    """Seconds to the first screen and to the first sample shown, per run; None without tmux.

    ``args`` are the app's arguments (default: none, the demo), run in ``cwd``."""
    tmux = shutil.which("tmux")
    command = Path(sys.executable).with_name("workbench")
    if tmux is None or not command.exists():
        return None
    skeleton, content = [], []
    for n in range(runs):
        sock = f"wb-bench-{os.getpid()}-{n}"
        base = [tmux, "-L", sock, "-f", os.devnull]
        started = time.monotonic()
        subprocess.run([*base, "new-session", "-d", "-s", "b", "-x", str(size[0]), "-y", str(size[1]),
                        *(["-c", str(cwd)] if cwd else []), str(command), *(args or [])],
                       check=True, env={**(env or os.environ), "TERM": "xterm-256color"}, cwd=cwd)
        first = None
        while time.monotonic() - started < 60:
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


if __name__ == "__main__":
    startup()
