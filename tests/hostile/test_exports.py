"""Exports: long texts stay linear and bounded in every format, and a failed render never
touches the file it would have written."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import threading
from pathlib import Path

import pytest

from .helpers import GOOD_CONFIG, needs_fork, run, write
from .measuring import Measured, measured

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "chat_templates"))
from tokenizer_fixture import write_model_folder

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


#: A model for each kind of token counter; its config's ``models`` line, after the dataset.
COUNTERS = {
    "estimate (no model)": "",
    "tokenizer.json (chat-template model)":
        "from opencompass.models import HuggingFacewithChatTemplate\n"
        "models = [dict(type=HuggingFacewithChatTemplate, abbr='chat', path='tpl')]\n",
    "tiktoken (OpenAI API model)":
        "from opencompass.models import OpenAI\n"
        "models = [dict(type=OpenAI, abbr='gpt', path='gpt-4', key='ENV', max_seq_len=4096)]\n",
    "word count (another API model)":
        "from opencompass.models import Gemini\n"
        "models = [dict(type=Gemini, abbr='gem', path='gemini-pro', key='ENV', max_seq_len=4096)]\n",
}
CHATML = ("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


@pytest.mark.parametrize("counter", COUNTERS)
def test_every_format_is_linear_with_every_token_counter(ws, counter):
    # 16 M characters: near the 16 Mi a chat template may make; the 4 M run is the baseline.
    # (A tokenizer.json's encoding takes about 60 bytes a character: 4 GiB for the 16 M.)
    write(ws / "good.py", GOOD_CONFIG + COUNTERS[counter])
    write_model_folder(ws / "tpl", CHATML, {"eos_token": "<|im_end|>"})
    costs: dict[str, list[Measured]] = {}
    for characters in (4_000_000, 16_000_000):
        _rows(ws, characters)
        for kind in ("text", "json", "markdown", "html", "svg"):
            done = measured("render", "good.py", "--data", "rows.jsonl", "-f", kind, "-o", f"out.{kind}", "-q",
                            cwd=ws, memory=4 * 1024**3)
            assert (done.code, done.err) == (0, "")
            size = (ws / f"out.{kind}").stat().st_size
            assert size > characters if kind in ("text", "json", "markdown") else size < 1_000_000
            costs.setdefault(kind, []).append(done)
    for kind, (small, large) in costs.items():
        # four times the row: at most four times the work and memory (and a margin for noise)
        assert large.cpu < 6 * small.cpu, (kind, small.cpu, large.cpu)
        assert large.peak < 6 * small.peak, (kind, small.peak, large.peak)


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


# -- --out through links: a link is written through, never replaced ------------------------------

TEXT = "=== qa · (no model) · sample 0 ===\nQ: What is 2+2?\nA: \n"


def _text_render(ws, out: str, **options):
    return run("render", "good.py", "--data", "rows.jsonl", "-f", "text", "--limit", "1", "-o", out, "-q", cwd=ws,
               **options)


def test_an_out_link_to_a_regular_file_writes_the_file_and_keeps_the_link(ws):
    (ws / "sub").mkdir()
    write(ws / "sub" / "target.txt", "old\n")
    (ws / "link.txt").symlink_to("sub/target.txt")
    done = _text_render(ws, "link.txt")
    assert (done.code, done.err) == (0, "")
    assert os.readlink(ws / "link.txt") == "sub/target.txt"
    assert (ws / "sub" / "target.txt").read_text() == TEXT
    assert [p.name for p in (ws / "sub").iterdir()] == ["target.txt"]  # (no temp file left)


def test_a_dangling_out_link_makes_its_target(ws):
    (ws / "link.txt").symlink_to("made.txt")
    done = _text_render(ws, "link.txt")
    assert (done.code, done.err) == (0, "")
    assert os.readlink(ws / "link.txt") == "made.txt" and (ws / "made.txt").read_text() == TEXT


@pytest.mark.parametrize("stdout", ["a file", "a pipe"])
def test_an_out_link_to_the_commands_stdout_writes_its_stdout(ws, stdout):
    # the machine's /dev/stdout is such a link: a link of the test's own stands for it
    (ws / "stdout").symlink_to("/proc/self/fd/1")
    if stdout == "a pipe":
        done = _text_render(ws, "stdout")
        written = done.out
    else:
        with open(ws / "captured.txt", "wb") as captured:
            done = _text_render(ws, "stdout", stdout=captured)
        written = (ws / "captured.txt").read_text()
    assert (done.code, done.err) == (0, "")
    assert written == TEXT
    assert os.readlink(ws / "stdout") == "/proc/self/fd/1"
    assert [p.name for p in ws.iterdir() if ".wb-tmp-" in p.name] == []


def test_an_out_fifo_is_written_in_place(ws):
    os.mkfifo(ws / "fifo")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append((ws / "fifo").read_bytes()))
    reader.start()
    done = _text_render(ws, "fifo")
    reader.join(timeout=30)
    assert (done.code, done.err) == (0, "")
    assert got == [TEXT.encode()] and stat.S_ISFIFO((ws / "fifo").lstat().st_mode)


@pytest.mark.parametrize("out", ["good.py", "rows.jsonl", "config-link.py", "hard-link.jsonl",
                                 "tpl/tokenizer_config.json"])
def test_an_out_file_the_render_reads_is_refused(ws, out):
    write(ws / "good.py", GOOD_CONFIG + COUNTERS["tokenizer.json (chat-template model)"])
    write_model_folder(ws / "tpl", CHATML, {"eos_token": "<|im_end|>"})
    (ws / "config-link.py").symlink_to("good.py")
    os.link(ws / "rows.jsonl", ws / "hard-link.jsonl")
    baseline = measured("render", "good.py", "--data", "rows.jsonl", "-f", "text", "-q", cwd=ws)
    assert baseline.code == 0, baseline.err
    before = {p: p.read_bytes() for p in (ws / "good.py", ws / "rows.jsonl", ws / "tpl" / "tokenizer_config.json")}
    done = measured("render", "good.py", "--data", "rows.jsonl", "-f", "text", "-o", out, "-q", cwd=ws)
    assert done.code == 2
    assert done.lines == [f"workbench render: error: --out {out}: the render reads this file, so it cannot also "
                          "write it (hint: give --out another file)"]
    assert {p: p.read_bytes() for p in before} == before
    assert done.cpu < 2 * baseline.cpu and done.peak < 2 * baseline.peak


def test_a_snapshot_file_that_is_a_link_is_written_through(ws):
    done = run("snapshot", "good.py", "--data", "rows.jsonl", "--dir", "snaps", "-q", cwd=ws)
    assert done.code == 0, done.err
    written = ws / "snaps" / "qa" / "_no-model.snap"
    kept = ws / "kept.snap"
    kept.write_bytes(b"stale\n")
    written.unlink()
    written.symlink_to(kept)
    done = run("snapshot", "good.py", "--data", "rows.jsonl", "--dir", "snaps", "-q", cwd=ws)
    assert done.code == 0, done.err
    assert written.is_symlink() and os.readlink(written) == str(kept)
    assert kept.read_bytes().startswith(b"# prompt-workbench snapshot") and b"| Q: What is 2+2?" in kept.read_bytes()
