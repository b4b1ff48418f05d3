"""What a save of one file re-does for the datasets it did not change: nothing it can vouch for.

Counted, not timed: ``Loader.rows_reused`` is how many datasets the last load kept whole
(spec and rows) because their entry was the very object of last time and their named rows
file is unchanged; ``find_rows`` calls are counted too. Every test also checks what the
workspace shows, so a dataset wrongly kept would fail it.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from workbench.loading import workspace as workspace_module
from workbench.loading.rows import data_files
from workbench.loading.workspace import Loader

from .conftest import write
from .test_answers import DATASET, _suite

NAMES = ("one", "two", "three")
# the datasets of test_answers, renderable: with a retriever and an inferencer
RENDERABLE = DATASET.replace("+ shared_suffix)))]", "+ shared_suffix),\n"
                             "                        retriever=dict(type='ZeroRetriever'),\n"
                             "                        inferencer=dict(type='GenInferencer')))]")


@pytest.fixture
def later(monkeypatch):
    """The clock a minute on: rows files written by the test are no longer "just written"."""
    monkeypatch.setattr(data_files, "_now_ns", lambda: data_files.time.time_ns() + 60 * 10**9)


@pytest.fixture
def own_loader():
    with Loader(code_cache=None) as loader:
        yield loader


@pytest.fixture
def finds(monkeypatch):
    """How many times the loader looked for a dataset's rows."""
    calls: list[str] = []
    real = workspace_module.find_rows

    def counted(cfg, abbr, *args, **kwargs):
        calls.append(abbr)
        return real(cfg, abbr, *args, **kwargs)

    monkeypatch.setattr(workspace_module, "find_rows", counted)
    return calls


def _rows_suite(folder):
    top = _suite(folder)
    for name in NAMES:
        write(folder / f"{name}.py", RENDERABLE.format(name=name, text=name))
        write(folder / "rows" / f"{name}.json", json.dumps([{"q": f"{name} row", "a": "x"}]))
    write(folder / "workbench.toml", "[data]\n" + "".join(f'{n} = "rows/{n}.json"\n' for n in NAMES))
    return top


def _first_rows(workspace) -> dict[str, str]:
    assert not workspace.errors, [e.located() for e in workspace.errors]
    return {d.abbr: d.rows[0]["q"] for d in workspace.datasets}


def test_a_save_finds_rows_only_for_the_dataset_it_changed(tmp_path, own_loader, later, finds):
    top = _rows_suite(tmp_path)
    first = own_loader.load([top])
    assert finds == ["one", "two", "three"] and own_loader.rows_reused == 0
    finds.clear()
    again = own_loader.load([top])
    assert finds == [] and own_loader.rows_reused == 3
    # the very specs of last time, so what was made from them (content keys, pairs) is kept too
    assert all(a is b for a, b in zip(again.datasets, first.datasets, strict=True))
    assert again.files == first.files  # their rows files are still watched
    write(tmp_path / "two.py", RENDERABLE.format(name="two", text="edited"))
    saved = own_loader.load([top])
    assert finds == ["two"] and own_loader.rows_reused == 2
    assert saved.datasets[1].cfg["infer_cfg"]["prompt_template"]["template"] == "edited {q}!"
    assert _first_rows(saved) == {"one": "one row", "two": "two row", "three": "three row"}


