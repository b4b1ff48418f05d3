"""The lengths screen (h): a histogram per model, the suite table, enter on a bar, a worker that
fills the numbers in chunk by chunk, and a pair whose every row fails to tokenize."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable

from workbench.core.lengths import by_share_truncated
from workbench.tui.lengths_jobs import CHUNK, plan_jobs, run_jobs
from workbench.tui.screens.lengths import LengthsScreen
from workbench.tui.widgets.lengths.lengths_plot import LengthsPlot

from .conftest import make_app, settle, wait_for

pytestmark = pytest.mark.anyio


async def open_lengths(pilot) -> LengthsScreen:
    await settle(pilot)
    await pilot.press("h")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LengthsScreen))
    screen = pilot.app.screen
    await wait_for(pilot, lambda: screen.is_settled)
    return screen


def first_plot(screen: LengthsScreen) -> LengthsPlot:
    return next(iter(screen.plots.values()))[0]


async def test_h_shows_a_histogram_per_model_and_the_suite_worst_first():
    app = make_app()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_lengths(pilot)
        catalog = app.good.catalog
        dataset = app.selection.dataset
        plots = [plot for plot, _ in screen.plots.values()]
        assert [p.key for p in plots] == [(dataset, m) for m in catalog.models_for(dataset)]
        for plot in plots:
            pair = catalog.pair(*plot.key)
            assert plot.summary is not None and plot.summary.done
            assert plot.summary.measured == len(pair)
            assert sum(b.count for b in plot.bins) == len(pair)
        table = screen.query_one(DataTable)
        everything = sum(len(catalog.models_for(d)) for d in catalog.datasets)  # pairs and failures
        assert table.row_count == everything == len(screen.summaries)
        keys = [str(k.value) for k in table.rows]
        expected = [f"{s.dataset}\x00{s.model or ''}" for s in by_share_truncated(screen.summaries.values())]
        assert keys == expected


async def test_enter_jumps_to_the_longest_sample_of_the_selected_bar():
    app = make_app()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_lengths(pilot)
        plot = first_plot(screen)
        assert screen.focused is plot
        bar, point = plot.chosen()
        assert bar is plot.bins[-1] or not any(b.count for b in plot.bins[plot.bins.index(bar) + 1:])
        assert point == plot.summary.stats.longest  # the last bar holds the longest sample
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, LengthsScreen))
        sel = app.selection
        assert (sel.dataset, sel.model, sel.sample, sel.request) == (*plot.key, point.index, point.request)


async def test_left_moves_to_the_previous_bar_with_samples():
    app = make_app()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_lengths(pilot)
        plot = first_plot(screen)
        filled = [i for i, b in enumerate(plot.bins) if b.count]
        assert len(filled) >= 2, "the fixture's qa prompts differ in length"
        await pilot.press("left")
        assert plot.selected == filled[-2]
        _, point = plot.chosen()
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, LengthsScreen))
        assert app.selection.sample == point.index


async def test_l_shows_each_label_of_a_ppl_dataset_on_its_own():
    app = make_app()
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        await pilot.press("d")  # choice: PPL
        await settle(pilot)
        screen = await open_lengths(pilot)
        plot = first_plot(screen)
        labels = [g for g in plot.summary.groups if g.kind == "label"]
        assert labels
        await pilot.press("l")
        assert screen.group == ("label", labels[0].key)
        assert plot.distribution == (labels[0].points, labels[0].stats)
        assert f"label {labels[0].key}" in str(screen.query_one("#lengths-head").render())


async def test_the_palette_offers_the_lengths_screen():
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert any(t.startswith("How long the prompts are") and t.endswith("[h]") for t in titles)


def test_the_worker_hands_back_partial_numbers_chunk_by_chunk(tmp_path):
    """Numbers fill in as they come: a pair of N samples yields ceil(N / CHUNK) growing summaries."""
    from workbench.core.lazy_pairs import render_workspace
    from workbench.loading.workspace import load_workspace
    from workbench.views.selection import Catalog

    rows = [{"question": f"q{i} " * (i % 7 + 1), "answer": "a"} for i in range(CHUNK * 2 + 5)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "eval.py").write_text(CONFIG)
    workspace = load_workspace([str(tmp_path / "eval.py")])
    catalog = Catalog(render_workspace(workspace.datasets, workspace.models))
    jobs = plan_jobs(catalog, workspace.datasets, workspace.models, "qa")
    handed = [summary.handled for _, summary in run_jobs(jobs, lambda: False)]
    assert handed == [CHUNK, CHUNK * 2, CHUNK * 2 + 5]


CONFIG = '''\
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr='qa', path='rows.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template='Q: {question}'),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    ),
)]
'''
BROKEN_MODEL = '''
from opencompass.models import HuggingFacewithChatTemplate
models = [dict(type=HuggingFacewithChatTemplate, abbr='m', path='models/m', max_seq_len=64)]
'''
# a tokenizer.json that loads but encodes nothing (no unknown token for words it lacks)
WORDLEVEL = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
             "pre_tokenizer": None, "post_processor": None, "decoder": None,
             "model": {"type": "WordLevel", "vocab": {}, "unk_token": "<unk>"}}


def broken_workspace(root: Path) -> Path:
    (root / "models" / "m").mkdir(parents=True)
    (root / "models" / "m" / "tokenizer.json").write_text(json.dumps(WORDLEVEL))
    (root / "models" / "m" / "tokenizer_config.json").write_text(json.dumps(
        {"chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"}))
    (root / "rows.jsonl").write_text("".join(json.dumps({"question": "word " * n, "answer": "a"}) + "\n"
                                             for n in (1, 5, 9)))
    (root / "eval.py").write_text(CONFIG + BROKEN_MODEL)
    return root / "eval.py"


async def test_rows_that_all_fail_to_tokenize_still_plot_estimates_and_list_the_failures(tmp_path):
    pytest.importorskip("tokenizers")
    app = make_app(broken_workspace(tmp_path))
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        assert app.good.catalog.error("qa", "m") is not None  # the render itself refuses this pair
        screen = await open_lengths(pilot)
        plot = first_plot(screen)
        summary = plot.summary
        assert summary.measured == 3 and summary.method == "estimate"  # plotted all the same
        assert sum(b.count for b in plot.bins) == 3
        (failure,) = summary.failures
        assert failure.indices == (0, 1, 2)
        assert "cannot encode the text" in failure.message
        shown = str(screen.plots["m"][1].render())
        assert "3 samples (0, 1, 2): not rendered: tokenizer.json (m) cannot encode the text" in shown


async def test_a_saved_config_is_measured_again_while_the_screen_is_open(tmp_path):
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps({"question": "q " * n, "answer": "a"}) + "\n"
                                                 for n in (1, 2, 3)))
    config = tmp_path / "eval.py"
    config.write_text(CONFIG)
    app = make_app(config, watch=True)
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_lengths(pilot)
        before = first_plot(screen).summary.stats.max
        config.write_text(CONFIG.replace("'Q: {question}'", "'A much longer preamble for the question: {question}'"))
        await wait_for(pilot, lambda: app.loads >= 2, timeout=30)
        await wait_for(pilot, lambda: screen.is_settled and first_plot(screen).summary is not None)
        after = first_plot(screen).summary.stats.max
        assert after > before
