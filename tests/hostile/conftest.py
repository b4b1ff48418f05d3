"""Fixtures of the hostile-input suite (its helpers are in ``helpers.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import GOOD_CONFIG, ROWS, write


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A folder with a good config (``good.py``) and rows (``rows.jsonl``)."""
    write(tmp_path / "good.py", GOOD_CONFIG)
    write(tmp_path / "rows.jsonl", ROWS)
    return tmp_path
