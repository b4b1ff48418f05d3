"""Which pairs, samples and requests a headless command covers.

``--dataset``/``--model`` are globs on abbrs, ``--sample`` an index list with ranges
(``0,3,5-9``, ``100-`` for "from 100 on"), ``--limit`` the most samples per pair,
``--label`` keeps the requests of one PPL/LL label.  The same options mean the same
thing in ``render``, ``snapshot`` and ``diff``.  May import the core.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import Any

from ..core.result import Sample

Ranges = tuple[tuple[int, int | None], ...]  # inclusive (first, last); last None = open


def parse_indices(spec: str) -> Ranges:
    """``"0,3,5-9,20-"`` → ((0, 0), (3, 3), (5, 9), (20, None)); raises ValueError."""
    out: list[tuple[int, int | None]] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        first, dash, last = part.partition("-")
        try:
            lo = int(first)
            hi: int | None = (int(last) if last.strip() else None) if dash else lo
        except ValueError:
            raise ValueError(f"{part!r} is not an index or a range like 5-9") from None
        if lo < 0 or (hi is not None and hi < lo):
            raise ValueError(f"{part!r}: indices count from 0 and a range goes up (5-9)")
        out.append((lo, hi))
    if not out:
        raise ValueError("no index given")
    return tuple(out)


def _indices_arg(text: str) -> Ranges:
    try:
        return parse_indices(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def add_selection_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("selection")
    group.add_argument("--dataset", action="append", default=[], metavar="GLOB",
                       help="only datasets whose abbr matches (fnmatch glob); repeatable")
    group.add_argument("--model", action="append", default=[], metavar="GLOB",
                       help="only models whose abbr matches (fnmatch glob); repeatable")
    group.add_argument("--sample", type=_indices_arg, metavar="LIST",
                       help="test-split sample indices: 0,3,5-9 (20- = from 20 on)")
    group.add_argument("--limit", type=non_negative, metavar="N", help="at most N samples per pair")
    group.add_argument("--label", action="append", default=[], metavar="LABEL",
                       help="only the requests of this PPL/LL label; repeatable")


def label_text(label: Any) -> str:
    """How a label is written on the command line and in headings: the key as text."""
    return label if isinstance(label, str) else json.dumps(label)


@dataclass(frozen=True)
class RenderFilter:
    """What a headless command renders, from its options (not the app's cursor, which is
    :class:`workbench.views.selection.Selection`: one sample and request at a time)."""

    datasets: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    samples: Ranges | None = None
    limit: int | None = None
    labels: tuple[str, ...] = ()

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RenderFilter:
        return cls(datasets=tuple(args.dataset), models=tuple(args.model), samples=args.sample,
                   limit=args.limit, labels=tuple(args.label))

    # -- pairs ---------------------------------------------------------------------
    def wants_dataset(self, dataset: str | None) -> bool:
        return not self.datasets or any(fnmatchcase(dataset or "", g) for g in self.datasets)

    def wants_pair(self, dataset: str | None, model: str | None) -> bool:
        if not self.wants_dataset(dataset):
            return False
        return not self.models or (model is not None
                                   and any(fnmatchcase(model, g) for g in self.models))

    def unmatched(self, datasets: Sequence[str], models: Sequence[str | None]) -> list[str]:
        """Globs that match nothing, as messages for a usage error."""
        problems = []
        for glob in self.datasets:
            if not any(fnmatchcase(d, glob) for d in datasets):
                problems.append(f"--dataset {glob!r} matches no dataset "
                                f"(there are: {', '.join(sorted(set(datasets))) or 'none'})")
        named = [m for m in models if m is not None]
        for glob in self.models:
            if not any(fnmatchcase(m, glob) for m in named):
                problems.append(f"--model {glob!r} matches no model "
                                f"(there are: {', '.join(sorted(set(named))) or 'none'})")
        return problems

    # -- samples and requests ------------------------------------------------------
    def indices(self, count: int) -> Sequence[int]:
        """The selected sample indices of a pair with ``count`` samples, ascending."""
        if self.samples is None:
            chosen: Sequence[int] = range(count)
        else:
            picked: set[int] = set()
            spans: list[range] = []
            for lo, hi in self.samples:
                top = count - 1 if hi is None else min(hi, count - 1)
                if lo <= top:
                    spans.append(range(lo, top + 1))
            if len(spans) == 1:
                chosen = spans[0]
            else:
                for span in spans:
                    picked.update(span)
                chosen = sorted(picked)
        if self.limit is not None:
            chosen = chosen[: self.limit]
        return chosen

    def filter_sample(self, sample: Sample) -> Sample | None:
        """The sample with only the selected labels' requests (None when none is left)."""
        if not self.labels:
            return sample
        kept = tuple(r for r in sample.requests
                     if r.label is not None and label_text(r.label) in self.labels)
        if not kept:
            return None
        return replace(sample, requests=kept) if len(kept) != len(sample.requests) else sample

    def describe(self) -> str:
        """The sample/request part of the selection, for snapshot headers ("all" = every one)."""
        parts = []
        if self.samples is not None:
            text = ",".join(f"{lo}" if hi == lo else f"{lo}-{'' if hi is None else hi}"
                            for lo, hi in self.samples)
            parts.append(f"--sample {text}")
        if self.limit is not None:
            parts.append(f"--limit {self.limit}")
        for label in self.labels:
            parts.append(f"--label {json.dumps(label, ensure_ascii=False)}")
        return " ".join(parts) or "all"
