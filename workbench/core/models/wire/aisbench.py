"""AISBench's service classes: what each ``get_request_body`` returns and where ``generate`` posts it.

Every class copies ``generation_kwargs`` into each request and adds the output length; the
endpoint is ``url`` (given a scheme and a trailing slash) or ``host_ip:host_port``, joined with
the class's path.  Only the vLLM classes send ``api_key`` (as a Bearer header); the others take
it and drop it.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from collections.abc import Mapping
from typing import Any

from ...errors import RenderError
from ...render_notes import AIS_VERSION
from .request import NEW_UUID, REDACTED, SERVED_MODEL, Wire, WireCall, kwargs_of, unread_item

AISBENCH_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system", "TOOL": "tool"}
#: Every subclass's ``max_out_len`` default (BaseAPIModel's own 2048 is never reached).
DEFAULT_MAX_OUT_LEN = 4096
#: Deprecated aliases that force ``stream`` in ``__init__``.
FORCED_STREAM = {
    "VLLMCustomAPIChatStream": True, "VllmMultiturnAPIChatStream": True, "VLLMFunctionCallAPIChat": False,
    "VLLMCustomAPIStream": True, "TGICustomAPIStream": True, "TritonCustomAPIStream": True,
}
MEDIA_PARTS = ("image_url", "video_url", "audio_url")


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


def _endpoint(call: WireCall, path: str) -> str:
    return urllib.parse.urljoin(aisbench_base_url(call.cfg), path)


def _stream(call: WireCall, default: bool = False) -> Any:
    return FORCED_STREAM.get(call.class_name, call.cfg.get("stream", default))


def _max_out_len(call: WireCall) -> Any:
    """The row's ``max_out_len`` when the inferencer took one, else the model's."""
    if call.max_out_len is not None:
        return call.max_out_len
    value = call.cfg.get("max_out_len", DEFAULT_MAX_OUT_LEN)
    return value if isinstance(value, int) else DEFAULT_MAX_OUT_LEN


def _headers(call: WireCall, sends_key: bool) -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    if sends_key and call.cfg.get("api_key"):
        headers["Authorization"] = f"Bearer {REDACTED}"
    return headers


def _vllm_kwargs(call: WireCall, max_out_len: Any) -> dict[str, Any]:
    out = kwargs_of(call)
    out.update(max_tokens=max_out_len, model=call.cfg.get("model") or SERVED_MODEL)
    return out


# -- vLLM: v1/chat/completions, v1/completions -----------------------------------------------------

def vllm_chat(call: WireCall) -> Wire:
    value = call.model_input
    if isinstance(value, str):
        messages: list[dict[str, Any]] = [{"role": "user", "content": value}]
    else:  # another role goes as written; every other key of an item is copied
        failure = unread_item(call, AIS_VERSION, "get_request_body")
        if failure is not None:
            raise failure
        messages = []
        for item in value:
            role = item.get("role", "")
            message = {"content": item["prompt"], "role": AISBENCH_ROLES.get(role, role)}
            message.update({k: v for k, v in item.items() if k not in ("role", "prompt")})
            messages.append(message)
    stream = _stream(call)
    body: dict[str, Any] = {"stream": stream, "messages": messages}
    if stream:
        body["stream_options"] = {"include_usage": True}
    body.update(_vllm_kwargs(call, _max_out_len(call)))
    if call.ppl:
        body["prompt_logprobs"] = 0
    return Wire(_endpoint(call, "v1/chat/completions"), body, _headers(call, True))


def vllm_completions(call: WireCall) -> Wire:
    stream = _stream(call)
    body: dict[str, Any] = {"prompt": call.model_input, "stream": stream}
    body.update(_vllm_kwargs(call, _max_out_len(call)))
    if stream:
        body["stream_options"] = {"include_usage": True}
    if call.ppl:
        body["prompt_logprobs"] = 0
    return Wire(_endpoint(call, "v1/completions"), body, _headers(call, True))


# -- TGI, Triton, MindIE: the text and a `parameters` dict with max_new_tokens -------------------

def _parameters(call: WireCall) -> dict[str, Any]:
    parameters = kwargs_of(call)
    parameters["max_new_tokens"] = _max_out_len(call)
    return parameters


def tgi(call: WireCall) -> Wire:
    path = "generate_stream" if _stream(call) else "generate"
    body = {"inputs": call.model_input, "parameters": _parameters(call)}
    return Wire(_endpoint(call, path), body, _headers(call, False))


def triton(call: WireCall) -> Wire:
    name = call.cfg.get("model_name") or SERVED_MODEL
    path = f"v2/models/{name}/" + ("generate_stream" if _stream(call) else "generate")
    body = {"id": NEW_UUID, "text_input": call.model_input, "parameters": _parameters(call)}
    return Wire(_endpoint(call, path), body, _headers(call, False))


def mindie(call: WireCall) -> Wire:
    body = {"inputs": call.model_input, "stream": True, "parameters": _parameters(call)}
    return Wire(_endpoint(call, "infer"), body, _headers(call, False))


def mindie_note(cfg: Mapping[str, Any]) -> str | None:
    if cfg.get("stream", True):
        return None
    return ("MindieStreamApi with stream=False still asks MindIE for a stream, then reads the reply "
            "as one JSON document, which the class cannot parse (parse_text_response is not "
            "implemented): every request fails")


# -- VITA: /generate with a flat list of typed parts ---------------------------------------------

def vita(call: WireCall) -> Wire:
    value = call.model_input
    parts: list[dict[str, Any]] = []
    if isinstance(value, str):
        parts.append({"type": "text", "text": value})
    else:
        for item in value:
            kind = item.get("type") if isinstance(item, Mapping) else None
            if kind is None:
                raise RenderError(f"VITAGenerateAPI reads item['type'] of each part, and this input has "
                                  f"{item!r} (KeyError)", hint="VITAGenerateAPI takes no meta template: "
                                  "its input is the text, or the multimodal parts of an MMPromptTemplate")
            if kind in MEDIA_PARTS:
                url = item[kind]
                if isinstance(url, Mapping) and "url" in url:
                    url = url["url"]
                if isinstance(url, str) and url.startswith("file://"):
                    url = url[len("file://"):]
                parts.append({"type": kind, kind: url})
            elif kind == "text":
                parts.append({"type": "text", "text": item["text"]})
    body = {"prompt": parts, "max_tokens": _max_out_len(call), "stream": _stream(call),
            "model": call.cfg.get("model", "")}
    body.update(call.cfg.get("generation_kwargs") or {})
    return Wire(_endpoint(call, "generate"), body, _headers(call, False))


def row_max_out_len(value: Any, inferencer: str, infer_mode: str) -> Any:
    """What AISBench's inferencers make of a test row's ``max_out_len`` (None: the model's).

    Gen and multi-turn take a falsy value as "the model's"; PPL takes it as it is.  Multi-turn
    ``last`` takes a list's last item, and ``every`` / ``every_with_gt`` its first for *every*
    turn: the loop rebinds the list to its first item on turn 0.
    """
    if not value and "PPL" not in inferencer:
        return None
    if isinstance(value, list) and value and "MultiTurn" in inferencer:
        return value[-1] if infer_mode == "last" else value[0]
    return value
