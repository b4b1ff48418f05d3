"""Two datasets (or two models) with one abbr: the later one refused, naming where the first is.

The frameworks key everything by abbr: OpenCompass writes ``predictions/<model>/<dataset>.json``
and skips a task whose file exists, so of two datasets named alike one is silently skipped or
overwritten.  The workbench keys snapshots, ``--dataset`` globs, ``--data ABBR=FILE``, ``diff``
and ``verify`` the same way, so the later definition is an error naming the first (see
docs/snapshots.md).  The same definition listed twice (a config and a file it imports, both
given) is one dataset, shown once.

May import: the core, loading/models and loading/files; not loading/config or loading/rows (its
siblings), the workspace, views or a front end.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from ..core.errors import ConfigError
from ..core.spec import DatasetSpec, ModelSpec

Spec = TypeVar("Spec", DatasetSpec, ModelSpec)


def _via(spec: DatasetSpec | ModelSpec, config: Path | None) -> str:
    """`` (from CONFIG)`` when the spec was written in a file the config imports."""
    if config is not None and spec.source.file and Path(spec.source.file).resolve() != config.resolve():
        return f" (from {os.fspath(config)})"
    return ""


def _place(spec: DatasetSpec | ModelSpec, config: Path | None) -> str:
    where = spec.source.file or "<config>"
    if spec.source.line:
        where += f":{spec.source.line}"
    return where + _via(spec, config)


def _same_definition(a: DatasetSpec | ModelSpec, b: DatasetSpec | ModelSpec) -> bool:
    return a.source == b.source and repr(a.cfg) == repr(b.cfg)


def one_per_abbr(specs: Sequence[Spec], configs: Sequence[Path | None], kind: str,
                 errors: list[ConfigError], warn: Callable[[str], None]) -> list[Spec]:
    """``specs`` with each abbr defined once.  The first definition of an abbr is kept; the same
    definition listed again is dropped (one warning per abbr), and a different one is an error at
    its own line naming the first, as the frameworks would run the first and skip it."""
    firsts: dict[str, int] = {}
    repeats: dict[str, list[int]] = {}
    kept: list[Spec] = []
    for i, spec in enumerate(specs):
        first = firsts.setdefault(spec.abbr, i)
        if first == i:
            kept.append(spec)
        elif _same_definition(specs[first], spec):
            repeats.setdefault(spec.abbr, [first]).append(i)
        else:
            errors.append(ConfigError(
                f"{kind} abbr {spec.abbr!r} is taken by {_place(specs[first], configs[first])}, "
                f"which is rendered instead: the frameworks keep results by abbr, so of two "
                f"{kind}s named alike one is skipped or overwritten",
                file=spec.source.file, line=spec.source.line,
                hint=f"give this {kind} an abbr of its own (abbr='...'), or load the configs one at a time"))
    for abbr, indices in repeats.items():
        by = ", ".join(sorted({os.fspath(configs[i]) for i in indices if configs[i] is not None}))
        warn(f"{kind} {abbr!r} ({_place(specs[indices[0]], None)}) is listed {len(indices)} times"
             + (f" (by {by})" if by else "") + ": shown once")
    return kept
