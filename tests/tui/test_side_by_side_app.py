"""``workbench compare ... --app``: the sides next to each other, one aligned row at a time.

Looks at 80×24 and 160×48 (pytest-textual-snapshot, the Textual the other snapshots were recorded
with), and what the keys do. The comparison is the MMLU one the parity test holds to the
frameworks' goldens (tests/parity/test_compare_parity.py), one lm-eval shot."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest

from workbench.commands import compare
from workbench.tui.driving import plain
from workbench.tui.side_by_side_app import SideBySideApp

from .test_snapshots import RECORDED_WITH, SIZES

PARITY = Path(__file__).resolve().parent.parent / "parity"
ROWS = PARITY / "lmeval" / "shipped" / "mmlu"


@pytest.fixture
def sides(monkeypatch):
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(PARITY / "compare" / "oc_data"))
    parser = compare.build_parser()
    args = parser.parse_args(["mmlu", "--subject", "anatomy", "--chat-template", str(PARITY / "lmeval" / "chat" / "chatml"),
                              "--data", f"test={ROWS / 'test.jsonl'}", "--data", f"dev={ROWS / 'dev.jsonl'}",
                              "--num-fewshot", "1", "--app"])
    comparison = compare.build(parser, args)
    assert comparison.errors == [] and len(comparison.sides) == 2
    return comparison.sides


def pressing(*presses: str):
    """Keys pressed once the app has painted (it renders nothing in the background to wait for)."""

    async def run_before(pilot) -> None:
        await pilot.pause()
        for key in presses:
            await pilot.press(key)
            await pilot.pause()

    return run_before


@pytest.mark.skipif(version("textual") != RECORDED_WITH, reason=f"snapshots were recorded with Textual {RECORDED_WITH}")
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("presses", [(), ("n", "w")], ids=["first_row", "next_row_no_whitespace"])
def test_looks(snap_compare, sides, size, presses):
    assert snap_compare(SideBySideApp(sides, "mmlu (anatomy)"), terminal_size=SIZES[size], run_before=pressing(*presses))


@pytest.mark.anyio
async def test_keys_move_rows_and_marks(sides):
    app = SideBySideApp(sides, "mmlu (anatomy)")
    async with app.run_test(size=(160, 48)) as pilot:
        status = lambda: plain(app.query_one("#status").render())  # noqa: E731
        assert status().startswith("mmlu (anatomy) · row 1/3 · Which bone is number 0?")
        await pilot.press("n")
        assert "row 2/3 · Which bone is number 1?" in status()
        await pilot.press("p", "p")
        assert "row 3/3" in status()
        differences = plain(app.query_one("#differences").render())
        assert differences.startswith("continuation vs generation: generation → continuation")
        assert "number and choice of shots: 0 shots → 1 shot, drawn by the sampler" in differences
        text = app.query_one("#second-text").render()
        assert "↵" in plain(text)
        await pilot.press("w")
        assert "↵" not in plain(app.query_one("#second-text").render())
        await pilot.press("o")  # two sides: the other side is still B
        assert app.query_one("#second-side").border_title.startswith("B lm-eval 0.4.13")
