"""JSON, YAML and TOML configs: the structure of a Python config, type names as strings."""

from __future__ import annotations

import json
import sys

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.headless.formats.json_export import render_document
from workbench.loading.config.config_file import load_config_file

from .conftest import write

PYTHON = """\
from opencompass.models import HuggingFaceCausalLM
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

demo_datasets = [
    dict(
        abbr='demo',
        reader_cfg=dict(input_columns=['question'], output_column='label'),
        infer_cfg=dict(
            ice_template=dict(type=PromptTemplate, template={0: '{question} No', 1: '{question} Yes'}),
            prompt_template=dict(type=PromptTemplate,
                                 template={0: '</E>{question} No', 1: '</E>{question} Yes'},
                                 ice_token='</E>'),
            retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
            inferencer=dict(type=PPLInferencer),
        ),
    )
]
models = [dict(type=HuggingFaceCausalLM, abbr='base', path='org/base',
               meta_template=dict(round=[dict(role='HUMAN', begin='<u>'),
                                         dict(role='BOT', begin='<b>', generate=True)]))]
"""

YAML = """\
demo_datasets:
  - abbr: demo
    reader_cfg: {input_columns: [question], output_column: label}
    infer_cfg:
      ice_template:
        type: opencompass.openicl.icl_prompt_template.PromptTemplate
        template: {0: '{question} No', 1: '{question} Yes'}
      prompt_template:
        type: PromptTemplate
        template: {0: '</E>{question} No', 1: '</E>{question} Yes'}
        ice_token: </E>
      retriever: {type: FixKRetriever, fix_id_list: [0, 1]}
      inferencer: {type: PPLInferencer}
models:
  - type: HuggingFaceCausalLM
    abbr: base
    path: org/base
    meta_template:
      round:
        - {role: HUMAN, begin: <u>}
        - {role: BOT, begin: <b>, generate: true}
"""

TOML = """\
[[datasets]]
abbr = "demo"
reader_cfg = { input_columns = ["question"], output_column = "label" }

[datasets.infer_cfg.ice_template]
type = "PromptTemplate"
template = { "0" = "{question} No", "1" = "{question} Yes" }

[datasets.infer_cfg.prompt_template]
type = "PromptTemplate"
template = { "0" = "</E>{question} No", "1" = "</E>{question} Yes" }
ice_token = "</E>"

[datasets.infer_cfg.retriever]
type = "FixKRetriever"
fix_id_list = [0, 1]

[datasets.infer_cfg.inferencer]
type = "PPLInferencer"

[[models]]
type = "HuggingFaceCausalLM"
abbr = "base"
path = "org/base"
meta_template = { round = [{ role = "HUMAN", begin = "<u>" }, { role = "BOT", begin = "<b>", generate = true }] }
"""

ROWS = [{"question": "Is it?", "label": 1}, {"question": "Is it not?", "label": 0},
        {"question": "Really?", "label": 1}]


def _render(loader, config, rows_file):
    workspace = loader.load([config], data=[str(rows_file)])
    assert not workspace.errors, [e.located() for e in workspace.errors]
    document = render_document(render_workspace(workspace.datasets, workspace.models))
    assert not document["errors"], document["errors"]
    return [(r["dataset"], r["model"], r["samples"]) for r in document["renders"]]


def test_yaml_and_python_render_the_same(tmp_path, loader):
    pytest.importorskip("yaml")
    rows = write(tmp_path / "rows.json", json.dumps(ROWS))
    python = _render(loader, write(tmp_path / "c.py", PYTHON), rows)
    assert python and python == _render(loader, write(tmp_path / "c.yaml", YAML), rows)


def test_json_and_toml_render_with_string_labels(tmp_path, loader):
    """JSON and TOML keys are strings, so PPL labels are '0'/'1' (as mmengine would load them)."""
    rows = write(tmp_path / "rows.json", json.dumps([{**r, "label": str(r["label"])} for r in ROWS]))
    data = {"demo_datasets": [{
        "abbr": "demo",
        "reader_cfg": {"input_columns": ["question"], "output_column": "label"},
        "infer_cfg": {
            "ice_template": {"type": "PromptTemplate", "template": {"0": "{question} No", "1": "{question} Yes"}},
            "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>",
                                "template": {"0": "</E>{question} No", "1": "</E>{question} Yes"}},
            "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
            "inferencer": {"type": "PPLInferencer"},
        },
    }], "models": [{"type": "HuggingFaceCausalLM", "abbr": "base", "path": "org/base",
                    "meta_template": {"round": [{"role": "HUMAN", "begin": "<u>"},
                                                {"role": "BOT", "begin": "<b>", "generate": True}]}}]}
    from_json = _render(loader, write(tmp_path / "c.json", json.dumps(data, indent=2)), rows)
    from_toml = _render(loader, write(tmp_path / "c.toml", TOML), rows)
    assert from_json and from_json == from_toml
    labels = [r["label"] for r in from_json[0][2][0]["requests"]]
    assert labels == ["0", "1"]


def test_entries_know_their_lines(tmp_path):
    text = json.dumps({"datasets": [{"abbr": "a"}, {"abbr": "b"}]}, indent=2)
    result = load_config_file(write(tmp_path / "c.json", text))
    assert [(d["cfg"]["abbr"], d["line"]) for d in result["datasets"]] == [("a", 3), ("b", 6)]
    toml = '[[datasets]]\nabbr = "a"\n\n[[datasets]]\nabbr = "b"\n'
    result = load_config_file(write(tmp_path / "c.toml", toml))
    assert [(d["cfg"]["abbr"], d["line"]) for d in result["datasets"]] == [("a", 1), ("b", 4)]


def test_yaml_entries_know_their_lines(tmp_path):
    pytest.importorskip("yaml")
    result = load_config_file(write(tmp_path / "c.yaml", "models:\n  - abbr: a\n\n  - abbr: b\n"))
    assert [(m["cfg"]["abbr"], m["line"]) for m in result["models"]] == [("a", 2), ("b", 4)]


def test_data_configs_inherit_through_base(tmp_path, loader):
    write(tmp_path / "models.json", json.dumps({"models": [{"type": "OpenAI", "abbr": "gpt"}]}))
    write(tmp_path / "base.py", "gen = dict(max_out_len=10, temperature=0)\n")
    child = write(tmp_path / "child.json", json.dumps({
        "_base_": ["models.json", "base.py"],
        "gen": {"max_out_len": 99},
    }))
    result = load_config_file(child)
    assert result["error"] is None
    assert [m["cfg"]["abbr"] for m in result["models"]] == ["gpt"]
    assert {p.split("/")[-1] for p in result["files"]} == {"child.json", "models.json", "base.py"}


def test_yaml_without_pyyaml_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "yaml", None)
    result = load_config_file(write(tmp_path / "c.yaml", "datasets: []\n"))
    error = result["error"]
    assert error["message"] == "reading YAML configs needs PyYAML, which is not installed"
    assert "pip install 'pyyaml>=6'" in error["hint"]
