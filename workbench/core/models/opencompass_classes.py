"""OpenCompass 0.5.4's model classes, one record each: what every wrapper under
``opencompass/models/**`` does with a prompt (see :mod:`.model_class_info` for the vocabulary).

Hand-written descriptions read from the framework's sources, nothing copied.
May import: :mod:`.model_class_info` only.
"""

from __future__ import annotations

from typing import Final

from .model_class_info import (
    HF_CHAT,
    OC_CHAT_DEFAULT_META_TEMPLATE,
    ChatTemplateHandling,
    ModelClassInfo,
    class_record,
)

_OC: Final = "opencompass"
_OCM = "opencompass.models"
_OC_DEFAULT_RULE = (
    "BaseModel.__init__ builds LMTemplateParser(meta_template) from the config value."
)
_OC_API_RULE = (
    "BaseAPIModel.__init__ builds APITemplateParser(meta_template) from the config value."
)
_OC_CHAT_RULE = (
    "_get_meta_template(meta_template) → APITemplateParser(meta_template or "
    "OC_CHAT_DEFAULT_META_TEMPLATE)."
)
_OC_NO_PPL_API = (
    "Inherits BaseAPIModel.get_ppl, which raises NotImplementedError: API models cannot do PPL."
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
    return class_record(
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


# ---------------------------------------------------------------------------
# OpenCompass 0.5.4
# ---------------------------------------------------------------------------

#: Every model class OpenCompass 0.5.4 ships.
OPENCOMPASS_CLASSES: tuple[ModelClassInfo, ...] = (
    class_record(
        "BaseModel", _OC, f"{_OCM}.base", (), "lm",
        is_api=False, abstract=True, parser_rule=_OC_DEFAULT_RULE,
        notes=(
            "get_ppl / get_loglikelihood are not implemented here; get_ppl raises "
            "NotImplementedError ('... does not support ppl-based evaluation yet').",
        ),
    ),
    class_record(
        "BaseAPIModel", _OC, f"{_OCM}.base_api", ("BaseModel",), "api",
        is_api=True, abstract=True, parser_rule=_OC_API_RULE,
        notes=(
            "Does not call BaseModel.__init__; sets template_parser itself.",
            "APITemplateParser without a meta template returns one '\\n'-joined string, so a "
            "subclass then usually sends it as a single user message.",
        ),
    ),
    # --- local HuggingFace-style LMs -------------------------------------------------
    class_record(
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
    class_record(
        "HuggingFaceCausalLM", _OC, f"{_OCM}.huggingface", ("HuggingFace",), "lm",
        is_api=False, registry_names=("HuggingFaceCausalLM",), ppl=True, ll=True,
        parser_rule=_OC_DEFAULT_RULE,
        notes=("Only the model loader differs from HuggingFace (AutoModelForCausalLM only).",),
    ),
    class_record(
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
    class_record(
        "ModelScope", _OC, f"{_OCM}.modelscope", ("HuggingFace",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
        notes=("HuggingFace behaviour with ModelScope loaders.",),
    ),
    class_record(
        "ModelScopeCausalLM", _OC, f"{_OCM}.modelscope", ("ModelScope",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
    ),
    class_record(
        "HuggingFacewithChatTemplate", _OC, f"{_OCM}.huggingface_above_v4_33", ("BaseModel",),
        "chat_template", handling="config_or_default", default=OC_CHAT_DEFAULT_META_TEMPLATE,
        is_api=False, registry_names=("HuggingFacewithChatTemplate",),
        parser_rule=_OC_CHAT_RULE, chat=HF_CHAT,
        notes=(
            "No get_ppl (only get_ppl_tokenwise), so PPL datasets fail with NotImplementedError.",
            "Does not call BaseModel.__init__.",
            "mode='mid' keeps the first and last halves of the token ids after rendering.",
            "Stop words: config stop_words plus the generation config's eos tokens and "
            "tokenizer.eos_token.",
        ),
    ),
    class_record(
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
    class_record(
        "VLLM", _OC, f"{_OCM}.vllm", ("BaseModel",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
        notes=(
            "use_fastchat_template is accepted and stored but never used.",
            "mode='mid' re-decodes over-long inputs from their first and last halves.",
        ),
    ),
    class_record(
        "VLLMwithChatTemplate", _OC, f"{_OCM}.vllm_with_tf_above_v4_33", ("BaseModel",),
        "chat_template", handling="config_or_default", default=OC_CHAT_DEFAULT_META_TEMPLATE,
        is_api=False, parser_rule=_OC_CHAT_RULE, chat=_OC_VLLM_CHAT,
        notes=(
            "chat_template_kwargs (e.g. {'enable_thinking': False}) reach apply_chat_template "
            "in generate, but get_token_len renders without them.",
            "No get_ppl / get_loglikelihood.",
        ),
    ),
    class_record(
        "TurboMindModel", _OC, f"{_OCM}.turbomind", ("BaseModel",), "lm",
        is_api=False, ppl=True, ll=True, parser_rule=_OC_DEFAULT_RULE,
        notes=("Strings go to LMDeploy with do_preprocess=False (no LMDeploy chat template).",),
    ),
    class_record(
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
    class_record(
        "TurboMindAPIModel", _OC, f"{_OCM}.turbomind_api", ("BaseModel",), "lm",
        is_api=True, exported=False, ppl=True, ll=True,
        parser_rule="Sets LMTemplateParser(meta_template) again after BaseModel.__init__.",
        notes=(
            "Not exported from opencompass.models and not registered: reachable only as "
            "opencompass.models.turbomind_api.TurboMindAPIModel.",
            "An LMDeploy api_server client that sends the string to /v1/completions.",
        ),
    ),
    class_record(
        "LightllmAPI", _OC, f"{_OCM}.lightllm_api", ("BaseModel",), "lm",
        is_api=True, registry_names=("LightllmAPI",), ppl=True,
        parser_rule=_OC_DEFAULT_RULE,
        notes=(
            "A BaseModel (one string) although is_api=True.",
            "generate ignores max_out_len; max_new_tokens comes from generation_kwargs "
            "(default 1024).",
        ),
    ),
    class_record(
        "GLM130B", _OC, f"{_OCM}.glm", ("BaseModel",), "lm",
        is_api=False, registry_names=("GLM-130B",), ppl=True,
        parser_rule="Sets LMTemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=("Registered only under the name 'GLM-130B', not 'GLM130B'.",),
    ),
    class_record(
        "AlayaLM", _OC, f"{_OCM}.alaya", ("BaseModel",), "lm",
        is_api=False, ppl=True,
        parser_rule="Sets LMTemplateParser(meta_template) itself (no BaseModel.__init__).",
    ),
    class_record(
        "InternLM", _OC, f"{_OCM}.intern_model", ("BaseModel",), "lm",
        is_api=False, ppl=True,
        parser_rule="Sets LMTemplateParser(meta_template) itself (no BaseModel.__init__).",
    ),
    class_record(
        "InternTrain", _OC, f"{_OCM}.interntrain", ("BaseModel",), "lm",
        is_api=False, registry_names=("InternTrain",), ppl=True, ll=True,
        parser_rule=_OC_DEFAULT_RULE,
        notes=("A meta_template 'eos_token_id' is added to the generator's eos ids.",),
    ),
    class_record(
        "Llama2", _OC, f"{_OCM}.llama2", ("BaseModel",), "api",
        is_api=False, ppl=True, ll=True,
        parser_rule="Sets APITemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=(
            "A base LM behind an API parser: generate/get_ppl encode strings, so it only works "
            "without a meta template (the parser then joins prompts with '\\n').",
        ),
    ),
    class_record(
        "Llama2Chat", _OC, f"{_OCM}.llama2", ("BaseModel",), "api",
        is_api=False,
        parser_rule="Sets APITemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=(
            "Messages (HUMAN/BOT/SYSTEM → user/assistant/system, other roles raise) go to Meta's "
            "llama chat_completion, which applies its own [INST] format — no HF chat template.",
        ),
    ),
    class_record(
        "Mixtral", _OC, f"{_OCM}.mixtral", ("BaseModel",), "api",
        is_api=False, ppl=True,
        parser_rule="Sets APITemplateParser(meta_template) itself (no BaseModel.__init__).",
        notes=("Like Llama2: encodes strings, so usable only without a meta template.",),
    ),
    class_record(
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
