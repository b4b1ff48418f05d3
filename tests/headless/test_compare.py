"""Record streams compared a sample at a time; readable diffs with guides under changed characters."""

from __future__ import annotations

import io

from workbench.headless.compare import ADDED, CHANGED, REMOVED, DiffPrinter, compare_records, line_diff
from workbench.headless.snapshot_format import Record


def req(sample: int, *lines: str, title: str | None = None) -> Record:
    return Record("request", (title or f"=== sample {sample} ===", *lines), sample)


def kinds(old, new):
    return [(c.kind, c.record.title) for c in compare_records(old, new)]


def test_equal_streams_have_no_changes():
    records = [Record("header", ("# h",)), req(0, "| a"), req(1, "| b"), Record("footer", ("# end",))]
    assert kinds(records, list(records)) == []


def test_changed_added_removed_by_sample_and_title():
    old = [req(0, "| a"), req(1, "| b"), req(3, "| d")]
    new = [req(0, "| a"), req(1, "| B"), req(2, "| c")]
    assert kinds(old, new) == [(CHANGED, "=== sample 1 ==="), (ADDED, "=== sample 2 ==="),
                               (REMOVED, "=== sample 3 ===")]


def test_a_label_added_in_the_middle_is_one_added_request():
    old = [req(0, "| x", title="=== sample 0 · label A ==="), req(0, "| z", title="=== sample 0 · label C ===")]
    new = [req(0, "| x", title="=== sample 0 · label A ==="), req(0, "| y", title="=== sample 0 · label B ==="),
           req(0, "| z", title="=== sample 0 · label C ===")]
    assert kinds(old, new) == [(ADDED, "=== sample 0 · label B ===")]


def test_only_the_inputs_hash_changed_is_no_change():
    old = [Record("header", ("# prompt-workbench snapshot 1", "# inputs: sha256:aa"))]
    new = [Record("header", ("# prompt-workbench snapshot 1", "# inputs: sha256:bb"))]
    assert kinds(old, new) == []


def test_line_diff_guides_point_at_the_change():
    out = list(line_diff(["| same", "| Answer:"], ["| same", "| Answer: "]))
    assert out == ["  | same", "- | Answer:", "+ | Answer: ", "?          +"]
    assert out[3].index("+") == len("+ | Answer:")


def test_line_diff_keeps_context_and_marks_gaps():
    a = [f"| {i}" for i in range(20)]
    b = list(a)
    b[2], b[17] = "| two", "| seventeen"
    out = list(line_diff(a, b, context=1))
    assert "  ⋯" in out
    assert out[0] == "  | 1" and out[-1] == "  | 18"


def test_printer_colours_only_when_asked():
    buf = io.StringIO()
    DiffPrinter(buf, color=True).line("- | x")
    assert buf.getvalue() == "\x1b[31m- | x\x1b[0m\n"
    buf = io.StringIO()
    DiffPrinter(buf, color=False).line("- | \x1b[2J")
    assert buf.getvalue() == "- | ␛[2J\n"
