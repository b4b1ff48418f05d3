"""What a request on the wire is, and what a builder is given to make one.

Shared by the builders of every family (``openai``, ``opencompass``, ``aisbench``), so none
of them imports another.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import RenderError

REDACTED = "‹redacted›"
#: Served model name when the config names none: AISBench asks the server (``GET /v1/models``).
SERVED_MODEL = "‹the server's model (GET /v1/models)›"
#: The request id TritonCustomAPI draws for each request (``uuid.uuid4()``).
NEW_UUID = "‹a new uuid4 per request›"
#: TeleChat / TeleChatStream read their endpoint from this variable first.
TELECHAT_URL_VAR = "‹$TeleChat_API_URL›"

#: OpenCompass's own role names and what the chat-style classes make of them.
OPENCOMPASS_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}

Count = Callable[[str], int]


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


@dataclass(frozen=True)
class WireCall:
    """One request's inputs: the class, its config, the parsed input, ``max_out_len``.

    ``max_out_len`` is what the inferencer hands the class: for OpenCompass the inferencer's
    (else the model config's), possibly None; for AISBench a dataset row's own ``max_out_len``
    when the row has one, else None (the class then uses the model's).
    """

    class_name: str
    cfg: Mapping[str, Any]
    model_input: Any
    max_out_len: int | None
    count: Count
    exact: bool = True
    #: A PPL (label) request: AISBench's vLLM classes ask for the prompt's logprobs.
    ppl: bool = False


def body_text(wire: Wire) -> str:
    """The body as indented JSON, characters as they are (exports make them inert)."""
    return json.dumps(dict(wire.body), ensure_ascii=False, indent=2)


def first_base(value: Any) -> str:
    """A list of bases: the class picks one at random per request; the first stands for all."""
    if isinstance(value, list | tuple) and value:
        return str(value[0])
    return str(value)


def as_items(call: WireCall) -> list[Mapping[str, Any]]:
    """The parsed input's role items (the framework iterates them with ``item['role']``)."""
    items = list(call.model_input)
    for item in items:
        if not isinstance(item, Mapping) or "prompt" not in item:
            raise RenderError(f"{call.class_name} reads item['role'] and item['prompt'] of each message, and "
                              f"this input has {item!r}", hint="give the model a meta template that maps "
                              "every role (round=[dict(role='HUMAN', api_role='HUMAN'), ...])")
    return items


def unread_item(call: WireCall, framework: str, reader: str) -> RenderError | None:
    """The framework's failure on an input item its class reads as ``item['prompt']``: a plain
    string (an API meta template's ``begin``, which the API template parser puts first as it
    is) or a dict without ``prompt``. Every request of the pair fails so in the real run."""
    for item in call.model_input:
        if isinstance(item, str):
            failure = "TypeError: string indices must be integers, not 'str'"
        elif isinstance(item, Mapping) and "prompt" not in item:
            failure = "KeyError: 'prompt'"
        else:
            continue
        return RenderError(f"{framework} fails here: {call.class_name}.{reader} reads item['prompt'] of "
                           f"every message, and this input holds {str(item)[:60]!r} ({failure})",
                           hint="a string meta_template begin reaches an API model as a plain string: drop "
                           "it, and put a system prompt in the dataset template's begin as "
                           "dict(role='SYSTEM', ...) with SYSTEM in the meta template's reserved_roles")
    return None


def kwargs_of(call: WireCall, key: str = "generation_kwargs", default: Any = None) -> dict[str, Any]:
    """A dict option the class copies into every request; a missing one fails as in the class."""
    value = call.cfg.get(key, default)
    if not isinstance(value, Mapping):
        raise RenderError(f"{call.class_name} needs {key} (a dict): the class copies it into every request "
                          f"and fails on {value!r}", hint=f"{key}=dict()")
    return dict(value)
