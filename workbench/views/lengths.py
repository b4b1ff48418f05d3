"""Length summaries as words and table rows: shared by the app's lengths screen and the exports.

The suite table's columns and cells are defined here once, so the app's table, the
markdown table and the HTML table say the same thing in the same order.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..core.lengths import EXACT, PairLengths, Stats
from .palette import DEFAULT_PALETTE, Palette

#: The suite table, worst pair first (see :func:`workbench.core.lengths.by_share_truncated`).
SUITE_COLUMNS = ("dataset", "model", "samples", "p50", "p95", "max", "max_seq_len", "over", "lose examples",
                 "truncated", "tokens")


def _n(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def share(part: int, whole: int) -> str:
    if not whole:
        return "–"
    value = 100 * part / whole
    return f"{value:.1f}%" if value < 10 and part else f"{value:.0f}%"


def suite_row(item: PairLengths) -> tuple[str, ...]:
    """One pair's cells, in SUITE_COLUMNS order (a pair still being measured says how far it got)."""
    stats = item.stats
    samples = f"{item.measured:,}" if item.done else f"{item.handled:,}/{item.total:,}"
    if item.failed:
        samples += f" ({item.failed:,} failed)"
    over = "–" if stats.over_max_seq_len is None else f"{stats.over_max_seq_len:,}"
    lost = f"{item.lost_examples:,}" + (f" ({item.examples_dropped:,} ex.)" if item.examples_dropped else "")
    known = item.measured and (item.max_seq_len is not None or item.lost_examples)
    truncated = f"{item.truncated:,} ({share(item.truncated, item.measured)})" if known else "–"
    return (item.dataset, item.model or "(no model)", samples, _n(stats.p50), _n(stats.p95), _n(stats.max),
            _n(item.max_seq_len), over, lost, truncated, item.method)


def group_title(key: tuple[str, str] | None) -> str:
    if key is None:
        return "each sample's longest request"
    kind, name = key
    return f"turn {name}" if kind == "turn" else f"label {name}"


def summary_text(item: PairLengths, stats: Stats | None = None, palette: Palette = DEFAULT_PALETTE) -> Text:
    """One pair in a line: how many, how counted, and what max_seq_len does to them."""
    stats = stats or item.stats
    out = Text()
    if item.done:
        out.append(f"{stats.count:,} measured")
    else:
        out.append(f"measuring… {item.handled:,} of {item.total:,}", style="italic")
    out.append(" · ")
    out.append("exact" if item.method == EXACT else "estimate",
               style=palette.label if item.method == EXACT else palette.warning)
    how = "; ".join(_how(m) for m in item.methods)
    if how:
        out.append(f" ({how})", style=palette.faint)
    if item.max_seq_len is not None and stats.over_max_seq_len is not None:
        out.append(" · ")
        style = palette.error if stats.over_max_seq_len else ""
        out.append(f"{stats.over_max_seq_len:,} ({share(stats.over_max_seq_len, stats.count)}) over "
                   f"max_seq_len {item.max_seq_len:,}", style=style)
    if item.lost_examples:
        out.append(" · ")
        out.append(f"{item.lost_examples:,} lose in-context examples ({item.examples_dropped:,} dropped, "
                   "OpenCompass's truncation rules)", style=palette.warning)
    if item.failed:
        out.append(" · ")
        out.append(f"{item.failed:,} failed", style=palette.error)
    return out


def _how(method: str) -> str:
    """A counting method without the word "estimate" the line already says."""
    if method.startswith("estimate (") and method.endswith(")"):
        return method[len("estimate ("):-1]
    return method


def failure_lines(item: PairLengths, limit: int = 8) -> list[str]:
    """One line per cause: how many samples, which, and the message."""
    out = []
    for failure in item.failures:
        shown = ", ".join(str(i) for i in failure.indices[:limit])
        more = f", … {len(failure.indices) - limit} more" if len(failure.indices) > limit else ""
        n = len(failure.indices)
        if not n:
            out.append(f"nothing to measure: {failure.message}")
            continue
        out.append(f"{n:,} sample{'s' if n != 1 else ''} ({shown}{more}): {failure.message}")
    return out


def groups_of(item: PairLengths) -> Sequence[tuple[str, str] | None]:
    """The distributions a pair offers: every sample's longest request, then each label or turn."""
    return [None, *((g.kind, g.key) for g in item.groups)]
