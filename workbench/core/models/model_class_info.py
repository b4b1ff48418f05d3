"""What each model class of OpenCompass 0.5.4 and AISBench does with a prompt.

The workbench never imports the frameworks, yet it must turn a prompt template into exactly
what a given ``model.type`` would send.  That depends on facts buried in each wrapper class:
which template parser it builds (``LMTemplateParser`` → one string, ``APITemplateParser`` →
a list of ``{role, prompt}``), whether it falls back to a built-in meta template, whether it
throws the config's ``meta_template`` away, whether it then renders messages through a
tokenizer chat template (and what it does to that text), and whether PPL / log-likelihood
inference is possible at all.  The model class modules record those facts, read from the sources of
``opencompass/models/**`` and ``ais_bench/benchmark/models/**``, as plain frozen data.

Nothing here is copied from the frameworks; the tables are hand-written descriptions.

Vocabulary
----------
``kind``
    ``"lm"``: the class parses with ``LMTemplateParser`` and the model receives one string.
    ``"api"``: the class parses with ``APITemplateParser``; with a meta template the result is
    a list of ``{role, prompt}`` items, without one it is a single ``"\\n"``-joined string.
    ``"chat_template"``: ``APITemplateParser`` first, then the list is turned into chat
    messages ``[{role: system|user|assistant, content}]`` and rendered by the tokenizer's (or
    processor's) chat template; :class:`ChatTemplateHandling` says how.
``meta_template_handling``
    ``"config"``: the parser gets the config's ``meta_template`` as is (``None`` → none).
    ``"config_or_default"``: a falsy config value (absent, ``None``, ``{}``) is replaced by the
    class's :attr:`ModelClassInfo.default_meta_template`.
    ``"ignored"``: the class always builds a parser without a meta template.

This module holds that vocabulary, the record type and the record builder; the tables are in
:mod:`.opencompass_classes` and :mod:`.aisbench_classes`, the lookups in :mod:`.model_classes`.
May import: the standard library only.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal

Framework = Literal["opencompass", "ais_bench"]
Kind = Literal["lm", "api", "chat_template"]
MetaTemplateHandling = Literal["config", "config_or_default", "ignored"]

FRAMEWORKS: Final[tuple[Framework, ...]] = ("opencompass", "ais_bench")

#: The package each framework's configs import model classes from.
MODELS_PACKAGE: Final[Mapping[str, str]] = MappingProxyType(
    {"opencompass": "opencompass.models", "ais_bench": "ais_bench.benchmark.models"}
)

__all__ = [
    "AIS_CHAT_DEFAULT_META_TEMPLATE",
    "FRAMEWORKS",
    "HF_CHAT",
    "MODELS_PACKAGE",
    "OC_CHAT_DEFAULT_META_TEMPLATE",
    "AmbiguousModelClassError",
    "ChatTemplateHandling",
    "Framework",
    "Kind",
    "MetaTemplateHandling",
    "ModelClassInfo",
    "class_record",
    "thaw",
]


# ---------------------------------------------------------------------------
# Freezing helpers
# ---------------------------------------------------------------------------


def _freeze(value: Any) -> Any:
    """Deep read-only copy: dicts → ``MappingProxyType``, lists → tuples.

    The table is shared module state; freezing keeps one caller from corrupting the defaults
    every other caller sees.
    """
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Plain, mutable deep copy of a frozen structure (mappings → dicts, tuples → lists).

    Meta templates are written with lists in configs, so tuples come back as lists.
    """
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return copy.deepcopy(value)


# ---------------------------------------------------------------------------
# Default meta templates (exact contents of the frameworks' built-in fallbacks)
# ---------------------------------------------------------------------------

#: OpenCompass ``_get_meta_template`` in ``huggingface_above_v4_33.py`` (also used by the vLLM
#: and LMDeploy chat-template classes).  SYSTEM sits *inside* the round and is mapped to the
#: HUMAN api_role on purpose, so a system prompt ends up as a ``user`` chat message (merged
#: with a neighbouring user message by ``"\n"``), never as a ``system`` message.
OC_CHAT_DEFAULT_META_TEMPLATE: Final[Mapping[str, Any]] = _freeze(
    {
        "round": [
            {"role": "HUMAN", "api_role": "HUMAN"},
            {"role": "SYSTEM", "api_role": "HUMAN"},
            {"role": "BOT", "api_role": "BOT", "generate": True},
        ]
    }
)