def test_a_rows_file_edited_in_place_is_read_again(tmp_path, own_loader, later):
    top = _rows_suite(tmp_path)
    own_loader.load([top])
    rows = tmp_path / "rows" / "one.json"
    stat = rows.stat()
    time.sleep(0.05)  # past one kernel timestamp tick: the write's ctime is a new one
    rows.write_text(json.dumps([{"q": "ONE ROW", "a": "x"}]), encoding="utf-8")  # same size
    os.utime(rows, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime
    workspace = own_loader.load([top])
    assert own_loader.rows_reused == 2
    assert _first_rows(workspace)["one"] == "ONE ROW"


def test_a_rows_file_removed_is_not_kept(tmp_path, own_loader, later):
    top = _rows_suite(tmp_path)
    own_loader.load([top])
    (tmp_path / "rows" / "three.json").unlink()
    workspace = own_loader.load([top])
    assert own_loader.rows_reused == 2
    assert [abbr for _, abbr, _ in workspace.failed_datasets] == ["three"]


def test_a_settings_file_naming_another_rows_file_is_followed(tmp_path, own_loader, later):
    top = _rows_suite(tmp_path)
    own_loader.load([top])
    write(tmp_path / "rows" / "other.json", json.dumps([{"q": "other row", "a": "x"}]))
    settings = tmp_path / "workbench.toml"
    settings.write_text(settings.read_text().replace("rows/two.json", "rows/other.json"))
    workspace = own_loader.load([top])
    assert own_loader.rows_reused == 2
    assert _first_rows(workspace)["two"] == "other row"


def test_a_symlink_pointed_at_another_file_is_followed(tmp_path, own_loader, later):
    top = _rows_suite(tmp_path)
    write(tmp_path / "rows" / "a.json", json.dumps([{"q": "from a", "a": "x"}]))
    write(tmp_path / "rows" / "b.json", json.dumps([{"q": "from b", "a": "x"}]))
    link = tmp_path / "rows" / "one.json"
    link.unlink()
    link.symlink_to("a.json")
    assert _first_rows(own_loader.load([top]))["one"] == "from a"
    link.unlink()
    link.symlink_to("b.json")
    workspace = own_loader.load([top])
    assert own_loader.rows_reused == 2
    assert _first_rows(workspace)["one"] == "from b"
    assert (tmp_path / "rows" / "b.json") in workspace.files


def test_rows_just_written_are_never_kept(tmp_path, own_loader, finds):
    # without the clock moved on, every rows file is "just written": its version vouches for nothing
    top = _rows_suite(tmp_path)
    own_loader.load([top])
    finds.clear()
    own_loader.load([top])
    assert own_loader.rows_reused == 0 and finds == ["one", "two", "three"]


class _CountedRepr(dict):
    """A config that counts how often it is written out with ``repr``."""

    reprs = 0

    def __repr__(self) -> str:
        type(self).reprs += 1
        return super().__repr__()


def test_a_spec_works_out_its_content_key_once():
    from workbench.core.spec import DatasetSpec

    _CountedRepr.reprs = 0
    spec = DatasetSpec(abbr="d", cfg=_CountedRepr(path="x"), rows=[{"q": 1}], rows_version=("files", ()))
    first = spec.content_key()
    assert spec.content_key() is first and _CountedRepr.reprs == 1
    # a spec built alike has an equal key (so the render cache reuses across loads), worked out anew
    twin = DatasetSpec(abbr="d", cfg=_CountedRepr(path="x"), rows=[{"q": 1}], rows_version=("files", ()))
    assert twin.content_key() == first and _CountedRepr.reprs == 2
    assert twin == spec  # the kept key is no field: equality is the fields'
    # one whose config differs keys apart
    other = DatasetSpec(abbr="d", cfg=_CountedRepr(path="y"), rows=[{"q": 1}], rows_version=("files", ()))
    assert other.content_key() != first
    unvouched = DatasetSpec(abbr="d", cfg=_CountedRepr(path="x"), rows=[{"q": 1}])
    assert unvouched.content_key() is None


def test_a_save_renders_again_only_the_dataset_it_changed(tmp_path, own_loader, later):
    from workbench.core.lazy_pairs import LazyPairs
    from workbench.core.render import RenderCache

    top = _rows_suite(tmp_path)
    cache = RenderCache()

    def first_inputs(workspace):
        pairs = LazyPairs(workspace.datasets, workspace.models, cache=cache)
        built = {d: pairs.get(d, "m") for d in NAMES}
        assert not [p for p in built.values() if not hasattr(p, "sample")], built
        return {d: p.sample(0).requests[0].model_input for d, p in built.items()}

    before = own_loader.load([top])
    assert first_inputs(before)["two"].startswith("two two row")
    keys = [d.content_key() for d in before.datasets]
    write(tmp_path / "two.py", RENDERABLE.format(name="two", text="edited"))
    saved = own_loader.load([top])
    hits = cache.hits
    inputs = first_inputs(saved)
    assert cache.hits - hits == 2  # one and three, unchanged; two rendered again
    assert inputs["two"].startswith("edited two row") and inputs["one"].startswith("one one row")
    # the unchanged datasets' keys are the very ones of last time: no config written out again
    assert [d.content_key() is k for d, k in zip(saved.datasets, keys, strict=True)] == [True, False, True]


@pytest.fixture
def parses(monkeypatch):
    """How many times a workbench.toml was parsed."""
    from workbench.loading.rows import sample_rows

    calls: list[object] = []
    real = sample_rows._parse_settings

    def counted(folder, path):
        calls.append(path)
        return real(folder, path)

    monkeypatch.setattr(sample_rows, "_parse_settings", counted)
    return calls


def test_an_unchanged_settings_file_is_parsed_once_and_an_edit_is_seen(tmp_path, later, parses):
    from workbench.loading.rows.sample_rows import read_settings

    settings = write(tmp_path / "workbench.toml", '[data]\none = "a.json"\n')
    first = read_settings(tmp_path)
    assert read_settings(tmp_path) is first and len(parses) == 1
    stat = settings.stat()
    time.sleep(0.05)  # past one kernel timestamp tick: the write's ctime is a new one
    settings.write_text('[data]\none = "b.json"\n', encoding="utf-8")  # same size
    os.utime(settings, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime
    assert read_settings(tmp_path).data == {"one": tmp_path / "b.json"} and len(parses) == 2
    settings.unlink()
    assert read_settings(tmp_path).path is None


def test_a_settings_file_just_written_is_parsed_every_time(tmp_path, parses):
    from workbench.loading.rows.sample_rows import read_settings

    write(tmp_path / "workbench.toml", '[data]\none = "a.json"\n')
    read_settings(tmp_path)
    read_settings(tmp_path)
    assert len(parses) == 2
