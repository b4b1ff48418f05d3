"""The tree marks a dataset with lint findings (``⚑1``: how many rules flag it), as ``workbench
lint`` lists them, PW213 (the extraction self-test, run bounded in the config worker) included,
once every pair has been checked in the background; a self-test cut short is ``⚑?`` (not
checked); the bundled demo (clean) has no mark."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from workbench.commands.common import demo_config, pitfalls_config
from workbench.tui import pair_check

from .conftest import make_app, wait_for

ANSWER_FORMAT = Path(__file__).parent / "fixtures" / "answer_format" / "eval.py"

pytestmark = pytest.mark.anyio


async def labels_after_check(config) -> dict[str, str]:
    app = make_app(config)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.good is not None and app.is_settled and app.pair_check is not None,
                       timeout=60)
        return {str(n.label).split()[0]: str(n.label) for n in app.query_one("#tree").root.children}


async def test_a_dataset_with_findings_is_marked_and_the_demo_is_not():
    pitfalls = await labels_after_check(pitfalls_config())
    assert pitfalls["answer-prefix"].endswith("  ⚑1")  # PW201
    marked = [name for name, label in pitfalls.items() if "⚑" in label]
    assert marked == ["answer-prefix"], pitfalls
    demo = await labels_after_check(demo_config())
    assert not any("⚑" in label for label in demo.values()), demo


async def test_pw213_marks_a_dataset_whose_exemplar_is_misread_and_a_runaway_is_not_checked(monkeypatch):
    monkeypatch.setattr(pair_check, "CHECK_TIMEOUT", 1.0)  # the runaway pattern's child is cut sooner
    labels = {name: label.removesuffix(" ◀") for name, label in (await labels_after_check(ANSWER_FORMAT)).items()}
    assert labels["mcq"].endswith("  ⚑1"), labels  # PW213: 'The answer is (B)' read as ''
    assert labels["runaway"].endswith("  ⚑?"), labels  # its pattern backtracks: cut, not checked
    assert "⚑" not in labels["fine"], labels  # writes 'ANSWER: B', reads it
    # the same verdicts as `workbench lint` (tests/commands/test_lint.py), and why it was not checked
    app = make_app(ANSWER_FORMAT)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.pair_check is not None, timeout=60)
        check = app.pair_check
    assert check.findings == {"mcq": ("PW213",)}
    assert check.not_checked == {"runaway": "the self-test ran past 1 s"}


async def test_a_broken_save_while_checking_still_marks_what_is_shown(tmp_path, monkeypatch):
    """A load cuts the running check (its self-tests use the config worker the load needs); a load
    that fails then checks again the last good workspace, so its marks still come."""
    shutil.copytree(ANSWER_FORMAT.parent, tmp_path / "af")
    config = tmp_path / "af" / "eval.py"
    good = config.read_text(encoding="utf-8")
    monkeypatch.setattr(pair_check, "CHECK_TIMEOUT", 1.0)  # the check lasts a second: the save comes in it
    app = make_app(config)
    async with app.run_test(size=(160, 48)) as pilot:
        for _ in range(1000):  # (not wait_for: it waits for the check too)
            if app.good is not None:
                break
            await pilot.pause()
            await asyncio.sleep(0.01)
        assert app.pair_check is None
        config.write_text(good + "\nbroken = dict(\n", encoding="utf-8")
        app.request_load()
        await wait_for(pilot, lambda: app.latest is not None and not app.latest.ok and app.is_settled, timeout=60)
        assert app.pair_check is not None and app.pair_check.findings == {"mcq": ("PW213",)}
        labels = {str(n.label).split()[0]: str(n.label) for n in app.query_one("#tree").root.children}
        assert "⚑1" in labels["mcq"], labels
