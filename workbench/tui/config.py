"""How the app is started: by the CLI from its arguments, or by a test with its own knobs.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .session import Inputs, Loaded


@dataclass(frozen=True)
class AppConfig:
    inputs: Inputs
    theme: str | None = None  # a theme name; default workbench-dark
    watch: bool = True  # tests turn the watcher off for snapshots
    deterministic: bool = False  # tests: no cursor blink, no animation, no toasts' timers matter
    theme_dirs: tuple[Path, ...] = ()  # extra folders of *.toml themes (after the bundled and user ones)
    # where `x` offers to write (default: $XDG_DATA_HOME/prompt-workbench/exports)
    export_dir: Path | None = None
    force_polling: bool | None = None  # watchfiles: poll instead of inotify (also WATCHFILES_FORCE_POLLING)
    # The first load, started by the CLI before Textual is imported so the two overlap.
    preload: Future[Loaded] | None = None
    # The Loader every load goes through (None: the process's shared one); the app cancels
    # its running load when a newer change supersedes it.
    loader: Any = None
