"""Whole suites: what opening one costs is counted (pairs built, tree nodes made), never timed.

A suite of many datasets opens by building only the pairs on screen; its tree lists the
datasets collapsed and builds a dataset's nodes when it is opened; a key costs the same
work whatever the suite's size; datasets whose rows cannot be read are listed in the tree,
and the rest of the suite renders.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.tui.session import Inputs, load
from workbench.views.frame import build_frame
from workbench.views.options import ViewOptions
from workbench.views.selection import Selection

from .conftest import make_app, pane_text, wait_for

pytestmark = pytest.mark.anyio

DATASET = '''
{name}_datasets = [dict(
    abbr='{name}', path='unused',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Q: {{question}}'), dict(role='BOT', prompt='{{answer}}')])),
        prompt_template=dict(type='PromptTemplate', ice_token='</E>', template=dict(begin='</E>', round=[
            dict(role='HUMAN', prompt='{name} asks: {{question}}'), dict(role='BOT', prompt='{{answer}}')])),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer')))]
'''
MODELS = '''
_meta = dict(round=[dict(role='HUMAN', begin='<u>', end='\\n'), dict(role='BOT', begin='<b>', end='\\n',
                                                                       generate=True)])
models = [dict(type='HuggingFaceCausalLM', abbr='lm-a', path='x/a', meta_template=_meta),
          dict(type='HuggingFaceCausalLM', abbr='lm-b', path='x/b', meta_template=_meta)]
'''


def write_suite(folder: Path, datasets: int, broken: tuple[int, ...] = (), absent: tuple[int, ...] = ()) -> Path:
    """``datasets`` dataset files read through read_base, two models, rows per dataset named in a
    workbench.toml; the rows of the datasets at ``broken`` positions cannot be read, those at
    ``absent`` positions are not there."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "datasets").mkdir(exist_ok=True)
    (folder / "rows").mkdir(exist_ok=True)
    names = [f"ds{n:03d}" for n in range(datasets)]
    table = ["[data]"]
    for n, name in enumerate(names):
        (folder / "datasets" / f"{name}.py").write_text(DATASET.format(name=name))
        rows = {"train": [{"question": f"train {i}", "answer": f"a{i}"} for i in range(3)],
                "test": [{"question": f"{name} test {i}", "answer": f"b{i}"} for i in range(4)]}
        text = json.dumps(rows) if n not in broken else '{"test": [{"question": '
        if n not in absent:
            (folder / "rows" / f"{name}.json").write_text(text)
        table.append(f'{name} = "rows/{name}.json"')
    (folder / "workbench.toml").write_text("\n".join(table) + "\n")
    (folder / "models.py").write_text(MODELS)
    imports = "".join(f"    from .datasets.{name} import {name}_datasets\n" for name in names)
    (folder / "eval_suite.py").write_text(
        f"from mmengine.config import read_base\n\nwith read_base():\n{imports}    from .models import models\n\n"
        "datasets = sum((v for k, v in locals().items() if k.endswith('_datasets')), [])\n")
    return folder / "eval_suite.py"


def built_pairs(loaded) -> int:
    lazy = loaded.catalog.lazy
    return sum(lazy.is_built(d, m) for d, m in lazy.pair_keys())


def test_opening_a_suite_builds_only_the_pairs_on_screen(tmp_path):
    config = write_suite(tmp_path / "suite", 60)
    loaded = load(Inputs(configs=(str(config),)), 1, ViewOptions())
    assert loaded.ok and len(loaded.catalog.datasets) == 60
    assert built_pairs(loaded) == 0  # the tree and the catalog need no pair
    frame = build_frame(loaded.catalog, Selection(), ViewOptions())
    assert "ds000 asks: ds000 test 0" in str(frame.final_text)
    assert built_pairs(loaded) == 2  # the first dataset through each model


