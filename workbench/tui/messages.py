"""Every message the app's workers send back to the UI thread, in one place.

Each is posted with ``bubble=False`` to the app or screen that started the worker; a reload
burst coalesces (``can_replace``).  May import the core, ``views`` and the app's own
non-Textual modules (``session``, ``prefetch``, ``lengths_jobs``).

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.strip import Strip

from ..views.frame import Frame
from .prefetch import Prebuilt
from .session import Loaded

if TYPE_CHECKING:  # named in annotations only: the lengths code loads when its screen opens
    from ..core.lengths import PairLengths
    from .lengths_jobs import Key


class FilesChanged(Message, bubble=False):
    """Watched files changed. A burst coalesces: a newer one queued behind this one supersedes it."""

    def __init__(self, paths: set[Path]) -> None:
        super().__init__()
        self.paths = set(paths)

    def can_replace(self, message: Message) -> bool:
        # Textual asks the dequeued message whether the next pending one may take its place.
        if isinstance(message, FilesChanged):
            message.paths |= self.paths
            return True
        return False


class WorkspaceLoaded(Message, bubble=False):
    """A load finished; ``prebuilt`` is the frame the load worker built right away for the
    selection, options and pane widths it saw (shown if they still hold)."""

    def __init__(self, loaded: Loaded, prebuilt: Prebuilt | None = None) -> None:
        super().__init__()
        self.loaded = loaded
        self.prebuilt = prebuilt


class FrameReady(Message, bubble=False):
    """A frame, with each pane's renderable already wrapped into lines at its width."""

    def __init__(self, token: int, frame: Frame, lines: dict[str, list[Strip]]) -> None:
        super().__init__()
        self.token = token
        self.frame = frame
        self.lines = lines


class SearchDone(Message, bubble=False):
    """A ``/`` search over the samples finished: the sample holding a match (None: none does)."""

    def __init__(self, query: str, index: int | None, dataset: str | None) -> None:
        super().__init__()
        self.query = query
        self.index = index
        self.dataset = dataset


class PairsChecked(Message, bubble=False):
    """Every pair of ``catalog`` was built in the background (``check``: what that found)."""

    def __init__(self, catalog: Any, check: Any) -> None:
        super().__init__()
        self.catalog = catalog
        self.check = check


class Measured(Message, bubble=False):
    """A pair's summary so far (``done`` samples of the whole suite measured)."""

    def __init__(self, generation: int, key: Key, summary: PairLengths, done: int) -> None:
        super().__init__()
        self.generation = generation
        self.key = key
        self.summary = summary
        self.done = done


class MeasuringDone(Message, bubble=False):
    """The worker measured every pair it was given."""

    def __init__(self, generation: int) -> None:
        super().__init__()
        self.generation = generation
