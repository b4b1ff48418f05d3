"""Exports go out in chunks of joined pieces; to a UTF-8 file, as bytes (headless/stream.py)."""

from __future__ import annotations

import io
import os

import pytest

from workbench.headless.stream import Chunks, utf8_sink


def test_only_a_utf8_text_file_that_translates_no_newline_is_written_as_bytes(tmp_path):
    path = tmp_path / "out"
    assert utf8_sink(io.StringIO()) is None
    for encoding in ("latin-1", "utf-8-sig", "utf-16"):
        with open(path, "w", encoding=encoding) as out:
            assert utf8_sink(out) is None, encoding
    for encoding in ("utf-8", "UTF8", "utf_8"):
        with open(path, "w", encoding=encoding, newline="") as out:
            assert utf8_sink(out) is (out.buffer if os.linesep == "\n" else None)


@pytest.mark.skipif(os.linesep != "\n", reason="the bytes path is POSIX's")
def test_raw_chunks_keep_the_order_of_what_was_written_before_and_after(tmp_path):
    path = tmp_path / "out.json"
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("before ")  # held in the text layer until the chunks flush it
        chunks = Chunks(out, size=8, raw=True)
        assert chunks.raw
        chunks.write("é and ")
        chunks.write("中文 ".encode())  # (encoded already)
        for n in range(20):  # past the size: written as it goes
            chunks.write(f"{n},")
        chunks.flush()
        out.write(" after")
    assert path.read_text(encoding="utf-8") == "before é and 中文 " + "".join(f"{n}," for n in range(20)) + " after"


@pytest.mark.skipif(os.linesep != "\n", reason="the bytes path is POSIX's")
def test_raw_chunks_encode_as_the_file_would(tmp_path):
    """A character UTF-8 cannot hold is handled as the file's own ``errors`` says."""
    texts = ["plain ", "\ud800", " end"]
    for errors in ("backslashreplace", "surrogateescape", "strict"):
        written = {}
        for raw in (False, True):
            path = tmp_path / f"{errors}-{raw}"
            with open(path, "w", encoding="utf-8", errors=errors, newline="") as out:
                chunks = Chunks(out, raw=raw)
                assert chunks.raw is raw
                try:
                    for text in texts:
                        chunks.write(text)
                    chunks.flush()
                except UnicodeEncodeError:
                    written[raw] = "refused"
                    continue
            written[raw] = path.read_bytes()
        assert written[True] == written[False], errors
    assert written == {False: "refused", True: "refused"}  # (strict: the last one)


def test_text_chunks_stay_text():
    out = io.StringIO()
    chunks = Chunks(out, raw=True)  # asked, but a StringIO has no bytes under it
    assert not chunks.raw
    chunks.write("a")
    chunks.flush()
    assert out.getvalue() == "a"
