"""Exports: long texts stay linear and bounded in every format, and a failed render never
touches the file it would have written."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from .helpers import needs_fork, run, write

pytestmark = needs_fork

_ = r"(?:&#160;| )"  # a space, as html and svg write it
CUT = re.compile(rf"┄┄{_}([\d,]+){_}more{_}characters{_}not{_}shown{_}here{_}\(all{_}of{_}them{_}are{_}sent;")


def _rows(ws: Path, characters: int) -> None:
    write(ws / "rows.jsonl", json.dumps({"question": "word " * (characters // 5), "answer": "4"}) + "\n")


@pytest.mark.parametrize("kind", ["html", "svg"])
def test_a_long_row_exports_its_head_and_tail_whatever_its_length(ws, kind):
    sizes = []
    for characters in (200_000, 20_000_000):
        _rows(ws, characters)
        out = ws / f"out.{kind}"
        done = run("render", "good.py", "--data", "rows.jsonl", "-f", kind, "-o", str(out), "-q", cwd=ws,
                   memory=2 * 1024**3)
        assert done.code == 0, done.err
        text = out.read_text()
        hidden = [int(n.replace(",", "")) for n in CUT.findall(text)]
        # the prompt (the row and the template's few characters) less the 24,000 shown
        assert hidden and characters - 24_000 <= max(hidden) <= characters - 24_000 + 100
        sizes.append(len(text))
    # a hundred times the text, the same export (but for the digits of the count)
    assert abs(sizes[1] - sizes[0]) < sizes[0] // 100


def test_all_text_exports_every_character(ws):
    _rows(ws, 30_000)
    done = run("render", "good.py", "--data", "rows.jsonl", "-f", "html", "--all-text", "-o", "out.html", cwd=ws)
    assert done.code == 0, done.err
    text = (ws / "out.html").read_text()
    assert not CUT.search(text)
    assert text.count("word") >= 6000


def test_text_json_and_markdown_are_linear(ws):
    _rows(ws, 20_000_000)
    for kind in ("text", "json", "markdown"):
        done = run("render", "good.py", "--data", "rows.jsonl", "-f", kind, "-o", f"out.{kind}", "-q", cwd=ws,
                   memory=2 * 1024**3)
        assert done.code == 0, done.err
        assert (ws / f"out.{kind}").stat().st_size > 20_000_000  # every character, in flat memory


FAILING = {
    "config error": ("broken.py", "datasets = [\n"),
    "killed config": ("killer.py", "import os, signal\nos.killpg(0, signal.SIGKILL)\ndatasets = []\n"),
    "nothing to render": ("empty.py", "x = 1\n"),
}


@pytest.mark.parametrize("case", FAILING)
@pytest.mark.parametrize("kind", ["json", "text", "html"])
def test_a_failed_render_leaves_the_old_out_file_exactly_as_it_was(ws, case, kind):
    name, source = FAILING[case]
    write(ws / name, source)
    out = ws / f"kept.{kind}"
    out.write_bytes(b"the last good render\n")
    os.utime(out, (1_000_000_000, 1_000_000_000))
    done = run("render", name, "-f", kind, "-o", str(out), cwd=ws)
    assert done.code == 3
    assert done.lines[-1] == (f"workbench render: --out {out} not written: the render has errors (the old file "
                              "is kept as it was)")
    assert out.read_bytes() == b"the last good render\n" and out.stat().st_mtime == 1_000_000_000
    assert [p.name for p in ws.iterdir() if ".wb-tmp-" in p.name] == []


def test_a_failed_render_creates_no_file(ws):
    write(ws / "broken.py", "datasets = [\n")
    done = run("render", "broken.py", "-o", "new.json", cwd=ws)
    assert done.code == 3
    assert done.lines[-1] == "workbench render: --out new.json not written: the render has errors (no file written)"
    assert not (ws / "new.json").exists()


@pytest.mark.parametrize(("target", "message"), [
    ("loop.json", "a symlink loop"),
    ("no/such/folder.json", "no such folder"),
    (".", "is a folder"),
])
def test_an_out_path_that_cannot_be_written_is_refused_before_rendering(ws, target, message):
    (ws / "loop.json").symlink_to("loop.json")
    done = run("render", "good.py", "-o", target, cwd=ws)
    assert done.code == 2
    assert done.lines == [f"workbench render: error: --out {target}: {message}"]
