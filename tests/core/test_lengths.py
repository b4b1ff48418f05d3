"""Length summaries: nearest-rank percentiles, histograms, and what max_seq_len does, held to the
truncation goldens OpenCompass 0.5.4 made (tests/chat_templates/truncation_goldens.json)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.core.errors import RenderError
from workbench.core.lengths import (
    ESTIMATE,
    EXACT,
    LengthTally,
    Point,
    Stats,
    by_share_truncated,
    histogram,
    measure_samples,
    measure_unrendered,
    percentile,
    tally_for,
)
from workbench.core.result import Request, Sample
from workbench.core.tokens.counting import TokenCount, estimate_whole

from .test_truncation import GOLDENS, needs_tokenizers, pair_for, write_model_folder

lengths = st.lists(st.integers(min_value=0, max_value=100_000), min_size=1, max_size=300)


@given(lengths, st.sampled_from([1, 5, 50, 90, 95, 99, 100]))
def test_percentiles_are_nearest_rank_as_numpy_inverted_cdf(values, p):
    expected = int(np.percentile(values, p, method="inverted_cdf"))
    assert percentile(sorted(values), p) == expected
    assert expected in values  # a percentile is always some sample's real length


def test_percentiles_of_nothing_are_none():
    assert percentile([], 50) is None
    assert Stats.of([], 100) == Stats(0, None, None, None, 0, None)


@given(lengths, st.integers(min_value=1, max_value=80))
def test_every_point_lands_in_the_one_bin_that_covers_it(values, bins):
    points = [Point(v, i) for i, v in enumerate(values)]
    made = histogram(points, bins)
    assert 1 <= len(made) <= bins
    assert made[0].start == min(values) and made[-1].end >= max(values)
    assert sum(b.count for b in made) == len(values)
    for b in made:
        inside = [p for p in points if b.start <= p.length <= b.end]
        assert b.count == len(inside)
        if inside:
            assert b.longest is not None and b.longest.length == max(p.length for p in inside)
    for before, after in itertools.pairwise(made):
        assert after.start == before.end + 1


def _sample(index: int, *lengths: int, label=None, turns=False, exact=True) -> Sample:
    requests = tuple(Request(prompt_list="", model_input="x", label=label, turn=t if turns else None,
                             tokens=TokenCount(n, exact, "tokenizer.json (t)" if exact else "estimate (e)"))
                     for t, n in enumerate(lengths))
    return Sample(index=index, source_index=index, ice_indices=(), requests=requests)


def test_a_sample_is_as_long_as_its_longest_request_and_each_turn_has_its_own_numbers():
    tally = LengthTally("mt", "m", 3, max_seq_len=50)
    tally.add(_sample(0, 10, 30, 60, turns=True))
    tally.add(_sample(1, 12, 20, turns=True))
    tally.add(_sample(2, 11, 40, 45, turns=True))
    summary = tally.summary()
    assert [p.length for p in summary.points] == [60, 20, 45]
    assert summary.stats.longest == Point(60, 0, 2)  # jump target: sample 0, its third request
    assert (summary.stats.over_max_seq_len, summary.truncated) == (1, 1)
    assert [(g.kind, g.key, g.stats.count, g.stats.max) for g in summary.groups] == [
        ("turn", "0", 3, 12), ("turn", "1", 3, 40), ("turn", "2", 2, 60)]
    assert summary.group(("turn", "2"))[1].over_max_seq_len == 1
    assert summary.method == EXACT and summary.done


def test_one_estimated_request_makes_the_whole_pair_an_estimate():
    tally = LengthTally("d", "m", 2, None)
    tally.add(_sample(0, 10))
    tally.add(_sample(1, 10, exact=False))
    summary = tally.summary()
    assert summary.method == ESTIMATE
    assert summary.methods == ("tokenizer.json (t)", "estimate (e)")
    assert summary.stats.over_max_seq_len is None  # no limit: nothing to be over


class Flaky:
    """A pair whose odd samples fail to tokenize; its twin (no tokenizer) renders every one."""

    dataset_abbr, model_abbr, model_spec = "d", None, None

    def __init__(self, n: int, fail=lambda i: i % 2 == 1) -> None:
        self.n, self.fail = n, fail

    def __len__(self) -> int:
        return self.n

    def sample(self, index: int) -> Sample:
        if self.fail(index):
            raise RenderError("tokenizer.json (m) cannot encode the text: no [UNK]")
        return _sample(index, 100 + index)


class Twin:
    def sample(self, index: int) -> Sample:
        return Sample(index, index, (), (Request(prompt_list="", model_input="word " * (index + 1)),))


def test_samples_that_fail_are_listed_and_still_estimated_from_the_twin():
    pair = Flaky(5)
    tally = tally_for(pair)
    assert measure_samples(pair, range(5), tally, estimate=Twin)
    summary = tally.summary()
    assert [f.indices for f in summary.failures] == [(1, 3)]
    assert summary.failures[0].message.startswith("tokenizer.json (m) cannot encode")
    assert [p.index for p in summary.points] == [0, 1, 2, 3, 4]  # every sample plotted
    assert summary.method == ESTIMATE and summary.done
    assert any(m.startswith("estimate (measuring failed: tokenizer.json (m) cannot encode") for m in summary.methods)


def test_without_a_twin_the_failures_are_listed_and_the_rest_plotted():
    pair = Flaky(4, fail=lambda i: i > 0)
    tally = tally_for(pair)
    measure_samples(pair, range(4), tally)
    summary = tally.summary()
    assert [p.index for p in summary.points] == [0]
    assert summary.failed == 3 and summary.done


def test_a_pair_that_never_rendered_is_estimated_sample_by_sample_and_every_sample_listed():
    tally = LengthTally("d", "m", 3, 16)
    measure_unrendered(Twin(), "not rendered: broken tokenizer", range(3), tally)
    summary = tally.summary()
    assert [p.length for p in summary.points] == [estimate_whole("word " * n) for n in (1, 2, 3)]
    assert summary.failures[0].indices == (0, 1, 2)
    assert summary.method == ESTIMATE


def test_measuring_stops_when_cancelled():
    pair = Flaky(10, fail=lambda i: False)
    tally = tally_for(pair)
    seen = []
    assert not measure_samples(pair, range(10), tally, cancelled=lambda: len(seen) >= 3 or seen.append(1))
    assert tally.summary().measured == 3 and not tally.summary().done


def test_the_worst_pair_comes_first():
    def pair(name, over):
        tally = LengthTally(name, None, 4, 100)
        for i in range(4):
            tally.add(_sample(i, 150 if i < over else 50))
        return tally.summary()

    ordered = by_share_truncated([pair("a", 1), pair("b", 3), pair("c", 0)])
    assert [s.dataset for s in ordered] == ["b", "a", "c"]
    assert ordered[0].share_truncated == 0.75


@needs_tokenizers
@pytest.mark.parametrize("case", [c for c in GOLDENS["cases"] if c["model"].get("max_seq_len")],
                         ids=lambda c: c["id"])
def test_examples_lost_are_the_ones_opencompass_drops(case, tmp_path):
    folder = write_model_folder(tmp_path / "model", case["folder"]["chat_template"], case["folder"]["tokens"])
    pair = pair_for(case, folder)
    tally = tally_for(pair)
    measure_samples(pair, range(len(pair)), tally)
    summary = tally.summary()
    retrieved = len(GOLDENS["fix_id_list"])
    # what the real framework kept, per sample (the most any label dropped)
    dropped = [max(retrieved - len(r["kept"]) for r in sample) for sample in case["samples"]]
    assert summary.lost_examples == sum(1 for d in dropped if d)
    assert summary.examples_dropped == sum(dropped)
    assert summary.method == EXACT
    limit = case["model"]["max_seq_len"]
    lengths = [max(r.tokens.total for r in pair.sample(i).requests) for i in range(len(pair))]
    assert [p.length for p in summary.points] == lengths
    assert summary.stats.over_max_seq_len == sum(1 for n in lengths if n > limit)
    assert summary.truncated == len({i for i, d in enumerate(dropped) if d}
                                    | {i for i, n in enumerate(lengths) if n > limit})
