"""Configs: whatever a config does to its own process, the error is one true line at its line."""

from __future__ import annotations

import os

import pytest

from workbench.loading.workspace import Loader

from .helpers import GOOD_CONFIG, needs_fork, run, write
from .measuring import measured

pytestmark = needs_fork


@pytest.mark.parametrize(("source", "line", "message", "hint"), [
    ("import os\n\nos.closerange(0, 4096)\ndatasets = []\n", 3,
     "the config closed or replaced the pipe the loader answers on, so no answer came back",
     "a config must not close file descriptors it did not open"),
    ("import os\n\nfor fd in range(3, 4096):\n    try:\n        os.dup2(0, fd)\n    except OSError:\n"
     "        pass\ndatasets = []\n", 5,
     "the config closed or replaced the pipe the loader answers on, so no answer came back",
     "a config must not close file descriptors it did not open"),
    ("import os\nos._exit(4)\n", 2, "the config ended the loader process with exit status 4",
     "a config must not call os._exit(); remove the call"),
], ids=["closerange", "dup2-over-the-pipe", "os-exit"])
def test_a_config_that_breaks_its_own_process_is_told_truthfully(tmp_path, source, line, message, hint):
    config = write(tmp_path / "bad.py", source)
    with Loader() as loader:
        (error,) = loader.load([config]).errors
        assert (error.message, error.file, error.line, error.hint) == (message, str(config), line, hint)
        assert not loader.load([write(tmp_path / "good.py", GOOD_CONFIG)]).errors


def test_a_config_that_waits_on_a_fifo_is_stopped_at_its_line(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    config = write(tmp_path / "waits.py", f"x = 1\ntext = open({str(tmp_path / 'pipe')!r}).read()\n")
    with Loader(timeout=1.0) as loader:
        (error,) = loader.load([config]).errors
    assert (error.message, error.file, error.line) == ("the config did not finish within 1 s", str(config), 2)


@pytest.mark.parametrize(("source", "message"), [
    ("x = 1\n", "defines no datasets or models, so there is nothing to render"),
    ("models = [dict(abbr='m', type='HuggingFaceCausalLM', path='x')]\n",
     "defines no datasets (it defines 1 model), so there is nothing to render"),
])
def test_a_config_with_nothing_to_render_says_so_and_exits_3(tmp_path, source, message):
    write(tmp_path / "cfg.py", source)
    done = run("render", "cfg.py", "-f", "text", cwd=tmp_path)
    assert done.code == 3
    assert done.lines == [f"{tmp_path / 'cfg.py'}: {message} (hint: a config lists its datasets in "
                          "`datasets = [...]` or `*_datasets` lists; a file of models only goes with --models)"]


def test_a_config_that_ignores_every_signal_it_can_is_still_stopped(tmp_path):
    config = write(tmp_path / "stubborn.py", (
        "import signal\n"
        "for s in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT, signal.SIGUSR1, signal.SIGXCPU):\n"
        "    signal.signal(s, signal.SIG_IGN)\n"
        "while True:\n"
        "    pass\n"))
    with Loader(timeout=1.0) as loader:
        (error,) = loader.load([config]).errors
        assert error.message == "the config did not finish within 1 s" and error.file == str(config)
        assert not loader.load([write(tmp_path / "good.py", GOOD_CONFIG)]).errors


def test_a_config_too_large_to_parse_says_why(ws):
    # 36 MB of one literal (under the 64 MiB a config may be): its syntax tree passes the
    # load's 2 GiB, and the parser's MemoryError carries no text of its own
    write(ws / "huge.py", "x = [" + "(1, 2), " * 4_500_000 + "]\ndatasets = []\n")
    baseline = measured("render", "good.py", "--data", "rows.jsonl", "-f", "text", "-q", cwd=ws)
    done = measured("render", "huge.py", "-f", "text", "-q", "--timeout", "80", cwd=ws)  # (a busy machine)
    assert done.code == 3
    assert done.lines == [f"{ws / 'huge.py'}: cannot parse the config: Python ran out of memory parsing its "
                          "36,000,021 characters within the load's memory limit of 2 GiB (hint: a config this "
                          "large is data: keep the values in a .json or .jsonl file and read it from the config)"]
    # the load's own process stops at its limit; the workbench beside it stays as small as ever
    assert done.peak < 2 * 1024**3 + baseline.peak
