"""The wire in a render: every API class's request reaches the JSON, text and markdown exports,
warnings about a model's requests are said once per model, and AISBench's inferencers pass a
row's own max_out_len and PPL's prompt_logprobs through."""

from __future__ import annotations

import io
import json
from typing import Any

from workbench.core.lazy_pairs import render_workspace
from workbench.core.spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec
from workbench.headless.formats.json_export import render_document
from workbench.headless.formats.markdown_export import write_render_markdown
from workbench.headless.formats.text_export import write_render_text

META = {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}]}
AIS_GEN = {"temperature": 0.01}


def dataset(abbr: str = "qa", framework: str = OPENCOMPASS, columns: tuple[str, ...] = ("question",),
            inferencer: dict | None = None, rows: Any = None) -> DatasetSpec:
    cfg = {
        "abbr": abbr,
        "reader_cfg": {"input_columns": list(columns), "output_column": "answer"},
        "infer_cfg": {
            "prompt_template": {"type": "PromptTemplate", "template": {"round": [
                {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "{answer}"}]}},
            "retriever": {"type": "ZeroRetriever"},
            "inferencer": inferencer or {"type": "GenInferencer"},
        },
    }
    rows = rows or [{"question": "2 + 2?", "answer": "4"}]
    return DatasetSpec(abbr=abbr, cfg=cfg, rows=rows, framework=framework)


#: One model of each class family, each with what its body must hold.
MODELS = {
    "gemini": (ModelSpec("gemini", {"type": "Gemini", "path": "gemini-pro", "key": "ENV", "meta_template": META,
                                    "max_out_len": 100}),
               "https://generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent?key=‹redacted›",
               '"maxOutputTokens": 2048'),
    "claude": (ModelSpec("claude", {"type": "opencompass.models.claude_api.claude_api.Claude", "path": "claude-2",
                                    "key": "k", "max_out_len": 64}),
               "https://api.anthropic.com/v1/complete", '"max_tokens_to_sample": 64'),
    "bailing": (ModelSpec("bailing", {"type": "BailingAPI", "path": "Bailing-Pro", "token": "t", "url": "",
                                      "meta_template": META, "max_out_len": 8}),
                "https://bailingchat.alipay.com/chat/completions", '"max_tokens": 8'),
    "telechat": (ModelSpec("telechat", {"type": "TeleChatStream", "path": "TeleChat", "meta_template": META}),
                 "‹$TeleChat_API_URL›", '"stream": true'),
    "bluelm": (ModelSpec("bluelm", {"type": "BlueLMAPI", "path": "bluelm-2.5", "key": None, "url": "http://b/x",
                                    "meta_template": META, "generation_kwargs": {"top_k": 20}}),
               "http://b/x", '"key": null'),
    "kimi": (ModelSpec("kimi", {"type": "OpenAISDKStreaming", "path": "kimi-k2", "meta_template": META,
                                "openai_api_base": "https://api.moonshot.cn/v1", "temperature": 1}),
             "https://api.moonshot.cn/v1/chat/completions", '"stream": true'),
    "vllm": (ModelSpec("vllm", {"type": "VLLMCustomAPI", "model": "", "max_out_len": 512,
                                "generation_kwargs": AIS_GEN}, AISBENCH),
             "http://localhost:8080/v1/completions", '"prompt": "Q: 2 + 2?"'),
    "tgi": (ModelSpec("tgi", {"type": "TGICustomAPI", "stream": True, "max_out_len": 512,
                              "generation_kwargs": AIS_GEN}, AISBENCH),
            "http://localhost:8080/generate_stream", '"max_new_tokens": 512'),
    "triton": (ModelSpec("triton", {"type": "TritonCustomAPI", "model_name": "llama", "max_out_len": 9,
                                    "generation_kwargs": AIS_GEN}, AISBENCH),
               "http://localhost:8080/v2/models/llama/generate", '"text_input": "Q: 2 + 2?"'),
    "mindie": (ModelSpec("mindie", {"type": "MindieStreamApi", "max_out_len": 9, "generation_kwargs": AIS_GEN},
                         AISBENCH),
               "http://localhost:8080/infer", '"inputs": "Q: 2 + 2?"'),
    "vita": (ModelSpec("vita", {"type": "VITAGenerateAPI", "model": "vita", "max_out_len": 9}, AISBENCH),
             "http://localhost:8080/generate", '"type": "text"'),
}


def _wires(doc: dict) -> dict[str, dict]:
    return {r["model"]: r["samples"][0]["requests"][0]["wire"] for r in doc["renders"]}


