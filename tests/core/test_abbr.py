"""Abbreviation rules of OpenCompass and AISBench (no framework import)."""

from __future__ import annotations

import os

import pytest

from workbench.core.abbr import (
    dataset_abbr_from_cfg,
    lexical_realpath,
    merged_dataset_abbr,
    model_abbr_for_summarizer,
    model_abbr_from_cfg,
    realpath_tail,
)

# --- dataset abbr ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cfg", "expected"),
    [
        ({"abbr": "gsm8k", "path": "opencompass/gsm8k"}, "gsm8k"),
        ({"path": "opencompass/gsm8k"}, "opencompass_gsm8k"),
        ({"path": "opencompass/mmlu", "name": "anatomy"}, "opencompass_mmlu_anatomy"),
        # no normalisation: a trailing slash survives as an underscore
        ({"path": "opencompass/mmlu/"}, "opencompass_mmlu_"),
        ({"path": "./data/ceval/formal_ceval/", "name": "law"}, "._data_ceval_formal_ceval__law"),
        ({"path": "/abs/data/cmmlu"}, "_abs_data_cmmlu"),
        ({"path": "ARC-c", "name": "a/b"}, "ARC-c_a_b"),
        ({"path": "piqa", "name": ""}, "piqa_"),
    ],
)
def test_dataset_abbr(cfg, expected):
    assert dataset_abbr_from_cfg(cfg) == expected


def test_dataset_abbr_key_presence_not_truthiness():
    assert dataset_abbr_from_cfg({"abbr": "", "path": "x"}) == ""
    assert dataset_abbr_from_cfg({"abbr": None, "path": "x"}) is None


def test_dataset_abbr_failures_like_the_framework():
    with pytest.raises(KeyError):
        dataset_abbr_from_cfg({"name": "x"})
    with pytest.raises(TypeError):
        dataset_abbr_from_cfg({"path": "x", "name": None})


# --- realpath emulation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "tail"),
    [
        ("/models/internlm/internlm2-chat-7b", ["internlm", "internlm2-chat-7b"]),
        ("/models/internlm/internlm2-chat-7b/", ["internlm", "internlm2-chat-7b"]),
        ("/models/internlm/internlm2-chat-7b///", ["internlm", "internlm2-chat-7b"]),
        ("/models/x/../qwen/Qwen2-7B", ["qwen", "Qwen2-7B"]),
        ("Qwen/Qwen2.5-7B-Instruct", ["Qwen", "Qwen2.5-7B-Instruct"]),
        ("gpt-4o", ["run", "gpt-4o"]),
        ("", ["u", "run"]),
        ("/", ["", ""]),
        ("/llama", ["", "llama"]),
        ("//srv/m/llama", ["m", "llama"]),
    ],
)
def test_realpath_tail_lexical(path, tail):
    assert realpath_tail(path, lexical_realpath("/home/u/run")) == tail


def test_realpath_tail_with_the_real_realpath(tmp_path, monkeypatch):
    target = tmp_path / "store" / "org" / "model-v2"
    target.mkdir(parents=True)
    link = tmp_path / "links" / "latest"
    link.parent.mkdir()
    os.symlink(target, link)
    assert realpath_tail(str(link) + "/", os.path.realpath) == ["org", "model-v2"]
    monkeypatch.chdir(tmp_path / "store")
    assert realpath_tail("org/model-v2", os.path.realpath) == ["org", "model-v2"]
    assert realpath_tail("org", os.path.realpath) == ["store", "org"]


# --- model abbr ------------------------------------------------------------------------------


@pytest.mark.parametrize("framework", ["opencompass", "ais_bench"])
@pytest.mark.parametrize(
    ("cfg", "expected"),
    [
        ({"abbr": "qwen2.5-7b-instruct-hf", "type": "X", "path": "/p"}, "qwen2.5-7b-instruct-hf"),
        (
            {"type": "HuggingFacewithChatTemplate", "path": "/models/internlm/internlm2_5-7b-chat"},
            "HuggingFacewithChatTemplate_internlm_internlm2_5-7b-chat",
        ),
        (
            {
                "type": "HuggingFacewithChatTemplate",
                "path": "/models/internlm/internlm2_5-7b-chat/",
            },
            "HuggingFacewithChatTemplate_internlm_internlm2_5-7b-chat",
        ),
        (
            {"type": "opencompass.models.OpenAI", "path": "gpt-4o"},
            "opencompass.models.OpenAI_run_gpt-4o",
        ),
        (
            {"type": "VLLMwithChatTemplate", "path": "Qwen/Qwen2.5-7B-Instruct/"},
            "VLLMwithChatTemplate_Qwen_Qwen2.5-7B-Instruct",
        ),
        ({"type": "TurboMindAPIModel", "path": ""}, "TurboMindAPIModel_u_run"),
        ({"type": "T", "path": "/"}, "T__"),
        ({"type": "a/b", "path": "/m/c"}, "a_b_m_c"),
    ],
)
def test_model_abbr(cfg, expected, framework):
    assert model_abbr_from_cfg(cfg, framework=framework, realpath=lexical_realpath("/home/u/run")) == expected


def test_model_abbr_list_joins_with_underscore():
    cfgs = [{"abbr": "a"}, {"type": "T", "path": "/x/y/z/"}]
    assert model_abbr_from_cfg(cfgs, realpath=lexical_realpath("/")) == "a_T_y_z"
    assert model_abbr_from_cfg(tuple(cfgs), framework="ais_bench", realpath=lexical_realpath("/")) == "a_T_y_z"


def test_model_abbr_without_path_differs_between_frameworks():
    cfg = {"type": "ais_bench.benchmark.models.VLLMCustomAPIChat", "model": "qwen"}
    with pytest.raises(KeyError):
        model_abbr_from_cfg(cfg, framework="opencompass", realpath=lexical_realpath("/"))
    assert (
        model_abbr_from_cfg(cfg, framework="ais_bench", realpath=lexical_realpath("/"))
        == "ais_bench.benchmark.models.VLLMCustomAPIChat"
    )


def test_model_abbr_errors():
    with pytest.raises(KeyError):
        model_abbr_from_cfg({"path": "/a/b"}, realpath=lexical_realpath("/"))
    with pytest.raises(TypeError):
        model_abbr_from_cfg({"type": object, "path": "/a/b"}, realpath=lexical_realpath("/"))
    with pytest.raises(ValueError):
        model_abbr_from_cfg({"abbr": "x"}, framework="lmdeploy", realpath=lexical_realpath("/"))  # type: ignore[arg-type]


def test_summarizer_abbr_prefers_truthy_summarizer_abbr():
    cfg = {"abbr": "m", "summarizer_abbr": "Model M"}
    assert model_abbr_for_summarizer(cfg, realpath=os.path.realpath) == "Model M"
    assert model_abbr_for_summarizer({"abbr": "m", "summarizer_abbr": ""}, realpath=os.path.realpath) == "m"


def test_ais_merged_dataset_abbr():
    one = [{"abbr": "gsm8k", "type": "ais_bench.benchmark.datasets.GSM8KDataset"}]
    two = [
        {"abbr": "mmlu_a", "type": "ais_bench.benchmark.datasets.MMLUDataset"},
        {"abbr": "mmlu_b", "type": "ais_bench.benchmark.datasets.MMLUDataset"},
    ]
    assert merged_dataset_abbr(one) == "gsm8k"
    assert merged_dataset_abbr(two) == "mmludataset"
    with pytest.raises(ValueError):
        merged_dataset_abbr([])
