"""Malformed data never gives a traceback: every reader, on each case's fixture files broken in
the usual ways (truncated, emptied, other JSON values, stray bytes), returns rows or raises a
located ConfigError, nothing else."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from workbench.core.errors import ConfigError
from workbench.loading.rows.readers import ReaderCall, find_reader

CASES = Path(__file__).parent / "cases"
# cases whose class reads files (RULER's FWE, VT and CWE make their rows from arguments alone)
GOOD = sorted(p.parent for p in CASES.glob("*/case.json")
              if "result" in json.loads((p.parent / "expected.json").read_text(encoding="utf-8"))
              and any(f.name not in {"case.json", "expected.json"} for f in p.parent.rglob("*") if f.is_file()))
BREAKS = {
    "truncated": lambda data: data[: len(data) // 2],
    "empty": lambda data: b"",
    "null": lambda data: b"null\n",
    "list": lambda data: b"[1, 2]\n",
    "object": lambda data: b'{"a": {"b": [1]}}\n',
    "number lines": lambda data: b"1\n2\n",
    "stray bytes": lambda data: data[:10] + b"\xff\xfe\x00\x80" + data[10:],
    "ragged csv": lambda data: b'a,"b\n1,2,3\n\n\t\t\n',
}


def _fill(value: Any, case: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{case}", str(case))
    if isinstance(value, dict):
        return {key: _fill(item, case) for key, item in value.items()}
    return value


@pytest.mark.parametrize("case", GOOD, ids=[p.name for p in GOOD])
def test_broken_fixture_files_give_located_errors(case: Path, tmp_path: Path) -> None:
    spec = json.loads((case / "case.json").read_text(encoding="utf-8"))
    if spec.get("needs") and importlib.util.find_spec(spec["needs"]) is None:
        pytest.skip(f"needs {spec['needs']} (an optional extra)")
    reader = find_reader(spec["class"], spec.get("module", ""))
    assert reader is not None
    fixtures = [p.relative_to(case) for p in case.rglob("*") if p.is_file()
                and p.name not in {"case.json", "expected.json", "parquet_rows.json"}]
    assert fixtures
    for relative in fixtures:
        for name, breaking in BREAKS.items():
            copy = tmp_path / f"{relative.as_posix().replace('/', '_')}-{name.replace(' ', '_')}"
            shutil.copytree(case, copy)
            target = copy / relative
            target.write_bytes(breaking(target.read_bytes()))
            call = ReaderCall(kwargs=_fill(spec.get("kwargs", {}), copy),
                              framework=spec.get("framework", "opencompass"))
            try:
                reader(call)
            except ConfigError as exc:
                assert exc.file, f"{relative} {name}: error without a file: {exc.message}"
