"""``normalize_rows`` takes a C-speed way for the usual file (plain dicts, the same text
columns in the same order, no value a type would change); it must give what the general way
gives, and step aside for everything else."""

from __future__ import annotations

import pytest

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
    monkeypatch.setattr(dataset_reader, "_uniform", lambda rows: None)
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
