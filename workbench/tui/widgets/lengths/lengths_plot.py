"""One model's length histogram: a ``textual_plotext`` widget with a bar cursor.

The drawing is :func:`workbench.views.lengths_plot.draw_histogram` (the exports draw
the same); this widget only sizes it, remembers which bar is selected, and says which
sample the selected bar's longest one is.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from rich.text import Text
from textual_plotext import PlotextPlot

from ....core.lengths import Bin, Distribution, PairLengths, Point
from ....views.lengths_plot import PlotColors, chart_bins, draw_histogram
from ....views.palette import DEFAULT_PALETTE, Palette


class LengthsPlot(PlotextPlot, can_focus=True):
    DEFAULT_CSS = """
    LengthsPlot { height: 14; border: round $panel-lighten-2; border-title-color: $text-muted; }
    LengthsPlot:focus { border: round $primary; border-title-color: $text; }
    """

    def __init__(self, key: tuple[str, str | None], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.key = key
        self.summary: PairLengths | None = None
        self.distribution: Distribution | None = None
        self.palette: Palette = DEFAULT_PALETTE
        self.bins: tuple[Bin, ...] = ()
        self.selected: int | None = None
        self.border_title = key[1] or "(no model)"

    def show(self, summary: PairLengths, distribution: Distribution, palette: Palette) -> None:
        """Draw ``distribution`` (points and stats of a group of ``summary``)."""
        self.summary, self.distribution, self.palette = summary, distribution, palette
        self.refresh()

    def render(self) -> Text:
        width = max(self.size.width, 20)
        if self.summary is None or self.distribution is None:
            return Text("waiting…", style="italic")
        points, stats = self.distribution
        bins = chart_bins(points, stats, self.summary.max_seq_len, width)
        if bins != self.bins:
            self.bins = bins
            self.selected = _last_filled(bins)
        draw_histogram(self.plt, bins, stats, self.summary.max_seq_len, PlotColors.of(self.palette),
                       self.selected)
        return super().render()  # type: ignore[return-value]

    def move(self, delta: int) -> bool:
        """Select the next bar that holds samples (False when there is none that way)."""
        if self.selected is None:
            return False
        i = self.selected + delta
        while 0 <= i < len(self.bins):
            if self.bins[i].count:
                self.selected = i
                self.refresh()
                return True
            i += delta
        return False

    def chosen(self) -> tuple[Bin, Point] | None:
        """The selected bar and its longest sample."""
        if self.selected is None or not 0 <= self.selected < len(self.bins):
            return None
        chosen = self.bins[self.selected]
        return (chosen, chosen.longest) if chosen.longest is not None else None


def _last_filled(bins: tuple[Bin, ...]) -> int | None:
    """The bar of the longest samples: where a look at truncation starts."""
    filled = [i for i, b in enumerate(bins) if b.count]
    return filled[-1] if filled else None
