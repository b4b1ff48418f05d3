"""How a view draws: the toggles a user flips, the colours, the model's own tokens.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .palette import DEFAULT_PALETTE, Palette

#: Characters of one text shown by default (its head and tail, the cut marked): what keeps the
#: app responsive and html/svg exports linear on a long-context prompt or a hostile row.
LONG_TEXT = 24_000


@dataclass(frozen=True)
class ViewOptions:
    whitespace: bool = False  # ↵ for newlines, · for trailing spaces, → for tabs
    provenance: bool = True  # colour each character by where it came from
    side_by_side: bool = False  # the final input of every model at once
    wire: bool = False  # an API model's final input as the HTTP request its class sends
    answers: bool = False  # the model output a run recorded for the request (--run), below it
    palette: Palette = DEFAULT_PALETTE
    tokens: tuple[str, ...] = ()  # the selected model's literal special tokens
    root: Path | None = None  # paths are shown relative to this folder
    # Show at most this many characters of one text (its head and tail, the cut marked);
    # None shows everything.  The TUI and the html/svg exports set it (LONG_TEXT).
    max_chars: int | None = None
    # what the cut mark adds about the characters it hides
    cut_note: str = "all of them are sent, copied and exported"


def display_path(path: str | Path | None, root: Path | None) -> str:
    """A path as the user wants to read it: relative to the workspace folder when inside it."""
    if not path:
        return "<config>"
    return _display_path(str(path), root)


@lru_cache(maxsize=4096)
def _display_path(path: str, root: Path | None) -> str:
    # Cached: resolving is a system call per folder, and a reload shows the same paths again
    # (a symlink re-pointed mid-session shows its old target until the app restarts).
    p = Path(path)
    try:
        resolved = p.resolve()
    except (OSError, RuntimeError):
        resolved = p
    if root is not None:
        try:
            return resolved.relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return Path(str(resolved)).as_posix()


def located(path: str | Path | None, line: int | None, root: Path | None) -> str:
    where = display_path(path, root)
    return f"{where}:{line}" if line else where
