"""Where ``x`` writes the SVG of the view: a path the user confirms, by default outside the
working tree (which is often the user's git repository), in the XDG data folder.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from ..loading.files.atomic import atomic_write
from ..views.selection import Selection

APP_FOLDER = "prompt-workbench"


def default_export_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/prompt-workbench/exports``, else ``~/.local/share/prompt-workbench/exports``
    (a relative XDG_DATA_HOME is ignored, as the XDG spec says)."""
    env = os.environ if env is None else env
    data_home = env.get("XDG_DATA_HOME", "")
    base = Path(data_home) if data_home and os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / APP_FOLDER / "exports"


def export_name(selection: Selection, full: bool = False) -> str:
    """A file name that says which view it shows (and is safe on every file system); ``full``:
    every pane in full (``X``), not the screen as it is (``x``)."""
    name = (f"workbench-{selection.dataset}-{selection.model or 'no-model'}-sample{selection.sample}-"
            f"request{selection.request}" + ("-full" if full else ""))
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name) + ".svg"


def export_target(answer: str, cwd: Path, name: str) -> Path:
    """The file an answer names: ``~`` expanded, relative to the working directory as in a
    shell; a folder (one that exists, or an answer ending in ``/``) gets ``name`` inside it."""
    text = answer.strip()
    path = Path(os.path.expanduser(text))
    path = path if path.is_absolute() else cwd / path
    if text.endswith(("/", os.sep)) or path.is_dir():
        path = path / name
    return path


def write_atomic(target: Path, text: str) -> None:
    """Write ``text`` so a reader sees the old file or the new one, never half (the folder is
    made when missing: the default one usually is, the first time)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(target) as out:
        out.write(text)
