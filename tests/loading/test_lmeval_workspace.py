"""An lm-eval task YAML opened as a Workspace (what the app and the other commands load): one
dataset whose rows are the task's docs, each rendered to a request per Instance with exactly
lm-eval's context, continuation, choice index and until."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.loading.lmeval_settings import TaskSettings
from workbench.loading.workspace import load_workspace

LMEVAL = Path(__file__).resolve().parent.parent / "parity" / "lmeval"
TASKS = LMEVAL / "tasks"
ARC = [f"test={TASKS / 'arc_test.jsonl'}", f"train={TASKS / 'arc_train.jsonl'}"]
SYSTEM = "You are a careful assistant."  # (cases.py's)


def made(dataset, key: str) -> list:
    """One field of every request the rows hold, in lm-eval's order."""
    return [r[key] for row in dataset.rows["test"] for r in row["requests"]]


def test_a_task_is_a_dataset_whose_model_inputs_are_lm_evals_contexts():
    ws = load_workspace([str(TASKS / "mc.yaml")], data=ARC)
    assert ws.errors == [] and ws.warnings == []
    [dataset] = ws.datasets
    assert dataset.abbr == "arcish"
    assert {str(TASKS / name) for name in ("mc.yaml", "base.yaml")} <= {str(f) for f in ws.files}
    golden = json.loads((LMEVAL / "goldens" / "mc-0shot.json").read_text())["requests"]
    result = render_workspace(ws.datasets, ws.models, config="mc.yaml")
    [pair] = result.pairs
    samples = list(pair.samples())
    # a sample per doc, a request per Instance, labelled with its choice index
    assert [s.index for s in samples] == sorted({g["doc_id"] for g in golden})
    assert [(s.index, r.label) for s in samples for r in s.requests] == [(g["doc_id"], g["idx"]) for g in golden]
    inputs = [r.model_input for s in samples for r in s.requests]
    assert inputs == [g["arguments"][0] for g in golden]
    assert made(dataset, "continuation") == [g["arguments"][1] for g in golden]
    scored = [dict(r.extra)["continuation"] for s in samples for r in s.requests]
    assert scored == [g["arguments"][1] for g in golden]
    assert pair.inferencer == "multiple_choice"  # the render JSON's name for it


def test_a_failing_task_is_a_located_error_beside_the_others(tmp_path: Path):
    (tmp_path / "bad.yaml").write_text("task: bad\ntest_split: test\ndoc_to_text: '{{nope}}'\n"
                                       "doc_to_target: answerKey\n")
    ws = load_workspace([str(tmp_path / "bad.yaml"), str(TASKS / "mc.yaml")], data=ARC)
    assert [d.abbr for d in ws.datasets] == ["arcish"]
    [error] = ws.errors
    assert (Path(error.file).name, error.line) == ("bad.yaml", 3)
    assert ws.failed_dataset_of(error) == "bad"


@pytest.mark.parametrize(("settings", "golden"), [
    (TaskSettings(apply_chat_template=True), "mc-0shot-chat-mt"),
    (TaskSettings(num_fewshot=2, apply_chat_template=True), "mc-2shot-chat-default"),
    (TaskSettings(num_fewshot=2, apply_chat_template=True, fewshot_as_multiturn=False), "mc-2shot-chat-st"),
    (TaskSettings(num_fewshot=1, apply_chat_template=True, system_instruction=SYSTEM), "mc-system"),
    (TaskSettings(num_fewshot=1, system_instruction=SYSTEM), "mc-system-plain"),
])
def test_the_lm_eval_options_render_a_task_as_lm_eval_renders_it(settings, golden):
    chat = str(LMEVAL / "chat" / "chatml") if settings.apply_chat_template else None
    ws = load_workspace([str(TASKS / "mc.yaml")], data=ARC, chat_template=chat, lmeval=settings)
    assert ws.errors == [] and ws.warnings == []
    expected = json.loads((LMEVAL / "goldens" / f"{golden}.json").read_text())["requests"]
    [dataset] = ws.datasets
    assert made(dataset, "context") == [g["arguments"][0] for g in expected]
    assert made(dataset, "continuation") == [g["arguments"][1] for g in expected]


def test_a_chat_template_is_applied_to_a_task_only_with_apply_chat_template():
    ws = load_workspace([str(TASKS / "mc.yaml")], data=ARC, chat_template=str(LMEVAL / "chat" / "chatml"))
    expected = json.loads((LMEVAL / "goldens" / "mc-0shot.json").read_text())["requests"]
    assert made(ws.datasets[0], "context") == [g["arguments"][0] for g in expected]
    [warning] = ws.warnings
    assert "not applied to lm-eval tasks without --apply-chat-template" in warning and "arcish" in warning


def test_the_template_tree_shows_the_yaml_fields_where_they_were_written():
    from workbench.views.options import ViewOptions
    from workbench.views.template_tree import template_tree

    ws = load_workspace([str(TASKS / "mc.yaml")], data=ARC)
    nodes = {n.key: n for root in template_tree(ws.datasets, ws.models, ViewOptions()) for n in root.walk()}
    choice = nodes[("dataset", "arcish", "lm_eval", "doc_to_choice")]
    assert (Path(choice.location.file).name, choice.location.line) == ("base.yaml", 7)
    name = nodes[("dataset", "arcish", "lm_eval", "task")]
    assert (Path(name.location.file).name, name.location.line) == ("mc.yaml", 2)


def test_a_task_that_fails_on_a_later_doc_keeps_the_docs_before_and_owns_its_error(tmp_path: Path):
    (tmp_path / "test.jsonl").write_text('{"q": "a", "meta": {"name": "n"}}\n{"q": "b", "meta": {}}\n')
    (tmp_path / "t.yaml").write_text('task: t\ntest_split: test\ndoc_to_text: "{{q}} {{meta.name}}"\n'
                                     "doc_to_target: q\n")
    ws = load_workspace([str(tmp_path / "t.yaml"), str(TASKS / "mc.yaml")],
                        data=[f"t:test={tmp_path / 'test.jsonl'}", *(f"arcish:{d}" for d in ARC)])
    assert [d.abbr for d in ws.datasets] == ["t", "arcish"]
    assert made(ws.datasets[0], "context") == ["a n"]
    [error] = ws.errors
    assert ws.task_errors == [("t", error)] and ws.failed_datasets == []
    assert ws.failed_dataset_of(error) == "t" and error.line == 3


def test_the_tasks_of_a_workspace_share_one_runs_random_state():
    """Tasks whose process_docs shuffle, opened together (the app's load): each draws from the
    global state the one before it left, as in one lm-eval run (cases.py: shuffle-two-tasks)."""
    golden = json.loads((LMEVAL / "goldens" / "shuffle-two-tasks.json").read_text())
    paths = [str(LMEVAL / p) for p in (golden["case"]["task"], *golden["case"]["also"])]
    data = [f"test={TASKS / 'shuffle_test.jsonl'}", f"train={TASKS / 'shuffle_train.jsonl'}"]
    ws = load_workspace(paths, data=data, lmeval=TaskSettings(num_fewshot=2))
    assert ws.errors == []
    assert [d.abbr for d in ws.datasets] == ["shuffled", "sampled", "permuted"]
    got = [[r["context"], r["continuation"]] for d in ws.datasets for row in d.rows["test"]
           for r in row["requests"]]
    assert got == [g["arguments"] for g in golden["requests"]]
