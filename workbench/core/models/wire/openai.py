"""OpenCompass's OpenAI family: ``OpenAI``, ``OpenAISDK``, ``OpenAISDKStreaming``.

``OpenAI`` posts ``json.dumps(data)`` with ``requests``, keys in the class's own order.  The
SDK classes call the ``openai`` client's ``chat.completions.create``, which writes the body in
its own order (:data:`SDK_ORDER`) and merges ``extra_body`` last.  All three: roles
HUMAN/BOT/SYSTEM become user/assistant/system (a message of another role goes without one),
``max_tokens`` is lowered to ``max_seq_len - input tokens - 100`` (each message counted on its
own), a model named like a reasoning model (o1, o3, o4, gpt-5) gets ``max_completion_tokens``.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import InputCut, RenderError
from ...render_notes import OC_VERSION
from .request import OPENCOMPASS_ROLES, REDACTED, Wire, WireCall, first_base, unread_item

OPENAI_CHAT_ENDPOINT = "https://api.openai.com/v1/chat/completions"
OPENAI_SDK_BASE = "https://api.openai.com/v1/"
OPENAI_REASONING = ("o1", "o3", "o4", "gpt-5")
CHATML_ROLES = ("system", "user", "assistant")
#: ``generate``'s default temperature, which the inferencers never override.
GENERATE_TEMPERATURE = 0.7

#: The body order of ``openai`` 3.57's ``chat.completions.create`` (``maybe_transform`` of one
#: dict literal); a keyword outside it is a TypeError in ``create``.
SDK_ORDER = (
    "model", "stream", "service_tier", "messages", "audio", "frequency_penalty", "function_call",
    "functions", "logit_bias", "logprobs", "max_completion_tokens", "max_tokens", "metadata", "modalities",
    "moderation", "n", "parallel_tool_calls", "prediction", "presence_penalty", "prompt_cache_key",
    "prompt_cache_options", "prompt_cache_retention", "reasoning_effort", "response_format",
    "safety_identifier", "seed", "stop", "store", "stream_options", "temperature", "tool_choice", "tools",
    "top_logprobs", "top_p", "user", "verbosity", "web_search_options",
)
SDK_OPTIONS = ("extra_headers", "extra_query", "extra_body")


def _messages(call: WireCall) -> tuple[list[dict[str, Any]], list[int]]:
    """``_preprocess_messages`` without truncation: the messages and each one's token count."""
    value = call.model_input
    if isinstance(value, str):
        return [{"role": "user", "content": value}], [call.count(value)]
    items = list(value)
    if items and all(isinstance(i, Mapping) and i.get("role") in CHATML_ROLES for i in items):
        return [dict(i) for i in items], [call.count(_text(i.get("content"))) for i in items]
    failure = unread_item(call, OC_VERSION, "_preprocess_messages")
    if failure is not None:
        raise failure
    messages, counts = [], []
    for item in items:
        prompt = item["prompt"]
        message: dict[str, Any] = {"content": prompt}
        role = OPENCOMPASS_ROLES.get(item.get("role"))
        if role is not None:
            message["role"] = role
        messages.append(message)
        counts.append(call.count(_text(prompt)))
    return messages, counts


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # multimodal parts: their texts are counted
        return "".join(p if isinstance(p, str) else p.get("text", "") if isinstance(p, Mapping) else ""
                       for p in value)
    return ""


def _max_tokens(call: WireCall, counts: list[int]) -> int | None:
    input_tokens = sum(counts)
    max_seq_len = call.cfg.get("max_seq_len", 16384)
    if not isinstance(max_seq_len, int | float) or isinstance(max_seq_len, bool):
        raise RenderError(f"{call.class_name} compares each input's token count with max_seq_len, and "
                          f"max_seq_len={max_seq_len!r} is not a number (TypeError): no request is sent",
                          hint="max_seq_len=16384 (the class's default), or leave it out")
    mode = call.cfg.get("mode", "none")
    if mode == "none" and input_tokens > max_seq_len:
        raise RenderError(f"the input has {input_tokens} tokens, over max_seq_len {max_seq_len}: "
                          f"{call.class_name} refuses it (mode='none')",
                          hint="raise max_seq_len or set mode='front'/'mid'/'rear' to truncate")
    # _bin_trim cuts each message on its own, to max_seq_len - 100 - max_out_len tokens
    if mode != "none" and any(n > max_seq_len - 100 - (call.max_out_len or 0) for n in counts):
        raise InputCut(f"{call.class_name} would cut the input to fit max_seq_len (mode={mode!r}); the "
                       "workbench does not reproduce that cut",
                       hint="raise max_seq_len to see the request")
    if call.max_out_len is None:
        return None
    lowered = min(call.max_out_len, max_seq_len - input_tokens - 100)
    if lowered <= 0:
        raise RenderError(f"max_out_len becomes {lowered}: the input ({input_tokens} tokens) is too close "
                          f"to max_seq_len ({max_seq_len}); {call.class_name} refuses the request",
                          hint="raise max_seq_len, or set a truncation mode")
    return lowered


