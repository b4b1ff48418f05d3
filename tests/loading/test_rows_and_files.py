"""Where sample rows come from (first found wins), and every file a Workspace was built from."""

from __future__ import annotations

import json

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.loading.rows.sample_rows import PLACEHOLDER_ORIGIN

from .conftest import write

CONFIG = """\
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

demo_datasets = [
    dict(
        abbr='demo',
        path={path!r},
        reader_cfg=dict(input_columns=['question'], output_column='answer'{reader_extra}),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='Q: {{question}}'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
"""


def _rows(name: str, n: int = 2) -> str:
    return "".join(json.dumps({"question": f"{name} {i}", "answer": str(i)}) + "\n" for i in range(n))


def _first_question(workspace) -> str:
    result = render_workspace(workspace.datasets, workspace.models)
    assert not result.errors, result.errors
    return result.pairs[0].sample(0).requests[0].model_input


@pytest.fixture
def project(tmp_path):
    write(tmp_path / "data" / "by_path.jsonl", _rows("path"))
    write(tmp_path / "data" / "by_toml.jsonl", _rows("toml"))
    write(tmp_path / "by_arg.jsonl", _rows("arg"))
    write(tmp_path / "by_abbr.jsonl", _rows("abbr"))
    return tmp_path


def test_rows_first_found_wins(project, loader, chdir):
    config = write(project / "configs" / "c.py", CONFIG.format(path="../data/by_path.jsonl", reader_extra=""))
    # the dataset's path, relative to the file that defines it
    workspace = loader.load([config])
    assert _first_question(workspace) == "Q: path 0"
    assert (project / "data" / "by_path.jsonl").resolve() in workspace.files
    assert (project / "configs" / "workbench.toml").resolve() in workspace.absent_files
    # a workbench.toml beside the config beats the dataset's path
    settings = write(project / "configs" / "workbench.toml", '[data]\ndemo = "../data/by_toml.jsonl"\n')
    workspace = loader.load([config])
    assert _first_question(workspace) == "Q: toml 0"
    assert {settings.resolve(), (project / "data" / "by_toml.jsonl").resolve()} <= set(workspace.files)
    # --data FILE beats both; --data ABBR=FILE beats --data FILE, whatever the order
    workspace = loader.load([config], data=[str(project / "by_arg.jsonl")])
    assert _first_question(workspace) == "Q: arg 0"
    workspace = loader.load([config], data=[str(project / "by_arg.jsonl"), f"demo={project / 'by_abbr.jsonl'}"])
    assert _first_question(workspace) == "Q: abbr 0"
    assert (project / "by_abbr.jsonl").resolve() in workspace.files
    # other datasets' --data ABBR=FILE does not apply
    workspace = loader.load([config], data=[f"other={project / 'by_abbr.jsonl'}"])
    assert _first_question(workspace) == "Q: toml 0"


def test_placeholders_when_nothing_names_rows(tmp_path, loader):
    config = write(tmp_path / "c.py", CONFIG.format(path="opencompass/demo", reader_extra=""))
    workspace = loader.load([config])
    assert workspace.datasets[0].rows_origin == PLACEHOLDER_ORIGIN
    assert _first_question(workspace) == "Q: ‹question›"


def test_a_folder_of_split_files(tmp_path, loader, chdir):
    folder = tmp_path / "data" / "demo"
    write(folder / "train.jsonl", _rows("train"))
    write(folder / "test.jsonl", _rows("test"))
    write(folder / "dev.csv", "question,answer\ndev 0,0\ndev 1,1\n")
    config = write(tmp_path / "c.py", CONFIG.format(path="data/demo", reader_extra=""))
    workspace = loader.load([config])
    assert _first_question(workspace) == "Q: test 0"
    assert {(folder / n).resolve() for n in ("train.jsonl", "test.jsonl", "dev.csv")} <= set(workspace.files)
    config.write_text(CONFIG.format(path="data/demo", reader_extra=", test_split='dev'"))
    assert _first_question(loader.load([config])) == "Q: dev 0"


def test_compass_data_cache_is_searched(tmp_path, loader, monkeypatch):
    write(tmp_path / "cache" / "data" / "demo.jsonl", _rows("cache"))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    config = write(tmp_path / "configs" / "c.py", CONFIG.format(path="data/demo.jsonl", reader_extra=""))
    assert _first_question(loader.load([config])) == "Q: cache 0"


def test_settings_naming_a_missing_file_points_at_the_setting(tmp_path, loader):
    config = write(tmp_path / "c.py", CONFIG.format(path="x", reader_extra=""))
    write(tmp_path / "workbench.toml", '# rows\n[data]\ndemo = "nope.jsonl"\n')
    (error,) = loader.load([config]).errors
    assert (error.file, error.line) == (str(tmp_path / "workbench.toml"), 3)
    assert error.message == f"workbench.toml names {tmp_path / 'nope.jsonl'}, which does not exist"


def test_model_folders_contribute_their_chat_template_files(tmp_path, loader, chdir):
    folder = tmp_path / "models" / "tiny-chat"
    write(folder / "tokenizer_config.json", json.dumps({"chat_template": "{{ messages }}"}))
    write(folder / "chat_template.jinja", "{{ messages }}")
    config = write(tmp_path / "c.py", CONFIG.format(path="x", reader_extra="") + (
        "from opencompass.models import HuggingFacewithChatTemplate\n"
        "models = [dict(type=HuggingFacewithChatTemplate, abbr='tiny', path='models/tiny-chat')]\n"
    ))
    workspace = loader.load([config])
    assert {(folder / "tokenizer_config.json").resolve(), (folder / "chat_template.jinja").resolve()} \
        <= set(workspace.files)
    assert (folder / "chat_template.json").resolve() in workspace.absent_files


def test_workspace_files_cover_every_input(tmp_path, loader, chdir):
    write(tmp_path / "datasets" / "base.py", CONFIG.format(path="x", reader_extra=""))
    models = write(tmp_path / "models.json", json.dumps({"models": [{"type": "OpenAI", "abbr": "gpt"}]}))
    data = write(tmp_path / "rows.jsonl", _rows("r"))
    top = write(tmp_path / "eval.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .datasets.base import demo_datasets  # noqa: F401\n"
    ))
    workspace = loader.load([top], data=[str(data)], model_files=[str(models)])
    assert not workspace.errors
    expected = {top, tmp_path / "datasets" / "base.py", models, data}
    assert {p.resolve() for p in expected} <= set(workspace.files)
    assert [m.abbr for m in workspace.models] == ["gpt"]


def test_files_are_recorded_even_when_loading_fails(tmp_path, loader):
    base = write(tmp_path / "base.py", "x = (\n")
    top = write(tmp_path / "top.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .base import x  # noqa: F401\n"
    ))
    workspace = loader.load([top])
    assert workspace.errors[0].file == str(base)
    assert {top.resolve(), base.resolve()} <= set(workspace.files)
