"""A length histogram drawn with plotext: the same drawing for the app's widget and the exports.

:func:`draw_histogram` paints onto any plotext figure: the one a ``textual_plotext``
widget holds (sized and themed by the widget) or a fresh one here (:func:`histogram_text`,
for markdown). The markers (p50, p95, max, ``max_seq_len``) are vertical lines drawn
over the bars; :func:`legend` says which is which, in the same colours.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plotext._figure import _figure_class
from rich.color import Color
from rich.style import Style
from rich.text import Text

from ..core.lengths import Bin, Point, Stats, histogram
from .palette import DEFAULT_PALETTE, Palette

#: ``max_seq_len`` further right than this many times the longest sample is not drawn
#: (the bars would shrink to a sliver); the legend says where it is instead.
LIMIT_REACH = 1.5
MAX_BINS = 60


@dataclass(frozen=True)
class PlotColors:
    """RGB triples for plotext, taken from the views' palette so a theme recolours the plot."""

    bars: tuple[int, int, int]
    selected: tuple[int, int, int]
    p50: tuple[int, int, int]
    p95: tuple[int, int, int]
    max: tuple[int, int, int]
    limit: tuple[int, int, int]

    @classmethod
    def of(cls, palette: Palette = DEFAULT_PALETTE) -> PlotColors:
        return cls(bars=_rgb(palette.ice[0] if palette.ice else "", (95, 135, 215)),
                   selected=_rgb(palette.selected, (255, 175, 0)), p50=_rgb(palette.row, (135, 215, 135)),
                   p95=_rgb(palette.warning, (255, 175, 0)), max=_rgb(palette.meta, (215, 135, 215)),
                   limit=_rgb(palette.error, (255, 95, 95)))


def _rgb(style: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
    try:
        color = Style.parse(style).color if style else None
    except Exception:  # a theme's odd style string: keep the default colour
        return default
    if color is None:
        return default
    triplet = color.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


def limit_on_chart(stats: Stats, max_seq_len: int | None) -> bool:
    """Whether ``max_seq_len`` is near enough to the lengths to draw it as a line."""
    if max_seq_len is None or stats.max is None:
        return False
    return max_seq_len <= max(stats.max, 1) * LIMIT_REACH


def chart_bins(points: Sequence[Point], stats: Stats, max_seq_len: int | None,
               columns: int) -> tuple[Bin, ...]:
    """Bins for a chart ``columns`` wide: about three columns a bar, ``max_seq_len`` in range when near."""
    if not points:
        return ()
    lo = min(p.length for p in points)
    hi = max(p.length for p in points)
    if max_seq_len is not None and limit_on_chart(stats, max_seq_len):
        lo, hi = min(lo, max_seq_len), max(hi, max_seq_len)
    count = max(1, min(MAX_BINS, (columns - 8) // 3, hi - lo + 1))
    return histogram(points, count, lo, hi)


def draw_histogram(plt: Any, bins: Sequence[Bin], stats: Stats, max_seq_len: int | None,
                   colors: PlotColors, selected: int | None = None, title: str | None = None) -> None:
    """Paint the bars (the ``selected`` one highlighted) and the marker lines onto ``plt``."""
    plt.clear_data()
    if title is not None:
        plt.title(title)
    if not bins:
        plt.xticks([], [])
        plt.yticks([], [])
        return
    xs = [(b.start + b.end + 1) / 2 for b in bins]
    counts = [b.count for b in bins]
    plt.bar(xs, counts, width=1.0, color=colors.bars)
    if selected is not None and 0 <= selected < len(bins) and counts[selected]:
        # one rectangle over its bar (a second bar series would blank the others' bottom row)
        chosen = bins[selected]
        plt.rectangle([chosen.start, chosen.end + 1], [0, chosen.count], marker="█", color=colors.selected,
                      fill=True)
    top = max(max(counts), 1)
    marks = [(stats.p50, colors.p50, "┊"), (stats.p95, colors.p95, "┊"), (stats.max, colors.max, "┊")]
    if max_seq_len is not None and limit_on_chart(stats, max_seq_len):
        marks.append((max_seq_len, colors.limit, "┃"))
    for x, color, marker in marks:
        if x is not None:
            at = x + 0.5  # the middle of the token count's unit on the axis
            plt.plot([at, at], [0, top], color=color, marker=marker)
    start, end = bins[0].start, bins[-1].end + 1
    plt.xlim(start, end)
    plt.ylim(0, top)
    ticks = _ticks(start, end, 5)
    plt.xticks([t + 0.5 for t in ticks], [f"{t:,}" for t in ticks])
    plt.yticks(sorted({0, top // 2, top}), [f"{v:,}" for v in sorted({0, top // 2, top})])


def _ticks(start: int, end: int, count: int) -> list[int]:
    span = max(end - 1 - start, 0)
    if span == 0:
        return [start]
    step = span / (count - 1)
    return sorted({start + round(step * i) for i in range(count)})


def new_figure(width: int, height: int) -> Any:
    """A plotext figure of its own (no global state, safe in a worker thread).

    plotext's public functions all act on one module-wide figure; its figure class is what
    ``textual_plotext`` builds on too (``plotext<6`` is pinned for it).
    """
    figure = _figure_class()
    figure.plotsize(width, height)
    figure.theme("clear")
    return figure


def histogram_text(points: Sequence[Point], stats: Stats, max_seq_len: int | None, width: int = 72,
                   height: int = 12) -> str:
    """The chart as plain text (no colours), for markdown and plain-text reports."""
    figure = new_figure(width, height)
    draw_histogram(figure, chart_bins(points, stats, max_seq_len, width), stats, max_seq_len,
                   PlotColors.of(), title=None)
    lines = Text.from_ansi(figure.build()).plain.splitlines()
    return "\n".join(line.rstrip() for line in lines)


def legend(stats: Stats, max_seq_len: int | None, palette: Palette = DEFAULT_PALETTE) -> Text:
    """Which line is which, in the lines' colours (and where max_seq_len is when off the chart)."""
    out = Text()
    colors = PlotColors.of(palette)

    def mark(symbol: str, rgb: tuple[int, int, int], label: str) -> None:
        if out:
            out.append("  ")
        out.append(symbol, style=Style(color=Color.from_rgb(*rgb), bold=True))
        out.append(f" {label}")

    if stats.count == 0:
        return Text("nothing measured", style=palette.faint)
    mark("┊", colors.p50, f"p50 {stats.p50:,}")
    mark("┊", colors.p95, f"p95 {stats.p95:,}")
    mark("┊", colors.max, f"max {stats.max:,}")
    if max_seq_len is None:
        out.append("  no max_seq_len in the model config", style=palette.faint)
    elif limit_on_chart(stats, max_seq_len):
        mark("┃", colors.limit, f"max_seq_len {max_seq_len:,}")
    else:
        out.append(f"  max_seq_len {max_seq_len:,} (off the chart, right)", style=palette.faint)
    return out