def test_a_key_builds_the_same_pairs_whatever_the_suite_size(tmp_path):
    """Stepping to the next dataset builds one pair (that dataset through the model on screen),
    in a suite of 5 or of 60."""
    built = []
    for size in (5, 60):
        loaded = load(Inputs(configs=(str(write_suite(tmp_path / f"s{size}", size)),)), 1, ViewOptions())
        catalog = loaded.catalog
        selection = catalog.normalize(Selection())
        before = built_pairs(loaded)
        build_frame(catalog, catalog.step_dataset(selection, 1), ViewOptions())
        built.append((before, built_pairs(loaded)))
    assert built == [(2, 3), (2, 3)]


def test_the_ui_thread_step_never_builds_a_pair(tmp_path):
    loaded = load(Inputs(configs=(str(write_suite(tmp_path / "suite", 10)),)), 1, ViewOptions())
    catalog = loaded.catalog
    selection = catalog.normalize(Selection(sample=3))
    target = catalog.step_dataset(selection, 1, build=False)
    assert (target.dataset, target.sample) == ("ds001", 3)  # the sample is kept until a worker knows
    assert built_pairs(loaded) == 2
    assert catalog.normalize(target) == Selection("ds001", "lm-a", 3, 0)


def test_the_tree_lists_a_suite_collapsed_and_grows_a_dataset_when_opened(tmp_path):
    loaded = load(Inputs(configs=(str(write_suite(tmp_path / "suite", 60)),)), 1, ViewOptions())
    datasets = [n for n in loaded.tree if n.key[0] == "dataset"]
    assert len(datasets) == 60
    assert all(not n.expanded and not n.children and n.grow is not None for n in datasets)
    grown = datasets[7].kids()
    assert [c.key[-1] for c in grown][:3] == ["reader_cfg", "ice_template", "prompt_template"]
    assert datasets[7].kids() is grown  # built once


async def test_the_app_tree_shows_one_line_per_dataset_and_builds_nodes_on_open(tmp_path):
    app = make_app(write_suite(tmp_path / "suite", 40))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.good is not None and app.is_settled, timeout=30)
        tree = app.query_one("#tree")
        # one line per dataset (collapsed), then the models node and its two models
        assert tree.last_line + 1 == 40 + 1 + 2
        node = tree.root.children[3]
        assert not node.children
        node.expand()
        await pilot.pause()
        assert [str(c.label).split()[0] for c in node.children][:2] == ["reader_cfg", "ice_template"]
        assert "ds000 asks: ds000 test 0" in pane_text(app, "final-input")


async def test_datasets_whose_rows_cannot_be_read_are_listed_and_the_rest_renders(tmp_path):
    app = make_app(write_suite(tmp_path / "suite", 12, broken=(0, 5)))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.good is not None and app.is_settled, timeout=30)
        assert app.good.ok  # the suite opened: its other datasets render
        tree = app.query_one("#tree")
        labels = [str(n.label) for n in tree.root.children]
        assert [i for i, label in enumerate(labels) if "✖ not loaded" in label] == [0, 5]
        assert labels[0].startswith("ds000") and labels[5].startswith("ds005")
        # the first dataset cannot render: its error is in the panes, where its prompt would be
        assert "invalid JSON" in pane_text(app, "prompt-list")
        await pilot.press("d")
        await wait_for(pilot, lambda: app.is_settled)
        assert "ds001 asks: ds001 test 0" in pane_text(app, "final-input")
        assert app.pair_check is not None and app.pair_check.failed_pairs == 0  # "not loaded" says it


async def test_datasets_whose_rows_files_are_absent_are_listed_and_render_when_the_file_comes(tmp_path):
    config = write_suite(tmp_path / "suite", 6, absent=(0, 3))
    app = make_app(config, watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.good is not None and app.is_settled, timeout=30)
        assert app.good.ok and app.good.catalog.datasets == [f"ds{n:03d}" for n in range(6)]
        labels = [str(n.label) for n in app.query_one("#tree").root.children]
        assert [i for i, label in enumerate(labels) if "✖ not loaded" in label] == [0, 3]
        assert "which does not exist" in pane_text(app, "prompt-list")
        rows = {"train": [{"question": "t", "answer": "a"}] * 2, "test": [{"question": "it came", "answer": "b"}]}
        (config.parent / "rows" / "ds000.json").write_text(json.dumps(rows))  # the watcher sees it
        await wait_for(pilot, lambda: "ds000 asks: it came" in pane_text(app, "final-input"), timeout=30)
        labels = [str(n.label) for n in app.query_one("#tree").root.children]
        assert [i for i, label in enumerate(labels) if "✖ not loaded" in label] == [3]


