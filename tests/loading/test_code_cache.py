"""Compiled configs kept on disk: a suite opened again parses nothing, and never shows stale code.

Counted, not timed: ``analysis.compiled`` says how many files this process parsed and
compiled; the worker's entries are counted as files in the cache folder.
"""

from __future__ import annotations

import os
import stat

import pytest

from workbench.loading.config import analysis, code_cache
from workbench.loading.config.code_cache import CodeCache
from workbench.loading.workspace import Loader

from .conftest import write

DATASET = """\
from opencompass.openicl.icl_prompt_template import PromptTemplate
demo_datasets = [dict(abbr='{abbr}', path='x', reader_cfg=dict(input_columns=['q'], output_column='a'),
                      infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='{text} {{q}}')))]
"""
TOP = """\
from mmengine.config import read_base
with read_base():
    from .one import demo_datasets as one_datasets
    from .two import demo_datasets as two_datasets
datasets = [*one_datasets, *two_datasets]
"""


def _suite(folder):
    write(folder / "one.py", DATASET.format(abbr="one", text="first"))
    write(folder / "two.py", DATASET.format(abbr="two", text="second"))
    return write(folder / "top.py", TOP)


def _templates(workspace) -> dict[str, str]:
    assert not workspace.errors, [e.located() for e in workspace.errors]
    return {d.abbr: d.cfg["infer_cfg"]["prompt_template"]["template"] for d in workspace.datasets}


@pytest.fixture
def fresh(monkeypatch):
    """No compiled file kept in this process's memory: only the disk cache can save work."""
    monkeypatch.setattr(analysis, "_ANALYSES", {})
    monkeypatch.setattr(analysis, "disk_cache", None)


def _compiles(loader: Loader, top, monkeypatch) -> tuple[int, dict[str, str]]:
    monkeypatch.setattr(analysis, "_ANALYSES", {})
    before = analysis.compiled
    templates = _templates(loader.load([top]))
    return analysis.compiled - before, templates


def test_a_second_process_compiles_nothing_and_an_edit_recompiles_only_that_file(tmp_path, fresh,
                                                                                monkeypatch):
    top = _suite(tmp_path / "suite")
    loader = Loader(isolate=False, code_cache=tmp_path / "cache")
    assert _compiles(loader, top, monkeypatch) == (3, {"one": "first {q}", "two": "second {q}"})
    assert _compiles(loader, top, monkeypatch) == (0, {"one": "first {q}", "two": "second {q}"})
    write(top.parent / "two.py", DATASET.format(abbr="two", text="edited"))
    # a stale entry would still say "second"
    assert _compiles(loader, top, monkeypatch) == (1, {"one": "first {q}", "two": "edited {q}"})


def test_the_worker_keeps_one_entry_per_file_version_and_reads_them_back(tmp_path):
    top = _suite(tmp_path / "suite")
    cache = tmp_path / "cache"
    with Loader(code_cache=cache) as first:
        expected = _templates(first.load([top]))
    entries = set(os.listdir(cache))
    assert len(entries) == 3
    with Loader(code_cache=cache) as second:  # a new worker process: nothing in its memory
        assert _templates(second.load([top])) == expected
        assert set(os.listdir(cache)) == entries
        # after answering, the worker precompiles what the load read: let it finish, or it may
        # read one.py half-written below (truncated, then written) and keep that version too
        assert second._worker is not None and second._worker.ping()
        write(top.parent / "one.py", DATASET.format(abbr="one", text="changed"))
        assert _templates(second.load([top]))["one"] == "changed {q}"
    assert len(set(os.listdir(cache)) - entries) == 1


def test_no_cache_folder_means_nothing_is_written(tmp_path):
    top = _suite(tmp_path / "suite")
    with Loader(code_cache=None) as loader:
        assert _templates(loader.load([top]))["one"] == "first {q}"
    assert not (tmp_path / "cache").exists()


def test_an_entry_is_found_only_under_its_own_path_content_and_transform(tmp_path, monkeypatch):
    cache = CodeCache(tmp_path)
    digest = b"d" * 16
    cache.put("/a.py", digest, ("bool", True))
    assert cache.get("/a.py", digest) == ("bool", True)
    assert cache.get("/b.py", digest) is None
    assert cache.get("/a.py", b"e" * 16) is None
    monkeypatch.setattr(code_cache, "_TRANSFORM", b"another workbench")
    assert cache.get("/a.py", digest) is None


def test_a_damaged_or_foreign_entry_is_ignored_and_the_file_compiled_again(tmp_path, fresh, monkeypatch):
    top = _suite(tmp_path / "suite")
    loader = Loader(isolate=False, code_cache=tmp_path / "cache")
    expected = _compiles(loader, top, monkeypatch)[1]
    entries = sorted((tmp_path / "cache").iterdir())
    entries[0].write_bytes(entries[0].read_bytes()[:40])  # cut short (a crash mid-write)
    entries[1].write_bytes(entries[2].read_bytes())  # another file's entry under this name
    entries[2].write_bytes(b"\x00not marshal at all")
    assert _compiles(loader, top, monkeypatch) == (3, expected)
    assert _compiles(loader, top, monkeypatch) == (0, expected)  # and written again, whole


def test_entries_writable_by_others_are_not_read(tmp_path):
    cache = CodeCache(tmp_path / "cache")
    cache.put("/a.py", b"d" * 16, ("bool", True))
    (entry,) = (tmp_path / "cache").iterdir()
    entry.chmod(entry.stat().st_mode | stat.S_IWOTH)
    assert cache.get("/a.py", b"d" * 16) is None
    entry.chmod(0o600)
    (tmp_path / "cache").chmod(0o777)
    assert cache.get("/a.py", b"d" * 16) is None


def test_pruning_keeps_the_newest_entries(tmp_path):
    cache = CodeCache(tmp_path)
    for n in range(5):
        cache.put(f"/{n}.py", b"d" * 16, ("bool", True))
        entry = cache._entry(cache._key(f"/{n}.py", b"d" * 16))
        os.utime(entry, ns=(n * 10**9, n * 10**9))
    assert cache.prune(keep=2) == 3
    assert [cache.get(f"/{n}.py", b"d" * 16) is not None for n in range(5)] == [False] * 3 + [True] * 2
