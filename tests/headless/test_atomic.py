"""No data lost: an export is replaced whole or not at all, even when the process is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.loading.files.atomic import STALE_AFTER, AtomicFile, atomic_write

from .helpers import write_workspace


def test_the_new_content_replaces_the_old(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with atomic_write(target) as out:
        out.write("new\n")
        assert target.read_text() == "old"  # nothing visible until the block ends
    assert target.read_text() == "new\n"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_an_exception_keeps_the_old_file_and_removes_the_temp(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(target) as out:
        out.write("half")
        raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_identical_content_keeps_the_file_and_its_mtime(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("same\n")
    os.utime(target, (1_000_000, 1_000_000))
    writer = AtomicFile(target, keep_if_same=True)
    with writer as out:
        out.write("same\n")
    assert writer.changed is False
    assert target.stat().st_mtime == 1_000_000
    writer = AtomicFile(target, keep_if_same=True)
    with writer as out:
        out.write("different\n")
    assert writer.changed is True and target.read_text() == "different\n"


@pytest.mark.skipif(os.name != "posix", reason="permission bits")
def test_permissions_are_kept(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    target.chmod(0o640)
    with atomic_write(target) as out:
        out.write("new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_newlines_are_written_as_is(tmp_path):
    target = tmp_path / "out.txt"
    with atomic_write(target) as out:
        out.write("a\nb\n")
    assert target.read_bytes() == b"a\nb\n"


def test_old_temp_files_of_killed_writes_are_cleaned_up(tmp_path):
    target = tmp_path / "out.txt"
    stale = tmp_path / ".out.txt.wb-tmp-abc123"
    fresh = tmp_path / ".out.txt.wb-tmp-def456"  # maybe a concurrent writer's: left alone
    stale.write_text("half")
    fresh.write_text("half")
    old = time.time() - STALE_AFTER - 10
    os.utime(stale, (old, old))
    with atomic_write(target) as out:
        out.write("x")
    assert not stale.exists() and fresh.exists()


@pytest.fixture
def big_workspace(tmp_path) -> Path:
    rows = {"train": [{"question": "q0", "answer": "a0"}],
            "test": [{"question": f"question {i} " + "x" * 200, "answer": str(i)} for i in range(4000)]}
    write_workspace(tmp_path, qa_rows=rows)
    return tmp_path


def _start(cwd: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "workbench", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_for_partial_temp(cwd: Path, pattern: str, proc: subprocess.Popen, timeout: float = 60) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for tmp in cwd.rglob(pattern):
            if tmp.stat().st_size > 0:
                return tmp
        if proc.poll() is not None:
            pytest.fail(f"the export finished before it could be interrupted: {proc.stderr.read()!r}")
        time.sleep(0.01)
    proc.kill()
    pytest.fail("no temp file appeared")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_killing_an_export_midway_leaves_the_old_file_intact(big_workspace):
    out = big_workspace / "render.json"
    out.write_text('{"the": "old export"}\n')
    proc = _start(big_workspace, "render", "eval.py", "--dataset", "qa", "--model", "chat-lm", "--out", "render.json")
    tmp = _wait_for_partial_temp(big_workspace, ".render.json.wb-tmp-*", proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert out.read_text() == '{"the": "old export"}\n'
    assert tmp.exists()  # a kill leaves the temp file behind, beside the intact target


@pytest.mark.skipif(not hasattr(signal, "SIGTERM"), reason="POSIX signals")
def test_terminating_an_export_keeps_the_old_file_and_removes_the_temp(big_workspace):
    out = big_workspace / "render.txt"
    out.write_text("old\n")
    proc = _start(big_workspace, "render", "eval.py", "-f", "text", "--dataset", "qa", "--model", "chat-lm",
                  "--out", "render.txt")
    _wait_for_partial_temp(big_workspace, ".render.txt.wb-tmp-*", proc)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in big_workspace.iterdir() if p.name.startswith(".render")) == []


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_killing_a_snapshot_write_midway_leaves_the_old_snapshot_intact(big_workspace):
    snap = big_workspace / "snaps" / "qa" / "chat-lm.snap"
    snap.parent.mkdir(parents=True)
    snap.write_text("# prompt-workbench snapshot 1\n# the old one\n")
    proc = _start(big_workspace, "snapshot", "eval.py", "--dir", "snaps", "--dataset", "qa", "--model", "chat-lm")
    _wait_for_partial_temp(big_workspace / "snaps", ".chat-lm.snap.wb-tmp-*", proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert snap.read_text() == "# prompt-workbench snapshot 1\n# the old one\n"
