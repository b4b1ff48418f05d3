"""The HTTP request an API model class would send: endpoint and JSON body, credentials redacted.

Pure: built from the model config, the parsed API input (OpenCompass's ``[{role, prompt}]``
or a string) and a token counter. Each builder reproduces one family of classes:

- OpenCompass ``OpenAI`` (``requests.post`` of ``json.dumps(data)``) and ``OpenAISDK`` (the
  ``openai`` client's ``chat.completions.create``): roles HUMAN/BOT/SYSTEM become
  user/assistant/system (a message of another role goes without one), ``max_tokens`` is
  lowered to ``max_seq_len - input tokens - 100`` (each message counted on its own), a model
  named like a reasoning model (o1, o3, o4, gpt-5) gets ``max_completion_tokens`` instead;
- AISBench ``VLLMCustomAPIChat`` / ``VLLMCustomAPI`` (``get_request_body``): the served
  model, ``max_tokens`` from the model's ``max_out_len``, ``generation_kwargs`` as given.

Key order is the classes' own, so the body reads as the server receives it.
"""

from __future__ import annotations

import ipaddress
import json
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import RenderError

REDACTED = "‹redacted›"
OPENAI_CHAT_ENDPOINT = "https://api.openai.com/v1/chat/completions"
OPENAI_SDK_BASE = "https://api.openai.com/v1/"
OPENAI_REASONING = ("o1", "o3", "o4", "gpt-5")
OPENCOMPASS_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}
AISBENCH_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system", "TOOL": "tool"}
CHATML_ROLES = ("system", "user", "assistant")
#: Served model name when the config names none: AISBench asks the server (``/v1/models``).
SERVED_MODEL = "‹the server's model (GET /v1/models)›"


@dataclass(frozen=True)
class Wire:
    """What goes on the wire for one request."""

    endpoint: str
    body: Mapping[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)
    #: False when a count behind the body (``max_tokens``) is an estimate, not the class's tokenizer.
    exact: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "body": dict(self.body), "headers": dict(self.headers),
                "exact": self.exact}


Count = Callable[[str], int]


@dataclass(frozen=True)
class WireCall:
    """One request's inputs: the class, its config, the parsed input, ``max_out_len``."""

    class_name: str
    cfg: Mapping[str, Any]
    model_input: Any
    max_out_len: int | None
    count: Count
    exact: bool = True


def wire_of(request: Any) -> Wire | None:
    """The ``wire`` a render attached to a request (API models), else None."""
    for key, value in getattr(request, "extra", ()):
        if key == "wire" and isinstance(value, Wire):
            return value
    return None


def body_text(wire: Wire) -> str:
    """The body as indented JSON, characters as they are (exports make them inert)."""
    return json.dumps(dict(wire.body), ensure_ascii=False, indent=2)


def wire_for(call: WireCall) -> Wire | None:
    """The request the class sends; None for a class whose request is not reproduced."""
    builder = BUILDERS.get(call.class_name)
    return builder(call) if builder is not None else None


# -- OpenCompass: OpenAI, OpenAISDK ------------------------------------------------------------

def _openai_messages(call: WireCall) -> tuple[list[dict[str, Any]], int]:
    """``_preprocess_messages`` without truncation: the messages and the input's token count."""
    value = call.model_input
    if isinstance(value, str):
        return [{"role": "user", "content": value}], call.count(value)
    items = list(value)
    if items and all(isinstance(i, Mapping) and i.get("role") in CHATML_ROLES for i in items):
        return [dict(i) for i in items], sum(call.count(_text(i.get("content"))) for i in items)
    messages, total = [], 0
    for item in items:
        prompt = item["prompt"]
        message: dict[str, Any] = {"content": prompt}
        role = OPENCOMPASS_ROLES.get(item.get("role"))
        if role is not None:
            message["role"] = role
        messages.append(message)
        total += call.count(_text(prompt))
    return messages, total


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # multimodal parts: their texts are counted
        return "".join(p if isinstance(p, str) else p.get("text", "") if isinstance(p, Mapping) else ""
                       for p in value)
    return ""


def _openai_max_tokens(call: WireCall, input_tokens: int) -> int | None:
    max_seq_len = call.cfg.get("max_seq_len", 16384)
    mode = call.cfg.get("mode", "none")
    if mode == "none" and input_tokens > max_seq_len:
        raise RenderError(f"the input has {input_tokens} tokens, over max_seq_len {max_seq_len}: "
                          f"{call.class_name} refuses it (mode='none')",
                          hint="raise max_seq_len or set mode='front'/'mid'/'rear' to truncate")
    if call.max_out_len is None:
        return None
    if mode != "none" and input_tokens > max_seq_len - 100 - call.max_out_len:
        raise RenderError(f"{call.class_name} would cut the input to fit max_seq_len (mode={mode!r}); the "
                          "workbench does not reproduce that cut",
                          hint="raise max_seq_len to see the request")
    lowered = min(call.max_out_len, max_seq_len - input_tokens - 100)
    if lowered <= 0:
        raise RenderError(f"max_out_len becomes {lowered}: the input ({input_tokens} tokens) is too close "
                          f"to max_seq_len ({max_seq_len}); {call.class_name} refuses the request",
                          hint="raise max_seq_len, or set a truncation mode")
    return lowered


def _is_reasoning(path: str) -> bool:
    return any(name in path for name in OPENAI_REASONING)


