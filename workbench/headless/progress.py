"""A one-line progress bar on stderr for long renders.

Shown only when stderr is a terminal (never in CI logs or pipes) and only once a
render has run for a moment, so quick renders print nothing.  Redrawn at most ten
times a second; cleared when done, so the terminal is left as it was.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..core.inert_text import visible


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool = True,
                 delay: float = 0.5, clock=time.monotonic) -> None:
        self.total = max(total, 0)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.delay = delay
        self.clock = clock
        self.started = clock()
        self._drawn_at = 0.0
        self._shown = False
        self.label = ""

    @classmethod
    def for_terminal(cls, total: int, quiet: bool) -> Progress:
        stream = sys.stderr
        tty = hasattr(stream, "isatty") and stream.isatty()
        return cls(total, stream, enabled=tty and not quiet)

    def advance(self, n: int = 1, label: str | None = None) -> None:
        self.done += n
        if label is not None:
            self.label = label
        if not self.enabled:
            return
        now = self.clock()
        if now - self.started < self.delay or now - self._drawn_at < 0.1:
            return
        self._drawn_at = now
        self._draw(now)

    def _draw(self, now: float) -> None:
        total = self.total or 1
        frac = min(self.done / total, 1.0)
        width = 24
        filled = int(frac * width)
        bar = "█" * filled + "░" * (width - filled)
        elapsed = now - self.started
        eta = ""
        if 0 < self.done < self.total:
            left = elapsed / self.done * (self.total - self.done)
            eta = f" ETA {int(left // 60)}:{int(left % 60):02d}"
        label = visible(self.label)[:40]
        line = f"\r{bar} {self.done}/{self.total} samples{eta}  {label}"
        self.stream.write(line + "\x1b[K")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
