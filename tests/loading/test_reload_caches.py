"""What a reload may reuse: unchanged rows files, and pairs whose inputs did not change.

The caches must never show stale text: every edit of a config or a rows file, same size
and same second included, gives a fresh render.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import RenderCache, RenderOptions
from workbench.headless.snapshot_format import inputs_hash
from workbench.loading.rows import data_files
from workbench.loading.rows.data_files import read_rows, recording_reads

from .conftest import write
from .test_rows_and_files import CONFIG


@pytest.fixture
def later(monkeypatch):
    """The clock a minute on: files written by the test are no longer "just written"."""
    monkeypatch.setattr(data_files, "_now_ns", lambda: data_files.time.time_ns() + 60 * 10**9)


def _first_input(result) -> str:
    assert not result.errors, result.errors
    return result.pairs[0].sample(0).requests[0].model_input


def test_an_unchanged_rows_file_is_parsed_once(tmp_path, later):
    rows = write(tmp_path / "rows.jsonl", json.dumps({"q": "one"}) + "\n")
    first = read_rows(rows)
    assert read_rows(rows) is first
    with recording_reads() as reads:
        read_rows(rows)
    assert reads == [(str(rows.resolve()), reads[0][1])] and reads[0][1] is not None


def test_a_just_written_file_is_not_kept(tmp_path):
    # A second same-size write within one timestamp tick would keep every part of the
    # version; so rows read from a file written moments ago are not cached at all.
    rows = write(tmp_path / "rows.jsonl", json.dumps({"q": "one"}) + "\n")
    first = read_rows(rows)
    with recording_reads() as reads:
        assert read_rows(rows) is not first
    assert reads == [(str(rows.resolve()), None)]


def test_a_same_size_edit_with_the_same_mtime_is_seen(tmp_path, later):
    rows = write(tmp_path / "rows.jsonl", json.dumps({"q": "one"}) + "\n")
    first = read_rows(rows)
    assert read_rows(rows) is first
    stat = rows.stat()
    time.sleep(0.05)  # past one kernel timestamp tick: the write's ctime is a new one
    rows.write_text(json.dumps({"q": "two"}) + "\n", encoding="utf-8")  # same size
    os.utime(rows, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime
    assert rows.stat().st_size == stat.st_size
    assert read_rows(rows) == [{"q": "two"}] != first


def test_a_rename_over_save_is_seen(tmp_path, later):
    rows = write(tmp_path / "rows.jsonl", json.dumps({"q": "one"}) + "\n")
    read_rows(rows)
    stat = rows.stat()
    staged = write(tmp_path / ".rows.tmp", json.dumps({"q": "two"}) + "\n")
    os.utime(staged, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(staged, rows)
    assert read_rows(rows) == [{"q": "two"}]


def test_render_cache_reuses_only_unchanged_pairs(tmp_path, loader, later):
    write(tmp_path / "rows.jsonl", json.dumps({"question": "alpha", "answer": "1"}) + "\n")
    config = write(tmp_path / "c.py", CONFIG.format(path="rows.jsonl", reader_extra=""))
    cache = RenderCache()

    first = loader.load([config])
    assert first.datasets[0].rows_version is not None
    result = render_workspace(first.datasets, first.models, cache=cache)
    assert _first_input(result) == "Q: alpha" and cache.hits == 0

    # nothing changed: the very same pair comes back
    again = render_workspace(loader.load([config]).datasets, [], cache=cache)
    assert cache.hits == 1 and again.pairs[0] is result.pairs[0]

    # options are part of the key
    render_workspace(first.datasets, [], options=RenderOptions(measure=False), cache=cache)
    assert cache.hits == 1

    # a config edit and a rows edit are both re-rendered
    write(config, CONFIG.format(path="rows.jsonl", reader_extra="").replace("Q: ", "Question: "))
    assert _first_input(render_workspace(loader.load([config]).datasets, [], cache=cache)) == "Question: alpha"
    write(tmp_path / "rows.jsonl", json.dumps({"question": "gamma", "answer": "1"}) + "\n")
    assert _first_input(render_workspace(loader.load([config]).datasets, [], cache=cache)) == "Question: gamma"
    assert cache.hits == 1


def test_rows_without_a_version_are_never_cached(tmp_path, loader):
    write(tmp_path / "rows.jsonl", json.dumps({"question": "alpha", "answer": "1"}) + "\n")
    config = write(tmp_path / "c.py", CONFIG.format(path="rows.jsonl", reader_extra=""))
    dataset = loader.load([config]).datasets[0]
    assert dataset.rows_version is None  # just written
    dataset = dataclasses.replace(dataset, rows=[{"question": "own rows", "answer": "1"}])
    cache = RenderCache()
    render_workspace([dataset], [], cache=cache)
    dataset.rows[0]["question"] = "changed in place"  # e.g. rows a caller built itself
    assert _first_input(render_workspace([dataset], [], cache=cache)) == "Q: changed in place"
    assert cache.hits == 0


def test_the_rows_version_is_not_part_of_a_snapshots_inputs(tmp_path, loader):
    write(tmp_path / "rows.jsonl", json.dumps({"question": "alpha", "answer": "1"}) + "\n")
    config = write(tmp_path / "c.py", CONFIG.format(path="rows.jsonl", reader_extra=""))
    dataset = loader.load([config]).datasets[0]
    pair = render_workspace([dataset], []).pairs[0]
    before = inputs_hash(pair)
    moved = dataclasses.replace(dataset, rows_version=("files", (("elsewhere", (1, 2, 3, 4)),)))
    assert inputs_hash(render_workspace([moved], []).pairs[0]) == before


def test_the_cache_holds_one_workspace_however_many_saves(tmp_path, loader, later):
    write(tmp_path / "rows.jsonl", json.dumps({"question": "alpha", "answer": "1"}) + "\n")
    config = write(tmp_path / "c.py", CONFIG.format(path="rows.jsonl", reader_extra=""))
    cache = RenderCache()
    for n in range(5):
        write(config, CONFIG.format(path="rows.jsonl", reader_extra="").replace("Q: ", f"Q{n}: "))
        assert _first_input(render_workspace(loader.load([config]).datasets, [], cache=cache)) == f"Q{n}: alpha"
        assert len(cache) <= 2  # this save's pair, and the last one's
    assert cache.hits == 0


def test_a_round_keeps_what_the_last_one_used():
    from workbench.core.memo import RoundCache

    memo: RoundCache[str] = RoundCache()
    memo.put("a", "A")
    memo.put("b", "B")
    memo.next_round()
    assert memo.get("a") == "A"  # used in this round: kept for the next
    memo.next_round()
    assert memo.get("a") == "A" and memo.get("b") is None  # b was not used last round
    assert memo.get_or_build("c", lambda: "C") == "C" and memo.get_or_build("c", lambda: "X") == "C"


def test_rendering_never_changes_the_rows_a_reload_reuses(loader):
    # read_rows hands every load the same objects for an unchanged file, so a render that
    # modified a row would leak into the next load. Every form of the demo, every sample.
    import copy
    from pathlib import Path

    demo = Path(__file__).resolve().parents[2] / "demo_data" / "eval_demo.py"
    workspace = loader.load([demo])
    before = [copy.deepcopy(d.rows) for d in workspace.datasets]
    result = render_workspace(workspace.datasets, workspace.models)
    rendered = sum(len(s.requests) for pair in result.pairs for s in pair.samples())
    assert rendered > 50
    assert [d.rows for d in workspace.datasets] == before


def test_the_rows_cache_drops_the_least_recently_read_file(tmp_path, later, monkeypatch):
    monkeypatch.setattr(data_files, "_ROWS_CACHE_FILES", 2)
    files = [write(tmp_path / f"r{i}.jsonl", json.dumps({"q": i}) + "\n") for i in range(3)]
    first = [read_rows(f) for f in files[:2]]
    assert read_rows(files[0]) is first[0]  # r0 is now the most recent
    read_rows(files[2])  # a third file: r1, the least recent, goes
    assert read_rows(files[0]) is first[0]
    assert read_rows(files[1]) is not first[1] and read_rows(files[1]) == first[1]
