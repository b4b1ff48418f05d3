"""Lengths in the exports: JSON's ``lengths`` per render agrees with the render's own token counts;
markdown gets the table (worst first) and a text chart; HTML an inline SVG; names stay inert."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from .helpers import edit, run_cli, write_workspace


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lengths")
    write_workspace(root)
    # a limit the qa prompts do not fit: OpenCompass drops their one example, some still overflow
    edit(root / "models" / "lm.py", "path='no/such-model',", "path='no/such-model', max_seq_len=30,")
    return root


def test_json_lengths_are_the_summary_of_the_requests_token_counts(workspace):
    result = run_cli("render", "eval.py", "--format", "json", cwd=workspace)
    document = json.loads(result.out)
    assert document["renders"]
    for render in document["renders"]:
        lengths = render["lengths"]
        per_sample = [max(r["tokens"]["total"] for r in s["requests"]) for s in render["samples"]]
        assert lengths["count"] == len(per_sample)
        assert lengths["max"] == max(per_sample)
        for p in (50, 95):
            assert lengths[f"p{p}"] == int(np.percentile(per_sample, p, method="inverted_cdf"))
        exact = all(r["tokens"]["exact"] for s in render["samples"] for r in s["requests"])
        assert lengths["method"] == ("exact" if exact else "estimate")
        limit = 30 if render["model"] == "chat-lm" else None
        assert lengths["max_seq_len"] == limit
        if limit is None:
            assert lengths["over_max_seq_len"] is None
        else:
            assert lengths["over_max_seq_len"] == sum(1 for n in per_sample if n > limit)
        lost = [max((len(r["truncation"]["dropped"]) for r in s["requests"] if r.get("truncation")), default=0)
                for s in render["samples"]]
        assert lengths["lost_examples"] == sum(1 for d in lost if d)
        assert lengths["examples_dropped"] == sum(lost)
    qa_lm = next(r for r in document["renders"] if (r["dataset"], r["model"]) == ("qa", "chat-lm"))
    assert qa_lm["lengths"]["lost_examples"] > 0  # the case this workspace is built for
    choice = next(r for r in document["renders"] if r["dataset"] == "choice")
    assert [(g["kind"], g["key"]) for g in choice["lengths"]["groups"]] == [("label", "no"), ("label", "yes")]


def test_json_lengths_cover_the_selected_samples_only(workspace):
    document = json.loads(run_cli("render", "eval.py", "-f", "json", "--sample", "1", cwd=workspace).out)
    assert {r["lengths"]["count"] for r in document["renders"]} == {1}


def test_markdown_has_the_table_worst_first_and_a_chart_per_pair(workspace):
    out = run_cli("render", "eval.py", "--format", "markdown", cwd=workspace).out
    section = out.split("## Lengths\n", 1)[1].split("## Errors", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    shares = [float(m.group(1)) for m in (re.search(r"\((\d+(?:\.\d+)?)%\)", r) for r in rows) if m]
    assert rows[0].startswith("| qa | chat-lm |")
    assert shares == sorted(shares, reverse=True) and shares[0] > 0
    assert section.count("```text\n") == len(rows) == 3
    assert "┊ p50" in section and "max_seq_len 30" in section


def test_html_draws_an_inline_svg_per_pair_of_two_samples_or_more(workspace):
    out = run_cli("render", "eval.py", "--format", "html", "--limit", "2", cwd=workspace).out
    section = out.split('<section class="lengths">', 1)[1].split("</section>", 1)[0]
    assert section.count("<svg ") == 3
    assert section.count("<tr>") == 4  # the header and three pairs
    assert "<script" not in section and "A chart for each pair" not in section
    # the page's default (one sample a pair): a one-bar chart says nothing its table row does not
    one = run_cli("render", "eval.py", "--format", "html", cwd=workspace).out
    section = one.split('<section class="lengths">', 1)[1].split("</section>", 1)[0]
    assert section.count("<svg ") == 0 and section.count("<tr>") == 4
    assert "A chart for each pair with 2 or more samples measured" in section


def test_hostile_names_stay_inert(tmp_path):
    write_workspace(tmp_path)
    edit(tmp_path / "datasets" / "qa_gen.py", "abbr='qa'", "abbr='qa<script>|x'")
    md = run_cli("render", "eval.py", "--format", "markdown", "--dataset", "qa*", cwd=tmp_path).out
    table = md.split("## Lengths", 1)[1]
    assert "qa\\<script\\>\\|x" in table and "<script>" not in table
    page = run_cli("render", "eval.py", "--format", "html", "--dataset", "qa*", cwd=tmp_path).out
    assert "qa&lt;script&gt;|x" in page.split('<section class="lengths">', 1)[1]
    assert "<script>|x" not in page and page.count("<script>") == 1  # only the page's own filter
