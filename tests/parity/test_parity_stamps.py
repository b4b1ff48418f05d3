"""The parity cases rendered as ``workbench render`` writes them (stamps, core/inferencers/
sample_form.py) say what the usual render says, byte for byte, in JSON and in text.

test_parity.py holds the usual render to the frameworks' goldens; this holds the stamped
render to the usual one on the same configs and rows, so the goldens cover both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.headless.helpers import write_streamed
from tests.parity.test_parity import CASE_DIRS
from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import RenderOptions
from workbench.headless.formats.json_export import write_render_json
from workbench.headless.formats.text_export import TextOptions, write_render_text
from workbench.loading.workspace import load_workspace

STAMPED: dict[str, int] = {}


def _written(case: Path, fmt: str, stamps: bool) -> str:
    data = case / "data.json"
    if not data.exists():
        data = case / "data.jsonl"
    workspace = load_workspace([case / "config.py"], data=[str(data)])
    options = RenderOptions(token_sections=fmt == "text")
    result = render_workspace(workspace.datasets, workspace.models, str(case), options=options)
    if fmt == "json":
        text, handed, _ = write_streamed(result, write_render_json, stamps)
    else:
        text, handed, _ = write_streamed(
            result, lambda narrowed, out, samples_of: write_render_text(narrowed, out, samples_of, TextOptions()),
            stamps)
    STAMPED[fmt] = STAMPED.get(fmt, 0) + handed
    return text


@pytest.mark.parametrize("fmt", ["json", "text"])
@pytest.mark.parametrize("case", CASE_DIRS, ids=[p.name for p in CASE_DIRS])
def test_the_stamped_render_is_the_usual_render(case: Path, fmt: str) -> None:
    assert _written(case, fmt, stamps=True) == _written(case, fmt, stamps=False)


def test_the_cases_are_stamped():
    """(after the cases above) stamps were actually written, in both formats"""
    if not CASE_DIRS:
        pytest.skip("no parity cases")
    assert STAMPED.get("json", 0) > 100 and STAMPED.get("text", 0) > 100, STAMPED
