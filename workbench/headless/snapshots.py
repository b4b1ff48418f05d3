"""A folder of snapshot files: write them, or check a fresh render against them.

One file per (dataset, model) at ``DIR/<dataset>/<model>.snap`` (``_no-model.snap`` for
a dataset rendered without a model).  Writes are atomic and an unchanged file keeps
its bytes and mtime.  Files whose pair is in scope (the selection's dataset and model
globs) but no longer rendered are *extra*: ``snapshot`` removes them, ``--check``
reports them.  A pair that cannot be rendered keeps its old file.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import RenderError
from ..core.result import RenderResult, Sample
from ..loading.files.atomic import AtomicFile
from .compare import DiffPrinter, Tally, compare_records, show_changes
from .formats.json_export import collect_warnings, stopped_error
from .render_filter import RenderFilter
from .snapshot_format import SUFFIX, inputs_hash, pair_records, parse_records, read_header, record_text

NO_MODEL = "_no-model"
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._+@=-]")
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}

SamplesOf = Callable[[Any], Iterable[Sample]]


def _short_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def file_stem(name: str) -> str:
    """A file name for an abbr: the abbr itself when it is a safe one, else a safe form + hash."""
    safe = _SAFE_NAME.sub("_", name).lstrip(".")[:80] or "_"
    if safe != name or safe.split(".")[0].upper() in _RESERVED:
        safe = f"{safe}~{_short_hash(name)}"
    return safe


def snapshot_paths(root: Path, keys: Iterable[tuple[str, str | None]]) -> dict[tuple[str, str | None], Path]:
    """Where each (dataset, model) snapshot lives; names that would collide on a
    case-insensitive filesystem get a hash suffix."""
    keys = list(dict.fromkeys(keys))
    rel = {k: (file_stem(k[0]), NO_MODEL if k[1] is None else file_stem(k[1])) for k in keys}
    for level in (0, 1):
        seen: dict[tuple[str, ...], list[tuple[str, str | None]]] = {}
        for k, parts in rel.items():
            seen.setdefault(tuple(p.lower() for p in parts[: level + 1]), []).append(k)
        for clash in (v for v in seen.values() if len(v) > 1):
            names = {rel[k][level] for k in clash}
            if len(names) > 1:  # different abbrs, same folded name
                for k in clash:
                    parts = list(rel[k])
                    abbr = k[level] if k[level] is not None else NO_MODEL
                    parts[level] = f"{parts[level]}~{_short_hash(abbr)}"
                    rel[k] = (parts[0], parts[1])
    return {k: root / d / f"{m}{SUFFIX}" for k, (d, m) in rel.items()}


def snapshot_files(root: Path) -> Iterator[Path]:
    if root.is_dir():
        yield from sorted(p for p in root.rglob(f"*{SUFFIX}") if p.is_file())


@dataclass
class Outcome:
    """What a snapshot run did or found, for the summary and the exit status."""

    created: list[Path] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    differ: list[Path] = field(default_factory=list)
    matched: list[Path] = field(default_factory=list)
    stale_inputs: list[Path] = field(default_factory=list)
    missing: list[Path] = field(default_factory=list)
    extra: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # pairs that could not render
    tally: Tally = field(default_factory=Tally)

    @property
    def failed_check(self) -> bool:
        return bool(self.differ or self.missing or self.extra)


def _in_scope(result: RenderResult, selection: RenderFilter, root: Path,
              produced: set[Path]) -> tuple[list[Path], list[Path]]:
    """(extra files, files kept because their pair failed) among the folder's snapshots.

    When a config failed to load, which pairs exist is unknown: every file is kept.
    """
    failed = {(e.dataset, e.model) for e in result.errors if e.dataset is not None}
    load_failed = any(e.dataset is None for e in result.errors)
    extra, kept = [], []
    for path in snapshot_files(root):
        if path in produced:
            continue
        if load_failed:
            kept.append(path)
            continue
        header = read_header(path)
        if header is None:
            continue
        dataset, model = header.get("dataset"), header.get("model")
        if not isinstance(dataset, str) or not (model is None or isinstance(model, str)):
            continue
        if not selection.wants_pair(dataset, model):
            continue
        if header.get("role") == "judge" and not result.judged:
            continue  # a judge's snapshot (--judge) is out of scope for a render without judges
        (kept if (dataset, model) in failed else extra).append(path)
    return extra, kept


def _keys(result: RenderResult) -> list[tuple[str, str | None]]:
    return [*((p.dataset_abbr, p.model_abbr) for p in result.pairs),
            *((e.dataset, e.model) for e in result.errors if e.dataset is not None)]


def write_snapshots(result: RenderResult, samples_of: SamplesOf, root: Path,
                    selection: RenderFilter, paths: dict | None = None) -> Outcome:
    """Write every selected pair's snapshot; remove the in-scope files no pair produced."""
    outcome = Outcome()
    paths = paths or snapshot_paths(root, _keys(result))
    produced: set[Path] = set()
    hashes: dict[int, bytes] = {}
    for pair in result.pairs:
        path = paths[(pair.dataset_abbr, pair.model_abbr)]
        produced.add(path)
        existed = path.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        records = pair_records(pair, samples_of(pair), inputs_hash(pair, hashes), selection.describe(),
                               result.judged.get((pair.dataset_abbr, pair.model_abbr)))
        writer = AtomicFile(path, keep_if_same=True)
        try:
            with writer as out:
                for chunk in record_text(records):
                    out.write(chunk)
        except RenderError as exc:
            result.errors.append(stopped_error(pair, exc))
            if existed:
                outcome.kept.append(path)
            continue
        if not writer.changed:
            outcome.unchanged.append(path)
        else:
            (outcome.updated if existed else outcome.created).append(path)
    collect_warnings(result)
    extra, kept = _in_scope(result, selection, root, produced)
    for path in extra:
        path.unlink(missing_ok=True)
        outcome.removed.append(path)
        _remove_empty_parent(path.parent, root)
    outcome.kept += kept
    return outcome


