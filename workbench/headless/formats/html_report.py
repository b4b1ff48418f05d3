"""``render --format html``: one self-contained page that stays small and quick for a whole suite.

The page shows the app's panes (PromptList, final input with provenance colours, timeline)
for each selected request, built by the same views as the app (:func:`build_frame`), but
laid out by the browser: a view's text becomes HTML text that the browser wraps, instead
of a terminal recording padded to a width. Colours are CSS classes shared by the whole
page (one rule per look), not styles repeated on every span. Each dataset × model pair is
a collapsed ``<details>`` section; a table of contents lists every pair with its counts and
problems, and a filter box (a few lines of inline script) narrows both to what matches.

The document streams: sections are written as they render; the table of contents, the
problems and the stylesheet come last and are shown first (CSS ``order``), so memory stays
flat whatever ``--limit`` asks for. Untrusted text is inert twice over: the views make
control characters visible, and everything is HTML-escaped here.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import html
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ...core.errors import RenderError
from ...core.inert_text import visible
from ...core.result import RenderResult
from ...core.warning_groups import WarningGroup, group_warnings
from ...views.frame import build_frame
from ...views.options import LONG_TEXT, ViewOptions
from ...views.recording import THEME
from ...views.selection import Catalog, Selection
from ..render_filter import RenderFilter, label_text
from .json_export import collect_warnings, stopped_error
from .lengths_export import LengthsCollector, lengths_html
from .svg_export import CUT_NOTE

FALLBACK_WIDTH = 100  # columns for a renderable the page cannot lay out itself

PAGE_CSS = """
body { color: %(fg)s; background: %(bg)s; margin: 0; font-family: system-ui, sans-serif; }
main { display: flex; flex-direction: column; padding: 0 1.5em 2em; }
header { order: -3; } #problems { order: -2; } #toc, section.lengths { order: -1; margin-bottom: 1.5em; }
h1 { font-size: 1.3em; } .faint { opacity: .7; }
a, a:visited { color: %(link)s; }
input#filter { font: inherit; padding: .3em .5em; width: 24em; margin: .5em 0 1em; }
table.toc { border-collapse: collapse; font-size: .9em; }
table.toc td, table.toc th { padding: .15em .8em; text-align: left; border-bottom: 1px solid #444; }
table.toc td.n { text-align: right; font-variant-numeric: tabular-nums; }
details.pair { border-top: 1px solid #444; padding: .3em 0; }
details.pair > summary { cursor: pointer; font-weight: 600; }
.request h3 { font-size: .95em; margin: .8em 0 .3em; }
.pane { margin: .4em 0 .8em; }
.pane > h4 { font-size: .85em; margin: 0 0 .2em; opacity: .8; }
.pane pre, .pane .body { font-family: Menlo, 'DejaVu Sans Mono', consolas, monospace; font-size: .85em;
  white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
.pane table.grid { border-collapse: collapse; width: 100%%; }
.pane table.grid td { vertical-align: top; padding: 0 .6em 0 0; white-space: pre-wrap;
  overflow-wrap: anywhere; font-family: Menlo, 'DejaVu Sans Mono', consolas, monospace; font-size: .85em; }
.pane table.grid td:first-child { white-space: nowrap; width: 1%%; }
.rule { opacity: .7; border-top: 1px dashed; margin: .4em 0; font-size: .85em; }
.error { color: #ff6b6b; } .warning { color: #e5c07b; }
[hidden] { display: none !important; }
"""

FILTER_JS = """
<script>
(function () {
  var box = document.getElementById('filter');
  var rows = document.querySelectorAll('[data-name]');
  box.addEventListener('input', function () {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    rows.forEach(function (el) {
      var name = el.getAttribute('data-name');
      el.hidden = !words.every(function (w) { return name.indexOf(w) >= 0; });
      if (words.length && el.tagName === 'DETAILS' && !el.hidden) { el.open = true; }
    });
  });
  function openTarget() {  // a link from the table of contents opens its section
    var target = document.getElementById(location.hash.slice(1));
    if (target && target.tagName === 'DETAILS') { target.open = true; }
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();
</script>
"""


class StyleClasses:
    """One CSS class per distinct look, shared by the whole page."""

    def __init__(self) -> None:
        self._classes: dict[str, str] = {}

    def of(self, style: Style | None) -> str | None:
        if style is None or not style:
            return None
        css = style.get_html_style(THEME)
        if not css:
            return None
        name = self._classes.get(css)
        if name is None:
            name = self._classes[css] = f"s{len(self._classes)}"
        return name

    def stylesheet(self) -> str:
        return "\n".join(f".{name} {{ {css} }}" for css, name in self._classes.items())


def _console() -> Console:
    return Console(width=FALLBACK_WIDTH, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                   legacy_windows=False, emoji=False, highlight=False, markup=False, _environ={})


class HtmlOf:
    """A view's renderable as HTML: text and grids laid out by the browser, anything else as
    the terminal would draw it."""

    def __init__(self, styles: StyleClasses) -> None:
        self.styles = styles
        self.console = _console()

    def __call__(self, renderable: RenderableType) -> str:
        if isinstance(renderable, Text):
            return f'<div class="body">{self.text(renderable)}</div>'
        if isinstance(renderable, Group):
            return "".join(self(r) for r in renderable.renderables)
        if isinstance(renderable, Table):
            return self.table(renderable)
        if isinstance(renderable, Rule):
            title = renderable.title
            shown = self.text(title) if isinstance(title, Text) else html.escape(str(title or ""))
            return f'<div class="rule">{shown}</div>'
        if isinstance(renderable, str):
            return f'<div class="body">{html.escape(renderable)}</div>'
        return self.drawn(renderable)

    def text(self, text: Text) -> str:
        out = []
        for segment in text.render(self.console, end=""):
            if not segment.text:
                continue
            escaped = html.escape(segment.text, quote=False)
            name = self.styles.of(segment.style)
            out.append(f'<span class="{name}">{escaped}</span>' if name else escaped)
        return "".join(out)

    def table(self, table: Table) -> str:
        rows = []
        if table.show_header and any(c.header for c in table.columns):
            rows.append("<tr>" + "".join(f"<th>{self._cell(c.header)}</th>" for c in table.columns) + "</tr>")
        for r in range(table.row_count):
            cells = [self._cell(c._cells[r]) if r < len(c._cells) else "" for c in table.columns]
            rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
        return f'<table class="grid">{"".join(rows)}</table>'

    def _cell(self, cell: Any) -> str:
        if isinstance(cell, Text):
            return self.text(cell)
        if isinstance(cell, str):
            return html.escape(cell)
        return self(cell)

    def drawn(self, renderable: RenderableType) -> str:
        """As the terminal draws it at :data:`FALLBACK_WIDTH` columns (trailing padding dropped)."""
        lines = self.console.render_lines(renderable, self.console.options, pad=False)
        out = []
        for line in lines:
            while line and not line[-1].text.strip() and not (line[-1].style and line[-1].style.bgcolor):
                line = line[:-1]
            parts = []
            for segment in line:
                name = self.styles.of(segment.style)
                escaped = html.escape(segment.text, quote=False)
                parts.append(f'<span class="{name}">{escaped}</span>' if name else escaped)
            out.append("".join(parts))
        return "<pre>" + "\n".join(out) + "</pre>"


@dataclass
class PairRow:
    """One line of the table of contents."""

    anchor: str
    dataset: str
    model: str | None
    kind: str
    inferencer: str
    samples: int
    requests: int = 0
    shown: int = 0
    stopped: str | None = None
    warnings: int = 0
    errors: list[str] = field(default_factory=list)


class SaidBefore:
    """A pane another model's section showed already, identical (a dataset's PromptList is
    the same for every model unless a max_seq_len dropped examples): a link instead of a copy,
    which halves a suite's page."""

    def __init__(self) -> None:
        self._first: dict[tuple, tuple[int, PairRow]] = {}

    def said_before(self, key: tuple, shown: str, row: PairRow) -> str:
        found = self._first.get(key)
        digest = hash(shown)
        if found is None or found[0] != digest:
            self._first[key] = (digest, row)
            return shown
        first = found[1]
        label = html.escape(visible(f"{first.dataset} × {first.model or 'no model'}"))
        return f'<p class="faint">the same as for <a href="#{first.anchor}">{label}</a></p>'


def _name(dataset: str | None, model: str | None) -> str:
    return html.escape(f"{dataset or ''} × {model or 'no model'}".lower(), quote=True)


def write_html_report(result: RenderResult, out: TextIO, entries: Iterable[Any], selection: RenderFilter,
                      whitespace: bool = False, progress: Any = None, note: str | None = None,
                      full_text: bool = False) -> RenderResult:
    """The page; ``full_text`` draws every character of long texts (by default each text past
    ``LONG_TEXT`` characters shows its head and tail, as the app does, so a 20 MB row costs what
    a 24,000-character one does)."""
    styles = StyleClasses()
    convert = HtmlOf(styles)
    lengths = LengthsCollector()
    opts = ViewOptions(whitespace=whitespace, provenance=True, root=Path.cwd(),
                       max_chars=None if full_text else LONG_TEXT, cut_note=CUT_NOTE)
    catalog = Catalog(result)
    title = html.escape(visible(result.config))
    out.write(page_head(title))
    rows: list[PairRow] = []
    same = SaidBefore()
    for n, entry in enumerate(entries):
        pair = entry.pair
        row = PairRow(f"p{n}", pair.dataset_abbr, pair.model_abbr, pair.model_kind, pair.inferencer,
                      len(pair))
        rows.append(row)
        label = f"{pair.dataset_abbr} × {pair.model_abbr or 'no model'}"
        out.write(f'<details class="pair" id="{row.anchor}" data-name="{_name(row.dataset, row.model)}">'
                  f"<summary>{html.escape(visible(label))} <span class='faint'>· {html.escape(row.kind)} · "
                  f"{html.escape(visible(row.inferencer))} · {row.samples:,} samples</span></summary>\n")
        for index in entry.indices:
            try:
                sample = catalog.sample(pair, index)
            except RenderError as exc:
                error = stopped_error(pair, exc)
                result.errors.append(error)
                row.stopped = error.message
                out.write(f'<p class="error">{html.escape(visible(error.message))}</p>\n')
                break
            if progress is not None:
                progress.advance(1, label)
            lengths.add(pair, sample)
            row.requests += len(sample.requests)
            for r, request in enumerate(sample.requests):
                if selection.labels and (request.label is None
                                         or label_text(request.label) not in selection.labels):
                    continue
                row.shown += 1
                where = Selection(pair.dataset_abbr, pair.model_abbr, index, r)
                frame = build_frame(catalog, where, opts)
                out.write(f'<div class="request"><h3>{html.escape(visible(frame.heading))}</h3>\n')
                for pane_title, body in ((frame.final_input_title, frame.final_input),
                                         ("PromptList", frame.prompt_list),
                                         (frame.timeline_title, frame.timeline)):
                    shown = convert(body)
                    if pane_title != frame.final_input_title:  # the same for every model, mostly
                        shown = same.said_before((pair.dataset_abbr, index, r, pane_title), shown, row)
                    out.write(f'<div class="pane"><h4>{html.escape(visible(pane_title))}</h4>{shown}</div>\n')
                out.write("</div>\n")
        out.write("</details>\n")
    collect_warnings(result)
    groups = group_warnings(result.warnings)
    _count_problems(rows, result, groups)
    _write_problems(out, result, groups)
    _write_toc(out, rows, title, note)
    out.write(lengths_html(lengths))  # after the table of contents (both come first: CSS order)
    out.write(page_tail(styles))
    return result


def page_head(title: str, css: str = "") -> str:
    """The page's start up to ``<main>``: its title (already escaped) and the shared stylesheet
    (with ``css`` after it); every HTML report of the workbench starts so."""
    fg, bg = THEME.foreground_color.hex, THEME.background_color.hex
    link = THEME.ansi_colors[6].hex  # the theme's cyan: 5:1 on its background (a browser's blue was 2:1)
    page_css = PAGE_CSS % {"fg": fg, "bg": bg, "link": link} + css
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{title} · Prompt Workbench</title>\n<style>{page_css}</style>\n"
            f"</head>\n<body>\n<main>\n")


def page_tail(styles: StyleClasses) -> str:
    """The page's end: the looks its texts used (one class each) and the filter box's script."""
    return f"</main>\n<style>\n{styles.stylesheet()}\n</style>\n{FILTER_JS}</body>\n</html>\n"


def _count_problems(rows: list[PairRow], result: RenderResult, groups: list[WarningGroup]) -> None:
    by_pair: dict[tuple[str | None, str | None], PairRow] = {(r.dataset, r.model): r for r in rows}
    for error in result.errors:
        row = by_pair.get((error.dataset, error.model))
        if row is not None and error.message != row.stopped:
            row.errors.append(error.message)
    for group in groups:
        for dataset, model in group.applies_to:
            row = by_pair.get((dataset, model))
            if row is not None:
                row.warnings += 1


def _write_problems(out: TextIO, result: RenderResult, groups: list[WarningGroup]) -> None:
    if not result.errors and not groups:
        return
    out.write('<section id="problems">\n')
    if result.errors:
        out.write(f"<h2>{len(result.errors)} error{'s' if len(result.errors) != 1 else ''}</h2>\n<ul>\n")
        for error in result.errors:
            where = f"{error.file}:{error.line}" if error.file and error.line else (error.file or "")
            pair = f"[{error.dataset} × {error.model or 'no model'}] " if error.dataset else ""
            hint = f" (hint: {error.hint})" if error.hint else ""
            said = html.escape(visible(f"{where}: {pair}{error.message}{hint}"))
            out.write(f'<li class="error">{said}</li>\n')
        out.write("</ul>\n")
    if groups:
        out.write(f"<h2>{len(groups)} warning{'s' if len(groups) != 1 else ''}</h2>\n<ul>\n")
        for group in groups:
            pair = f"[{group.dataset} × {group.model or 'no model'}] " if group.dataset or group.model else ""
            more = f" ({group.elsewhere()})" if group.count > 1 else ""
            out.write(f'<li class="warning">{html.escape(visible(f"{pair}{group.message}{more}"))}</li>\n')
        out.write("</ul>\n")
    out.write("</section>\n")


def _write_toc(out: TextIO, rows: list[PairRow], title: str, note: str | None) -> None:
    datasets = len({r.dataset for r in rows})
    models = len({r.model for r in rows})
    shown = sum(r.shown for r in rows)
    out.write(f"<header><h1>Prompt Workbench · {title}</h1>\n<p class='faint'>{datasets:,} dataset"
              f"{'s' if datasets != 1 else ''} × {models:,} model{'s' if models != 1 else ''}: {len(rows):,} "
              f"pairs, {shown:,} requests shown" + (f". {html.escape(note)}" if note else "") + "</p>\n"
              "<input id='filter' type='search' placeholder='filter: dataset or model' "
              "aria-label='filter datasets and models'></header>\n")
    out.write('<nav id="toc"><table class="toc">\n<tr><th>dataset</th><th>model</th><th>kind</th>'
              "<th>inferencer</th><th>samples</th><th>shown</th><th>problems</th></tr>\n")
    for r in rows:
        problems = []
        if r.stopped or r.errors:
            failed = len(r.errors) + (1 if r.stopped else 0)
            problems.append(f"<span class='error'>✖ {failed}</span>")
        if r.warnings:
            problems.append(f"<span class='warning'>⚠ {r.warnings}</span>")
        model = html.escape(visible(r.model or "no model"))
        out.write(f"<tr data-name=\"{_name(r.dataset, r.model)}\"><td><a href='#{r.anchor}'>"
                  f"{html.escape(visible(r.dataset))}</a></td><td>{model}</td>"
                  f"<td>{html.escape(r.kind)}</td><td>{html.escape(visible(r.inferencer))}</td>"
                  f"<td class='n'>{r.samples:,}</td><td class='n'>{r.shown:,}</td>"
                  f"<td>{' '.join(problems)}</td></tr>\n")
    out.write("</table></nav>\n")
