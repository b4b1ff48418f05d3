"""The app opens an lm-eval task: the four panes show its requests (the context as lm-eval
passes it), and a task that fails is listed with its located error."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import make_app, pane_text, plain, settle, wait_for

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


@pytest.mark.parametrize(("multiturn", "assistants"), [((), 3), (("--fewshot-as-multiturn", "false"), 1)])
async def test_the_app_renders_a_task_with_the_lm_eval_options(multiturn, assistants):
    from workbench.commands import open as open_command
    from workbench.tui.app import create_app

    chat = TASKS.parent / "chat" / "chatml"
    args = open_command.build_parser().parse_args([
        str(TASKS / "mc.yaml"), "--data", f"test={TASKS / 'arc_test.jsonl'}",
        "--data", f"train={TASKS / 'arc_train.jsonl'}", "--num-fewshot", "2", "--apply-chat-template",
        "--chat-template", str(chat), "--system-instruction", "Be brief.", *multiturn])
    app = create_app(open_command.inputs_of(args), watch=False, deterministic=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        final = pane_text(app, "final-input")
        # shots as turns (lm-eval's default with a chat template) or folded into the user's
        # message (--fewshot-as-multiturn false); the instruction first
        assert "<|im_start|>system" in final and "Be brief." in final
        assert final.count("<|im_start|>assistant") == assistants
        tree = pane_text(app, "tree")
        assert "shots  2  --num-fewshot" in tree and "system instruction" in tree
        assert f"fewshot_as_multiturn  {'false' if multiturn else 'true'}" in tree


async def test_a_task_folder_reloads_when_its_utility_is_saved(tmp_path: Path):
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


async def test_a_task_folder_reloads_on_edits_to_its_yaml_and_its_include_chain(tmp_path: Path):
    import shutil

    for name in ("mc.yaml", "base.yaml", "arc_test.jsonl", "arc_train.jsonl"):
        shutil.copy(TASKS / name, tmp_path)
    task, base = tmp_path / "mc.yaml", tmp_path / "base.yaml"
    app = make_app(task, watch=True, data=(f"test={tmp_path / 'arc_test.jsonl'}",
                                           f"train={tmp_path / 'arc_train.jsonl'}"))

    def final() -> str:
        return pane_text(app, "final-input")

    def banner(app) -> str:
        widget = app.query_one("#banner")
        return plain(widget.content) if widget.has_class("-shown") else ""

    def stale() -> bool:
        return app.query_one("#final-input").has_class("-stale")

    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "Question: What is 0+0?" in final(), 20)
        # the task's own YAML: a key of its own wins over the base's
        task.write_text(task.read_text() + 'description: "Mine.\\n"\n')
        await wait_for(pilot, lambda: "Mine.\nQuestion: What is 0+0?" in final(), 20)
        # a file the task includes
        base.write_text(base.read_text().replace('"Question: {{question}}', '"Q: {{question}}'))
        await wait_for(pilot, lambda: "Q: What is 0+0?" in final(), 20)
        # the chain itself grows: the new file is read, and watched from then on
        (tmp_path / "extra.yaml").write_text('target_delimiter: " => "\n')
        task.write_text(task.read_text().replace("include: base.yaml", "include: [base.yaml, extra.yaml]"))
        await wait_for(pilot, lambda: "=> 0" in final() and "extra.yaml" in pane_text(app, "tree"), 20)
        (tmp_path / "extra.yaml").write_text('target_delimiter: " -> "\n')
        await wait_for(pilot, lambda: "-> 0" in final(), 20)
        # a cycle in the task on screen: its last good render stays under the located error
        (tmp_path / "extra.yaml").write_text('include: mc.yaml\ntarget_delimiter: " -> "\n')
        await wait_for(pilot, lambda: "include cycle" in banner(app), 20)
        assert "-> 0" in final() and stale()
        (tmp_path / "extra.yaml").write_text('target_delimiter: " ~ "\n')
        await wait_for(pilot, lambda: "~ 0" in final() and "include cycle" not in banner(app), 20)
        assert not stale()


def _bad_tasks(folder: Path) -> list[str]:
    """One task per way lm-eval fails, beside a good one (mc.yaml): the names to open."""
    import shutil

    for name in ("mc.yaml", "base.yaml", "arc_test.jsonl", "arc_train.jsonl"):
        shutil.copy(TASKS / name, folder)
    head = "output_type: generate_until\ntest_split: test\ndoc_to_target: answerKey\n"
    fields = {"loops": "doc_to_text: !function bad_utils.loops\n",
              "missing": "doc_to_text: !function missing_utils.f\n",
              "raises": "doc_to_text: !function bad_utils.raises\n",
              "jinja": 'doc_to_text: "{{question}} {{no_such_column}}"\n',
              # fails on its third doc only: the two before it render
              "later": 'doc_to_text: "{{question}} {{[\'x\', \'y\'][loop_index]}}"\n'}
    for name, field in fields.items():
        (folder / f"{name}.yaml").write_text(f"task: {name}\n{head}{field}")
    (folder / "bad_utils.py").write_text("def loops(doc):\n    while True:\n        pass\n\n\n"
                                         "def raises(doc):\n    raise ValueError('no ' + doc['question'])\n")
    (folder / "missing_utils.py").write_text("import no_such_package_here\n")
    (folder / "cycle_a.yaml").write_text("include: cycle_b.yaml\ntask: cycle\n")
    (folder / "cycle_b.yaml").write_text("include: cycle_a.yaml\noutput_type: generate_until\n")
    rows = [line for line in (folder / "arc_test.jsonl").read_text().splitlines() if line]
    import json

    docs = [{**json.loads(line), "loop_index": min(i, 2)} for i, line in enumerate(rows)]
    (folder / "arc_test.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    return ["loops.yaml", "mc.yaml", "missing.yaml", "raises.yaml", "jinja.yaml", "cycle_a.yaml", "later.yaml"]


async def test_bad_tasks_are_one_located_error_each_and_the_others_render_in_the_app(tmp_path: Path):
    names = _bad_tasks(tmp_path)
    data = (f"test={tmp_path / 'arc_test.jsonl'}", f"train={tmp_path / 'arc_train.jsonl'}")
    from workbench.tui.app import create_app
    from workbench.tui.session import Inputs

    app = create_app(Inputs(configs=tuple(str(tmp_path / n) for n in names), data=data, timeout=2.0),
                     watch=False, deterministic=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, 30)
        problems = {p.scope: p for p in app.latest.problems if p.kind == "error"}
        assert set(problems) == {"loops", "missing", "raises", "jinja", "cycle_a", "later"}
        where = {scope: (Path(p.file).name, p.line) for scope, p in problems.items()}
        assert where == {"loops": ("bad_utils.py", 2), "missing": ("missing_utils.py", 1),
                         "raises": ("bad_utils.py", 7), "jinja": ("jinja.yaml", 5),
                         "cycle_a": ("cycle_b.yaml", 1), "later": ("later.yaml", 5)}
        assert "doc 2:" in problems["later"].message
        tree = pane_text(app, "tree")
        for failed in ("loops", "missing", "raises", "jinja", "cycle_a"):
            assert f"{failed}  ✖ not loaded" in tree
        # the good task renders, and so do the docs before the one that fails
        assert app.latest.ok
        assert [d.abbr for d in app.latest.datasets] == ["arcish", "later"]
        assert [row["doc_id"] for row in app.latest.datasets[1].rows["test"]] == [0, 1]
        await pilot.press("d")
        await settle(pilot)
        assert app.selection.dataset == "arcish"
        assert "Question: What is 0+0?" in pane_text(app, "final-input")
