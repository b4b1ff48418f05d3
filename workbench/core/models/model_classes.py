"""What each model class of OpenCompass 0.5.4 and AISBench does with a prompt.

The workbench never imports the frameworks, yet it must turn a prompt template into exactly
what a given ``model.type`` would send.  That depends on facts buried in each wrapper class:
which template parser it builds (``LMTemplateParser`` → one string, ``APITemplateParser`` →
a list of ``{role, prompt}``), whether it falls back to a built-in meta template, whether it
throws the config's ``meta_template`` away, whether it then renders messages through a
tokenizer chat template (and what it does to that text), and whether PPL / log-likelihood
inference is possible at all.  This module records those facts, read from the sources of
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
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
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
    "ALL_MODEL_CLASSES",
    "FRAMEWORKS",
    "MODELS_PACKAGE",
    "MODEL_CLASSES",
    "OC_CHAT_DEFAULT_META_TEMPLATE",
    "OUT_OF_SCOPE_CLASSES",
    "AmbiguousModelClassError",
    "ChatTemplateHandling",
    "Framework",
    "Kind",
    "MetaTemplateHandling",
    "ModelClassInfo",
    "frameworks_defining",
    "iter_model_classes",
    "lookup_model_class",
    "ppl_refusal",
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
# Table construction helpers
# ---------------------------------------------------------------------------

_OC = "opencompass"
_AIS = "ais_bench"
_OCM = "opencompass.models"
_AISM = "ais_bench.benchmark.models"

_OC_DEFAULT_RULE = (
    "BaseModel.__init__ builds LMTemplateParser(meta_template) from the config value."
)
_OC_API_RULE = (
    "BaseAPIModel.__init__ builds APITemplateParser(meta_template) from the config value."
)
_AIS_API_RULE = (
    "BaseAPIModel.__init__ builds APITemplateParser(meta_template or None) from the config value."
)
_AIS_LM_API_RULE = (
    "BaseAPIModel.__init__ builds APITemplateParser, then __init__ replaces it with "
    "LMTemplateParser(meta_template): a completion-style endpoint takes one string."
)
_OC_CHAT_RULE = (
    "_get_meta_template(meta_template) → APITemplateParser(meta_template or "
    "OC_CHAT_DEFAULT_META_TEMPLATE)."
)
_AIS_CHAT_RULE = (
    "_get_meta_template(meta_template) → APITemplateParser(meta_template or "
    "AIS_CHAT_DEFAULT_META_TEMPLATE)."
)
_OC_NO_PPL_API = (
    "Inherits BaseAPIModel.get_ppl, which raises NotImplementedError: API models cannot do PPL."
)
_AIS_STREAM_PPL = (
    "stream is forced to True, so a PPL request carries stream=true and the SSE reply cannot "
    "be parsed as JSON; every PPL request fails (PPLInferencer only refuses up front when the "
    "config itself says stream=True)."
)


def _info(
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


def _oc_api(
    name: str,
    module: str,
    *,
    bases: tuple[str, ...] = ("BaseAPIModel",),
    registered: bool = False,
    exported: bool = True,
    extra_import_paths: tuple[str, ...] = (),
    notes: tuple[str, ...] = (),
) -> ModelClassInfo:
    """An OpenCompass hosted-API wrapper: plain BaseAPIModel behaviour, no PPL."""
    return _info(
        name,
        _OC,
        f"{_OCM}.{module}",
        bases,
        "api",
        is_api=True,
        exported=exported,
        registry_names=(name,) if registered else (),
        parser_rule=_OC_API_RULE,
        extra_import_paths=extra_import_paths,
        notes=(_OC_NO_PPL_API, *notes),
    )


# ---------------------------------------------------------------------------
# Chat-template behaviours
# ---------------------------------------------------------------------------

_HF_CHAT = ChatTemplateHandling(
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

_OC_VLLM_CHAT = ChatTemplateHandling(
    template_owner="tokenizer",
    passes_chat_template_kwargs=True,
    strips_leading_bos_token=False,
    honours_fastchat_template=True,
    multimodal=False,
    tokenization=(
        "tokenizer.encode(rendered, add_special_tokens=False) is sent as prompt_token_ids "
        "next to the text; on the fastchat path plain strings go to vLLM, which tokenises them "
        "itself."
    ),
)

_OC_TURBOMIND_CHAT = ChatTemplateHandling(
    template_owner="tokenizer",
    passes_chat_template_kwargs=False,
    strips_leading_bos_token=True,
    honours_fastchat_template=True,
    multimodal=False,
    tokenization=(
        "The text goes to an LMDeploy pipeline with do_preprocess=False, which tokenises with "
        "special tokens; hence a leading tokenizer.bos_token (when the tokenizer has one) is "
        "removed from the rendered text first.  Not done on the fastchat path."
    ),
)

_AIS_QWEN2VL_CHAT = ChatTemplateHandling(
    template_owner="processor",
    passes_chat_template_kwargs=False,
    strips_leading_bos_token=False,
    honours_fastchat_template=False,
    multimodal=True,
    tokenization=(
        "AutoProcessor.apply_chat_template over the whole batch, then processor(text=..., "
        "images=..., videos=..., padding=True) with default special-token handling."
    ),
)

_AIS_VLLM_VL_CHAT = ChatTemplateHandling(
    template_owner="processor",
    passes_chat_template_kwargs=False,
    strips_leading_bos_token=False,
    honours_fastchat_template=False,
    multimodal=True,
    tokenization=(
        "processor.apply_chat_template over the batch, but only the first rendered text is "
        "sent to vLLM (with the images as multi_modal_data); vLLM tokenises it itself."
    ),
)


# ---------------------------------------------------------------------------
# OpenCompass 0.5.4
# ---------------------------------------------------------------------------

_OPENCOMPASS: tuple[ModelClassInfo, ...] = (
    _info(
        "BaseModel", _OC, f"{_OCM}.base", (), "lm",
        is_api=False, abstract=True, parser_rule=_OC_DEFAULT_RULE,
        notes=(
            "get_ppl / get_loglikelihood are not implemented here; get_ppl raises "
            "NotImplementedError ('... does not support ppl-based evaluation yet').",
        ),
    ),
    _info(
        "BaseAPIModel", _OC, f"{_OCM}.base_api", ("BaseModel",), "api",
        is_api=True, abstract=True, parser_rule=_OC_API_RULE,
        notes=(
            "Does not call BaseModel.__init__; sets template_parser itself.",
            "APITemplateParser without a meta template returns one '\\n'-joined string, so a "
            "subclass then usually sends it as a single user message.",
        ),
    ),
    # --- local HuggingFace-style LMs -------------------------------------------------
    _info(
        "HuggingFace", _OC, f"{_OCM}.huggingface", ("BaseModel",), "lm",
        is_api=False, registry_names=("HuggingFace",), ppl=True, ll=True,
        parser_rule=_OC_DEFAULT_RULE,
        notes=(
            "use_fastchat_template=True wraps each parsed string as the user turn of FastChat's "
            "'vicuna' conversation template before tokenising.",
            "mode='mid' drops the middle of over-long inputs (decode of first and last halves).",
            "Also implements get_mink_percent.",
        ),
    ),
    _info(
        "HuggingFaceCausalLM", _OC, f"{_OCM}.huggingface", ("HuggingFace",), "lm",
        is_api=False, registry_names=("HuggingFaceCausalLM",), ppl=True, ll=True,
        parser_rule=_OC_DEFAULT_RULE,
        notes=("Only the model loader differs from HuggingFace (AutoModelForCausalLM only).",),
    ),
    _info(
        "HuggingFaceChatGLM3", _OC, f"{_OCM}.huggingface", ("HuggingFace",), "api",
        is_api=False, ppl=True, ll=True,
        parser_rule=(
            "HuggingFace/BaseModel build LMTemplateParser first; __init__ then replaces it "
            "with APITemplateParser(meta_template)."
        ),
        notes=(
            "generate maps HUMAN/BOT/SYSTEM (upper-cased) to user/assistant/system, passes the "
            "last message's content as the query and the rest as history to model.chat(): "
            "ChatGLM3's own prompt builder, not tokenizer.apply_chat_template.",
            "get_ppl / get_loglikelihood are inherited from HuggingFace and expect strings, so "
            "they only work while the parser yields strings (no meta template).",
        ),
    ),
    _info(
        "ModelScope", _OC, f"{_OCM}.modelscope", ("HuggingFace",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
        notes=("HuggingFace behaviour with ModelScope loaders.",),
    ),
    _info(
        "ModelScopeCausalLM", _OC, f"{_OCM}.modelscope", ("ModelScope",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
    ),
    _info(
        "HuggingFacewithChatTemplate", _OC, f"{_OCM}.huggingface_above_v4_33", ("BaseModel",),
        "chat_template", handling="config_or_default", default=OC_CHAT_DEFAULT_META_TEMPLATE,
        is_api=False, registry_names=("HuggingFacewithChatTemplate",),
        parser_rule=_OC_CHAT_RULE, chat=_HF_CHAT,
        notes=(
            "No get_ppl (only get_ppl_tokenwise), so PPL datasets fail with NotImplementedError.",
            "Does not call BaseModel.__init__.",
            "mode='mid' keeps the first and last halves of the token ids after rendering.",
            "Stop words: config stop_words plus the generation config's eos tokens and "
            "tokenizer.eos_token.",
        ),
    ),
    _info(
        "HuggingFaceBaseModel", _OC, f"{_OCM}.huggingface_above_v4_33",
        ("HuggingFacewithChatTemplate",), "lm", handling="ignored",
        is_api=False, ppl=True, ll=True,
        parser_rule="Always LMTemplateParser() — no meta template whatever the config says.",
        notes=(
            "meta_template is not a parameter: it lands in **other_kwargs and is only logged "
            "as 'Unused argument meta_template=...'.",
            "Not registered in MODELS although exported; configs name it by class object.",
            "drop_middle=True keeps the first and last max_seq_len//2 token ids.",
        ),
    ),
    _info(
        "VLLM", _OC, f"{_OCM}.vllm", ("BaseModel",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
        notes=(
            "use_fastchat_template is accepted and stored but never used.",
            "mode='mid' re-decodes over-long inputs from their first and last halves.",
        ),
    ),
    _info(
        "VLLMwithChatTemplate", _OC, f"{_OCM}.vllm_with_tf_above_v4_33", ("BaseModel",),
        "chat_template", handling="config_or_default", default=OC_CHAT_DEFAULT_META_TEMPLATE,
        is_api=False, parser_rule=_OC_CHAT_RULE, chat=_OC_VLLM_CHAT,
        notes=(
            "chat_template_kwargs (e.g. {'enable_thinking': False}) reach apply_chat_template "
            "in generate, but get_token_len renders without them.",
            "No get_ppl / get_loglikelihood.",
        ),
    ),
    _info(
        "TurboMindModel", _OC, f"{_OCM}.turbomind", ("BaseModel",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
        notes=("Strings go to LMDeploy with do_preprocess=False (no LMDeploy chat template).",),
    ),
    _info(
        "TurboMindModelwithChatTemplate", _OC, f"{_OCM}.turbomind_with_tf_above_v4_33",
        ("BaseModel",), "chat_template", handling="config_or_default",
        default=OC_CHAT_DEFAULT_META_TEMPLATE, is_api=False, parser_rule=_OC_CHAT_RULE,
        chat=_OC_TURBOMIND_CHAT,
        notes=(
            "With drop_middle=True a PromptList input is replaced by its *first* item's prompt "
            "(a plain string, later one user message) before the chat template is applied.",
            "No get_ppl / get_loglikelihood.",
        ),
    ),
    _info(
        "TurboMindAPIModel", _OC, f"{_OCM}.turbomind_api", ("BaseModel",), "lm",
        is_api=True, exported=False, ppl=True, ll=True,
        parser_rule="Sets LMTemplateParser(meta_template) again after BaseModel.__init__.",
        notes=(
            "Not exported from opencompass.models and not registered: reachable only as "
            "opencompass.models.turbomind_api.TurboMindAPIModel.",
            "An LMDeploy api_server client that sends the string to /v1/completions.",
        ),
    ),
    _info(
        "LightllmAPI", _OC, f"{_OCM}.lightllm_api", ("BaseModel",), "lm",
        is_api=True, registry_names=("LightllmAPI",), ppl=True,
        parser_rule=_OC_DEFAULT_RULE,
        notes=(
            "A BaseModel (one string) although is_api=True.",
            "generate ignores max_out_len; max_new_tokens comes from generation_kwargs "
            "(default 1024).",
        ),
    ),
    _info(
        "GLM130B", _OC, f"{_OCM}.glm", ("BaseModel",), "lm",
        is_api=False, registry_names=("GLM-130B",), ppl=True,
        parser_rule="Sets LMTemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=("Registered only under the name 'GLM-130B', not 'GLM130B'.",),
    ),
    _info(
        "AlayaLM", _OC, f"{_OCM}.alaya", ("BaseModel",), "lm",
        is_api=False, ppl=True,
        parser_rule="Sets LMTemplateParser(meta_template) itself (no BaseModel.__init__).",
    ),
    _info(
        "InternLM", _OC, f"{_OCM}.intern_model", ("BaseModel",), "lm",
        is_api=False, ppl=True,
        parser_rule="Sets LMTemplateParser(meta_template) itself (no BaseModel.__init__).",
    ),
    _info(
        "InternTrain", _OC, f"{_OCM}.interntrain", ("BaseModel",), "lm",
        is_api=False, registry_names=("InternTrain",), ppl=True, ll=True,
        parser_rule=_OC_DEFAULT_RULE,
        notes=("A meta_template 'eos_token_id' is added to the generator's eos ids.",),
    ),
    _info(
        "Llama2", _OC, f"{_OCM}.llama2", ("BaseModel",), "api",
        is_api=False, ppl=True, ll=True,
        parser_rule="Sets APITemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=(
            "A base LM behind an API parser: generate/get_ppl encode strings, so it only works "
            "without a meta template (the parser then joins prompts with '\\n').",
        ),
    ),
    _info(
        "Llama2Chat", _OC, f"{_OCM}.llama2", ("BaseModel",), "api",
        is_api=False,
        parser_rule="Sets APITemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=(
            "Messages (HUMAN/BOT/SYSTEM → user/assistant/system, other roles raise) go to Meta's "
            "llama chat_completion, which applies its own [INST] format — no HF chat template.",
        ),
    ),
    _info(
        "Mixtral", _OC, f"{_OCM}.mixtral", ("BaseModel",), "api",
        is_api=False, ppl=True,
        parser_rule="Sets APITemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=("Like Llama2: encodes strings, so usable only without a meta template.",),
    ),
    _info(
        "LLaMA2AccessoryModel", _OC, f"{_OCM}.accessory", ("BaseModel",), "api",
        is_api=False, ppl=True,
        parser_rule="Sets APITemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=("Passes the parsed prompts straight to accessory MetaModel.generate.",),
    ),
    # --- hosted-API wrappers ---------------------------------------------------------
    _oc_api("AI360GPT", "ai360_api"),
    _oc_api("BaiChuan", "baichuan_api"),
    _oc_api("ERNIEBot", "baidu_api"),
    _oc_api("BailingAPI", "bailing_api_oc"),
    _oc_api("BlueLMAPI", "bluelm_api"),
    _oc_api("ByteDance", "bytedance_api"),
    _oc_api("ClaudeAllesAPIN", "claude_allesapin", registered=True),
    _oc_api(
        "Claude", "claude_api.claude_api", registered=True,
        extra_import_paths=(f"{_OCM}.claude_api",),
    ),
    _oc_api("ClaudeSDK", "claude_sdk_api", registered=True),
    _oc_api("DeepseekAPI", "deepseek_api"),
    _oc_api(
        "Doubao", "doubao_api",
        notes=("The Doubao exported by opencompass.models (volcengine Ark, accesskey/secretkey).",),
    ),
    _oc_api(
        "Doubao", "doubao", exported=False,
        notes=(
            "A second, older class also named Doubao (endpoint_id/access_key/secret_key); "
            "reachable only as opencompass.models.doubao.Doubao.",
        ),
    ),
    _oc_api("Gemini", "gemini_api"),
    _oc_api("GeminiSDK", "gemini_sdk_api", registered=True),
    _oc_api("Hunyuan", "hunyuan_api"),
    _oc_api("KrGPT", "krgpt_api", registered=True),
    _oc_api(
        "LightllmChatAPI", "lightllm_api",
        notes=(
            "Every non-BOT role, SYSTEM included, is sent as 'user'; consecutive same-role "
            "items are joined with '\\n'.",
        ),
    ),
    _oc_api("LiteLLMAPI", "litellm_api", registered=True),
    _oc_api("MiniMax", "minimax_api"),
    _oc_api("MiniMaxChatCompletionV2", "minimax_api"),
    _oc_api("Mistral", "mistral_api"),
    _oc_api("MoonShot", "moonshot_api"),
    _oc_api("Nanbeige", "nanbeige_api"),
    _oc_api(
        "OpenAI", "openai_api", registered=True,
        notes=(
            "HUMAN/BOT/SYSTEM → user/assistant/system; a list already made of "
            "system/user/assistant {role, content} dicts is sent as is.",
        ),
    ),
    _oc_api("OpenAISDK", "openai_api", bases=("OpenAI",), registered=True),
    _oc_api("OpenAISDKRollout", "openai_api", bases=("OpenAI",), registered=True),
    _oc_api("OpenAISDKResponse", "openai_response", bases=("OpenAI",), registered=True),
    _oc_api("OpenAISDKStreaming", "openai_streaming", bases=("OpenAISDK",), registered=True),
    _oc_api("PanGu", "pangu_api"),
    _oc_api("Qwen", "qwen_api"),
    _oc_api("Rendu", "rendu_api"),
    _oc_api("SenseTime", "sensetime_api"),
    _oc_api("StepFun", "stepfun_api"),
    _oc_api(
        "TeleChat", "telechat_api.telechat_api",
        extra_import_paths=(f"{_OCM}.telechat_api",),
    ),
    _oc_api(
        "TeleChatStream", "telechat_api.telechat_api_streaming",
        extra_import_paths=(f"{_OCM}.telechat_api",),
    ),
    _oc_api("UniGPT", "unigpt_api"),
    _oc_api("XunFei", "xunfei_api"),
    _oc_api("XunFeiSpark", "xunfei_api"),
    _oc_api("Yayi", "yayi_api"),
    _oc_api("YiAPI", "yi_api"),
    _oc_api("ZhiPuAI", "zhipuai_api"),
    _oc_api("ZhiPuV2AI", "zhipuai_v2_api"),
)


# ---------------------------------------------------------------------------
# AISBench (ais-bench-benchmark 3.1.20260630)
# ---------------------------------------------------------------------------

_AIS_NO_LOCAL_PPL = (
    "AISBench's PPLInferencer is an API inferencer that awaits model.get_ppl(prompt, "
    "max_out_len, output, session=...); local classes have no get_ppl, so PPL fails."
)


def _ais_api_lm(
    name: str, module: str, *, bases: tuple[str, ...] = ("BaseAPIModel",),
    registered: bool, ppl: bool = False, notes: tuple[str, ...] = (),
) -> ModelClassInfo:
    """An AISBench completion-style endpoint client (one string per request)."""
    return _info(
        name, _AIS, f"{_AISM}.api_models.{module}", bases, "lm",
        is_api=True, registry_names=(name,) if registered else (), ppl=ppl,
        parser_rule=_AIS_LM_API_RULE, notes=notes,
    )


def _ais_chat_api(
    name: str, *, bases: tuple[str, ...], ppl: bool, notes: tuple[str, ...] = (),
) -> ModelClassInfo:
    """VLLMCustomAPIChat and its deprecated subclasses (all share its __init__)."""
    return _info(
        name, _AIS, f"{_AISM}.api_models.vllm_custom_api_chat", bases, "api",
        handling="config_or_default", default=AIS_CHAT_DEFAULT_META_TEMPLATE,
        is_api=True, registry_names=(name,), ppl=ppl,
        parser_rule=(
            "BaseAPIModel builds APITemplateParser(config value), then __init__ presets "
            "self.meta_template = config value or AIS_CHAT_DEFAULT_META_TEMPLATE and rebuilds "
            "APITemplateParser from it."
        ),
        notes=(
            "Items become {'role': ROLE_MAP.get(role, role), 'content': prompt} with "
            "HUMAN/BOT/SYSTEM/TOOL → user/assistant/system/tool; unknown roles pass through and "
            "every extra key of an item is copied into the message.",
            "Sent to v1/chat/completions; the server applies the chat template.",
            *notes,
        ),
    )


_AISBENCH: tuple[ModelClassInfo, ...] = (
    _info(
        "BaseModel", _AIS, f"{_AISM}.local_models.base", (), "lm",
        is_api=False, abstract=True,
        parser_rule="BaseModel.__init__ builds LMTemplateParser(meta_template).",
        notes=("Defines no get_ppl at all (OpenCompass's BaseModel has an abstract one).",),
    ),
    _info(
        "BaseLMModel", _AIS, f"{_AISM}.local_models.base", ("BaseModel",), "lm",
        is_api=False, abstract=True, exported=False,
        parser_rule="Inherits BaseModel.__init__ (LMTemplateParser(meta_template)).",
    ),
    _info(
        "BaseAPIModel", _AIS, f"{_AISM}.api_models.base_api", ("BaseModel",), "api",
        is_api=True, abstract=True, parser_rule=_AIS_API_RULE,
        notes=(
            "get_ppl exists but calls get_ppl_request_body, which raises 'PPL is not supported "
            "for this model.' unless a subclass implements it.",
            "Without a meta template the API parser returns the '\\n'-joined string (or the "
            "collected prompt_mm parts for multimodal items).",
        ),
    ),
    _ais_api_lm(
        "VLLMCustomAPI", "vllm_custom_api", registered=True, ppl=True,
        notes=("Sends the string as 'prompt' to v1/completions; PPL adds prompt_logprobs=0.",),
    ),
    _ais_api_lm(
        "VLLMCustomAPIStream", "vllm_custom_api", bases=("VLLMCustomAPI",), registered=False,
        notes=("Deprecated alias of VLLMCustomAPI with stream forced to True.", _AIS_STREAM_PPL),
    ),
    _ais_chat_api(
        "VLLMCustomAPIChat", bases=("BaseAPIModel",), ppl=True,
        notes=("PPL sends the chat request with prompt_logprobs=0.",),
    ),
    _ais_chat_api(
        "VLLMFunctionCallAPIChat", bases=("VLLMCustomAPIChat",), ppl=True,
        notes=("Deprecated alias of VLLMCustomAPIChat with stream forced to False.",),
    ),
    _ais_chat_api(
        "VLLMCustomAPIChatStream", bases=("VLLMCustomAPIChat",), ppl=False,
        notes=("Deprecated alias with stream forced to True.", _AIS_STREAM_PPL),
    ),
    _ais_chat_api(
        "VllmMultiturnAPIChatStream", bases=("VLLMCustomAPIChat",), ppl=False,
        notes=(
            "Deprecated alias with stream forced to True; a custom_client kwarg is dropped.",
            _AIS_STREAM_PPL,
        ),
    ),
    _ais_api_lm(
        "MindieStreamApi", "mindie_stream_api", registered=True,
        notes=("Always requests stream=True from MindIE's /infer (stream defaults to True).",),
    ),
    _ais_api_lm("TGICustomAPI", "tgi_api", registered=True),
    _ais_api_lm(
        "TGICustomAPIStream", "tgi_api", bases=("TGICustomAPI",), registered=False,
        notes=("Deprecated alias of TGICustomAPI with stream forced to True.",),
    ),
    _ais_api_lm("TritonCustomAPI", "triton_api", registered=True),
    _ais_api_lm(
        "TritonCustomAPIStream", "triton_api", bases=("TritonCustomAPI",), registered=False,
        notes=("Deprecated alias of TritonCustomAPI with stream forced to True.",),
    ),
    _info(
        "VITAGenerateAPI", _AIS, f"{_AISM}.api_models.vita_generate_api", ("BaseAPIModel",),
        "api", is_api=True, registry_names=("VITAGenerateAPI",), parser_rule=_AIS_API_RULE,
        notes=(
            "No default meta template.  The request 'prompt' is a list of typed parts "
            "(text / image_url / video_url / audio_url, file:// stripped), not role messages.",
        ),
    ),
    _info(
        "HuggingFace", _AIS, f"{_AISM}.local_models.huggingface", ("BaseModel",), "lm",
        is_api=False, registry_names=("HuggingFace",), ll=True,
        parser_rule="BaseModel.__init__ builds LMTemplateParser(meta_template).",
        notes=(
            _AIS_NO_LOCAL_PPL,
            "get_loglikelihood exists but no AISBench inferencer calls it.",
            "use_fastchat_template=True wraps the string in FastChat's 'vicuna' template.",
        ),
    ),
    _info(
        "HuggingFaceCausalLM", _AIS, f"{_AISM}.local_models.huggingface", ("HuggingFace",),
        "lm", is_api=False, registry_names=("HuggingFaceCausalLM",), ll=True,
        parser_rule="BaseModel.__init__ builds LMTemplateParser(meta_template).",
        notes=(_AIS_NO_LOCAL_PPL,),
    ),
    _info(
        "HuggingFaceChatGLM3", _AIS, f"{_AISM}.local_models.huggingface", ("HuggingFace",),
        "api", is_api=False, exported=False, ll=True,
        parser_rule=(
            "HuggingFace/BaseModel build LMTemplateParser first; __init__ then replaces it "
            "with APITemplateParser(meta_template)."
        ),
        notes=(
            "Not exported and not registered; reachable only by dotted path.",
            "Messages go to model.chat() (ChatGLM3's own prompt builder), as in OpenCompass.",
            _AIS_NO_LOCAL_PPL,
        ),
    ),
    _info(
        "HuggingFacewithChatTemplate", _AIS, f"{_AISM}.local_models.huggingface_above_v4_33",
        ("BaseModel",), "chat_template", handling="config_or_default",
        default=AIS_CHAT_DEFAULT_META_TEMPLATE, is_api=False,
        registry_names=("HuggingFacewithChatTemplate",), parser_rule=_AIS_CHAT_RULE,
        chat=_HF_CHAT,
        notes=(
            "Same rendering as OpenCompass's class of this name, but the default meta template "
            "keeps SYSTEM as a system message instead of folding it into the user turn.",
            _AIS_NO_LOCAL_PPL,
        ),
    ),
    _info(
        "HuggingFaceBaseModel", _AIS, f"{_AISM}.local_models.huggingface_above_v4_33",
        ("HuggingFacewithChatTemplate",), "lm", handling="ignored", is_api=False,
        parser_rule=(
            "Parent __init__ runs with meta_template=None, then the parser is replaced by "
            "LMTemplateParser()."
        ),
        notes=(
            "A config meta_template is not merely ignored: it lands in **other_kwargs and is "
            "passed to the parent next to meta_template=None, so construction fails with "
            "TypeError (multiple values for keyword argument 'meta_template').",
            "Not registered in MODELS although exported.",
            "No get_ppl and no get_loglikelihood (unlike OpenCompass's class of this name).",
        ),
    ),
    _info(
        "HuggingFaceQwen2VLwithChatTemplate", _AIS, f"{_AISM}.local_models.huggingface_vl",
        ("BaseModel",), "chat_template", handling="config_or_default",
        default=AIS_CHAT_DEFAULT_META_TEMPLATE, is_api=False,
        registry_names=("HuggingFaceQwen2VLwithChatTemplate",), parser_rule=_AIS_CHAT_RULE,
        chat=_AIS_QWEN2VL_CHAT,
        notes=(
            "Expects each input to be a one-item PromptList whose prompt is a list of typed "
            "parts; image_url/video_url parts become {'type': 'image'|'video', ...} with the "
            "vision_kwargs pixel limits.",
            "fastchat_template is accepted and stored but never used.",
            "max_new_tokens comes from the config's max_out_len, not the call argument.",
            _AIS_NO_LOCAL_PPL,
        ),
    ),
    _info(
        "VLLMOfflineVLModel", _AIS, f"{_AISM}.local_models.vllm_offline_vl", ("BaseModel",),
        "chat_template", handling="config_or_default", default=AIS_CHAT_DEFAULT_META_TEMPLATE,
        is_api=False, registry_names=("VLLMOfflineVLModel",), parser_rule=_AIS_CHAT_RULE,
        chat=_AIS_VLLM_VL_CHAT,
        notes=(
            "Does not call BaseModel.__init__.  Processor chosen by path: 'omni' → "
            "Qwen2_5OmniProcessor, '2.5'/'2_5'/'qwen25'/'mimo' → AutoProcessor, else "
            "Qwen2VLProcessor.",
            "Only image parts are converted; generate returns one string for the batch.",
            _AIS_NO_LOCAL_PPL,
        ),
    ),
    _info(
        "QwenImageEditModel", _AIS, f"{_AISM}.local_models.qwen_image_edit_mindie_sd",
        ("BaseLMModel",), "api", handling="config_or_default",
        default=AIS_CHAT_DEFAULT_META_TEMPLATE, is_api=False, exported=False,
        registry_names=("QwenImageEditModel",), parser_rule=_AIS_CHAT_RULE,
        notes=(
            "__init__ calls the module-level _get_meta_template imported from "
            "huggingface_above_v4_33, so the pass-through DummyTemplateParser of the method "
            "with the same name is dead code.",
            "An image-editing diffusion pipeline: text parts become prompts, image parts the "
            "images to edit; no chat template.",
            "Not exported, so its module is imported (and the class registered) only when "
            "something imports it explicitly.",
        ),
    ),
)


#: Classes under ``opencompass/models`` that wrap an agent framework rather than a model; they
#: have no template parser of OpenCompass's own, so the workbench cannot reproduce them.
OUT_OF_SCOPE_CLASSES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "LagentAgent": (
            "opencompass.models.lagent: template_parser is a property delegating to the wrapped "
            "lagent LLM (built by lagent's registry); prompts come from the agent protocol."
        ),
        "CodeAgent": "opencompass.models.lagent: a LagentAgent preset (ReAct + Python tool).",
        "LangchainAgent": (
            "opencompass.models.langchain: no template parser at all; LangChain builds prompts."
        ),
    }
)


def _index(records: tuple[ModelClassInfo, ...]) -> Mapping[str, tuple[ModelClassInfo, ...]]:
    """Group records by class name, exported definitions first within a framework."""
    grouped: dict[str, list[ModelClassInfo]] = {}
    for rec in records:
        grouped.setdefault(rec.name, []).append(rec)
    return MappingProxyType(
        {
            name: tuple(sorted(recs, key=lambda r: (FRAMEWORKS.index(r.framework), not r.exported)))
            for name, recs in sorted(grouped.items())
        }
    )


#: Every model class both frameworks ship, OpenCompass first.
ALL_MODEL_CLASSES: Final[tuple[ModelClassInfo, ...]] = _OPENCOMPASS + _AISBENCH

#: Class name → its definitions (one per framework; OpenCompass has two ``Doubao`` classes).
MODEL_CLASSES: Final[Mapping[str, tuple[ModelClassInfo, ...]]] = _index(ALL_MODEL_CLASSES)

#: Registry aliases that are not class names.
_REGISTRY_ALIASES: Final[Mapping[str, str]] = MappingProxyType({"GLM-130B": "GLM130B"})


# ---------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------


def iter_model_classes(
    framework: Framework | None = None, kind: Kind | None = None
) -> Iterator[ModelClassInfo]:
    """All records, optionally restricted to one framework and/or one kind."""
    for rec in ALL_MODEL_CLASSES:
        if framework is not None and rec.framework != framework:
            continue
        if kind is not None and rec.kind != kind:
            continue
        yield rec


def frameworks_defining(name: str) -> frozenset[str]:
    """Frameworks that ship a model class called ``name`` (bare name or registry alias)."""
    name = _REGISTRY_ALIASES.get(name, name)
    return frozenset(rec.framework for rec in MODEL_CLASSES.get(name, ()))


def _framework_of_module(module: str) -> Framework | None:
    for fw in FRAMEWORKS:
        root = fw
        if module == root or module.startswith(root + "."):
            return fw
    return None


def lookup_model_class(
    type_name: str, framework: Framework | None = None
) -> ModelClassInfo | None:
    """Find the record for a config's ``type``.

    Accepts a bare class name (``"OpenAI"``), a registry alias (``"GLM-130B"``), or a dotted
    path (``"opencompass.models.OpenAI"``, ``"opencompass.models.openai_api.OpenAI"``,
    ``"ais_bench.benchmark.models.VLLMCustomAPIChat"``).

    * A dotted path decides the framework by its first component and must name a module that
      defines or re-exports the class (``opencompass.models.doubao.Doubao`` selects the
      unexported second Doubao); ``framework`` is not needed and a path under any other
      package returns ``None`` — that is a user class, not the framework's.
    * A bare name is resolved like ``from <models package> import Name`` (exported definition
      first).  ``framework`` restricts the search; a name both frameworks define raises
      :class:`AmbiguousModelClassError` when ``framework`` is ``None``.

    Returns ``None`` for unknown names and for :data:`OUT_OF_SCOPE_CLASSES`.
    """
    if not isinstance(type_name, str):
        raise TypeError(f"type_name must be a str, got {type(type_name).__name__}")
    if framework is not None and framework not in FRAMEWORKS:
        raise ValueError(f"unknown framework {framework!r}; expected one of {FRAMEWORKS}")
    text = type_name.strip()
    if not text:
        return None

    module, _, name = text.rpartition(".")
    if module:
        path_framework = _framework_of_module(module)
        if path_framework is None:
            return None
        candidates = [r for r in MODEL_CLASSES.get(name, ()) if r.framework == path_framework]
        for rec in candidates:
            if rec.module == module:
                return rec
        for rec in candidates:
            if module in rec.import_paths:
                return rec
        return None

    name = _REGISTRY_ALIASES.get(text, text)
    candidates = list(MODEL_CLASSES.get(name, ()))
    if framework is not None:
        candidates = [r for r in candidates if r.framework == framework]
    if not candidates:
        return None
    found = tuple(dict.fromkeys(r.framework for r in candidates))
    if len(found) > 1:
        raise AmbiguousModelClassError(name, found)
    return candidates[0]


def ppl_refusal(
    info: ModelClassInfo, model_cfg: Mapping[str, Any] | None = None
) -> str | None:
    """Why the framework would fail a PPL (perplexity) inference with this model, or ``None``.

    The message mirrors where the framework stops: AISBench's ``PPLInferencer`` refuses a
    config with ``stream=True`` before anything else; OpenCompass raises
    ``NotImplementedError`` from ``BaseModel.get_ppl``; AISBench API models without a PPL
    request body raise "PPL is not supported for this model."
    """
    cfg = model_cfg or {}
    if info.framework == "ais_bench":
        if cfg.get("stream") == True:  # noqa: E712 - the framework compares with == True
            return "Stream mode is not supported for PPL inference"
        if info.supports_ppl:
            return None
        if not info.is_api:
            return (
                f"{info.name} is a local model; AISBench's PPLInferencer only drives API models "
                "through their async get_ppl"
            )
        return f"{info.name}: PPL is not supported for this model."
    if info.supports_ppl:
        return None
    return (
        f"{info.name} does not support ppl-based evaluation yet, try gen-based instead."
    )
