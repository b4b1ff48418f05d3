"""A length histogram as a small inline SVG, for the HTML export (no script, no external file).

The same bins and markers as the terminal chart (:mod:`.lengths_plot`); every piece of
text in it is a number or escaped, so nothing in a dataset's name reaches the markup raw.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..core.lengths import Bin, Stats
from .lengths_plot import PlotColors, limit_on_chart

WIDTH, HEIGHT = 640, 180
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 10, 34


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def histogram_svg(bins: Sequence[Bin], stats: Stats, max_seq_len: int | None, colors: PlotColors,
                  title: str, foreground: str = "#c5c8c6") -> str:
    """The chart: bars, the p50 / p95 / max lines (dashed), max_seq_len (solid), and a legend."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
            f'font-family="monospace" font-size="11" fill="{foreground}">')
    parts = [head, f"<title>{escape(title)}</title>"]
    if not bins:
        parts.append(f'<text x="{LEFT}" y="{HEIGHT // 2}">nothing measured</text></svg>')
        return "".join(parts)
    start, end = bins[0].start, bins[-1].end + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top = max(max(b.count for b in bins), 1)

    def x_of(value: float) -> float:
        return LEFT + (value - start) / max(end - start, 1) * plot_w

    def y_of(count: float) -> float:
        return TOP + plot_h - count / top * plot_h

    bars = _hex(colors.bars)
    for b in bins:
        if b.count:
            x0, x1 = x_of(b.start), x_of(b.end + 1)
            y = y_of(b.count)
            parts.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{max(x1 - x0 - 1, 1):.1f}" '
                         f'height="{TOP + plot_h - y:.1f}" fill="{bars}">'
                         f"<title>{b.start:,}–{b.end:,} tokens: {b.count:,}</title></rect>")
    marks = [(stats.p50, colors.p50, "p50", "4 3"), (stats.p95, colors.p95, "p95", "4 3"),
             (stats.max, colors.max, "max", "4 3")]
    if max_seq_len is not None and limit_on_chart(stats, max_seq_len):
        marks.append((max_seq_len, colors.limit, "max_seq_len", ""))
    for value, rgb, _, dash in marks:
        if value is not None:
            x = x_of(value + 0.5)
            dashed = f' stroke-dasharray="{dash}"' if dash else ""
            parts.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" '
                         f'stroke="{_hex(rgb)}" stroke-width="2"{dashed}/>')
    base = TOP + plot_h
    parts.append(f'<line x1="{LEFT}" y1="{base}" x2="{LEFT + plot_w}" y2="{base}" stroke="{foreground}"/>')
    parts.append(f'<text x="{LEFT - 4}" y="{TOP + 9}" text-anchor="end">{top:,}</text>')
    parts.append(f'<text x="{LEFT - 4}" y="{base}" text-anchor="end">0</text>')
    parts.append(f'<text x="{LEFT}" y="{base + 13}">{start:,}</text>')
    parts.append(f'<text x="{LEFT + plot_w}" y="{base + 13}" text-anchor="end">{end - 1:,} tokens</text>')
    x = LEFT
    for value, rgb, label, _ in marks:
        if value is None:
            continue
        text = f"{label} {value:,}"
        parts.append(f'<text x="{x}" y="{HEIGHT - 4}" fill="{_hex(rgb)}">{escape(text)}</text>')
        x += 8 * len(text) + 16
    parts.append("</svg>")
    return "".join(parts)
