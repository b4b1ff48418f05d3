"""``extract --format html``: the extract@1 document as one self-contained page.

The same report as text and markdown (a table per pair: verdict, extracted, gold, the rule that
matched, the prediction; ``--against``'s flips; the errors and warnings), laid out by the
browser with render's page plumbing (``formats.html_report``: the head and stylesheet, one CSS
class per look, the filter box, collapsed pairs and a table of contents). The prediction is drawn
by the views' ``styled`` with the matched span marked, so it looks as it does in the app's
answers view. Untrusted text is inert twice over: made visible (controls, escapes, bidi), then
HTML-escaped.

May import: views, the core, rich and the other headless modules; not tui, commands or ``cli``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from ..core.inert_text import visible
from ..views.options import LONG_TEXT, ViewOptions
from ..views.styled import styled
from .extract_report import MARK, against_line, error_text, flips_of, shown, summary
from .formats.html_report import HtmlOf, StyleClasses, page_head, page_tail
from .formats.svg_export import CUT_NOTE

EXTRA_CSS = """
table.samples { border-collapse: collapse; width: 100%; font-size: .9em; margin: .5em 0 1em; }
table.samples th, table.samples td { text-align: left; vertical-align: top; padding: .2em .6em;
  border-bottom: 1px solid #444; }
table.samples td.v { font-size: 1.1em; } td.ok { color: #98c379; } td.no { color: #ff6b6b; }
table.samples td.code, table.samples td.pred { font-family: Menlo, 'DejaVu Sans Mono', consolas, monospace;
  white-space: pre-wrap; overflow-wrap: anywhere; }
table.samples td.pred { width: 45%; }
"""

_VERDICT_CLASS = {True: "ok", False: "no", None: "faint"}


def _esc(text: str) -> str:
    return html.escape(visible(text), quote=False)


def _name(pair: Mapping[str, Any]) -> str:
    return html.escape(f"{pair['dataset']} × {pair['model']}".lower(), quote=True)


def _score(pair: Mapping[str, Any]) -> str:
    if pair.get("error"):
        return "<span class='error'>fails</span>"
    if pair.get("accuracy") is None:
        why = _esc(pair.get("note") or "the framework scores it")
        return f"<span class='faint'>not scored ({why})</span>"
    wrong = sum(1 for s in pair["samples"] if s["correct"] is False)
    return f"{_esc(pair['metric'])} {pair['accuracy']:.2f} · {wrong} wrong of {len(pair['samples'])}"


def write_html(document: Mapping[str, Any], out: TextIO, wrong_only: bool = False) -> None:
    """The page of ``document`` (``wrong_only``: only the samples scored wrong and those that flip)."""
    styles = StyleClasses()
    convert = HtmlOf(styles)
    opts = ViewOptions(provenance=False, root=Path.cwd(), max_chars=LONG_TEXT, cut_note=CUT_NOTE)
    title = f"extract · {_esc(document['run'])}"
    out.write(page_head(title, EXTRA_CSS))
    pairs = document["pairs"]
    for n, pair in enumerate(pairs):
        if pair.get("error"):
            continue  # listed under the errors, and in the table of contents
        out.write(f'<details class="pair" id="p{n}" data-name="{_name(pair)}"><summary>'
                  f"{_esc(pair['dataset'])} × {_esc(pair['model'])} <span class='faint'>· {_score(pair)}"
                  f"</span></summary>\n")
        line = against_line(pair)
        if line:
            out.write(f"<p>{_esc(line.strip())}</p>\n")
        flips = flips_of(pair)
        out.write("<table class='samples'><tr><th>index</th><th></th><th>extracted</th><th>gold</th>"
                  "<th>matched</th><th>prediction</th>" + ("<th>against</th>" if flips else "") + "</tr>\n")
        for sample in pair["samples"]:
            if wrong_only and sample["correct"] is not False and sample["index"] not in flips:
                continue
            out.write(_sample_row(sample, flips.get(sample["index"]), bool(flips), convert, opts))
        out.write("</table></details>\n")
    _write_problems(out, document)
    _write_toc(out, document, title)
    out.write(page_tail(styles))


def _sample_row(sample: Mapping[str, Any], flip: Mapping[str, Any] | None, has_flips: bool, convert: HtmlOf,
                opts: ViewOptions) -> str:
    prediction = sample["prediction"]
    match = sample.get("match") or {}
    span = match.get("span")
    marks = [tuple(span)] if isinstance(span, list) and len(span) == 2 else []
    if isinstance(prediction, str):
        drawn = convert.text(styled(prediction, opts, marks=marks)) if prediction else \
            "<span class='faint'>(empty string)</span>"
    else:
        drawn = html.escape(shown(prediction, None), quote=False)
    mark = sample["correct"]
    cells = [f"<td>{_esc(sample['index'])}</td>", f"<td class='v {_VERDICT_CLASS[mark]}'>{MARK[mark]}</td>",
             f"<td class='code'>{html.escape(shown(sample['extracted'], 200), quote=False)}</td>",
             f"<td class='code'>{html.escape(shown(sample['gold'], 200), quote=False)}</td>",
             f"<td class='code'>{_matched(sample.get('match'))}</td>",
             f"<td class='pred'>{drawn}</td>"]
    if has_flips:
        other = "" if flip is None else (f"{html.escape(shown(flip['against_extracted'], 200), quote=False)} "
                                         f"{MARK[flip['against_correct']]}")
        cells.append(f"<td class='code'>{other}</td>")
    return "<tr>" + "".join(cells) + "</tr>\n"


def _matched(match: Mapping[str, Any] | None) -> str:
    """What the rule read and where, over the function and the rule (faint)."""
    if not match:
        return ""
    span = match.get("span")
    where = f"at {span[0]}–{span[1]}" if span else "in the text the step read"
    rule = f"{match['function']}: {match['rule']}"
    return (f"{html.escape(shown(match['matched'], 60), quote=False)} <span class='faint'>{where}</span><br>"
            f"<span class='faint'>{_esc(rule if len(rule) <= 160 else rule[:159] + '…')}</span>")


def _write_problems(out: TextIO, document: Mapping[str, Any]) -> None:
    errors, warnings = document["errors"], list(dict.fromkeys(document["warnings"]))
    if not errors and not warnings:
        return
    out.write('<section id="problems">\n')
    for items, kind in ((errors, "error"), (warnings, "warning")):
        if not items:
            continue
        out.write(f"<h2>{len(items)} {kind}{'s' if len(items) != 1 else ''}</h2>\n<ul>\n")
        for item in items:
            said = error_text(item) if kind == "error" else visible(item).replace("\n", " ")
            out.write(f'<li class="{kind}">{html.escape(said, quote=False)}</li>\n')
        out.write("</ul>\n")
    out.write("</section>\n")


def _write_toc(out: TextIO, document: Mapping[str, Any], title: str) -> None:
    out.write(f"<header><h1>{title}</h1>\n<p class='faint'>config {_esc(document['config'])}"
              + (f" · against {_esc(document['against'])}" if document.get("against") else "")
              + f" · {_esc(summary(document))}</p>\n"
              "<input id='filter' type='search' placeholder='filter: dataset or model' "
              "aria-label='filter datasets and models'></header>\n")
    against = bool(document.get("against"))
    out.write('<nav id="toc"><table class="toc">\n<tr><th>dataset</th><th>model</th><th>evaluator</th>'
              "<th>score</th>" + ("<th>against</th>" if against else "") + "</tr>\n")
    for n, pair in enumerate(document["pairs"]):
        name = _esc(pair["dataset"])
        link = name if pair.get("error") else f"<a href='#p{n}'>{name}</a>"
        evaluator = _esc(str(pair.get("evaluator") or "").rsplit(".", 1)[-1])
        out.write(f'<tr data-name="{_name(pair)}"><td>{link}</td><td>{_esc(pair["model"])}</td>'
                  f"<td>{evaluator}</td><td>{_score(pair)}</td>"
                  + (f"<td>{_esc((against_line(pair) or '').strip())}</td>" if against else "") + "</tr>\n")
    out.write("</table></nav>\n")