def _is_reasoning(path: str) -> bool:
    return any(name in path for name in OPENAI_REASONING)


def openai(call: WireCall) -> Wire:
    messages, counts = _messages(call)
    max_tokens = _max_tokens(call, counts)
    path = str(call.cfg.get("path", "gpt-3.5-turbo"))
    body: dict[str, Any] = {"model": path, "messages": messages}
    body["max_completion_tokens" if _is_reasoning(path) else "max_tokens"] = max_tokens
    temperature = call.cfg.get("temperature")
    body.update(n=1, logprobs=call.cfg.get("logprobs", False), top_logprobs=call.cfg.get("top_logprobs"),
                stop=None, temperature=GENERATE_TEMPERATURE if temperature is None else temperature)
    extra = call.cfg.get("extra_body")
    if extra:
        body.update(extra)
    endpoint = first_base(call.cfg.get("openai_api_base", OPENAI_CHAT_ENDPOINT))
    headers = {"Authorization": f"Bearer {REDACTED}", "content-type": "application/json", "api-key": REDACTED}
    return Wire(endpoint, body, headers, call.exact)


def _sdk_wire(call: WireCall, query: dict[str, Any]) -> Wire:
    """What ``chat.completions.create(**query)`` posts: its own key order, ``extra_body`` last."""
    query.update(call.cfg.get("openai_extra_kwargs") or {})
    unknown = [k for k in query if k not in SDK_ORDER and k not in SDK_OPTIONS]
    if unknown:
        raise RenderError(f"openai's chat.completions.create() takes no {unknown[0]!r} (TypeError): "
                          f"{call.class_name} retries and fails on every request",
                          hint="put server-specific parameters in extra_body, not openai_extra_kwargs")
    body = {key: query[key] for key in SDK_ORDER if key in query}
    body.update(query.get("extra_body") or {})
    base = first_base(call.cfg.get("openai_api_base", OPENAI_SDK_BASE))
    return Wire(base.rstrip("/") + "/chat/completions", body, {"Authorization": f"Bearer {REDACTED}"},
                call.exact)


def _sdk_query(call: WireCall, temperature: Any) -> dict[str, Any]:
    messages, counts = _messages(call)
    max_tokens = _max_tokens(call, counts)
    path = str(call.cfg.get("path", "gpt-3.5-turbo"))
    query: dict[str, Any] = {"model": path, "messages": messages, "n": 1,
                             "extra_body": call.cfg.get("extra_body")}
    if _is_reasoning(path):
        query["max_completion_tokens"] = max_tokens
    else:
        query.update(max_tokens=max_tokens, temperature=temperature)
    return query


def openai_sdk(call: WireCall) -> Wire:
    return _sdk_wire(call, _sdk_query(call, call.cfg.get("temperature")))


def openai_sdk_streaming(call: WireCall) -> Wire:
    temperature = call.cfg.get("temperature")
    query = _sdk_query(call, GENERATE_TEMPERATURE if temperature is None else temperature)
    query["stream"] = call.cfg.get("stream", True)
    return _sdk_wire(call, query)


def streaming_refusal(cfg: Mapping[str, Any]) -> str | None:
    """``OpenAISDKStreaming`` with ``stream=False`` falls back on a call that cannot work."""
    if cfg.get("stream", True):
        return None
    return ("OpenAISDKStreaming with stream=False calls OpenAISDK._generate with one argument too many "
            "(TypeError), retries and fails on every request (OpenCompass 0.5.4): no request is sent")
