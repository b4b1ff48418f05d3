"""File kinds: a path that is not a regular file is refused, said where, before it is opened.

A named pipe would block the reader until a writer came, a character device never ends,
a symlink can loop; each is one error line wherever the path comes from (``--data``,
``workbench.toml``, a dataset's ``path``, the config itself, a model folder).
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from workbench.core.errors import ConfigError
from workbench.loading.files.reading import read_regular

from .helpers import needs_fork, run, write

pytestmark = needs_fork

HINT = "(hint: give a regular file (a pipe, a device or a folder cannot be read as one))"


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _symlink(path: Path, target: str) -> Path:
    path.symlink_to(target)
    return path


KINDS = {
    "fifo": (lambda p: _fifo(p), "a named pipe (FIFO)"),
    "dev-zero": (lambda p: _symlink(p, "/dev/zero"), "a character device"),
    "dev-urandom": (lambda p: _symlink(p, "/dev/urandom"), "a character device"),
    "folder": (lambda p: (p.mkdir(), p)[1], "a folder"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_rows_given_with_data_that_are_not_a_file(ws, kind):
    make, name = KINDS[kind]
    make(ws / "rows.bad.jsonl")
    done = run("render", "good.py", "--data", "rows.bad.jsonl", "-f", "text", cwd=ws, timeout=60)
    assert done.code == 3
    assert done.lines == [f"{ws / 'rows.bad.jsonl'}: [qa × no model] data path is {name}, not a file: "
                          f"rows.bad.jsonl {HINT}"]


def test_rows_named_in_workbench_toml_that_are_a_fifo(ws):
    _fifo(ws / "pipe.jsonl")
    write(ws / "workbench.toml", '[data]\nqa = "pipe.jsonl"\n')
    done = run("render", "good.py", "-f", "text", cwd=ws, timeout=60)
    assert done.code == 3
    assert done.lines == [f"{ws / 'pipe.jsonl'}: [qa × no model] data path is a named pipe (FIFO), not a file: "
                          f"pipe.jsonl {HINT}"]


def test_a_dataset_path_that_is_a_fifo(ws):
    _fifo(ws / "pipe.jsonl")
    write(ws / "pathed.py", (ws / "good.py").read_text().replace("abbr='qa',", "abbr='qa', path='pipe.jsonl',"))
    done = run("render", "pathed.py", "-f", "text", cwd=ws, timeout=60)
    assert done.code == 3
    assert done.lines == [f"{ws / 'pipe.jsonl'}: [qa × no model] data path is a named pipe (FIFO), not a file: "
                          f"pipe.jsonl {HINT}"]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder"])
def test_a_config_that_is_not_a_file(ws, kind):
    make, name = KINDS[kind]
    make(ws / "config.py")
    done = run("render", "config.py", "-f", "text", cwd=ws, timeout=60)
    assert done.code == 3
    assert done.lines == [f"{ws / 'config.py'}: config path is {name}, not a file: {ws / 'config.py'} {HINT}"]


def test_symlink_loops_as_config_and_data(ws):
    _symlink(ws / "a.py", "b.py")
    _symlink(ws / "b.py", "a.py")
    done = run("render", "a.py", "-f", "text", cwd=ws)
    assert done.code == 3
    assert done.lines == [f"{ws / 'a.py'}: config path is a symlink loop: {ws / 'a.py'} "
                          "(hint: the link points, through other links, back at itself)"]
    _symlink(ws / "a.jsonl", "b.jsonl")
    _symlink(ws / "b.jsonl", "a.jsonl")
    done = run("render", "good.py", "--data", "a.jsonl", "-f", "text", cwd=ws)
    assert done.code == 3
    assert done.lines == ["a.jsonl: [qa × no model] data path is a symlink loop: a.jsonl "
                          "(hint: the link points, through other links, back at itself)"]


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "rows.jsonl"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(ConfigError) as caught:
            read_regular(path, 1024)
        assert caught.value.message == f"data path is a socket, not a file: {path}"
    finally:
        server.close()


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")
def test_the_size_limit_holds_while_reading_not_only_by_the_stated_size():
    # /proc files are regular files that state a size of 0 and hold more
    assert os.stat("/proc/self/maps").st_size == 0
    with pytest.raises(ConfigError) as caught:
        read_regular("/proc/self/maps", 100)
    assert caught.value.message == "data file is larger than 100 bytes"


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"x" * 2048)
    with pytest.raises(ConfigError) as caught:
        read_regular(path, 1024)
    assert caught.value.message == "data file is larger than 1,024 bytes"
    assert read_regular(path, 2048) == b"x" * 2048


def test_symlink_loops_in_the_app_are_one_located_problem_not_an_internal_error(ws):
    from workbench.tui.session import Inputs, load
    from workbench.views.options import ViewOptions

    _symlink(ws / "a.jsonl", "b.jsonl")
    _symlink(ws / "b.jsonl", "a.jsonl")
    _symlink(ws / "a.py", "b.py")
    _symlink(ws / "b.py", "a.py")
    for inputs, message in [
        (Inputs(configs=(str(ws / "good.py"),), data=(str(ws / "a.jsonl"),)),
         f"data path is a symlink loop: {ws / 'a.jsonl'}"),
        (Inputs(configs=(str(ws / "a.py"),)), f"config path is a symlink loop: {ws / 'a.py'}"),
    ]:
        loaded = load(inputs, 1, ViewOptions(root=ws))
        # a dataset whose rows cannot be read is listed as failed while the rest still opens
        # (a suite with one broken dataset stays usable); a config that cannot be read fails the load
        assert loaded.ok == message.startswith("data path")
        assert [problem.message for problem in loaded.problems] == [message]


def test_rows_that_break_under_a_shown_dataset_keep_the_last_good_render(ws):
    """A dataset on screen whose rows become unreadable makes the load not ok (the app keeps
    the last good render, dimmed, under the problem); one that never rendered is only listed."""
    from workbench.tui.session import Inputs, load
    from workbench.views.options import ViewOptions

    _symlink(ws / "a.jsonl", "b.jsonl")
    _symlink(ws / "b.jsonl", "a.jsonl")
    inputs = Inputs(configs=(str(ws / "good.py"),), data=(str(ws / "a.jsonl"),))
    first = load(inputs, 1, ViewOptions(root=ws))
    (abbr,) = [abbr for _, abbr, _ in first.failed]
    assert first.ok
    later = load(inputs, 2, ViewOptions(root=ws), shown=[abbr])
    assert not later.ok
    assert [p.message for p in later.problems] == [f"data path is a symlink loop: {ws / 'a.jsonl'}"]
