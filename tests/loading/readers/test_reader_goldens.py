"""Every native reader against the real ``load()``: goldens made by tools/gen_reader_goldens.py
from the framework's own classes on the fixture files of each case folder."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from workbench.core.errors import ConfigError
from workbench.loading.rows.readers import ReaderCall, find_reader

CASES = Path(__file__).parent / "cases"
CASE_DIRS = sorted(p.parent for p in CASES.glob("*/case.json"))


def _fill(value: Any, case: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{case}", str(case))
    if isinstance(value, list):
        return [_fill(item, case) for item in value]
    if isinstance(value, dict):
        return {key: _fill(item, case) for key, item in value.items()}
    return value


def _text(value: Any) -> str:
    # Compared as JSON text so 1 and 1.0, and the order of keys, count.
    return json.dumps(value, ensure_ascii=False, indent=1, default=repr)


@pytest.mark.parametrize("case", CASE_DIRS, ids=[p.name for p in CASE_DIRS])
def test_reader_matches_framework_load(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = json.loads((case / "case.json").read_text(encoding="utf-8"))
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    if spec.get("needs") and importlib.util.find_spec(spec["needs"]) is None:
        pytest.skip(f"needs {spec['needs']} (an optional extra)")
    for name, value in _fill(spec.get("env", {}), case).items():
        monkeypatch.setenv(name, value)
    reader = find_reader(spec["class"], spec.get("module", ""))
    assert reader is not None, f"no native reader for {spec['class']}"
    call = ReaderCall(kwargs=_fill(spec.get("kwargs", {}), case),
                      framework=spec.get("framework", "opencompass"))
    if "error" in expected:
        with pytest.raises(ConfigError):
            reader(call)
        return
    assert _text(reader(call)) == _text(expected["result"])
