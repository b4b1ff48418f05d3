"""OpenCompass's other shipped API classes: Gemini, Claude, BailingAPI, TeleChat(Stream), BlueLMAPI.

Each is a hand-written ``requests`` (or SDK) call with its own role mapping; what each one does
that surprises is noted where it is reproduced.  None of them counts tokens.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import RenderError
from .request import OPENCOMPASS_ROLES, REDACTED, TELECHAT_URL_VAR, Wire, WireCall, as_items, kwargs_of

GEMINI_URL = "https://generativelanguage.googleapis.com/v1beta/models/{path}:generateContent?key=" + REDACTED
GEMINI_SAFETY = ("HARM_CATEGORY_DANGEROUS_CONTENT", "HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_HARASSMENT")
GEMINI_MAX_OUTPUT_TOKENS = 2048  # written into the class, whatever max_out_len says
CLAUDE_URL = "https://api.anthropic.com/v1/complete"
HUMAN_PROMPT, AI_PROMPT = "\n\nHuman:", "\n\nAssistant:"  # anthropic 0.x's constants
BAILING_URL = "https://bailingchat.alipay.com/chat/completions"
TELECHAT_KWARGS = {"temperature": 0.6, "max_tokens": 16384, "top_p": 0.95, "repetition_penalty": 1.05}
TELECHAT_STREAM_KWARGS = {"temperature": 0.6, "top_p": 0.95, "repetition_penalty": 1.05}
JSON_HEADERS = {"Content-Type": "application/json"}


def _user(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def _mapped(items: list[Mapping[str, Any]], roles: Mapping[str, str] = OPENCOMPASS_ROLES,
            keep_other: bool = False) -> list[dict[str, Any]]:
    """``{'content': prompt}`` plus the mapped role; another role kept as written, or left out."""
    messages = []
    for item in items:
        message: dict[str, Any] = {"content": item["prompt"]}
        role = roles.get(item["role"], item["role"] if keep_other else None)
        if role is not None:
            message["role"] = role
        messages.append(message)
    return messages


# -- Gemini: requests.post(url with the key, data=json.dumps(data)) ------------------------------

def gemini(call: WireCall) -> Wire:
    if isinstance(call.model_input, str):
        contents: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": call.model_input}]}]
    else:
        contents = _gemini_contents(call, as_items(call))
    cfg = call.cfg
    body = {
        "model": cfg.get("path"),
        "contents": contents,
        "safetySettings": [{"category": c, "threshold": "BLOCK_NONE"} for c in GEMINI_SAFETY],
        "generationConfig": {"candidate_count": 1, "temperature": cfg.get("temperature", 1.0),
                             "maxOutputTokens": GEMINI_MAX_OUTPUT_TOKENS, "topP": cfg.get("top_p", 0.8),
                             "topK": cfg.get("top_k", 10.0)},
    }
    return Wire(GEMINI_URL.format(path=cfg.get("path")), body, {"content-type": "application/json"})


def _gemini_contents(call: WireCall, items: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    # The last SYSTEM prompt is put before *every* message; SYSTEM and other roles are dropped.
    system = None
    for item in items:
        if item["role"] == "SYSTEM":
            system = item["prompt"]
    contents: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    for item in items:
        text = item["prompt"] if system is None else f"{system}\n{item['prompt']}"
        message: dict[str, Any] = {"parts": [{"text": text}]}
        last = message
        if item["role"] == "HUMAN":
            message["role"] = "user"
            contents.append(message)
        elif item["role"] == "BOT":
            message["role"] = "model"
            contents.append(message)
    if last is None or last.get("role") != "user":
        what = "no message" if last is None else f"a {items[-1]['role']} message"
        raise RenderError(f"Gemini refuses an input that ends on {what} (assert msg['role'] in "
                          "['user', 'system'] fails): only a HUMAN turn may come last",
                          hint="end the template on a HUMAN turn (a BOT turn with generate=True is cut)")
    return contents


# -- Claude: anthropic 0.x client.completions.create(model, max_tokens_to_sample, prompt) ---------

def claude(call: WireCall) -> Wire:
    if isinstance(call.model_input, str):
        prompt = f"{HUMAN_PROMPT} {call.model_input}{AI_PROMPT}"
    else:
        prompt = ""
        for item in as_items(call):
            if item["role"] in ("HUMAN", "SYSTEM"):
                prompt += f"{HUMAN_PROMPT} {item['prompt']}"
            elif item["role"] == "BOT":
                prompt += f"{AI_PROMPT} {item['prompt']}"
        if not prompt.endswith(AI_PROMPT):
            prompt += AI_PROMPT
    body = {"max_tokens_to_sample": call.max_out_len, "model": call.cfg.get("path", "claude-2"),
            "prompt": prompt}
    return Wire(CLAUDE_URL, body, {"x-api-key": REDACTED, "anthropic-version": "2023-06-01"})


CLAUDE_SDK_NOTE = (
    "Claude (opencompass.models.claude_api) imports HUMAN_PROMPT from the anthropic SDK, which "
    "anthropic 1.0 and later no longer have: with today's `pip install anthropic` OpenCompass fails "
    "to build the model (\"Import anthropic failed\"); the request shown is what it posts with "
    "anthropic 0.x (Anthropic's legacy text completions)"
)


# -- BailingAPI: session.request('POST', url, json=request) --------------------------------------

def bailing(call: WireCall) -> Wire:
    if isinstance(call.model_input, str):
        messages = _user(call.model_input)
    else:  # turns with empty text are dropped; another role goes as written
        messages = _mapped([i for i in as_items(call) if i["prompt"]], keep_other=True)
    body: dict[str, Any] = {"model": call.cfg.get("path"), "messages": messages,
                            "max_tokens": call.max_out_len}
    body.update(kwargs_of(call, default={}))
    headers = {"Authorization": f"Bearer {REDACTED}", **JSON_HEADERS}
    return Wire(call.cfg.get("url") or BAILING_URL, body, headers)


# -- TeleChat / TeleChatStream: requests with a signed Authorization -----------------------------

def _telechat(call: WireCall, messages: list[dict[str, Any]], stream: bool,
              defaults: Mapping[str, Any]) -> Wire:
    body: dict[str, Any] = {"model": call.cfg.get("path"), "messages": messages, "stream": stream}
    value = call.cfg.get("generation_kwargs")
    body.update(dict(defaults) if value is None else kwargs_of(call))
    headers = {**JSON_HEADERS, "X-APP-ID": REDACTED, "Authorization": REDACTED}
    return Wire(str(call.cfg.get("url") or TELECHAT_URL_VAR), body, headers)


def telechat(call: WireCall) -> Wire:
    messages = _user(call.model_input) if isinstance(call.model_input, str) else _mapped(as_items(call))
    return _telechat(call, messages, False, TELECHAT_KWARGS)


def telechat_stream(call: WireCall) -> Wire:
    if isinstance(call.model_input, str):
        messages = _user(call.model_input)
    else:  # any role but HUMAN and BOT is sent as system
        roles = {"HUMAN": "user", "BOT": "assistant"}
        messages = [{"role": roles.get(i["role"], "system"), "content": i["prompt"]} for i in as_items(call)]
    return _telechat(call, messages, True, TELECHAT_STREAM_KWARGS)


# -- BlueLMAPI: the key travels in the body ------------------------------------------------------

def bluelm(call: WireCall) -> Wire:
    if isinstance(call.model_input, str):
        messages = _user(call.model_input)
    else:  # SYSTEM (and any other role) goes without a role
        messages = _mapped(as_items(call), {"HUMAN": "user", "BOT": "assistant"})
    key = call.cfg.get("key")
    body: dict[str, Any] = {"text": messages, "key": None if key is None else REDACTED, "stream": True}
    body.update(kwargs_of(call))
    return Wire(str(call.cfg.get("url")), body, dict(JSON_HEADERS))


def ignores_max_out_len(name: str, cfg: Mapping[str, Any]) -> str | None:
    """Classes that never send ``max_out_len``: a set one is worth a word."""
    value = cfg.get("max_out_len")
    if value is None:
        return None
    if name == "Gemini":
        return (f"Gemini ignores max_out_len ({value}): its requests always ask for maxOutputTokens "
                f"{GEMINI_MAX_OUTPUT_TOKENS}")
    return (f"{name} ignores max_out_len ({value}): the output length it asks for comes from "
            "generation_kwargs['max_tokens'] only")