def _remove_empty_parent(folder: Path, root: Path) -> None:
    try:
        if folder != root and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    except OSError:
        pass


def check_snapshots(result: RenderResult, samples_of: SamplesOf, root: Path, selection: RenderFilter,
                    printer: DiffPrinter, paths: dict | None = None, max_shown: int = 0) -> Outcome:
    """Compare a fresh render with the files, printing a readable diff of what differs."""
    outcome = Outcome()
    paths = paths or snapshot_paths(root, _keys(result))
    produced: set[Path] = set()
    hashes: dict[int, bytes] = {}
    for pair in result.pairs:
        path = paths[(pair.dataset_abbr, pair.model_abbr)]
        produced.add(path)
        if not path.is_file():
            outcome.missing.append(path)
            continue
        fresh = inputs_hash(pair, hashes)
        records = pair_records(pair, samples_of(pair), fresh, selection.describe(),
                               result.judged.get((pair.dataset_abbr, pair.model_abbr)))
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                tally = show_changes(compare_records(parse_records(f), records), printer,
                                     f"{path}: differs from the render", max_shown)
        except RenderError as exc:
            result.errors.append(stopped_error(pair, exc))
            outcome.kept.append(path)
            continue
        if tally:
            printer.heading(f"{path}: {tally.summary()}")
            printer.out.write("\n")
            outcome.differ.append(path)
            outcome.tally += tally
        else:
            outcome.matched.append(path)
            header = read_header(path) or {}
            if header.get("inputs") != fresh:
                outcome.stale_inputs.append(path)
    collect_warnings(result)
    extra, kept = _in_scope(result, selection, root, produced)
    outcome.extra += extra
    outcome.kept += kept
    return outcome
