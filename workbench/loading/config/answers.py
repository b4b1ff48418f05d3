"""A config's answer says only what changed since the last answer for the same request.

A save of one dataset file in a suite changes one or two of its 234 datasets, yet the
whole answer (hundreds of kilobytes of JSON) used to be written, piped and parsed on
every save. Both ends now keep the last complete answer for each request (the config,
its roots, the working folder): the worker's child, forked from the worker that kept it,
replaces each dataset or model entry exactly equal to one of the last answer (types
included: :func:`same_key`) with ``{"same": N}`` (its place in that answer), and the
parent puts the very entries it kept back in its place, so an unchanged dataset also
arrives as the same object (what the workspace reuses per entry). The parent names the
answer it holds (``have``); an answer against any other (a restarted worker, a failed
load) is complete, so nothing stale can be filled in.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from json import dumps as _dumps  # bound here: a config may replace json.dumps in its process
from typing import Any

KINDS = ("datasets", "models")
SAME = "same"


def request_key(request: dict[str, Any]) -> str:
    """Which requests answer alike when the files are alike."""
    return _dumps([request["path"], request["roots"], request["want_datasets"], request["cwd"]])


def same_key(entry: Any) -> bytes | None:
    """What two entries must share to be the same: their exact bytes. Plain data compared with
    ``==`` is not exact (``1 == True == 1.0``, ``0.0 == -0.0``): a save changing one to the
    other would keep the old entry. ``marshal`` (version 2: no back-references, so equal
    values give equal bytes however they share objects) writes each type apart, in C."""
    try:
        return marshal.dumps(entry, 2)
    except ValueError:
        return None


class Kept:
    """The last complete answer for a request: its id, entries, and each entry's size on the
    wire and :func:`same_key` (the worker's; the parent needs neither)."""

    __slots__ = ("id", "keys", "result", "sizes")

    def __init__(self, ident: int, result: dict[str, Any], sizes: dict[str, list[int]],
                 keys: dict[str, list[bytes | None]] | None = None) -> None:
        self.id = ident
        self.result = result
        self.sizes = sizes
        self.keys = keys or {}


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
        keys = kept.keys.get(kind) or [] if kept is not None else []
        by_place: dict[Any, int] = {}
        for n, old in enumerate(before):
            by_place.setdefault(_where(old), n)
        for i, entry in enumerate(entries):
            match = None
            key = same_key(entry) if keys else None
            if key is not None and i < len(keys) and keys[i] == key:
                match = i
            elif key is not None:
                n = by_place.get(_where(entry))
                if n is not None and n < len(keys) and keys[n] == key:
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
    keys: dict[str, list[bytes | None]] = {}
    for kind in KINDS:
        sizes[kind], keys[kind] = [], []
        for entry in result.get(kind) or ():
            if isinstance(entry, dict) and len(entry) == 1 and SAME in entry and kept is not None:
                sizes[kind].append(kept.sizes[kind][entry[SAME]])
                keys[kind].append(kept.keys[kind][entry[SAME]])
            else:
                sizes[kind].append(size_of(entry))
                keys[kind].append(same_key(entry))
    return Kept(ident, restore(result, kept), sizes, keys)
