"""Watch the folders of the workspace's files, not the files.

Editors save by writing a temp file and renaming it over the original; a watch on the
file itself dies after the first such save.  So we watch each file's folder and keep
only events about the files we care about (or about a folder on the way to one, so a
folder deleted and recreated is noticed).  No Textual here: the app wraps
:func:`watch_changes` in a worker and turns each batch into one reload message.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

# Changes are batched until the files are quiet for STEP_MS (capped at DEBOUNCE_MS), so
# an editor's write+rename (or a burst of saves) arrives as one batch. The watcher wakes
# every STEP_MS even when idle: 2 ms costs under 1% of a core and is a few ms of each reload.
STEP_MS = 2
DEBOUNCE_MS = 300


def _norm(path: Path | str) -> Path:
    p = Path(path).absolute()
    try:
        return p.resolve()
    except (OSError, RuntimeError):
        return p


def watch_folders(files: Iterable[Path]) -> tuple[Path, ...]:
    """The folder of each file, or its nearest existing ancestor when the folder is gone."""
    out: dict[Path, None] = {}
    for f in files:
        folder = _norm(f).parent
        while not folder.is_dir() and folder != folder.parent:
            folder = folder.parent
        out[folder] = None
    return tuple(sorted(out))


class Relevance:
    """Is a changed path one of our files, or a folder on the way to one? ``watched``: the
    folders to watch for them.

    The files can change while a watch runs (``update``): a watch of the same folders goes on,
    so no change is missed while another watch would start."""

    def __init__(self, files: Iterable[Path]) -> None:
        files = list(files)
        self._set(files, watch_folders(files))

    def update(self, files: Iterable[Path]) -> bool:
        """Take ``files`` where they lie in the folders watched now (True); else change nothing
        (False: they need a watch of their own)."""
        files = list(files)
        watched = watch_folders(files)
        if watched != self.watched:
            return False
        self._set(files, watched)
        return True

    def _set(self, files: list[Path], watched: tuple[Path, ...]) -> None:
        known = {_norm(f) for f in files} | {Path(f).absolute() for f in files}
        # (two assignments the watch's filter reads; a check between them errs towards a reload)
        self.folders = {parent for f in known for parent in f.parents}
        self.files = known
        self.watched = watched

    def __call__(self, path: str | Path) -> bool:
        p = Path(path)
        return p in self.files or _norm(p) in self.files or p in self.folders


async def watch_changes(files: Iterable[Path] | Relevance, stop_event: Any = None,
                        force_polling: bool | None = None) -> AsyncIterator[set[Path]]:
    """Yield sets of changed paths among ``files`` (or those a :class:`Relevance` says, which
    may change meanwhile) until ``stop_event`` is set."""
    # lazy: watchfiles loads only when watching starts (never with --no-watch)
    from watchfiles import awatch

    relevant = files if isinstance(files, Relevance) else Relevance(files)
    folders = relevant.watched
    if not folders:
        return
    async for changes in awatch(*folders, watch_filter=lambda _change, path: relevant(path),
                                step=STEP_MS, debounce=DEBOUNCE_MS, stop_event=stop_event,
                                recursive=False, rust_timeout=500, force_polling=force_polling,
                                ignore_permission_denied=True):
        yield {Path(path) for _, path in changes}