#: AISBench ``_get_meta_template`` in ``local_models/huggingface_above_v4_33.py``; the same
#: dict is preset by ``VLLMCustomAPIChat.__init__``.  SYSTEM is a reserved role with api_role
#: SYSTEM, so a system prompt stays a ``system`` message.
AIS_CHAT_DEFAULT_META_TEMPLATE: Final[Mapping[str, Any]] = _freeze(
    {
        "round": [
            {"role": "HUMAN", "api_role": "HUMAN"},
            {"role": "BOT", "api_role": "BOT", "generate": True},
        ],
        "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}],
    }
)

#: Role mapping shared by every chat-template class (``_convert_chat_messages`` in both
#: frameworks).  Any other role is a ``KeyError`` there.
_CHAT_ROLE_MAP: Final[Mapping[str, str]] = _freeze(
    {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}
)


# ---------------------------------------------------------------------------
# Data classes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChatTemplateHandling:
    """How a chat-template class turns the parsed PromptList into the text it feeds the engine.

    Common to all of them (so recorded once, as fields with these values): every
    ``{role, prompt}`` item whose prompt is empty is dropped, roles are mapped with
    :attr:`role_map`, consecutive messages of the same role are merged with ``"\\n"``, a bare
    string becomes one ``user`` message, and the template is applied with
    ``add_generation_prompt=True, tokenize=False``.
    """

    #: Which object's ``apply_chat_template`` renders the messages: the HF ``tokenizer`` or a
    #: multimodal ``processor`` (AutoProcessor / Qwen2VLProcessor ...).
    template_owner: Literal["tokenizer", "processor"]
    #: ``chat_template_kwargs`` from the config is splatted into ``apply_chat_template``
    #: (e.g. ``enable_thinking``).  Only OpenCompass ``VLLMwithChatTemplate`` does this.
    passes_chat_template_kwargs: bool
    #: A leading ``tokenizer.bos_token`` is removed from the rendered text (LMDeploy would add
    #: it again when tokenising).  Only OpenCompass ``TurboMindModelwithChatTemplate``.
    strips_leading_bos_token: bool
    #: A truthy ``fastchat_template`` config value replaces the chat template with FastChat's
    #: conversation template of that name (system messages are dropped on that path).
    honours_fastchat_template: bool
    #: Message contents may be lists of multimodal parts (image/video) rather than strings.
    multimodal: bool
    #: How the rendered text becomes tokens, in words (special-token handling differs).
    tokenization: str
    role_map: Mapping[str, str] = field(default_factory=lambda: _CHAT_ROLE_MAP, hash=False)
    merge_joiner: str = "\n"
    merges_consecutive_roles: bool = True
    skips_empty_prompts: bool = True
    add_generation_prompt: bool = True