def test_every_class_family_reaches_json_text_and_markdown():
    specs = [spec for spec, _, _ in MODELS.values()]
    result = render_workspace([dataset()], specs)
    assert not result.errors
    wires = _wires(render_document(result))
    text, markdown = io.StringIO(), io.StringIO()
    write_render_text(render_workspace([dataset()], specs), text)
    write_render_markdown(render_workspace([dataset()], specs), markdown)
    for name, (_, endpoint, needle) in MODELS.items():
        wire = wires[name]
        assert wire is not None, name
        assert wire["endpoint"] == endpoint
        assert needle in json.dumps(wire["body"], ensure_ascii=False)
        assert f"on the wire: POST {endpoint}" in text.getvalue(), name
        assert f"**On the wire**: POST `{endpoint}`" in markdown.getvalue(), name
        assert needle in text.getvalue() and needle in markdown.getvalue()


def test_model_warnings_are_said_once_per_model_not_per_dataset():
    models = [MODELS["gemini"][0], ModelSpec("kimi-off", {"type": "OpenAISDKStreaming", "path": "k",
                                                          "meta_template": META, "stream": False}),
              ModelSpec("qwen", {"type": "Qwen", "path": "qwen-max", "meta_template": META})]
    result = render_workspace([dataset("a"), dataset("b")], models)
    doc = render_document(result)
    own = [w for w in doc["warnings"] if w["dataset"] is None]
    assert [(w["model"], w["message"].split(" ")[0]) for w in own] == [
        ("gemini", "Gemini"), ("kimi-off", "OpenAISDKStreaming"), ("qwen", "Qwen's")]
    wires = [(r["dataset"], r["model"], r["samples"][0]["requests"][0]["wire"] is None) for r in doc["renders"]]
    assert wires == [("a", "gemini", False), ("a", "kimi-off", True), ("a", "qwen", True),
                     ("b", "gemini", False), ("b", "kimi-off", True), ("b", "qwen", True)]


def test_a_per_request_refusal_is_a_pair_warning_and_wire_null():
    gemini = ModelSpec("g", {"type": "Gemini", "path": "gemini-pro", "key": "k", "meta_template": {
        "round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT"}]}})
    doc = render_document(render_workspace([dataset()], [gemini]))
    assert doc["renders"][0]["samples"][0]["requests"][0]["wire"] is None
    assert any(w["dataset"] == "qa" and "Gemini refuses an input that ends on a BOT message" in w["message"]
               for w in doc["warnings"])


def test_aisbench_rows_own_max_out_len_goes_on_the_wire():
    rows = [{"question": "a", "answer": "x", "max_out_len": 77}, {"question": "b", "answer": "y", "max_out_len": 0}]
    spec = dataset(framework=AISBENCH, columns=("question", "max_out_len"), rows=rows)
    doc = render_document(render_workspace([spec], [MODELS["vllm"][0]]))
    bodies = [s["requests"][0]["wire"]["body"] for s in doc["renders"][0]["samples"]]
    assert [b["max_tokens"] for b in bodies] == [77, 512]  # 0 is falsy: the model's
    # not in input_columns: the inferencer never reads it
    spec = dataset(framework=AISBENCH, rows=rows)
    doc = render_document(render_workspace([spec], [MODELS["vllm"][0]]))
    assert [s["requests"][0]["wire"]["body"]["max_tokens"] for s in doc["renders"][0]["samples"]] == [512, 512]


def test_aisbench_ppl_asks_for_the_prompt_logprobs():
    cfg = {
        "abbr": "yesno",
        "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
        "infer_cfg": {
            "prompt_template": {"type": "PromptTemplate", "template": {
                label: {"round": [{"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": label}]}
                for label in ("Yes", "No")}},
            "retriever": {"type": "ZeroRetriever"},
            "inferencer": {"type": "PPLInferencer"},
        },
    }
    spec = DatasetSpec("yesno", cfg, rows=[{"question": "Is water wet?", "answer": "Yes"}], framework=AISBENCH)
    chat = ModelSpec("chat", {"type": "VLLMCustomAPIChat", "model": "m", "max_out_len": 4,
                              "generation_kwargs": {}}, AISBENCH)
    doc = render_document(render_workspace([spec], [chat]))
    requests = doc["renders"][0]["samples"][0]["requests"]
    assert [r["label"] for r in requests] == ["Yes", "No"]
    assert [r["wire"]["body"]["messages"][-1]["content"] for r in requests] == ["Yes", "No"]
    assert all(r["wire"]["body"]["prompt_logprobs"] == 0 for r in requests)
