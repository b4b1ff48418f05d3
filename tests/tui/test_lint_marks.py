"""The tree marks a dataset with lint findings (``⚑1``: how many rules flag it), as ``workbench
lint`` lists them,
once every pair has been checked in the background; the bundled demo (clean) has no mark."""

from __future__ import annotations

import pytest

from workbench.commands.common import demo_config, pitfalls_config

from .conftest import make_app, wait_for

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
