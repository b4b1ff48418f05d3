"""AISBench's (ais-bench-benchmark 3.1.20260630) model classes, one record each: what every
wrapper under ``ais_bench/benchmark/models/**`` does with a prompt (see :mod:`.model_class_info`
for the vocabulary).

Hand-written descriptions read from the framework's sources, nothing copied.
May import: :mod:`.model_class_info` only.
"""

from __future__ import annotations

from typing import Final

from .model_class_info import (
    AIS_CHAT_DEFAULT_META_TEMPLATE,
    HF_CHAT,
    ChatTemplateHandling,
    ModelClassInfo,
    class_record,
)

_AIS: Final = "ais_bench"
_AISM = "ais_bench.benchmark.models"

_AIS_API_RULE = (
    "BaseAPIModel.__init__ builds APITemplateParser(meta_template or None) from the config value."
)
_AIS_LM_API_RULE = (
    "BaseAPIModel.__init__ builds APITemplateParser, then __init__ replaces it with "
    "LMTemplateParser(meta_template): a completion-style endpoint takes one string."
)
_AIS_CHAT_RULE = (
    "_get_meta_template(meta_template) → APITemplateParser(meta_template or "
    "AIS_CHAT_DEFAULT_META_TEMPLATE)."
)
_AIS_STREAM_PPL = (
    "stream is forced to True, so a PPL request carries stream=true and the SSE reply cannot "
    "be parsed as JSON; every PPL request fails (PPLInferencer only refuses up front when the "
    "config itself says stream=True)."
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
    return class_record(
        name, _AIS, f"{_AISM}.api_models.{module}", bases, "lm",
        is_api=True, registry_names=(name,) if registered else (), ppl=ppl,
        parser_rule=_AIS_LM_API_RULE, notes=notes,
    )


def _ais_chat_api(
    name: str, *, bases: tuple[str, ...], ppl: bool, notes: tuple[str, ...] = (),
) -> ModelClassInfo:
    """VLLMCustomAPIChat and its deprecated subclasses (all share its __init__)."""
    return class_record(
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


#: Every model class AISBench ships.
AISBENCH_CLASSES: tuple[ModelClassInfo, ...] = (
    class_record(
        "BaseModel", _AIS, f"{_AISM}.local_models.base", (), "lm",
        is_api=False, abstract=True,
        parser_rule="BaseModel.__init__ builds LMTemplateParser(meta_template).",
        notes=("Defines no get_ppl at all (OpenCompass's BaseModel has an abstract one).",),
    ),
    class_record(
        "BaseLMModel", _AIS, f"{_AISM}.local_models.base", ("BaseModel",), "lm",
        is_api=False, abstract=True, exported=False,
        parser_rule="Inherits BaseModel.__init__ (LMTemplateParser(meta_template)).",
    ),
    class_record(
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
    class_record(
        "VITAGenerateAPI", _AIS, f"{_AISM}.api_models.vita_generate_api", ("BaseAPIModel",),
        "api", is_api=True, registry_names=("VITAGenerateAPI",), parser_rule=_AIS_API_RULE,
        notes=(
            "No default meta template.  The request 'prompt' is a list of typed parts "
            "(text / image_url / video_url / audio_url, file:// stripped), not role messages.",
        ),
    ),
    class_record(
        "HuggingFace", _AIS, f"{_AISM}.local_models.huggingface", ("BaseModel",), "lm",
        is_api=False, registry_names=("HuggingFace",), ll=True,
        parser_rule="BaseModel.__init__ builds LMTemplateParser(meta_template).",
        notes=(
            _AIS_NO_LOCAL_PPL,
            "get_loglikelihood exists but no AISBench inferencer calls it.",
            "use_fastchat_template=True wraps the string in FastChat's 'vicuna' template.",
        ),
    ),
    class_record(
        "HuggingFaceCausalLM", _AIS, f"{_AISM}.local_models.huggingface", ("HuggingFace",),
        "lm", is_api=False, registry_names=("HuggingFaceCausalLM",), ll=True,
        parser_rule="BaseModel.__init__ builds LMTemplateParser(meta_template).",
        notes=(_AIS_NO_LOCAL_PPL,),
    ),
    class_record(
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
    class_record(
        "HuggingFacewithChatTemplate", _AIS, f"{_AISM}.local_models.huggingface_above_v4_33",
        ("BaseModel",), "chat_template", handling="config_or_default",
        default=AIS_CHAT_DEFAULT_META_TEMPLATE, is_api=False,
        registry_names=("HuggingFacewithChatTemplate",), parser_rule=_AIS_CHAT_RULE,
        chat=HF_CHAT,
        notes=(
            "Same rendering as OpenCompass's class of this name, but the default meta template "
            "keeps SYSTEM as a system message instead of folding it into the user turn.",
            _AIS_NO_LOCAL_PPL,
        ),
    ),
    class_record(
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
    class_record(
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
    class_record(
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
    class_record(
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
