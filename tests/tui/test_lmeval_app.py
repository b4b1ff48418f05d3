"""The app opens an lm-eval task: the four panes show its requests (the context as lm-eval
passes it), and a task that fails is listed with its located error."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import make_app, pane_text, settle, wait_for

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
        assert "lm-eval · multiple_choice" in tree and "doc_to_choice" in tree and "{{choices.text}}" in tree
        assert "include chain" in tree and "prompt_template" not in tree
        for pane in ("#tree", "#prompt-list", "#final-input", "#timeline"):
            assert app.query_one(pane).region.area > 0, pane


async def test_the_app_renders_a_task_with_the_lm_eval_options():
    from workbench.commands import open as open_command
    from workbench.tui.app import create_app

    chat = TASKS.parent / "chat" / "chatml"
    args = open_command.build_parser().parse_args([
        str(TASKS / "mc.yaml"), "--data", f"test={TASKS / 'arc_test.jsonl'}",
        "--data", f"train={TASKS / 'arc_train.jsonl'}", "--num-fewshot", "2", "--apply-chat-template",
        "--chat-template", str(chat), "--system-instruction", "Be brief."])
    app = create_app(open_command.inputs_of(args), watch=False, deterministic=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        final = pane_text(app, "final-input")
        # shots as turns (lm-eval's default with a chat template), the instruction first
        assert "<|im_start|>system" in final and "Be brief." in final
        assert final.count("<|im_start|>assistant") == 3
        tree = pane_text(app, "tree")
        assert "shots  2  --num-fewshot" in tree and "system instruction" in tree


async def test_a_task_folder_reloads_when_its_base_yaml_or_utility_is_saved(tmp_path: Path):
    import shutil

    for name in ("gen.yaml", "utils.py", "gsm_test.jsonl", "gsm_train.jsonl"):
        shutil.copy(TASKS / name, tmp_path)
    app = make_app(tmp_path / "gen.yaml", watch=True,
                   data=(f"test={tmp_path / 'gsm_test.jsonl'}", f"train={tmp_path / 'gsm_train.jsonl'}"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "Question: Tom has 0 apples" in pane_text(app, "final-input"), 20)
        utility = tmp_path / "utils.py"
        utility.write_text(utility.read_text().replace('"Question: "', '"Q: "'))
        await wait_for(pilot, lambda: "Q: Tom has 0 apples" in pane_text(app, "final-input"), 20)
