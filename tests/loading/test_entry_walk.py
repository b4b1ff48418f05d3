"""An entry's plain data, type notes and locations come from one walk, and say exactly what the
three separate walks said (the worker converts every entry of a suite on every save)."""

from __future__ import annotations

import collections

import pytest

from workbench.loading.config import config_file
from workbench.loading.config.config_file import _converted, _entries, _locations, _type_notes
from workbench.loading.config.plain_data import MAX_DEPTH, to_plain
from workbench.loading.config.stand_ins import ConfigDict, FrameworkRef


class Lines:
    """An executor's line table: the ids of the values given a line."""

    def __init__(self) -> None:
        self.table: dict[int, tuple[str, int]] = {}
        self.keep: list[object] = []

    def at(self, value, line: int):
        self.table[id(value)] = ("cfg.py", line)
        self.keep.append(value)
        return value

    def line_of(self, value):
        return self.table.get(id(value))


def separate(value, lines: Lines):
    notes: dict[str, str] = {}
    plain = to_plain(value)
    _type_notes(value, notes)
    return plain, _locations(value, lines), notes


def fused(value, lines: Lines):
    notes: dict[str, str] = {}
    plain, locations = _converted(value, lines.line_of, notes)
    return plain, locations, notes


class MadeHere:  # a type defined in a config: noted
    pass


class Tag(str):  # a subclass of a plain type is not on the walk's fast path, and stays as it is
    pass


def entry(lines: Lines):
    shared = lines.at(ConfigDict(type=FrameworkRef("opencompass.openicl.PromptTemplate"), template="{q}"), 3)
    Pair = collections.namedtuple("Pair", "a b")
    return lines.at(ConfigDict(
        abbr="x", type=FrameworkRef("mypkg.datasets.Thing"),
        reader_cfg=lines.at(ConfigDict(input_columns=lines.at(["q", "a"], 5), output_column="a"), 4),
        infer_cfg=lines.at(ConfigDict(prompt_template=shared, ice_template=shared,
                                      inferencer=lines.at(dict(type=MadeHere, labels=(1, 2.5, None)), 8)), 6),
        eval_cfg={(1, "k"): lines.at([dict(type=len), dict(type=FrameworkRef("other.Eval"))], 9),
                  2: Pair(lines.at({"x": True}, 10), "b"), "f": str.upper, "n": -0.0, Tag("k"): [Tag("v"), True, 1]},
    ), 1)


def test_one_walk_gives_what_the_three_walks_gave_in_their_order():
    lines = Lines()
    value = entry(lines)
    got, want = fused(value, lines), separate(value, lines)
    assert got == want
    assert list(got[2]) == list(want[2])  # notes in the same order (they become warnings)
    assert [row[0] for row in got[1]] == [row[0] for row in want[1]]
    # a shared dict is located at each of its places (values ConfigDict copied have no line)
    assert {row[0] for row in got[1]} == {("reader_cfg",), ("infer_cfg",), ("infer_cfg", "prompt_template"),
                                          ("infer_cfg", "ice_template"), ("eval_cfg", 2, 0)}
    assert set(got[2]) == {"mypkg.datasets.Thing", "other.Eval", f"{__name__}.MadeHere"}
    assert type(got[0]["eval_cfg"][2]) is tuple and got[0]["eval_cfg"][2][0] == {"x": True}
    assert [type(v) for v in got[0]["eval_cfg"]["k"]] == [Tag, bool, int]


@pytest.mark.parametrize("make", ["cycle", "deep", "deep_ref"])
def test_an_entry_the_walk_cannot_convert_gets_the_separate_walks_error(make, monkeypatch):
    lines = Lines()
    if make == "cycle":
        value: dict = {"abbr": "c", "inner": []}
        # walked last first: the noted dict is met before the cycle
        value["inner"] += [value, lines.at({"type": FrameworkRef("x.NotNoted")}, 2)]
    else:
        value = {"abbr": "d"}
        node = value
        for _ in range(MAX_DEPTH + 1):
            node["n"] = {}
            node = node["n"]
        if make == "deep_ref":  # a leaf past the limit that is not a plain value is too deep too
            node.clear()
            node["t"] = [FrameworkRef("x.Y")]
    calls = []
    monkeypatch.setattr(config_file, "to_plain", lambda v, *a: calls.append(v) or to_plain(v, *a))
    with pytest.raises(Exception) as direct:
        to_plain(value)
    notes: dict[str, str] = {}
    (got,) = _entries([(value, ("cfg.py", 1))], lines, "dataset", "cfg.py", notes)
    assert got["cfg"] is None and got["error"]["message"] == direct.value.message
    assert notes == {}  # what the walk noted before it failed is not kept
    assert value in calls  # the separate walk said it
