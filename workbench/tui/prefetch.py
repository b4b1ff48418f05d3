"""Frames built ahead: what the next key will show is ready before it is pressed.

A frame (every pane's lines at its width) takes tens of milliseconds to render and wrap:
the sample's requests with provenance, then rich's wrapping. After each frame the app asks
a worker for the frames one key away (next and previous sample, dataset, model, request)
and keeps them in a :class:`FrameCache`, so a key usually only swaps finished lines in.
No Textual here: the app runs :func:`prefetch` in a thread worker.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from rich.console import RenderableType

from ..views.frame import Frame, build_frame
from ..views.options import ViewOptions
from ..views.selection import Catalog, Selection

Widths = dict[str | None, int]
#: what a key can reach from here, most likely first (n and p are pressed most)
STEPS: tuple[tuple[str, int], ...] = (("sample", 1), ("sample", -1), ("dataset", 1), ("dataset", -1),
                                      ("model", 1), ("model", -1), ("request", 1), ("request", -1))


@dataclass(frozen=True)
class Built:
    """A frame and each pane's lines, for the catalog it was built from."""

    catalog: Catalog
    frame: Frame
    lines: dict[str, list]


@dataclass(frozen=True)
class FrameRequest:
    """What a frame is built for: the selection, the view options and each pane's width."""

    selection: Selection
    options: ViewOptions
    widths: Widths


@dataclass(frozen=True)
class Prebuilt:
    """The frame for a load, built by the load worker for the request it saw (shown if the
    request still holds when the load arrives)."""

    view: FrameRequest
    frame: Frame
    lines: dict[str, list]


def frame_key(selection: Selection, options: ViewOptions, widths: Widths) -> Hashable:
    return selection, options, tuple(sorted((k or "", v) for k, v in widths.items()))


class FrameCache:
    """The last ``size`` frames by (selection, options, widths); thread-safe."""

    def __init__(self, size: int = 48) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Built] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, catalog: Catalog, key: Hashable) -> Built | None:
        with self._lock:
            found = self._items.get(key)
            if found is None or found.catalog is not catalog:
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return found

    def has(self, catalog: Catalog, key: Hashable) -> bool:
        with self._lock:
            found = self._items.get(key)
            return found is not None and found.catalog is catalog

    def put(self, key: Hashable, built: Built) -> None:
        with self._lock:
            self._items[key] = built
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


def step(catalog: Catalog, selection: Selection, how: str, delta: int, requests: int,
         build: bool = True) -> Selection:
    """Where a navigation key goes from ``selection`` (``requests``: the sample's count)."""
    if how == "sample":
        return catalog.step_sample(selection, delta, build)
    if how == "dataset":
        return catalog.step_dataset(selection, delta, build)
    if how == "model":
        return catalog.step_model(selection, delta, build)
    return catalog.step_request(selection, delta, requests)


def frame_lines(catalog: Catalog, selection: Selection, opts: ViewOptions, widths: Widths,
                cancelled: Callable[[], bool], render_lines: Callable[[RenderableType, int], list],
                ) -> tuple[Frame, dict[str, list]] | None:
    """The frame and each pane's lines at its width (None if ``cancelled()`` turns true first)."""
    frame = build_frame(catalog, selection, opts)
    lines = {}
    for pane_id, renderable in (("prompt-list", frame.prompt_list), ("final-input", frame.final_input),
                                ("timeline", frame.timeline)):
        if cancelled():
            return None
        lines[pane_id] = render_lines(renderable, widths.get(pane_id, 80))
    return frame, lines


def prefetch(catalog: Catalog, frame: Frame, opts: ViewOptions, widths: Widths, cache: FrameCache,
             cancelled: Callable[[], bool], render_lines: Callable[[RenderableType, int], list],
             steps: Iterable[tuple[str, int]] = STEPS) -> int:
    """Build the frames one key away from ``frame`` into ``cache``; returns how many were built.

    Stops as soon as ``cancelled()`` (a key was pressed: its own frame comes first)."""
    made = 0
    for how, delta in steps:
        if cancelled():
            return made
        try:
            target = catalog.normalize(step(catalog, frame.selection, how, delta, frame.requests))
        except Exception:  # a pair that cannot even be indexed shows its error when visited
            continue
        key = frame_key(target, opts, widths)
        if cache.has(catalog, key):
            continue
        try:
            built = frame_lines(catalog, target, opts, widths, cancelled, render_lines)
        except Exception:
            continue  # shown (with its error) the usual way when the key is pressed
        if built is None:
            return made
        cache.put(frame_key(built[0].selection, opts, widths), Built(catalog, *built))
        made += 1
    return made


__all__ = ["STEPS", "Built", "FrameCache", "frame_key", "frame_lines", "prefetch", "step"]
