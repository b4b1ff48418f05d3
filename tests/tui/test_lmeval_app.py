"""The app opens an lm-eval task: the four panes show its requests (the context as lm-eval
passes it), and a task that fails is listed with its located error."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import make_app, pane_text, settle

pytestmark = pytest.mark.anyio

TASKS = Path(__file__).resolve().parent.parent / "parity" / "lmeval" / "tasks"


async def test_the_app_opens_an_lm_eval_task():
    app = make_app(TASKS / "mc.yaml", data=(f"test={TASKS / 'arc_test.jsonl'}",
                                            f"train={TASKS / 'arc_train.jsonl'}"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.selection.dataset == "arcish"
        assert "arcish" in pane_text(app, "tree")
        final = pane_text(app, "final-input")
        assert "The following are questions." in final and "What is 0+0?" in final
        assert "continuation, scored after the input" in final
        tree = pane_text(app, "tree")
        assert "lm-eval task" in tree and "doc_to_choice" in tree and "{{choices.text}}" in tree
        for pane in ("#tree", "#prompt-list", "#final-input", "#timeline"):
            assert app.query_one(pane).region.area > 0, pane
