"""Behaviour with App.run_test() + Pilot: moving around, toggles, actions."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList

from .conftest import make_app, pane_text, plain, press, settle, wait_for

pytestmark = pytest.mark.anyio


async def test_opens_on_the_first_pair_with_all_four_panes():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        sel = app.selection
        assert (sel.dataset, sel.model, sel.sample, sel.request) == ("qa", "chatml-7b", 0, 0)
        assert "qa" in pane_text(app, "tree") and "models" in pane_text(app, "tree")
        assert "Answer briefly." in pane_text(app, "prompt-list")
        assert "<|im_start|>system" in pane_text(app, "final-input")
        assert "1 request" in str(app.query_one("#timeline").border_title)
        for pane in ("#tree", "#prompt-list", "#final-input", "#timeline"):
            assert app.query_one(pane).region.area > 0, pane


async def test_next_and_previous_sample_wrap_around():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await press(pilot, "n", "n")
        assert app.selection.sample == 2
        assert "capital of France" in pane_text(app, "final-input")
        await press(pilot, "p", "p", "p")
        assert app.selection.sample == 4  # wrapped to the last of 5


async def test_jump_to_sample_n():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await press(pilot, "g", "3", "enter")
        assert app.selection.sample == 3
        assert "spider" in pane_text(app, "final-input")


async def test_jump_rejects_out_of_range():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await press(pilot, "g", "9", "9", "enter")
        assert app.selection.sample == 0


async def test_search_finds_the_next_sample_with_the_text():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"FRANCE")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        await settle(pilot)
        assert app.selection.sample == 2


async def test_switch_dataset_model_and_label():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await press(pilot, "d")
        assert app.selection.dataset == "choice"
        assert app.frame.requests == 2
        await press(pilot, "l")
        assert app.selection.request == 1
        assert "label 'B'" in app.query_one("#prompt-list").border_title
        await press(pilot, "m")
        assert app.selection.model == "api-model"
        assert "ppl-based" in pane_text(app, "final-input")  # the pair is refused, with the reason
        await press(pilot, "M", "D")
        assert (app.selection.dataset, app.selection.model) == ("qa", "chatml-7b")


async def test_multiturn_every_shows_stand_ins_for_model_output():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await press(pilot, "d", "d", "l", "l")
        assert app.selection.dataset == "chat" and app.selection.request == 2
        timeline = pane_text(app, "timeline")
        assert "stand-in for model output" in timeline
        assert "needs the model's output of turn 0, 1" in timeline
        assert "‹prediction turn 1›" in pane_text(app, "final-input")


async def test_toggles_change_the_final_input():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        assert "↵" not in pane_text(app, "final-input")
        await press(pilot, "w")
        assert "<|im_start|>system↵" in pane_text(app, "final-input")
        await press(pilot, "o")
        assert "template" not in pane_text(app, "final-input").splitlines()[0]
        await press(pilot, "s")
        text = pane_text(app, "final-input")
        assert "chatml-7b" in text and "api-model" in text
        assert "every model" in app.query_one("#final-input").border_title


async def test_tree_selection_switches_dataset_and_shows_location():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        tree = app.query_one("#tree")
        tree.focus()
        node = next(n for n in _walk(tree.root) if n.data and n.data.selects == ("dataset", "choice"))
        tree.move_cursor(node)
        await pilot.pause()
        assert "datasets/choice_ppl.py:" in str(app.query_one("#location").content)
        await press(pilot, "enter")
        assert app.selection.dataset == "choice"
        assert "◀" in str(node.label)


async def test_copy_puts_the_exact_final_input_on_the_clipboard():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await press(pilot, "c")
        assert app.clipboard == app.frame.final_text
        assert app.clipboard.startswith("<|im_start|>system\nAnswer briefly.")


async def test_edit_opens_editor_at_the_line_then_reloads(tmp_path, monkeypatch):
    log = tmp_path / "editor.log"
    script = tmp_path / "fake-editor"
    script.write_text(f'#!/bin/sh\necho "$@" > {log}\n')
    script.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        loads = app.loads
        await press(pilot, "e")
        assert app.loads == loads + 1
        source = app.good.catalog.pair("qa", "chatml-7b").dataset.source  # the tree's cursor: dataset qa
        assert log.read_text().split() == [f"+{source.line}", source.file]
        assert source.file.endswith("datasets/qa_gen.py")


async def test_a_tree_node_shows_and_edits_its_own_line(tmp_path, monkeypatch):
    log = tmp_path / "editor.log"
    script = tmp_path / "fake-editor"
    script.write_text(f'#!/bin/sh\necho "$@" > {log}\n')
    script.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        tree = app.query_one("#tree")
        tree.focus()
        key = ("dataset", "qa", "infer_cfg", "prompt_template", "template", "round", 1)
        node = next(n for n in _walk(tree.root) if n.data and n.data.key == key)
        tree.move_cursor(node)
        await pilot.pause()
        # the BOT turn of the prompt template's round, not the dataset's dict
        assert str(app.query_one("#location").content).endswith("datasets/qa_gen.py:21")
        await press(pilot, "e")
        file = node.data.location.file
        assert file.endswith("datasets/qa_gen.py") and log.read_text().split() == ["+21", file]


async def test_zoom_help_and_palette_open_and_close():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        await press(pilot, "3", "z")
        assert app.screen.maximized is app.query_one("#final-input")
        await press(pilot, "z")
        assert app.screen.maximized is None
        await press(pilot, "question_mark")
        assert type(app.screen).__name__ == "HelpScreen"
        await press(pilot, "escape")
        await press(pilot, "ctrl+p")
        assert type(app.screen).__name__ == "CommandPalette"
        await press(pilot, "escape")


async def test_theme_switch_reaches_the_panes():
    app = make_app(theme="workbench-light")
    async with app.run_test() as pilot:
        await settle(pilot)
        assert app.theme == "workbench-light"
        assert app.options.palette.row == "#005f00"
        await press(pilot, "t")
        assert app.theme != "workbench-light"


def _walk(node):
    yield node
    for child in node.children:
        yield from _walk(child)


def test_fixture_exists():
    assert Path(__file__).with_name("fixtures").is_dir()


async def test_a_preloaded_first_load_is_used(monkeypatch):
    """The CLI starts loading before Textual is imported; the app takes that result."""
    from concurrent.futures import Future

    from workbench.tui import app as app_module
    from workbench.tui.session import Inputs, load
    from workbench.views.options import ViewOptions

    from .conftest import FIXTURE_CONFIG

    inputs = Inputs(configs=(str(FIXTURE_CONFIG),))
    future: Future = Future()
    future.set_result(load(inputs, 0, ViewOptions(root=inputs.root()), tree=False))  # as the CLI does
    calls = []
    monkeypatch.setattr(app_module, "load", lambda *a, **k: calls.append(a) or load(*a, **k))
    app = make_app(preload=future)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert app.good is not None and app.good.generation == 1
        assert "Answer briefly." in pane_text(app, "final-input")
        assert app.query_one("#tree").root.children  # the tree, built by the app in its colours
        assert calls == []
        await press(pilot, "r")
        assert len(calls) == 1


async def test_long_texts_are_cut_until_a_asks_for_all(workspace):
    import json

    rows = workspace / "data" / "qa.jsonl"
    rows.write_text(json.dumps({"question": "x" * 50_000 + "THE END", "answer": "y"}) + "\n" + rows.read_text())
    app = make_app(workspace / "eval_fixture.py")
    async with app.run_test() as pilot:
        await settle(pilot)
        assert "more characters not shown" in pane_text(app, "final-input")
        assert len(app.frame.final_text) > 50_000  # the clipboard gets everything
        await press(pilot, "a")
        assert app.options.max_chars is None
        assert "more characters not shown" not in pane_text(app, "final-input")
        assert pane_text(app, "final-input").count("THE END") == 2  # in-context example 1 and the test row


async def test_help_lists_every_key():
    from textual.widgets import Static

    from .conftest import plain

    app = make_app()
    async with app.run_test(size=(100, 60)) as pilot:
        await settle(pilot)
        await press(pilot, "question_mark")
        text = "\n".join(plain(w.content) for w in app.screen.query(Static))
        for binding in app.BINDINGS:
            if binding.description:
                assert (binding.tooltip or binding.description) in text, binding


async def test_b_shows_an_api_models_request_on_the_wire():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "m")
        assert app.selection.model == "api-model"
        assert "POST " not in pane_text(app, "final-input")
        await press(pilot, "b")
        text = pane_text(app, "final-input")
        assert "POST https://api.openai.com/v1/chat/completions" in text
        assert '"role": "user"' in text and '"temperature": 0.7' in text
        await press(pilot, "m")  # a local model has no HTTP request, and says so
        assert "no HTTP request" in pane_text(app, "final-input")
        await press(pilot, "b")
        assert "no HTTP request" not in pane_text(app, "final-input")


async def test_b_shows_each_api_class_own_request_and_why_there_is_none(workspace):
    config = workspace / "eval_wire.py"
    config.write_text(
        "from mmengine.config import read_base\n"
        "from opencompass.models import Gemini, OpenAISDKStreaming\n"
        "with read_base():\n"
        "    from .datasets.qa_gen import qa_datasets\n"
        "datasets = [*qa_datasets]\n"
        "meta = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)])\n"
        "models = [dict(type=Gemini, abbr='gemini', path='gemini-pro', key='ENV', meta_template=meta,\n"
        "               max_out_len=100),\n"
        "          dict(type=OpenAISDKStreaming, abbr='kimi', path='kimi-k2', meta_template=meta,\n"
        "               stream=False)]\n",
        encoding="utf-8")
    app = make_app(config)
    async with app.run_test(size=(120, 48)) as pilot:
        await settle(pilot)
        assert app.selection.model == "gemini"
        await press(pilot, "b")
        text = pane_text(app, "final-input")
        assert "POST https://generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent" in text
        assert "key=‹redacted›" in text and '"maxOutputTokens": 2048' in text
        assert "Gemini ignores max_out_len (100)" in text
        await press(pilot, "m")  # a config with which the class sends nothing says why
        text = pane_text(app, "final-input")
        assert "OpenAISDKStreaming with stream=False" in text and "POST " not in text


async def test_the_palette_jumps_to_a_dataset_model_or_sample_by_name():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        for typed, wanted in (("choi", ("choice", "chatml-7b", 0)), ("api", ("choice", "api-model", 0)),
                              ("dataset qa", ("qa", "api-model", 0)), ("sample 3", ("qa", "api-model", 3))):
            await press(pilot, "ctrl+p")
            await pilot.press(*typed)
            commands = app.screen.query_one(CommandList)

            def top(commands: CommandList = commands) -> str:
                return str(commands.get_option_at_index(0).prompt) if commands.option_count else ""

            # the palette searches in the background: wait for its first hit to be the jump
            await wait_for(pilot, lambda: top().startswith(("dataset ", "model ", "sample ")))
            await press(pilot, "enter")
            sel = app.selection
            assert (sel.dataset, sel.model, sel.sample) == wanted, typed


async def test_search_highlights_every_match_and_n_and_N_step_through_them():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"briefly", "enter")
        await settle(pilot)
        search = app.search
        assert search is not None and search.query == "briefly"
        panes = {m.pane for m in search.matches}
        assert panes == {"prompt-list", "final-input"} and len(search.matches) >= 2
        marked = app.query_one("#prompt-list").marks
        assert marked and any(current for spans in marked.values() for _, _, current in spans)
        assert f"match 1/{len(search.matches)}" in plain(app.query_one("#status").content)
        await press(pilot, "n")
        assert app.search.current == 1 and app.selection.sample == 0  # n steps matches, not samples
        await press(pilot, "N")
        assert app.search.current == 0
        await press(pilot, "escape")
        assert app.search is None and not app.query_one("#prompt-list").marks
        await press(pilot, "n")
        assert app.selection.sample == 1  # n is "next sample" again


async def test_search_past_the_last_match_goes_on_to_the_next_sample_that_has_it():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"spider", "enter")
        await settle(pilot)
        await pilot.pause()
        await settle(pilot)
        assert app.selection.sample == 3  # sample 0 does not hold it: the first sample that does
        matches = len(app.search.matches)
        assert matches >= 1 and all("spider" in pane_text(app, m.pane).casefold() for m in app.search.matches)
        for _ in range(matches):
            await press(pilot, "n")
        await settle(pilot)
        await pilot.pause()
        await settle(pilot)
        assert app.selection.sample == 3 and app.search.current == 0  # the only sample: round again