async def test_the_palette_lists_every_dataset_of_a_suite(tmp_path):
    from workbench.tui.jump_commands import jump_targets

    app = make_app(write_suite(tmp_path / "suite", 40))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.good is not None and app.is_settled, timeout=30)
        shown = [text for text, _, _ in jump_targets(app)]
        assert [t for t in shown if t.startswith("dataset ")] == [f"dataset ds{n:03d}" for n in range(40)]
        assert [t for t in shown if t.startswith("model ")] == ["model lm-a", "model lm-b"]
        assert [t for t in shown if t.startswith("sample ")] == [f"sample {i} · ds000" for i in range(4)]
        app.jump_to(dataset="ds031")
        await wait_for(pilot, lambda: app.is_settled)
        assert "ds031 asks: ds031 test 0" in pane_text(app, "final-input")


MMLU_LIKE = '''\
from opencompass.datasets import MMLUDataset
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(abbr=name, type=MMLUDataset, path='./data/mmlu', name=name,
                 reader_cfg=dict(input_columns=['input', 'A', 'B', 'C', 'D'], output_column='target',
                                 train_split='dev'),
                 infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {input}'),
                                retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))
            for name in ('anatomy', 'virology', 'sociology', 'nutrition')]
'''


def test_a_missing_data_file_of_a_dataset_not_on_screen_is_its_failure_not_a_file_gone(tmp_path):
    """A native reader's file that is not there (a user's half-copied MMLU folder) lists that
    dataset as failed and watches the file; only when the dataset is on screen does it hold the
    load back, as a file gone mid-save would."""
    (tmp_path / "suite.py").write_text(MMLU_LIKE, encoding="utf-8")
    for split in ("dev", "test"):
        (tmp_path / "data" / "mmlu" / split).mkdir(parents=True)
        (tmp_path / "data" / "mmlu" / split / f"anatomy_{split}.csv").write_text("What is a cell?,a,b,c,d,A\n")
    (tmp_path / "data" / "mmlu" / "test" / "virology_test.csv").write_text("What is a virus?,a,b,c,d,B\n")
    inputs = Inputs(configs=(str(tmp_path / "suite.py"),))
    first = load(inputs, 1, ViewOptions(root=tmp_path))
    assert first.ok and [abbr for _, abbr, _ in first.failed] == ["virology", "sociology", "nutrition"]
    # one cause said once: the first dataset named in full, the others counted
    assert [(p.kind, p.scope) for p in first.problems] == [("error", "virology"), ("warning", None)]
    assert first.problems[1].message.startswith("and 2 more datasets could not load their rows")
    assert tmp_path / "data" / "mmlu" / "dev" / "virology_dev.csv" in first.files + first.absent  # watched
    assert not [p for p in first.problems if p.kind == "missing"]
    again = load(inputs, 2, ViewOptions(root=tmp_path), known=first.files)
    assert again.ok
    shown = load(inputs, 3, ViewOptions(root=tmp_path), known=first.files, shown=["virology"])
    assert not shown.ok


async def test_the_first_sample_shown_is_the_frame_the_load_built(tmp_path, monkeypatch):
    # the load builds the first frame for the panes' widths: asked before the panes are laid
    # out, it was built for a guess, thrown away and built again by a frame worker
    from workbench.tui.app import WorkbenchApp

    before_first: list[bool] = []  # a frame build asked for before any frame was shown
    original = WorkbenchApp._build_frame
    monkeypatch.setattr(WorkbenchApp, "_build_frame",
                        lambda self, *args: (before_first.append(self.frame is None), original(self, *args))[1])
    app = make_app(write_suite(tmp_path / "suite", 3))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: app.frame is not None, timeout=30)
        assert "ds000 asks: ds000 test 0" in pane_text(app, "final-input")
        assert not any(before_first)
