"""RenderFilter: index lists, globs, limits and labels mean the same in every command."""

from __future__ import annotations

import pytest

from workbench.core.result import Request, Sample
from workbench.headless.render_filter import RenderFilter, parse_indices


@pytest.mark.parametrize(("spec", "ranges"), [
    ("0", ((0, 0),)),
    ("0,3,5-9", ((0, 0), (3, 3), (5, 9))),
    (" 2 , 4-4 ", ((2, 2), (4, 4))),
    ("100-", ((100, None),)),
])
def test_parse_indices(spec, ranges):
    assert parse_indices(spec) == ranges


@pytest.mark.parametrize("spec", ["", ",", "a", "3-1", "-1", "1-x", "1.5"])
def test_bad_indices(spec):
    with pytest.raises(ValueError):
        parse_indices(spec)


def test_indices_are_sorted_unique_and_clipped():
    sel = RenderFilter(samples=parse_indices("9,2-4,3,50-"))
    assert list(sel.indices(10)) == [2, 3, 4, 9]
    assert list(RenderFilter(samples=parse_indices("8-")).indices(10)) == [8, 9]
    assert list(RenderFilter(limit=2).indices(10)) == [0, 1]
    assert list(RenderFilter(samples=parse_indices("5-"), limit=1).indices(10)) == [5]
    assert list(RenderFilter().indices(1_000_000))[-1] == 999_999  # a range, not a list


def test_pair_globs():
    sel = RenderFilter(datasets=("gsm*", "math"), models=("*chat*",))
    assert sel.wants_pair("gsm8k", "qwen-chat")
    assert not sel.wants_pair("gsm8k", "qwen-base")
    assert not sel.wants_pair("gsm8k", None)
    assert not sel.wants_pair("mmlu", "qwen-chat")
    assert RenderFilter().wants_pair("anything", None)
    assert sel.unmatched(["gsm8k"], ["qwen-chat"]) == [
        "--dataset 'math' matches no dataset (there are: gsm8k)"]


def test_label_filter():
    sample = Sample(0, 0, (), (Request("p", "a", label="A"), Request("p", "b", label=1), Request("p", "c")))
    assert [r.label for r in RenderFilter(labels=("1",)).filter_sample(sample).requests] == [1]
    assert RenderFilter(labels=("Z",)).filter_sample(sample) is None
    assert RenderFilter().filter_sample(sample) is sample


def test_describe_for_snapshot_headers():
    assert RenderFilter().describe() == "all"
    assert RenderFilter(datasets=("x",)).describe() == "all"  # pairs are chosen by file, not by header
    sel = RenderFilter(samples=parse_indices("0,5-"), limit=3, labels=("A",))
    assert sel.describe() == '--sample 0,5- --limit 3 --label "A"'
