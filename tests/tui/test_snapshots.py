"""Looks: every pane and mode at 80×24 and 160×48 (pytest-textual-snapshot).

Deterministic by construction: the watcher is off, the cursor does not blink, nothing
animates, and each shot is taken only after the load and view workers have finished.
Update with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

import json
import shutil
from importlib.metadata import version
from pathlib import Path

import pytest

from workbench.tui.app import create_app
from workbench.tui.session import Inputs

from .conftest import FIXTURE, make_app, settle

# The SVGs are Textual's own drawing; another Textual draws them differently. Re-record
# (and bump this) when upgrading Textual, after looking at the new images.
RECORDED_WITH = "8.2.8"
pytestmark = pytest.mark.skipif(version("textual") != RECORDED_WITH,
                                reason=f"snapshots were recorded with Textual {RECORDED_WITH}")

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


def keys(*presses: str):
    async def run_before(pilot) -> None:
        await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await settle(pilot)

    return run_before


# name -> (keys pressed after the first load, app settings)
SCENES = {
    "default": ((), {}),
    "whitespace": (("w",), {}),
    "no_provenance": (("o",), {}),
    "side_by_side": (("s",), {}),
    "next_sample": (("n", "n"), {}),
    "ppl_label": (("d", "l"), {}),
    "pair_refused": (("d", "m"), {}),
    "multiturn_stand_ins": (("d", "d", "l", "l"), {}),
    "api_model": (("m",), {}),
    "tree_cursor": (("1", "down", "down", "down"), {}),
    "zoom_final_input": (("3", "z"), {}),
    "zoom_timeline": (("d", "d", "4", "z"), {}),
    "help": (("question_mark",), {}),
    "jump_prompt": (("g", "3"), {}),
    "light_theme": ((), {"theme": "workbench-light"}),
    "high_contrast_theme": ((), {"theme": "workbench-high-contrast"}),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene", SCENES)
def test_scene(snap_compare, scene, size):
    presses, settings = SCENES[scene]
    assert snap_compare(make_app(**settings), terminal_size=SIZES[size], run_before=keys(*presses))


ANSWERS_RUN = Path(__file__).parent / "fixtures" / "answers_run"
# The answers view over a run: sample 1's "Answer: Let's think…" read as 'L', the span the
# pattern read highlighted in the raw output; then the pane maximised. (V's toast would time out
# on its own clock: its keys are held by tests/tui/test_answers.py.)
ANSWER_SCENES = {"answers": ("v", "n"), "answers_zoomed": ("v", "n", "3", "z")}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene", ANSWER_SCENES)
def test_answers_scene(snap_compare, scene, size, tmp_path, monkeypatch):
    shutil.copytree(ANSWERS_RUN, tmp_path / "answers")
    monkeypatch.chdir(tmp_path / "answers")
    app = create_app(Inputs(configs=("run/configs/20261127_120000_4242.py",), run="run"), watch=False,
                     deterministic=True)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys(*ANSWER_SCENES[scene]))


@pytest.fixture
def snapshot_workspace(tmp_path_factory) -> Path:
    """A copy of the fixture under a fixed-depth temp folder (paths show relative to it)."""
    target = tmp_path_factory.mktemp("snap") / "workspace"
    shutil.copytree(FIXTURE, target)
    return target


@pytest.mark.parametrize("size", SIZES)
def test_broken_save_stale_render(snap_compare, snapshot_workspace, size):
    """A syntax error after a good load: the error over the last good render, dimmed."""
    app = make_app(snapshot_workspace / "eval_fixture.py")
    target = snapshot_workspace / "datasets" / "qa_gen.py"

    async def run_before(pilot) -> None:
        await settle(pilot)
        target.write_text(target.read_text() + "\nbroken = dict(\n")
        pilot.app.request_load()
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_first_load_error(snap_compare, snapshot_workspace, size):
    target = snapshot_workspace / "datasets" / "qa_gen.py"
    target.write_text(target.read_text() + "\nbroken = dict(\n")
    assert snap_compare(make_app(snapshot_workspace / "eval_fixture.py"), terminal_size=SIZES[size],
                        run_before=keys())


@pytest.mark.parametrize("size", SIZES)
def test_hostile_row_is_inert(snap_compare, snapshot_workspace, size):
    """Escape sequences, OSC 52, C1, bidi and zero-width characters show as visible stand-ins."""
    rows = snapshot_workspace / "data" / "qa.jsonl"
    hostile = {"question": "Hi\x1b[31mRED\x1b]52;c;cHduZWQ=\x07\x9b2J\u202eevil\u200b\r!",
               "answer": "ok\x1b]0;title\x07"}
    rows.write_text(json.dumps(hostile) + "\n" + rows.read_text())
    assert snap_compare(make_app(snapshot_workspace / "eval_fixture.py"), terminal_size=SIZES[size],
                        run_before=keys("w"))


LMEVAL = Path(__file__).resolve().parent.parent / "parity" / "lmeval"


@pytest.mark.parametrize("size", SIZES)
def test_lmeval_task(snap_compare, size):
    """An lm-eval task with two shots under a chat template: the tree shows its include chain,
    its fields where the chain set them and what the command line decided; the final input is
    lm-eval's context, the continuation after its seam."""
    from workbench.loading.lmeval_settings import TaskSettings

    tasks = LMEVAL / "tasks"
    app = make_app(tasks / "firstn.yaml", data=(f"test={tasks / 'arc_test.jsonl'}", f"train={tasks / 'arc_train.jsonl'}"),
                   chat_template=str(LMEVAL / "chat" / "chatml"),
                   lmeval=TaskSettings(num_fewshot=2, apply_chat_template=True))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys())


@pytest.mark.parametrize("size", SIZES)
def test_lmeval_generate_until_folded_shots(snap_compare, size):
    """A generate_until task under a chat template with its shots folded into one user message
    (--fewshot-as-multiturn false) and a system instruction: the PromptList pane shows the messages
    handed to the chat template, the final input ends with the stop sequences (until) after a seam."""
    from workbench.loading.lmeval_settings import TaskSettings

    tasks = Path(__file__).resolve().parent / "fixtures" / "lmeval_gen"
    app = make_app(tasks / "gsm_chat.yaml", data=(f"test={tasks / 'gsm_test.jsonl'}",
                                                  f"train={tasks / 'gsm_train.jsonl'}"),
                   chat_template=str(LMEVAL / "chat" / "chatml"),
                   lmeval=TaskSettings(num_fewshot=1, apply_chat_template=True, fewshot_as_multiturn=False,
                                       system_instruction="Be brief."))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys())


@pytest.mark.parametrize("size", SIZES)
def test_lint_marks(snap_compare, size, monkeypatch):
    """The tree's lint marks once every pair is checked: `mcq` ⚑1 (PW213: its exemplar 'The answer
    is (B)' is misread), `runaway` ⚑? (its pattern's self-test was cut: not checked), `fine` none."""
    from workbench.tui import pair_check

    monkeypatch.setattr(pair_check, "CHECK_TIMEOUT", 1.0)
    config = Path(__file__).resolve().parent / "fixtures" / "answer_format" / "eval.py"
    assert snap_compare(make_app(config), terminal_size=SIZES[size], run_before=keys())
