"""The progress bar: silent off a terminal and for quick renders, cleared when done."""

from __future__ import annotations

import io

from workbench.headless.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_silent_when_disabled():
    buf = io.StringIO()
    p = Progress(10, buf, enabled=False)
    p.advance(10)
    p.close()
    assert buf.getvalue() == ""


def test_quick_renders_print_nothing():
    buf, clock = io.StringIO(), Clock()
    p = Progress(10, buf, enabled=True, clock=clock)
    clock.now = 0.2
    p.advance(10)
    p.close()
    assert buf.getvalue() == ""


def test_long_renders_draw_and_clear():
    buf, clock = io.StringIO(), Clock()
    p = Progress(100, buf, enabled=True, clock=clock)
    clock.now = 1.0
    p.advance(25, "gsm8k × \x1b[31mmodel")
    text = buf.getvalue()
    assert "25/100 samples" in text and "ETA" in text and "␛[31m" in text
    assert "\x1b[31m" not in text  # the label is untrusted
    p.close()
    assert buf.getvalue().endswith("\r\x1b[K")


def test_not_a_terminal_means_no_bar(monkeypatch):
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert not Progress.for_terminal(10, quiet=False).enabled