def _openai(call: WireCall) -> Wire:
    messages, tokens = _openai_messages(call)
    max_tokens = _openai_max_tokens(call, tokens)
    path = str(call.cfg.get("path", "gpt-3.5-turbo"))
    body: dict[str, Any] = {"model": path, "messages": messages}
    body["max_completion_tokens" if _is_reasoning(path) else "max_tokens"] = max_tokens
    body.update(n=1, logprobs=call.cfg.get("logprobs", False), top_logprobs=call.cfg.get("top_logprobs"),
                stop=None, temperature=_temperature(call.cfg))
    extra = call.cfg.get("extra_body")
    if extra:
        body.update(extra)
    endpoint = _first(call.cfg.get("openai_api_base", OPENAI_CHAT_ENDPOINT))
    headers = {"Authorization": f"Bearer {REDACTED}", "content-type": "application/json", "api-key": REDACTED}
    return Wire(endpoint, body, headers, call.exact)


def _temperature(cfg: Mapping[str, Any]) -> Any:
    # generate(..., temperature=0.7) unless the config sets one
    value = cfg.get("temperature")
    return 0.7 if value is None else value


def _first(value: Any) -> str:
    # a list of bases: the class picks one at random per request
    if isinstance(value, list | tuple) and value:
        return str(value[0])
    return str(value)


def _openai_sdk(call: WireCall) -> Wire:
    messages, tokens = _openai_messages(call)
    max_tokens = _openai_max_tokens(call, tokens)
    path = str(call.cfg.get("path", "gpt-3.5-turbo"))
    body: dict[str, Any] = {"model": path, "messages": messages}
    if _is_reasoning(path):
        body.update(max_completion_tokens=max_tokens, n=1)
    else:
        body.update(max_tokens=max_tokens, n=1, temperature=call.cfg.get("temperature"))
    body.update(call.cfg.get("openai_extra_kwargs") or {})
    body.update(call.cfg.get("extra_body") or {})
    base = _first(call.cfg.get("openai_api_base", OPENAI_SDK_BASE))
    endpoint = base.rstrip("/") + "/chat/completions"
    headers = {"Authorization": f"Bearer {REDACTED}"}
    return Wire(endpoint, body, headers, call.exact)


# -- AISBench: VLLMCustomAPIChat, VLLMCustomAPI ----------------------------------------------------

def aisbench_base_url(cfg: Mapping[str, Any]) -> str:
    """``BaseAPIModel._get_base_url``: ``url`` (with a scheme, a trailing slash) or host and port."""
    protocol = "https" if cfg.get("enable_ssl") else "http"
    url = cfg.get("url")
    clean = url.strip() if isinstance(url, str) else ""
    if clean:
        full = clean if clean.startswith(("http://", "https://")) else f"{protocol}://{clean}"
        parsed = urllib.parse.urlparse(full)
        if not parsed.path or parsed.path.endswith("/"):
            return full
        return urllib.parse.urlunparse(parsed._replace(path=parsed.path + "/"))
    host = str(cfg.get("host_ip", "localhost"))
    try:
        if isinstance(ipaddress.ip_address(host), ipaddress.IPv6Address):
            host = f"[{host}]"
    except ValueError:
        pass
    return f"{protocol}://{host}:{cfg.get('host_port', 8080)}/"


def _generation(call: WireCall, max_out_len: int) -> dict[str, Any]:
    kwargs = call.cfg.get("generation_kwargs")
    if not isinstance(kwargs, Mapping):
        raise RenderError(f"{call.class_name} needs generation_kwargs (a dict): the class copies it for "
                          "every request and fails without one", hint="generation_kwargs=dict()")
    out = dict(kwargs)
    out.update(max_tokens=max_out_len, model=call.cfg.get("model") or SERVED_MODEL)
    return out


def _aisbench_max_out_len(call: WireCall, default: int) -> int:
    value = call.cfg.get("max_out_len", default)
    return value if isinstance(value, int) else default


def _aisbench_headers(cfg: Mapping[str, Any]) -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    if cfg.get("api_key"):
        headers["Authorization"] = f"Bearer {REDACTED}"
    return headers


def _vllm_chat(call: WireCall) -> Wire:
    max_out_len = _aisbench_max_out_len(call, 4096)
    value = call.model_input
    if isinstance(value, str):
        messages: list[dict[str, Any]] = [{"role": "user", "content": value}]
    else:
        messages = []
        for item in value:
            role = item.get("role", "")
            message = {"content": item["prompt"], "role": AISBENCH_ROLES.get(role, role)}
            message.update({k: v for k, v in item.items() if k not in ("role", "prompt")})
            messages.append(message)
    stream = call.cfg.get("stream", False)
    body: dict[str, Any] = {"stream": stream, "messages": messages}
    if stream:
        body["stream_options"] = {"include_usage": True}
    body.update(_generation(call, max_out_len))
    endpoint = urllib.parse.urljoin(aisbench_base_url(call.cfg), "v1/chat/completions")
    return Wire(endpoint, body, _aisbench_headers(call.cfg), True)


def _vllm_completions(call: WireCall) -> Wire:
    max_out_len = _aisbench_max_out_len(call, 4096)
    stream = call.cfg.get("stream", False)
    body: dict[str, Any] = {"prompt": call.model_input, "stream": stream}
    body.update(_generation(call, max_out_len))
    if stream:
        body["stream_options"] = {"include_usage": True}
    endpoint = urllib.parse.urljoin(aisbench_base_url(call.cfg), "v1/completions")
    return Wire(endpoint, body, _aisbench_headers(call.cfg), True)


BUILDERS: dict[str, Callable[[WireCall], Wire]] = {
    "OpenAI": _openai,
    "OpenAISDK": _openai_sdk,
    "VLLMCustomAPIChat": _vllm_chat,
    "VLLMCustomAPI": _vllm_completions,
}


def wire_classes() -> Sequence[str]:
    """The API classes whose requests are reproduced (for the docs)."""
    return sorted(BUILDERS)
