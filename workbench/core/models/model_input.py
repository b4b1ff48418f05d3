"""A model config to the function that turns a prompt into what that model receives.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from typing import Any

from ..errors import BUILDER_FAILURES, RenderError, builder_failed
from ..provenance import META, Origin, PStr
from ..render_notes import AIS_VERSION, OC_VERSION, Notes
from ..spec import AISBENCH, ModelSpec, type_name
from ..templates.prompt_list import PromptType
from ..templates.raw_prompt_template import check_list_meta_template, is_raw_messages, parse_for_api
from .meta_template import APIParser, LMParser, to_chat_messages
from .model_class_info import AmbiguousModelClassError, ModelClassInfo
from .model_classes import OUT_OF_SCOPE_CLASSES, lookup_model_class, ppl_refusal

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
            if self.info is None and type_name(name) in OUT_OF_SCOPE_CLASSES:
                notes.warn(
                    f"model type {type_name(name)!r} wraps an agent framework "
                    f"({OUT_OF_SCOPE_CLASSES[type_name(name)].split(':')[0]}): the LLM's prompts come "
                    "from the agent's protocol, which the workbench does not run"
                )
            elif self.info is None:
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
        self.list_meta: list | None = None
        if isinstance(meta, list) and meta and self.kind != LM and framework == OC_VERSION:
            # OpenCompass's APITemplateParser also takes a list of {role, content} messages,
            # which only raw messages (RawPromptTemplate) use; a PromptList then fails.
            check_list_meta_template(meta)
            self.list_meta, meta = meta, None
            if provenance:
                self.list_meta = [
                    {**m, "content": PStr(m["content"], Origin(META, detail=f"{m['role']}.content"))}
                    if isinstance(m.get("content"), str) else m for m in self.list_meta]
        if isinstance(meta, list) and meta and self.kind == LM:
            raise RenderError(
                "round is required in meta template (AssertionError in LMTemplateParser): a list "
                "meta template is for API models and RawPromptTemplate messages",
                hint="meta_template=dict(round=[...], reserved_roles=[...])",
            )
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

    @property
    def class_name(self) -> str:
        if self.info is not None:
            return self.info.name
        return type_name(self.spec.cfg.get("type")) if self.spec else "no model"

    def raw_refusal(self) -> str | None:
        """Why this model cannot take RawPromptTemplate messages (None when it can)."""
        if self.spec is None or (self.kind == API and self.framework == OC_VERSION):
            return None
        name = self.class_name
        if self.kind == LM:
            return (f"raw messages (RawPromptTemplate) go to API models only: {name} parses with "
                    "LMTemplateParser, which takes the list of messages for a batch and fails on "
                    "each message dict (AssertionError)")
        if self.kind == CHAT:
            return (f"raw messages (RawPromptTemplate) go to API models only: {name} turns the "
                    "parsed prompt into chat messages through item['prompt'], and raw messages "
                    "have 'content' (KeyError: 'prompt')")
        return (f"raw messages (RawPromptTemplate) go to OpenCompass API models only: {name} is "
                f"{self.framework}'s, whose APITemplateParser has no raw-messages branch "
                "(AssertionError)")

    def parse_raw(self, messages: list) -> Any:
        """RawPromptTemplate messages: as the API model's parser returns them, or its refusal."""
        refusal = self.raw_refusal()
        if refusal and not messages:  # every parser maps a list to its items parsed: none, none refused
            return []
        if refusal:
            raise RenderError(refusal, hint="render this dataset with an API model (e.g. type=OpenAI), "
                              "or write the template as a PromptTemplate dialogue")
        if self.spec is None:
            return [dict(m) if isinstance(m, dict) else m for m in messages]
        return parse_for_api(messages, self.list_meta)

    def _has_multimodal(self, prompt: list) -> bool:
        """Whether any item carries prompt_mm (asked once per prepared template: structural)."""
        source = getattr(prompt, "filled_from", None)
        if source is not None:
            seen = self.__dict__.setdefault("_multimodal_seen", {})
            hit = seen.get(id(source))
            if hit is not None and hit[0] is source:
                return hit[1]
        found = any(isinstance(item, dict) and "prompt_mm" in item for item in prompt)
        if source is not None:
            if len(seen) > 256:
                seen.clear()
            seen[id(source)] = (source, found)
        return found

    def parse(self, prompt: PromptType, mode: str) -> Any:
        if is_raw_messages(prompt):
            return self.parse_raw(prompt)  # type: ignore[arg-type]
        if self.list_meta is not None and not isinstance(prompt, str):
            raise RenderError(
                "this model's meta template is a list of messages, which OpenCompass's "
                "APITemplateParser only merges into raw messages (RawPromptTemplate); a PromptList "
                "fails on it (TypeError: list indices must be integers or slices, not str)",
                hint="give the model a dict meta template (round=[...]) for PromptTemplate datasets",
            )
        if not isinstance(prompt, str) and not self._keeps_multimodal and self._has_multimodal(prompt):
            self.notes.warn(
                "this model's template parser reads only `prompt`, so the multimodal `prompt_mm` "
                "parts are dropped and the turn is sent empty (only AISBench API-style models "
                "send them)"
            )
        try:
            parsed = self.parser.parse(prompt, mode)
            return to_chat_messages(parsed) if self.kind == CHAT else parsed
        except BUILDER_FAILURES as exc:  # no builder takes a render down: this pair fails, said once
            in_model = self.meta_template is not None
            raise builder_failed(f"{self.class_name}'s meta template parser", exc, in_model=in_model,
                                 key_path=("meta_template",) if in_model else ("infer_cfg",)) from None
