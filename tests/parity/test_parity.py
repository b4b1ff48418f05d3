"""Byte-for-byte parity with the real frameworks, on goldens made by tools/gen_goldens.py.

Each case folder holds a config, its rows, and the framework's own output for every
(dataset, model) pair. Pairs on which the framework raised must either be refused by
the workbench too, or rendered with a warning naming the framework's failure.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.core.reference import reference_mode
from workbench.core.replicas.numpy_argsort import numpy_sort, set_numpy_sort
from workbench.headless.formats.json_export import render_document
from workbench.loading.workspace import load_workspace

CASES = Path(__file__).parent / "cases"
CASE_DIRS = sorted(p for p in CASES.iterdir() if (p / "expected.json").is_file()) if CASES.is_dir() else []


def _render(case: Path, reference: bool = False) -> dict:
    data = case / "data.json"
    if not data.exists():
        data = case / "data.jsonl"
    # tied retriever scores ordered as the numpy that made the golden ordered them
    sort = json.loads((case / "expected.json").read_text(encoding="utf-8")).get("numpy_sort", "baseline")
    before = numpy_sort()
    set_numpy_sort(sort)
    try:
        with reference_mode(reference):  # (the options are made inside: see core/reference.py)
            workspace = load_workspace([case / "config.py"], data=[str(data)])
            assert not workspace.errors, [e.located() for e in workspace.errors]
            return render_document(render_workspace(workspace.datasets, workspace.models, str(case)))
    finally:
        set_numpy_sort(before)


def _key(entry: dict) -> tuple:
    return entry["dataset"], entry["model"]


def _comparable(request: dict) -> dict:
    out = {k: request.get(k) for k in ("label", "turn", "prompt_list", "model_input", "model_text")}
    out["depends_on_turns"] = request.get("depends_on_turns", [])
    return out


# "fast": every fast path on, as the workbench renders; "reference": the interpreter alone
# (--reference), so the goldens hold both (tests/differential compares the two byte for byte)
@pytest.mark.parametrize("mode", ["fast", "reference"])
@pytest.mark.parametrize("case", CASE_DIRS, ids=[p.name for p in CASE_DIRS])
def test_matches_the_framework(case: Path, mode: str) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    ours = _render(case, reference=mode == "reference")
    renders = {_key(r): r for r in ours["renders"]}
    errors = {_key(e): e for e in ours["errors"]}
    for want in expected["renders"]:
        key = _key(want)
        assert key not in errors, f"{key}: the framework renders it, we refused: {errors.get(key)}"
        assert key in renders, f"{key} missing from our renders"
        got = renders[key]
        assert got["model_kind"] == want["model_kind"], key
        assert len(got["samples"]) == len(want["samples"]), key
        for g, w in zip(got["samples"], want["samples"]):
            where = f"{key} sample {w['index']}"
            assert g["index"] == w["index"], where
            assert g["ice_indices"] == w["ice_indices"], where
            assert [_comparable(r) for r in g["requests"]] == [_comparable(r) for r in w["requests"]], where
    failures = {_key(f): f for f in expected.get("framework_errors", [])}
    warnings = {}
    for w in ours["warnings"]:  # one entry per message, with every pair it applies to
        for place in w["applies_to"]:
            warnings.setdefault(_key(place), []).append(w["message"])
    for key, failure in failures.items():
        if key in errors:
            continue
        assert key in renders, f"{key}: the framework raised {failure['exception']}; we neither refuse nor render"
        assert any("fails here" in m for m in warnings.get(key, [])), (
            f"{key}: the framework raised {failure['exception']}: {failure['message'][:200]}; "
            "we render it without saying so"
        )
