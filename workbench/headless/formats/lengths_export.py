"""Lengths in the exports: the JSON ``lengths`` summary, markdown's table and text charts, HTML's SVG.

The exporters stream samples; a :class:`LengthsCollector` sits in that stream and tallies
each pair's lengths as its samples go by, so nothing is rendered twice. The views (and
plotext with them) are imported only by the formats that draw, so ``--format json`` stays light.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, TextIO

from ...core.inert_text import visible
from ...core.lengths import LengthTally, PairLengths, by_share_truncated, tally_for
from ...core.result import Sample
from ..stream import Serialized

SamplesOf = Callable[[Any], Iterable[Sample]]


class LengthsCollector:
    """Each pair's lengths, from the samples an exporter writes (in the order the pairs come)."""

    def __init__(self) -> None:
        self._tallies: dict[int, LengthTally] = {}

    def tally(self, pair: Any) -> LengthTally:
        found = self._tallies.get(id(pair))
        if found is None:
            found = self._tallies[id(pair)] = tally_for(pair, total=0)
        return found

    def add(self, pair: Any, sample: Sample) -> None:
        self.tally(pair).add(sample)

    def wrap(self, samples_of: SamplesOf) -> Callable[[Any], Iterator[Sample]]:
        """``samples_of`` that also tallies what it hands out."""

        def counted(pair: Any) -> Iterator[Sample]:
            tally = self.tally(pair)
            for sample in samples_of(pair):
                if type(sample) is Serialized:  # a worker's, measured there
                    tally.record(sample.lengths)
                else:
                    tally.add(sample)
                yield sample

        return counted

    def summary(self, pair: Any) -> PairLengths:
        return _settled(self.tally(pair).summary())

    def summaries(self) -> list[PairLengths]:
        return [_settled(t.summary()) for t in self._tallies.values()]


def _settled(summary: PairLengths) -> PairLengths:
    """A summary of the samples written (an export's total is what it wrote)."""
    return replace(summary, total=summary.handled)


# -- markdown ---------------------------------------------------------------------------------


def write_lengths_markdown(collector: LengthsCollector, out: TextIO, escape: Callable[[str], str],
                           fenced: Callable[[str], str]) -> None:
    """The suite table, worst first, then each pair's chart (``escape``/``fenced``: markdown's own)."""
    # lazy: json and text import this module but never draw, so they load no rich or plotext
    from ...views.lengths import SUITE_COLUMNS, failure_lines, suite_row, summary_text
    from ...views.lengths_plot import histogram_text

    items = by_share_truncated(collector.summaries())
    if not items:
        return
    out.write("## Lengths\n\n*Tokens of what each model gets, worst first by the share of samples "
              "max_seq_len truncates (see docs/lengths.md).*\n\n")
    out.write("| " + " | ".join(SUITE_COLUMNS) + " |\n")
    out.write("|" + "---|" * len(SUITE_COLUMNS) + "\n")
    for item in items:
        out.write("| " + " | ".join(escape(cell) for cell in suite_row(item)) + " |\n")
    out.write("\n")
    for item in items:
        out.write(f"### {escape(item.dataset)} × {escape(item.model or 'no model')}\n\n")
        out.write(f"*{escape(summary_text(item).plain)}*\n\n")
        if item.measured:
            out.write(fenced(histogram_text(item.points, item.stats, item.max_seq_len) + "\n"
                             + _legend_plain(item)))
            out.write("\n")
        for line in failure_lines(item):
            out.write(f"- {escape(line)}\n")
        if item.failures:
            out.write("\n")


def _legend_plain(item: PairLengths) -> str:
    # lazy: json and text import this module but never draw, so they load no rich or plotext
    from ...views.lengths_plot import legend

    return legend(item.stats, item.max_seq_len).plain


# -- html ----------------------------------------------------------------------------------------


CHARTED = 2  # samples measured before a pair gets a histogram in the HTML page


def lengths_html(collector: LengthsCollector) -> str:
    """A section with the suite table and an inline SVG chart per pair of ``CHARTED`` or more
    measured samples (and the failures of every pair)."""
    # lazy: json and text import this module but never draw, so they load no rich or plotext
    from ...views.lengths import SUITE_COLUMNS, failure_lines, suite_row, summary_text
    from ...views.lengths_plot import PlotColors, chart_bins
    from ...views.lengths_svg import WIDTH, histogram_svg

    items = by_share_truncated(collector.summaries())
    if not items:
        return ""

    def esc(text: str) -> str:
        return html.escape(visible(text))

    parts = ['<section class="lengths">\n<h2>Lengths</h2>\n',
             "<p>Tokens of what each model gets, worst first by the share of samples max_seq_len "
             "truncates (hover over exact or estimate for how each was counted).</p>\n"
             '<table class="toc">\n<tr>']
    parts += [f"<th>{esc(c)}</th>" for c in SUITE_COLUMNS]
    parts.append("</tr>\n")
    counts = range(2, len(SUITE_COLUMNS) - 1)  # numbers, right-aligned (the names and tokens are words)
    for item in items:
        cells = suite_row(item)
        row = [f'<td class="n">{esc(cell)}</td>' if i in counts else f"<td>{esc(cell)}</td>"
               for i, cell in enumerate(cells[:-1])]
        how = "; ".join(item.methods)
        row.append(f'<td title="{html.escape(visible(how), quote=True)}">{esc(cells[-1])}</td>')
        parts.append("<tr>" + "".join(row) + "</tr>\n")
    parts.append("</table>\n")
    if any(item.measured < CHARTED for item in items):
        # one bar says nothing its table row does not, and a suite's page would carry 468 of them
        parts.append(f"<p>A chart for each pair with {CHARTED} or more samples measured "
                     "(render --limit N measures more).</p>\n")
    colors = PlotColors.of()
    for item in items:
        charted = item.measured >= CHARTED
        failures = failure_lines(item)
        if not charted and not failures:
            continue
        title = f"{item.dataset} × {item.model or 'no model'}"
        parts.append(f"<figure>\n<figcaption><strong>{esc(title)}</strong>: "
                     f"{esc(summary_text(item).plain)}</figcaption>\n")
        if charted:
            bins = chart_bins(item.points, item.stats, item.max_seq_len, WIDTH // 8)
            parts.append(histogram_svg(bins, item.stats, item.max_seq_len, colors, title) + "\n")
        for line in failures:
            parts.append(f"<p>{esc(line)}</p>\n")
        parts.append("</figure>\n")
    parts.append("</section>\n")
    return "".join(parts)