@dataclass(frozen=True)
class ModelClassInfo:
    """Facts about one model class as one framework defines it.

    Two frameworks (and, once, two modules of OpenCompass) may define classes with the same
    name but different behaviour, hence one record per definition.
    """

    name: str
    framework: Framework
    #: Dotted module that defines the class.
    module: str
    #: Direct base classes, by name.
    bases: tuple[str, ...]
    kind: Kind
    meta_template_handling: MetaTemplateHandling
    #: Class attribute ``is_api``; the inferencers use it for batching/concurrency decisions.
    is_api: bool
    #: Importable from the framework's models package (``opencompass.models.<name>``).
    exported: bool
    #: Names under which the class is registered in the framework's ``MODELS`` registry
    #: (empty: buildable only from a class object or dotted path, not a bare string).
    registry_names: tuple[str, ...]
    #: ``get_ppl`` is implemented (so PPLInferencer can run).  For AISBench this means the
    #: async API path works: ``get_ppl_request_body`` + ``get_prompt_logprobs`` implemented.
    supports_ppl: bool
    #: ``get_loglikelihood`` is implemented (OpenCompass LLInferencer).
    supports_loglikelihood: bool
    #: How ``template_parser`` is chosen, in words — the rule when it is dynamic.
    parser_rule: str
    default_meta_template: Mapping[str, Any] | None = field(default=None, hash=False)
    chat_template: ChatTemplateHandling | None = None
    #: Base classes that no config should name directly.
    abstract: bool = False
    #: Dotted modules the class can be imported from (defining module first).
    import_paths: tuple[str, ...] = ()
    #: Quirks worth knowing, each a sentence saying what and why.
    notes: tuple[str, ...] = ()

    @property
    def qualified_name(self) -> str:
        """``module.Name`` — what a dumped config's ``type`` looks like for this class."""
        return f"{self.module}.{self.name}"

    @property
    def parser(self) -> Literal["LMTemplateParser", "APITemplateParser"]:
        """Name of the template parser class the model ends up with."""
        return "LMTemplateParser" if self.kind == "lm" else "APITemplateParser"

    @property
    def ignores_config_meta_template(self) -> bool:
        """True when the config's ``meta_template`` never reaches the parser."""
        return self.meta_template_handling == "ignored"

    def default_meta_template_dict(self) -> dict[str, Any] | None:
        """The built-in meta template as a fresh plain dict (``None`` if the class has none)."""
        if self.default_meta_template is None:
            return None
        return thaw(self.default_meta_template)

    def effective_meta_template(
        self, configured: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        """The meta template the class's parser is actually built with, as a plain dict.

        ``configured`` is the config's ``meta_template`` value (``None`` if absent).  Falsy
        values mean "no meta template" to both parsers, so they come back as ``None``.
        """
        if self.meta_template_handling == "ignored":
            return None
        if configured:
            return thaw(configured)
        if self.meta_template_handling == "config_or_default":
            return self.default_meta_template_dict()
        return None


class AmbiguousModelClassError(LookupError):
    """A bare class name that both frameworks define, looked up without a framework hint.

    Guessing would silently pick the wrong default meta template (OpenCompass and AISBench
    ``HuggingFacewithChatTemplate`` differ exactly there), so the caller must say which.
    """

    def __init__(self, name: str, frameworks: tuple[str, ...]) -> None:
        self.name = name
        self.frameworks = frameworks
        super().__init__(
            f"{name!r} is defined by {' and '.join(frameworks)}; pass framework= to choose"
        )


# ---------------------------------------------------------------------------
# Building records
# ---------------------------------------------------------------------------

def class_record(
    name: str,
    framework: Framework,
    module: str,
    bases: tuple[str, ...],
    kind: Kind,
    *,
    handling: MetaTemplateHandling = "config",
    is_api: bool,
    exported: bool = True,
    registry_names: tuple[str, ...] = (),
    ppl: bool = False,
    ll: bool = False,
    parser_rule: str,
    default: Mapping[str, Any] | None = None,
    chat: ChatTemplateHandling | None = None,
    abstract: bool = False,
    extra_import_paths: tuple[str, ...] = (),
    notes: tuple[str, ...] = (),
) -> ModelClassInfo:
    """Build one record, deriving ``import_paths`` from the export facts."""
    package = MODELS_PACKAGE[framework]
    paths = [module]
    paths.extend(p for p in extra_import_paths if p not in paths)
    if exported and package not in paths:
        paths.append(package)
    return ModelClassInfo(
        name=name,
        framework=framework,
        module=module,
        bases=bases,
        kind=kind,
        meta_template_handling=handling,
        is_api=is_api,
        exported=exported,
        registry_names=registry_names,
        supports_ppl=ppl,
        supports_loglikelihood=ll,
        parser_rule=parser_rule,
        default_meta_template=default,
        chat_template=chat,
        abstract=abstract,
        import_paths=tuple(paths),
        notes=notes,
    )


#: The chat-template behaviour of Hugging Face wrappers, shared by both frameworks' tables.
HF_CHAT = ChatTemplateHandling(
    template_owner="tokenizer",
    passes_chat_template_kwargs=False,
    strips_leading_bos_token=False,
    honours_fastchat_template=True,
    multimodal=False,
    tokenization=(
        "batch_encode_plus(rendered, add_special_tokens=False, truncation=True, "
        "max_length=max_seq_len): the chat template already contains any BOS.  On the "
        "fastchat path add_special_tokens=True instead."
    ),
)
