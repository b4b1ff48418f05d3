"""The HTTP request an API model class would send: endpoint and JSON body, credentials redacted.

Pure: built from the model config, the parsed API input (OpenCompass's ``[{role, prompt}]``,
a string, or AISBench's multimodal parts) and a token counter.  One builder per class of the
shipped model configs, by family: :mod:`.openai` (OpenCompass's OpenAI classes),
:mod:`.opencompass` (its other hosted APIs), :mod:`.aisbench` (AISBench's service classes).
Key order is each class's own, so the body reads as the server receives it.

A class whose request is not reproduced, or a config with which the class sends nothing,
gets ``wire: null`` and one warning per model (:func:`model_wire_warnings`), not one per
dataset.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import BUILDER_FAILURES, builder_failed
from ...spec import ModelSpec, type_name
from ..model_input import find_model_class
from . import aisbench, openai, opencompass
from .aisbench import aisbench_base_url, row_max_out_len
from .request import REDACTED, SERVED_MODEL, Wire, WireCall, body_text

__all__ = [
    "REDACTED", "SERVED_MODEL", "Wire", "WireCall", "aisbench_base_url", "body_text", "model_wire_warnings",
    "row_max_out_len", "wire_class", "wire_classes", "wire_for", "wire_of",
]

ConfigNote = Callable[[Mapping[str, Any]], "str | None"]


def _nothing(cfg: Mapping[str, Any]) -> str | None:
    return None


@dataclass(frozen=True)
class WireClass:
    """How one class's request is built, and what a model of it is worth a word about."""

    build: Callable[[WireCall], Wire]
    #: Why a model with this config sends no request at all (None: it sends one).
    refusal: ConfigNote = _nothing
    #: A model-level caveat beside the requests shown (None: nothing to say).
    note: ConfigNote = _nothing


def _ignores(name: str) -> ConfigNote:
    return lambda cfg: opencompass.ignores_max_out_len(name, cfg)


_AIS_VLLM_CHAT = WireClass(aisbench.vllm_chat)
_AIS_VLLM = WireClass(aisbench.vllm_completions)
_AIS_TGI = WireClass(aisbench.tgi)
_AIS_TRITON = WireClass(aisbench.triton)

BUILDERS: Mapping[str, WireClass] = {
    # OpenCompass 0.5.4
    "OpenAI": WireClass(openai.openai),
    "OpenAISDK": WireClass(openai.openai_sdk),
    "OpenAISDKStreaming": WireClass(openai.openai_sdk_streaming, refusal=openai.streaming_refusal),
    "Gemini": WireClass(opencompass.gemini, note=_ignores("Gemini")),
    "Claude": WireClass(opencompass.claude, note=lambda cfg: opencompass.CLAUDE_SDK_NOTE),
    "BailingAPI": WireClass(opencompass.bailing),
    "TeleChat": WireClass(opencompass.telechat, note=_ignores("TeleChat")),
    "TeleChatStream": WireClass(opencompass.telechat_stream, note=_ignores("TeleChatStream")),
    "BlueLMAPI": WireClass(opencompass.bluelm, note=_ignores("BlueLMAPI")),
    # AISBench 3.1.20260630 (the deprecated aliases share their parent's body)
    "VLLMCustomAPIChat": _AIS_VLLM_CHAT,
    "VLLMCustomAPIChatStream": _AIS_VLLM_CHAT,
    "VLLMFunctionCallAPIChat": _AIS_VLLM_CHAT,
    "VllmMultiturnAPIChatStream": _AIS_VLLM_CHAT,
    "VLLMCustomAPI": _AIS_VLLM,
    "VLLMCustomAPIStream": _AIS_VLLM,
    "TGICustomAPI": _AIS_TGI,
    "TGICustomAPIStream": _AIS_TGI,
    "TritonCustomAPI": _AIS_TRITON,
    "TritonCustomAPIStream": _AIS_TRITON,
    "MindieStreamApi": WireClass(aisbench.mindie, note=aisbench.mindie_note),
    "VITAGenerateAPI": WireClass(aisbench.vita),
}


def wire_of(request: Any) -> Wire | None:
    """The ``wire`` a render attached to a request (API models), else None."""
    for key, value in getattr(request, "extra", ()):
        if key == "wire" and isinstance(value, Wire):
            return value
    return None


def wire_class(class_name: str) -> WireClass | None:
    return BUILDERS.get(class_name)


def wire_for(call: WireCall) -> Wire | None:
    """The request the class sends; None for a class (or config) whose request is not shown."""
    entry = BUILDERS.get(call.class_name)
    if entry is None or entry.refusal(call.cfg) is not None:
        return None
    try:
        return entry.build(call)
    except BUILDER_FAILURES as exc:  # no builder takes a render down: this pair fails, said once
        what = f"the workbench's {call.class_name} request builder"
        raise builder_failed(what, exc, key_path=("type",)) from None


def model_wire_warnings(spec: ModelSpec) -> list[str]:
    """What to say once per model about its requests on the wire (nothing for local models)."""
    raw = spec.cfg.get("type")
    if raw is None:
        return []
    info = find_model_class(raw if isinstance(raw, str) else type_name(raw), spec.framework)
    if info is None or not info.is_api:
        return []
    entry = BUILDERS.get(info.name)
    if entry is None:
        return [f"{info.name}'s request on the wire is not reproduced (the workbench builds the requests "
                "of the API classes the shipped model configs use; see docs/wire.md): its requests show "
                "wire null"]
    refusal = entry.refusal(spec.cfg)
    if refusal is not None:
        return [f"{refusal}; its requests show wire null"]
    note = entry.note(spec.cfg)
    return [note] if note is not None else []


def wire_classes() -> Sequence[str]:
    """The API classes whose requests are reproduced (for the docs)."""
    return sorted(BUILDERS)
