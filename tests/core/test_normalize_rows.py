"""``normalize_rows`` takes a C-speed way for the usual file (plain dicts, the same text
columns in the same order, no value a type would change); it must give what the general way
gives, and step aside for everything else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core import dataset_reader
from workbench.core.dataset_reader import normalize_rows

CASES = {
    "uniform": [{"q": f"q{i}", "n": i, "ok": i % 2 == 0, "none": None} for i in range(5)],
    "floats beside ints": [{"q": "a", "x": 1}, {"q": "b", "x": 2.5}],
    "lists": [{"q": "a", "x": [1, 2]}, {"q": "b", "x": [3]}],
    "dicts": [{"q": "a", "x": {"k": 1}}, {"q": "b", "x": {"j": 2}}],
    "other key order": [{"q": "a", "n": 1}, {"n": 2, "q": "b"}],
    "missing key": [{"q": "a", "n": 1}, {"q": "b"}],
    "int keys": [{1: "a"}, {1: "b"}],
    "one row": [{"q": "a"}],
}


def _general(rows, monkeypatch):
    monkeypatch.setattr(dataset_reader, "_uniform", lambda rows, copy=True: None)
    try:
        return normalize_rows(rows)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("name", CASES)
def test_the_fast_way_gives_what_the_general_way_gives(name, monkeypatch):
    rows = CASES[name]
    fast = normalize_rows(rows)
    general = _general(rows, monkeypatch)
    assert fast == general
    assert [list(r) for r in fast] == [list(r) for r in general]  # column order too
    assert [[type(v) for v in r.values()] for r in fast] == [[type(v) for v in r.values()] for r in general]
    assert all(a is not b for a, b in zip(fast, rows))  # new dicts: the file's rows are never shared


def test_only_the_usual_file_takes_the_fast_way():
    assert dataset_reader._uniform(CASES["uniform"]) is not None
    for name in ("floats beside ints", "lists", "dicts", "other key order", "missing key", "int keys"):
        assert dataset_reader._uniform(CASES[name]) is None, name


def test_a_row_that_is_not_an_object_still_fails_with_its_position():
    with pytest.raises(dataset_reader.RenderError, match="row 1 is a list"):
        normalize_rows([{"q": "a"}, ["q", "b"]])


@pytest.mark.parametrize("framework", ["opencompass", "ais_bench"])
def test_splits_never_share_the_files_rows(framework):
    """Rows that need no change are not copied by normalize_rows(copy=False): the splits copy
    them once, adding idx and subdivision, so the file's rows stay as they were."""
    from workbench.core.dataset_reader import ReaderConfig, build_splits

    source = {"train": [{"q": f"t{i}", "a": "1"} for i in range(3)], "test": [{"q": f"r{i}", "a": "2"} for i in range(3)]}
    before = {k: [dict(r) for r in v] for k, v in source.items()}
    splits = build_splits(source, ReaderConfig(input_columns=["q"], output_column="a"), "demo", framework)
    assert [r["idx"] for r in splits.test] == [0, 1, 2]
    assert all(r is not s for r in splits.test for s in source["test"])
    assert all(r is not s for r in splits.train for s in source["train"])
    assert source == before
    flat = build_splits(source["test"], ReaderConfig(input_columns=["q"], output_column="a"), "demo", framework)
    assert all(r is not s for r in flat.test for s in source["test"]) and source == before


def test_idx_and_subdivision_go_last_or_stay_in_place():
    """``BaseDataset``'s map adds ``subdivision`` and ``idx`` after the row's columns; a column
    of either name the row already has keeps its place and takes the new value."""
    from workbench.core.dataset_reader import ReaderConfig, build_splits

    rows = {"train": [{"q": "t", "a": "1"}], "test": [{"idx": "mine", "q": "r", "a": "2"}]}
    splits = build_splits(rows, ReaderConfig(input_columns=["q"], output_column="a"), "demo")
    assert list(splits.test[0].items()) == [("idx", 0), ("q", "r"), ("a", "2"), ("subdivision", "demo_test")]
    assert list(splits.train[0]) == ["q", "a", "subdivision", "idx"]


_KEYS = ["q", "a", "idx", "subdivision", "n"]


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.dictionaries(st.sampled_from(_KEYS), st.one_of(st.text(max_size=3), st.integers(), st.none()),
                                     max_size=5), min_size=1, max_size=6),
       framework=st.sampled_from(["opencompass", "ais_bench"]), n=st.integers(1, 3),
       test_range=st.sampled_from([None, "[1:]", "[::2]", 2]))
def test_every_test_row_has_the_first_rows_columns(rows, framework, n, test_range):
    """The splicer keys a pair's skeletons by their example set alone and takes each row's
    values in its columns' order: however a file's rows differ (key order, missing keys, idx or
    subdivision of their own), the splits' test rows all have the first row's columns, in order."""
    from workbench.core.dataset_reader import ReaderConfig, build_splits

    reader = ReaderConfig(input_columns=["q"], output_column="a", test_range=test_range)
    for source in (rows, {"train": rows[:1], "test": rows}):
        splits = build_splits(source, reader, "demo", framework, n)
        first = tuple(splits.test[0]) if splits.test else ()
        assert {tuple(r) for r in splits.test} <= {first}
