"""Two renders compared pair by pair: what ``workbench diff`` shows.

Both sides go through the snapshot records, so a diff reads exactly like a failed
``snapshot --check``: per dataset × model, each changed request named by sample (and
label/turn), its final input's changed lines with whitespace visible.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import RenderError
from ..core.result import RenderResult, Sample
from .compare import DiffPrinter, Tally, compare_records, show_changes
from .formats.json_export import collect_warnings, stopped_error
from .snapshot_format import pair_records

SamplesOf = Callable[[Any], Iterable[Sample]]
Key = tuple[str, "str | None"]


@dataclass
class DiffOutcome:
    tally: Tally = field(default_factory=Tally)
    only_a: list[tuple[Key, int]] = field(default_factory=list)  # (pair, requests)
    only_b: list[tuple[Key, int]] = field(default_factory=list)
    compared: int = 0  # pairs on both sides

    @property
    def differs(self) -> bool:
        return bool(self.tally or self.only_a or self.only_b)


class _SideError(Exception):
    def __init__(self, side: str, error: RenderError) -> None:
        super().__init__(error.message)
        self.side = side
        self.error = error


def _tagged(side: str, samples: Iterable[Sample]) -> Iterator[Sample]:
    try:
        yield from samples
    except RenderError as exc:
        raise _SideError(side, exc) from None


def _name(key: Key) -> str:
    return f"{key[0]} × {key[1] or 'no model'}"


def _count_requests(side: str, samples: Iterable[Sample]) -> int:
    return sum(len(s.requests) for s in _tagged(side, samples))


def diff_renders(a: RenderResult, b: RenderResult, a_samples: SamplesOf, b_samples: SamplesOf,
                 selection: str, printer: DiffPrinter, names: tuple[str, str] = ("A", "B"),
                 max_shown: int = 0) -> DiffOutcome:
    """Print what changed from ``a`` to ``b``; render errors part-way join the side's errors."""
    outcome = DiffOutcome()
    a_pairs = {(p.dataset_abbr, p.model_abbr): p for p in a.pairs}
    b_pairs = {(p.dataset_abbr, p.model_abbr): p for p in b.pairs}
    # A pair that failed on one side is an error there, not a pair "only in" the other.
    a_failed = {(e.dataset, e.model) for e in a.errors}
    b_failed = {(e.dataset, e.model) for e in b.errors}
    # A config that failed to load leaves its side's pairs unknown: nothing is "only" on the other.
    a_unknown = any(e.dataset is None for e in a.errors)
    b_unknown = any(e.dataset is None for e in b.errors)
    order = [*a_pairs, *(k for k in b_pairs if k not in a_pairs)]
    sides = {"a": a, "b": b}
    for key in order:
        pa, pb = a_pairs.get(key), b_pairs.get(key)
        try:
            if pa is not None and pb is not None:
                outcome.compared += 1
                changes = compare_records(
                    pair_records(pa, _tagged("a", a_samples(pa)), "", selection),
                    pair_records(pb, _tagged("b", b_samples(pb)), "", selection))
                tally = show_changes(changes, printer, f"{_name(key)}", max_shown)
                if tally:
                    printer.heading(f"{_name(key)}: {tally.summary()}")
                    printer.out.write("\n")
                    outcome.tally += tally
            elif pa is not None and key not in b_failed and not b_unknown:
                n = _count_requests("a", a_samples(pa))
                outcome.only_a.append((key, n))
                outcome.tally.removed += n
                printer.heading(f"{_name(key)}: only in {names[0]} ({n} requests removed)")
            elif pb is not None and key not in a_failed and not a_unknown:
                n = _count_requests("b", b_samples(pb))
                outcome.only_b.append((key, n))
                outcome.tally.added += n
                printer.heading(f"{_name(key)}: only in {names[1]} ({n} requests added)")
        except _SideError as exc:
            pair = pa if exc.side == "a" else pb
            sides[exc.side].errors.append(stopped_error(pair, exc.error))
    collect_warnings(a)
    collect_warnings(b)
    return outcome
