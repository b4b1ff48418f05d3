"""A config's answer says only what changed since the last answer for the same request.

A save of one dataset file in a suite changes one or two of its 234 datasets, yet the
whole answer (hundreds of kilobytes of JSON) used to be written, piped and parsed on
every save. Both ends now keep the last complete answer for each request (the config,
its roots, the working folder): the worker's child, forked from the worker that kept it,
replaces each dataset or model entry equal to one of the last answer with ``{"same": N}``
(its place in that answer), and the parent puts the very entries it kept back in its
place, so an unchanged dataset also arrives as the same object (what the workspace reuses
per entry). The parent names the answer it holds (``have``); an answer against any other
(a restarted worker, a failed load) is complete, so nothing stale can be filled in.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

from collections.abc import Callable
from json import dumps as _dumps  # bound here: a config may replace json.dumps in its process
from typing import Any

KINDS = ("datasets", "models")
SAME = "same"


def request_key(request: dict[str, Any]) -> str:
    """Which requests answer alike when the files are alike."""
    return _dumps([request["path"], request["roots"], request["want_datasets"], request["cwd"]])


class Kept:
    """The last complete answer for a request: its id, entries and each entry's size on the wire."""

    __slots__ = ("id", "result", "sizes")

    def __init__(self, ident: int, result: dict[str, Any], sizes: dict[str, list[int]]) -> None:
        self.id = ident
        self.result = result
        self.sizes = sizes


def _where(entry: Any) -> tuple[Any, Any] | None:
    return (entry.get("file"), entry.get("line")) if isinstance(entry, dict) else None


def reuse(result: dict[str, Any], kept: Kept | None,
          size_of: Callable[[Any], int]) -> tuple[dict[str, Any], list[tuple[int, str, dict]]]:
    """``result`` with each entry equal to one of ``kept`` replaced by ``{"same": N}``, and every
    entry's (size, kind, entry) for the size limit (a kept entry's size as measured then)."""
    sizes: list[tuple[int, str, dict]] = []
    out = dict(result)
    for kind in KINDS:
        entries = list(result.get(kind) or ())
        before = kept.result.get(kind) or [] if kept is not None else []
        by_place: dict[Any, int] = {}
        for n, old in enumerate(before):
            by_place.setdefault(_where(old), n)
        for i, entry in enumerate(entries):
            match = None
            if i < len(before) and before[i] == entry:
                match = i
            else:
                n = by_place.get(_where(entry))
                if n is not None and before[n] == entry:
                    match = n
            if match is not None and kept is not None:
                sizes.append((kept.sizes[kind][match], kind[:-1], entry))
                entries[i] = {SAME: match}
            else:
                sizes.append((size_of(entry), kind[:-1], entry))
        out[kind] = entries
    return out, sizes


def restore(result: dict[str, Any], kept: Kept | None) -> dict[str, Any]:
    """An answer with its ``{"same": N}`` entries put back from ``kept``; ValueError when one
    names an entry that is not there (the answer is then malformed)."""
    for kind in KINDS:
        entries = result.get(kind)
        if not entries:
            continue
        before = kept.result.get(kind) or [] if kept is not None else []
        for i, entry in enumerate(entries):
            if isinstance(entry, dict) and len(entry) == 1 and SAME in entry:
                n = entry[SAME]
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < len(before):
                    raise ValueError("an answer refers to an entry the last answer does not have")
                entries[i] = before[n]
    return result


def measured(result: dict[str, Any], size_of: Callable[[Any], int]) -> dict[str, list[int]]:
    """Each entry's size on the wire, per kind (kept beside a complete answer)."""
    return {kind: [size_of(entry) for entry in result.get(kind) or ()] for kind in KINDS}


def remembered(ident: int, result: dict[str, Any], kept: Kept | None,
               size_of: Callable[[Any], int]) -> Kept:
    """What to keep of an answer as sent (``{"same": N}`` entries included): the complete
    answer, each entry's size (a reused entry's as kept, the others measured now)."""
    sizes: dict[str, list[int]] = {}
    for kind in KINDS:
        sizes[kind] = []
        for entry in result.get(kind) or ():
            if isinstance(entry, dict) and len(entry) == 1 and SAME in entry and kept is not None:
                sizes[kind].append(kept.sizes[kind][entry[SAME]])
            else:
                sizes[kind].append(size_of(entry))
    return Kept(ident, restore(result, kept), sizes)
