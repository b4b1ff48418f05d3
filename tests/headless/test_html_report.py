"""``render --format html``: one page that scales (table of contents, collapsed sections, a filter,
colours as classes) and says what it shows."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from workbench.headless.formats.html_report import PairRow, SaidBefore

from .helpers import run_cli, write_workspace


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("html")
    write_workspace(root)
    return root


class Page(HTMLParser):
    """The page's elements, as (tag, attributes), and whether it nests properly."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict]] = []
        self.open: list[str] = []
        self.void = {"meta", "input", "br", "hr"}

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag not in self.void:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()


def page(text: str) -> Page:
    parsed = Page()
    parsed.feed(text)
    parsed.close()
    assert parsed.open == [], parsed.open
    return parsed


def test_one_self_contained_page_with_a_toc_collapsed_sections_and_a_filter(ws):
    result = run_cli("render", "eval.py", "-f", "html", cwd=ws)
    assert result.code == 3  # choice × api is refused, and listed
    parsed = page(result.out)
    tags = [t for t, _ in parsed.elements]
    assert "link" not in tags and all("src" not in a for t, a in parsed.elements if t == "script")
    sections = [a for t, a in parsed.elements if t == "details"]
    assert [s["data-name"] for s in sections] == ["qa × chat-lm", "qa × api", "choice × chat-lm"]
    assert all("open" not in s for s in sections)  # collapsed
    rows = [a["data-name"] for t, a in parsed.elements if t == "tr" and "data-name" in a]
    assert rows == ["qa × chat-lm", "qa × api", "choice × chat-lm"]
    toc = result.out[result.out.index('<nav id="toc">'):]
    assert re.findall(r"<a href='(#p\d+)'>", toc) == ["#p0", "#p1", "#p2"]
    assert ("input", {"id": "filter", "type": "search", "placeholder": "filter: dataset or model",
                      "aria-label": "filter datasets and models"}) in parsed.elements
    assert "getElementById('filter')" in result.out
    assert "[choice × api]" in result.out  # the refused pair is in the problems list


def test_colours_are_classes_not_inline_styles(ws):
    out = run_cli("render", "eval.py", "-f", "html", "--model", "chat-lm", cwd=ws).out
    assert ' style="' not in out and " style='" not in out
    used = set(re.findall(r'class="(s\d+)"', out))
    defined = set(re.findall(r"^\.(s\d+) \{", out, re.M))
    assert used and used == defined


def test_the_first_sample_of_each_pair_unless_asked_and_it_says_so(ws):
    default = run_cli("render", "eval.py", "-f", "html", "--model", "chat-lm", cwd=ws)
    assert "The first sample of each pair; render --limit N or --sample LIST for others" in default.out
    assert "workbench render: --format html: the first sample of each pair" in default.err
    assert re.findall(r"<h3>(\w+) · sample (\d+)", default.out) == [("qa", "0")] + [
        ("choice", "0")] * default.out.count("<h3>choice · sample 0")  # one per label
    asked = run_cli("render", "eval.py", "-f", "html", "--model", "chat-lm", "--limit", "3", cwd=ws)
    assert "The first sample" not in asked.out and "--format html" not in asked.err
    assert re.findall(r"<h3>qa · sample (\d+)", asked.out) == ["0", "1", "2"]


def test_a_pane_another_model_showed_identically_is_a_link():
    first = PairRow("p0", "qa", "chat-lm", "lm", "GenInferencer", 3)
    second = PairRow("p1", "qa", "other-lm", "lm", "GenInferencer", 3)
    same = SaidBefore()
    assert same.said_before(("qa", 0, 0, "PromptList"), "<table>x</table>", first) == "<table>x</table>"
    assert same.said_before(("qa", 0, 0, "PromptList"), "<table>x</table>", second) == (
        '<p class="faint">the same as for <a href="#p0">qa × chat-lm</a></p>')
    # a different pane (a model whose max_seq_len dropped examples) is written out
    assert same.said_before(("qa", 0, 0, "PromptList"), "<table>y</table>", second) == "<table>y</table>"


def test_links_are_readable_on_the_dark_page_and_a_request_is_headed_by_what_it_shows(ws):
    from workbench.views.recording import THEME

    out = run_cli("render", "eval.py", "-f", "html", cwd=ws).out
    link = THEME.ansi_colors[6].hex
    assert f"a, a:visited {{ color: {link}; }}" in out  # not a browser's default blue on dark grey
    headings = re.findall(r'<div class="request"><h3>([^<]*)</h3>', out)
    assert headings and headings[0] == "qa · sample 0 (1/3)"  # the sample, not the PromptList pane
    assert not any(h.startswith("PromptList") for h in headings)
    assert out.count("<h4>PromptList</h4>") == len(headings)  # the pane keeps its own name
    # the lengths table reads like the contents: numbers right-aligned, how each was counted on hover
    lengths = out[out.index('<section class="lengths">'):]
    assert '<table class="toc">' in lengths and re.search(r'<td class="n">\d+</td>', lengths)
    assert re.search(r'<td title="estimate \([^"]+\)">estimate</td>', lengths)
