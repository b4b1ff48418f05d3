"""A hostile data row never reaches the terminal raw, in any human-facing output.

Escape sequences (CSI colours, OSC 52 clipboard writes, OSC titles), C0/C1 controls,
bidi overrides and zero-width characters in rows and templates come out as visible
stand-ins in text, markdown, html, svg, snapshot files and diffs; JSON escapes them
as JSON does; ``--raw`` text alone carries the exact characters.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .helpers import edit, run_cli, write_workspace

HOSTILE = ("red \x1b[31mALERT\x1b[0m clip \x1b]52;c;ZWNobyBwd25lZA==\x07 title \x1b]0;pwned\x1b\\ "
           "c1 \x9b2J bidi \u202eevil\u202c zw a\u200bb nul \x00 cr \r bell \x07 del \x7f "
           "sep \u2028 bom \ufeff tag \U000e0041")
# Anything a terminal could act on, or that hides or reorders text.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    rows = {"train": [{"question": "fine", "answer": HOSTILE}],
            "test": [{"question": HOSTILE, "answer": "x"}]}
    choice = [{"statement": HOSTILE, "label": "yes"}]
    source_literal = HOSTILE.encode("unicode_escape").decode("ascii").replace("'", "\\'")
    write_workspace(root, system="sys " + source_literal,
                    qa_rows=rows, choice_rows=choice)
    return root


def assert_inert(text: str) -> None:
    found = RAW_CONTROL.findall(text)
    assert not found, f"raw control characters reached the output: {sorted(set(found))!r}"


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "svg"])
@pytest.mark.parametrize("whitespace", [False, True])
def test_render_formats_show_escapes_never_send_them(ws, fmt, whitespace):
    extra = ["--whitespace"] if whitespace else []
    result = run_cli("render", "eval.py", "-f", fmt, "--model", "chat-lm", *extra, cwd=ws)
    assert result.code == 0, result.err
    assert_inert(result.out)
    assert_inert(result.err)
    assert "␛[31m" in result.out or "␛[31m" in result.out.replace("&#x241B;", "␛")


def test_text_shows_each_kind_of_stand_in(ws):
    out = run_cli("render", "eval.py", "-f", "text", "--model", "chat-lm", "--dataset", "qa", cwd=ws).out
    for stand_in in ("␛[31m", "␛]52;c;", "␇", "\\x9b", "\\u202e", "\\u200b", "␀", "␍", "␡", "\\u2028",
                     "\\ufeff"):
        assert stand_in in out, stand_in


def test_raw_text_is_exact_for_pipes(ws):
    out = run_cli("render", "eval.py", "-f", "text", "--raw", "--model", "chat-lm", "--dataset", "qa",
                  cwd=ws).out
    assert "Q: " + HOSTILE in out


def test_json_escapes_and_round_trips(ws):
    result = run_cli("render", "eval.py", "--model", "chat-lm", cwd=ws)
    assert_inert(result.out)
    doc = json.loads(result.out)
    model_input = doc["renders"][0]["samples"][0]["requests"][0]["model_input"]
    assert "Q: " + HOSTILE in model_input


def test_snapshot_files_check_and_diff_are_inert(ws, tmp_path):
    snaps = tmp_path / "snaps"
    wrote = run_cli("snapshot", "eval.py", "--dir", str(snaps), "--model", "chat-lm", cwd=ws)
    assert wrote.code == 0, wrote.err
    for path in snaps.rglob("*.snap"):
        assert_inert(path.read_text(encoding="utf-8"))
    # a changed row: the check's diff shows old and new hostile lines, inert
    edit(ws / "data" / "choice.jsonl", "evil", "EVIL")
    try:
        check = run_cli("snapshot", "eval.py", "--dir", str(snaps), "--model", "chat-lm", "--check",
                        "--color", "never", cwd=ws)
        assert check.code == 1
        assert "\\u202eevil" in check.out and "\\u202eEVIL" in check.out
        assert_inert(check.out)
    finally:
        edit(ws / "data" / "choice.jsonl", "EVIL", "evil")


def test_a_tampered_snapshot_file_is_shown_inert(ws, tmp_path):
    snaps = tmp_path / "snaps"
    run_cli("snapshot", "eval.py", "--dir", str(snaps), "--model", "chat-lm", "--dataset", "choice", cwd=ws)
    path = snaps / "choice" / "chat-lm.snap"
    path.write_text(path.read_text(encoding="utf-8").replace("| Statement:", "| \x1b]52;c;AAAA\x07Statement:", 1),
                    encoding="utf-8")
    check = run_cli("snapshot", "eval.py", "--dir", str(snaps), "--model", "chat-lm", "--dataset", "choice",
                    "--check", "--color", "never", cwd=ws)
    assert check.code == 1
    assert "␛]52;c;AAAA␇" in check.out
    assert_inert(check.out)


def test_diff_output_is_inert(ws, tmp_path):
    other = tmp_path / "other"
    rows = {"train": [{"question": "fine", "answer": HOSTILE}],
            "test": [{"question": HOSTILE + " \x1b[2J more", "answer": "x"}]}
    write_workspace(other, qa_rows=rows)
    result = run_cli("diff", str(ws / "eval.py"), str(other / "eval.py"), "--model", "chat-lm",
                     "--color", "never", cwd=tmp_path)
    assert result.code == 1
    assert "\\x1b[2J more" in result.out  # the snapshot encoding of ESC
    assert_inert(result.out)
    assert_inert(result.err)


def test_json_escapes_del_in_otherwise_ascii_text():
    from workbench.headless.formats.json_encoding import dumps

    assert dumps({"a": "plain"}) == '{"a": "plain"}'
    assert dumps("del \x7f only") == '"del \\u007f only"'  # the ASCII fast path must not skip it
    assert dumps("café \u202e") == '"café \\u202e"'


def test_json_printable_fast_path_never_skips_a_character_it_escapes():
    """``dumps`` skips the escape search for text ``str.isprintable`` accepts: so no character
    the search escapes may be printable, and non-ASCII text that is printable passes as is."""
    import sys

    from workbench.headless.formats.json_encoding import _UNSAFE, dumps

    printable = [hex(c) for c in range(sys.maxunicode + 1) if _UNSAFE.match(chr(c)) and chr(c).isprintable()]
    assert not printable, printable
    assert dumps("中文 café") == '"中文 café"'
    assert dumps("中文\u3000\u2028") == '"中文\u3000\\u2028"'  # not printable: searched, escaped
