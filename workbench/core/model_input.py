"""A model config to the function that turns a prompt into what that model receives."""

from __future__ import annotations

from typing import Any

from .errors import RenderError
from .meta_template import APIParser, LMParser, to_chat_messages
from .model_classes import AmbiguousModelClassError, ModelClassInfo, lookup_model_class, ppl_refusal
from .notes import AIS_VERSION, OC_VERSION, Notes
from .prompt_list import PromptType
from .spec import AISBENCH, ModelSpec, type_name

LM, API, CHAT = "lm", "api", "chat_template"


def find_model_class(name: str, framework: str) -> ModelClassInfo | None:
    """The framework class a model config's ``type`` names (None: not one the frameworks ship)."""
    try:
        info = lookup_model_class(name, framework=framework)  # type: ignore[arg-type]
        if info is None and "." in name:
            info = lookup_model_class(type_name(name), framework=framework)  # type: ignore[arg-type]
    except AmbiguousModelClassError:
        return None
    return info


class ModelAdapter:
    """Parses prompts for one model: "lm" → str, "api" → role messages, chat → chat messages."""

    def __init__(self, spec: ModelSpec | None, notes: Notes, provenance: bool = False) -> None:
        self.spec = spec
        self.notes = notes
        self.info: ModelClassInfo | None = None
        cfg = spec.cfg if spec else {}
        meta = cfg.get("meta_template")
        if spec is not None:
            raw_type = cfg.get("type")
            if raw_type is None:
                raise RenderError(f"model {spec.abbr!r} has no type",
                                  hint="e.g. type=HuggingFacewithChatTemplate", key_path=(), in_model=True)
            name = raw_type if isinstance(raw_type, str) else type_name(raw_type)
            self.info = find_model_class(name, spec.framework)
            if self.info is None:
                notes.warn(
                    f"model type {type_name(name)!r} is not a class the frameworks ship; "
                    "treated as a local model that parses its meta template into one string"
                )
        if self.info is not None:
            self.kind = self.info.kind
            if isinstance(meta, dict) or meta is None:
                meta = self.info.effective_meta_template(meta)
            framework = AIS_VERSION if self.info.framework == AISBENCH else OC_VERSION
        else:
            self.kind = LM
            framework = AIS_VERSION if spec and spec.framework == AISBENCH else OC_VERSION
        if meta is not None and not isinstance(meta, dict):
            raise RenderError(
                f"meta_template must be a dict, got {type(meta).__name__}",
                hint="meta_template=dict(round=[...], reserved_roles=[...])",
                key_path=("meta_template",), in_model=True,
            )
        self.framework = framework
        self.meta_template = meta or None
        parser_cls = LMParser if self.kind == LM else APIParser
        self.parser = parser_cls(self.meta_template, notes, provenance, framework)
        self._keeps_multimodal = self.kind != LM and framework == AIS_VERSION

    @property
    def abbr(self) -> str | None:
        return self.spec.abbr if self.spec else None

    def ppl_refusal(self) -> str | None:
        if self.info is None:
            return None
        return ppl_refusal(self.info, self.spec.cfg if self.spec else None)

    def parse(self, prompt: PromptType, mode: str) -> Any:
        if not isinstance(prompt, str) and not self._keeps_multimodal and any(
                isinstance(item, dict) and "prompt_mm" in item for item in prompt):
            self.notes.warn(
                "this model's template parser reads only `prompt`, so the multimodal `prompt_mm` "
                "parts are dropped and the turn is sent empty (only AISBench API-style models "
                "send them)"
            )
        parsed = self.parser.parse(prompt, mode)
        if self.kind == CHAT:
            return to_chat_messages(parsed)
        return parsed
