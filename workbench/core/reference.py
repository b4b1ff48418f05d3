"""The reference mode: one switch that turns off every cache and compiled path of the render.

A render's fast paths (docs/architecture.md names them) must give the bytes the plain
interpreter gives. With the switch on, every sample is rendered by the interpreter
(``plan.requests`` on the fast engine), every chat template is run by Jinja, every token
estimate is counted whole and every JSON value is encoded whole: slower, and the output a
bug report should compare against (``--reference`` on render, snapshot and diff). The
differential harness (tests/differential) renders the same inputs in both modes and compares
the bytes.

The switch is process-wide because the caches it turns off live below any one pair (a chat
template's outlines, the token-estimate memos, the JSON encoders). ``RenderOptions``
reads it when made, so a pair rendered under the switch is a reference pair; worker
processes receive the options and turn the switch on themselves.

May import: the standard library only (the core's bottom layer).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_on = False


def reference() -> bool:
    """Whether every cache and compiled path is off."""
    return _on


def set_reference(on: bool) -> None:
    """Turn the reference mode on or off for this process (a command's ``--reference``)."""
    global _on
    _on = bool(on)


@contextmanager
def reference_mode(on: bool = True) -> Iterator[None]:
    """The reference mode on (or off) inside the block, as it was after."""
    before = _on
    set_reference(on)
    try:
        yield
    finally:
        set_reference(before)
