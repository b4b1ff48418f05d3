"""Facts about the model classes of OpenCompass 0.5.4 and AISBench, checked against the table.

Every expectation below was read off the framework sources; the tests do not import them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from workbench.core.models.model_class_info import (
    AIS_CHAT_DEFAULT_META_TEMPLATE,
    OC_CHAT_DEFAULT_META_TEMPLATE,
    AmbiguousModelClassError,
    ModelClassInfo,
    thaw,
)
from workbench.core.models.model_classes import (
    ALL_MODEL_CLASSES,
    MODEL_CLASSES,
    OUT_OF_SCOPE_CLASSES,
    frameworks_defining,
    iter_model_classes,
    lookup_model_class,
    ppl_refusal,
)

OC = "opencompass"
AIS = "ais_bench"

# opencompass/models/__init__.py exports these model classes (parsers left out).
OC_EXPORTED = {
    "AI360GPT", "AlayaLM", "BaiChuan", "BailingAPI", "BaseAPIModel", "BaseModel", "BlueLMAPI",
    "ByteDance", "Claude", "ClaudeAllesAPIN", "ClaudeSDK", "DeepseekAPI", "Doubao", "ERNIEBot",
    "GLM130B", "Gemini", "GeminiSDK", "HuggingFace", "HuggingFaceBaseModel",
    "HuggingFaceCausalLM", "HuggingFaceChatGLM3", "HuggingFacewithChatTemplate", "Hunyuan",
    "InternLM", "InternTrain", "KrGPT", "LLaMA2AccessoryModel", "LightllmAPI",
    "LightllmChatAPI", "LiteLLMAPI", "Llama2", "Llama2Chat", "MiniMax",
    "MiniMaxChatCompletionV2", "Mistral", "Mixtral", "ModelScope", "ModelScopeCausalLM",
    "MoonShot", "Nanbeige", "OpenAI", "OpenAISDK", "OpenAISDKResponse", "OpenAISDKRollout",
    "OpenAISDKStreaming", "PanGu", "Qwen", "Rendu", "SenseTime", "StepFun", "TeleChat",
    "TeleChatStream", "TurboMindModel", "TurboMindModelwithChatTemplate", "UniGPT", "VLLM",
    "VLLMwithChatTemplate", "XunFei", "XunFeiSpark", "Yayi", "YiAPI", "ZhiPuAI", "ZhiPuV2AI",
}

# ais_bench/benchmark/models/__init__.py exports these model classes.
AIS_EXPORTED = {
    "BaseAPIModel", "BaseModel", "HuggingFace", "HuggingFaceBaseModel", "HuggingFaceCausalLM",
    "HuggingFaceQwen2VLwithChatTemplate", "HuggingFacewithChatTemplate", "MindieStreamApi",
    "TGICustomAPI", "TGICustomAPIStream", "TritonCustomAPI", "TritonCustomAPIStream",
    "VITAGenerateAPI", "VLLMCustomAPI", "VLLMCustomAPIChat", "VLLMCustomAPIChatStream",
    "VLLMCustomAPIStream", "VLLMFunctionCallAPIChat", "VLLMOfflineVLModel",
    "VllmMultiturnAPIChatStream",
}

OC_DEFAULT = {
    "round": [
        {"role": "HUMAN", "api_role": "HUMAN"},
        {"role": "SYSTEM", "api_role": "HUMAN"},
        {"role": "BOT", "api_role": "BOT", "generate": True},
    ]
}
AIS_DEFAULT = {
    "round": [
        {"role": "HUMAN", "api_role": "HUMAN"},
        {"role": "BOT", "api_role": "BOT", "generate": True},
    ],
    "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}],
}


def get(name: str, framework: str) -> ModelClassInfo:
    info = lookup_model_class(name, framework)  # type: ignore[arg-type]
    assert info is not None, (name, framework)
    return info


# --- table shape ----------------------------------------------------------------------------


def test_counts_per_framework_and_kind():
    counts = Counter((r.framework, r.kind) for r in ALL_MODEL_CLASSES)
    assert counts == {
        (OC, "lm"): 14, (OC, "api"): 48, (OC, "chat_template"): 3,
        (AIS, "lm"): 12, (AIS, "api"): 8, (AIS, "chat_template"): 3,
    }


def test_exported_names_match_the_packages():
    assert {r.name for r in iter_model_classes(OC) if r.exported} == OC_EXPORTED
    assert {r.name for r in iter_model_classes(AIS) if r.exported} == AIS_EXPORTED


def test_unexported_classes():
    unexported = {(r.framework, r.qualified_name) for r in ALL_MODEL_CLASSES if not r.exported}
    assert unexported == {
        (OC, "opencompass.models.turbomind_api.TurboMindAPIModel"),
        (OC, "opencompass.models.doubao.Doubao"),
        (AIS, "ais_bench.benchmark.models.local_models.base.BaseLMModel"),
        (AIS, "ais_bench.benchmark.models.local_models.huggingface.HuggingFaceChatGLM3"),
        (AIS, "ais_bench.benchmark.models.local_models.qwen_image_edit_mindie_sd."
              "QwenImageEditModel"),
    }


def _rec_id(rec: ModelClassInfo) -> str:
    return f"{rec.framework}:{rec.qualified_name}"


@pytest.mark.parametrize("rec", ALL_MODEL_CLASSES, ids=_rec_id)
def test_record_invariants(rec: ModelClassInfo):
    assert rec.kind in ("lm", "api", "chat_template")
    assert (rec.chat_template is not None) == (rec.kind == "chat_template")
    assert (rec.default_meta_template is not None) == (
        rec.meta_template_handling == "config_or_default"
    )
    assert rec.import_paths[0] == rec.module
    assert rec.module.startswith({OC: "opencompass.models", AIS: "ais_bench.benchmark.models"}[
        rec.framework
    ])
    assert rec.parser_rule
    hash(rec)  # frozen records are usable as dict keys / set members


def test_definitions_unique_per_module():
    keys = [(r.framework, r.module, r.name) for r in ALL_MODEL_CLASSES]
    assert len(keys) == len(set(keys)) == 88


def test_chat_template_classes_are_exactly_these():
    assert {(r.framework, r.name) for r in iter_model_classes(kind="chat_template")} == {
        (OC, "HuggingFacewithChatTemplate"),
        (OC, "VLLMwithChatTemplate"),
        (OC, "TurboMindModelwithChatTemplate"),
        (AIS, "HuggingFacewithChatTemplate"),
        (AIS, "HuggingFaceQwen2VLwithChatTemplate"),
        (AIS, "VLLMOfflineVLModel"),
    }


# --- default meta templates -------------------------------------------------------------------


def test_default_meta_template_constants():
    assert thaw(OC_CHAT_DEFAULT_META_TEMPLATE) == OC_DEFAULT
    assert thaw(AIS_CHAT_DEFAULT_META_TEMPLATE) == AIS_DEFAULT


@pytest.mark.parametrize(
    ("name", "framework", "expected"),
    [
        ("HuggingFacewithChatTemplate", OC, OC_DEFAULT),
        ("VLLMwithChatTemplate", OC, OC_DEFAULT),
        ("TurboMindModelwithChatTemplate", OC, OC_DEFAULT),
        ("HuggingFacewithChatTemplate", AIS, AIS_DEFAULT),
        ("HuggingFaceQwen2VLwithChatTemplate", AIS, AIS_DEFAULT),
        ("VLLMOfflineVLModel", AIS, AIS_DEFAULT),
        ("VLLMCustomAPIChat", AIS, AIS_DEFAULT),
        ("VLLMFunctionCallAPIChat", AIS, AIS_DEFAULT),
        ("VLLMCustomAPIChatStream", AIS, AIS_DEFAULT),
        ("VllmMultiturnAPIChatStream", AIS, AIS_DEFAULT),
        ("QwenImageEditModel", AIS, AIS_DEFAULT),
    ],
)
def test_each_default_meta_template_exactly(name, framework, expected):
    info = get(name, framework)
    assert info.meta_template_handling == "config_or_default"
    assert info.default_meta_template_dict() == expected
    # falsy config values fall back to the default, a real template wins
    assert info.effective_meta_template(None) == expected
    assert info.effective_meta_template({}) == expected
    mine = {"round": [{"role": "HUMAN", "api_role": "HUMAN"}]}
    assert info.effective_meta_template(mine) == mine


def test_only_those_classes_have_a_default():
    with_default = {(r.framework, r.name) for r in ALL_MODEL_CLASSES if r.default_meta_template}
    assert with_default == {
        (OC, "HuggingFacewithChatTemplate"), (OC, "VLLMwithChatTemplate"),
        (OC, "TurboMindModelwithChatTemplate"),
        (AIS, "HuggingFacewithChatTemplate"), (AIS, "HuggingFaceQwen2VLwithChatTemplate"),
        (AIS, "VLLMOfflineVLModel"), (AIS, "VLLMCustomAPIChat"), (AIS, "VLLMFunctionCallAPIChat"),
        (AIS, "VLLMCustomAPIChatStream"), (AIS, "VllmMultiturnAPIChatStream"),
        (AIS, "QwenImageEditModel"),
    }


def test_default_dict_is_a_fresh_copy():
    info = get("HuggingFacewithChatTemplate", OC)
    first = info.default_meta_template_dict()
    assert first is not None
    first["round"].clear()
    assert info.default_meta_template_dict() == OC_DEFAULT
    with pytest.raises(TypeError):
        info.default_meta_template["round"] = []  # type: ignore[index]


def test_oc_system_folds_into_human_ais_keeps_system():
    oc = get("HuggingFacewithChatTemplate", OC).default_meta_template_dict()
    ais = get("HuggingFacewithChatTemplate", AIS).default_meta_template_dict()
    assert oc is not None and ais is not None
    oc_system = next(r for r in oc["round"] if r["role"] == "SYSTEM")
    assert oc_system["api_role"] == "HUMAN"
    assert "reserved_roles" not in oc
    assert all(r["role"] != "SYSTEM" for r in ais["round"])
    assert ais["reserved_roles"] == [{"role": "SYSTEM", "api_role": "SYSTEM"}]


# --- meta template ignored ---------------------------------------------------------------------


def test_meta_template_ignored_classes():
    ignored = {(r.framework, r.name) for r in ALL_MODEL_CLASSES if r.ignores_config_meta_template}
    assert ignored == {(OC, "HuggingFaceBaseModel"), (AIS, "HuggingFaceBaseModel")}
    for fw in (OC, AIS):
        info = get("HuggingFaceBaseModel", fw)
        assert info.kind == "lm"
        assert info.bases == ("HuggingFacewithChatTemplate",)
        assert info.effective_meta_template({"round": [{"role": "HUMAN"}]}) is None


def test_plain_config_handling_passes_template_through():
    info = get("OpenAISDK", OC)
    assert info.meta_template_handling == "config"
    assert info.effective_meta_template(None) is None
    assert info.effective_meta_template({}) is None
    tmpl = {"round": [{"role": "HUMAN", "api_role": "HUMAN"}]}
    assert info.effective_meta_template(tmpl) == tmpl


# --- chat template handling --------------------------------------------------------------------


def test_chat_template_text_treatment():
    hf_oc = get("HuggingFacewithChatTemplate", OC).chat_template
    vllm = get("VLLMwithChatTemplate", OC).chat_template
    tm = get("TurboMindModelwithChatTemplate", OC).chat_template
    hf_ais = get("HuggingFacewithChatTemplate", AIS).chat_template
    qwen_vl = get("HuggingFaceQwen2VLwithChatTemplate", AIS).chat_template
    vllm_vl = get("VLLMOfflineVLModel", AIS).chat_template
    assert None not in (hf_oc, vllm, tm, hf_ais, qwen_vl, vllm_vl)

    assert [c.passes_chat_template_kwargs for c in (hf_oc, vllm, tm, hf_ais, qwen_vl, vllm_vl)] == [
        False, True, False, False, False, False
    ]
    assert [c.strips_leading_bos_token for c in (hf_oc, vllm, tm, hf_ais, qwen_vl, vllm_vl)] == [
        False, False, True, False, False, False
    ]
    assert [c.honours_fastchat_template for c in (hf_oc, vllm, tm, hf_ais, qwen_vl, vllm_vl)] == [
        True, True, True, True, False, False
    ]
    assert [c.template_owner for c in (hf_oc, vllm, tm, hf_ais, qwen_vl, vllm_vl)] == [
        "tokenizer", "tokenizer", "tokenizer", "tokenizer", "processor", "processor"
    ]
    for c in (hf_oc, vllm, tm, hf_ais, qwen_vl, vllm_vl):
        assert dict(c.role_map) == {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}
        assert c.merges_consecutive_roles and c.merge_joiner == "\n"
        assert c.skips_empty_prompts and c.add_generation_prompt


# --- kinds, parsers, is_api ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "framework", "kind", "is_api"),
    [
        ("OpenAI", OC, "api", True),
        ("OpenAISDK", OC, "api", True),
        ("HuggingFace", OC, "lm", False),
        ("HuggingFaceCausalLM", OC, "lm", False),
        ("HuggingFaceChatGLM3", OC, "api", False),
        ("VLLM", OC, "lm", False),
        ("TurboMindModel", OC, "lm", False),
        ("TurboMindAPIModel", OC, "lm", True),
        ("LightllmAPI", OC, "lm", True),
        ("LightllmChatAPI", OC, "api", True),
        ("Llama2", OC, "api", False),
        ("Llama2Chat", OC, "api", False),
        ("Mixtral", OC, "api", False),
        ("GLM130B", OC, "lm", False),
        ("VLLMCustomAPI", AIS, "lm", True),
        ("VLLMCustomAPIStream", AIS, "lm", True),
        ("MindieStreamApi", AIS, "lm", True),
        ("TGICustomAPI", AIS, "lm", True),
        ("TritonCustomAPI", AIS, "lm", True),
        ("VLLMCustomAPIChat", AIS, "api", True),
        ("VITAGenerateAPI", AIS, "api", True),
        ("HuggingFace", AIS, "lm", False),
        ("HuggingFaceChatGLM3", AIS, "api", False),
        ("QwenImageEditModel", AIS, "api", False),
    ],
)
def test_kind_and_is_api(name, framework, kind, is_api):
    info = get(name, framework)
    assert (info.kind, info.is_api) == (kind, is_api)
    assert info.parser == ("LMTemplateParser" if kind == "lm" else "APITemplateParser")


def test_every_oc_hosted_api_wrapper_is_api_without_default():
    hosted = [r for r in iter_model_classes(OC) if "BaseAPIModel" in r.bases
              or r.bases in (("OpenAI",), ("OpenAISDK",))]
    assert len(hosted) == 42
    for r in hosted:
        assert r.kind == "api" and r.is_api
        assert r.meta_template_handling == "config"
        assert not r.supports_ppl and not r.supports_loglikelihood


# --- PPL / log-likelihood ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "framework", "ppl", "ll"),
    [
        ("HuggingFace", OC, True, True),
        ("HuggingFaceBaseModel", OC, True, True),
        ("HuggingFacewithChatTemplate", OC, False, False),
        ("VLLM", OC, True, True),
        ("VLLMwithChatTemplate", OC, False, False),
        ("TurboMindModel", OC, True, True),
        ("TurboMindModelwithChatTemplate", OC, False, False),
        ("TurboMindAPIModel", OC, True, True),
        ("LightllmAPI", OC, True, False),
        ("GLM130B", OC, True, False),
        ("Mixtral", OC, True, False),
        ("Llama2", OC, True, True),
        ("Llama2Chat", OC, False, False),
        ("OpenAI", OC, False, False),
        ("BaseModel", OC, False, False),
        ("VLLMCustomAPI", AIS, True, False),
        ("VLLMCustomAPIChat", AIS, True, False),
        ("VLLMFunctionCallAPIChat", AIS, True, False),
        ("VLLMCustomAPIStream", AIS, False, False),
        ("VLLMCustomAPIChatStream", AIS, False, False),
        ("TGICustomAPI", AIS, False, False),
        ("HuggingFace", AIS, False, True),
        ("HuggingFaceBaseModel", AIS, False, False),
        ("HuggingFacewithChatTemplate", AIS, False, False),
        ("BaseAPIModel", AIS, False, False),
    ],
)
def test_ppl_and_loglikelihood(name, framework, ppl, ll):
    info = get(name, framework)
    assert (info.supports_ppl, info.supports_loglikelihood) == (ppl, ll)


def test_ppl_refusal_messages():
    assert ppl_refusal(get("HuggingFaceBaseModel", OC)) is None
    assert ppl_refusal(get("OpenAI", OC)) == (
        "OpenAI does not support ppl-based evaluation yet, try gen-based instead."
    )
    assert ppl_refusal(get("VLLMCustomAPIChat", AIS)) is None
    assert ppl_refusal(get("VLLMCustomAPIChat", AIS), {"stream": True}) == (
        "Stream mode is not supported for PPL inference"
    )
    assert "not supported" in (ppl_refusal(get("TGICustomAPI", AIS)) or "")
    assert "local model" in (ppl_refusal(get("HuggingFace", AIS)) or "")


# --- registry / export facts -------------------------------------------------------------------


def test_registry_names():
    assert get("GLM130B", OC).registry_names == ("GLM-130B",)
    assert get("HuggingFaceBaseModel", OC).registry_names == ()
    assert get("VLLMwithChatTemplate", OC).registry_names == ()
    assert get("HuggingFacewithChatTemplate", OC).registry_names == (
        "HuggingFacewithChatTemplate",
    )
    assert get("VLLMCustomAPIChatStream", AIS).registry_names == ("VLLMCustomAPIChatStream",)
    assert get("VLLMCustomAPIStream", AIS).registry_names == ()


# --- lookup --------------------------------------------------------------------------------------


def test_lookup_dotted_package_paths():
    info = lookup_model_class("opencompass.models.OpenAI")
    assert info is not None
    assert (info.framework, info.module) == (OC, "opencompass.models.openai_api")
    info = lookup_model_class("ais_bench.benchmark.models.VLLMCustomAPIChat")
    assert info is not None
    assert info.framework == AIS
    assert info.module == "ais_bench.benchmark.models.api_models.vllm_custom_api_chat"


def test_lookup_dotted_defining_module_and_subpackages():
    info = lookup_model_class("opencompass.models.openai_api.OpenAISDK")
    assert info is not None and info.name == "OpenAISDK"
    info = lookup_model_class("opencompass.models.claude_api.Claude")
    assert info is not None and info.module == "opencompass.models.claude_api.claude_api"
    info = lookup_model_class(
        "ais_bench.benchmark.models.local_models.huggingface_above_v4_33."
        "HuggingFacewithChatTemplate"
    )
    assert info is not None and info.framework == AIS


def test_lookup_dotted_path_decides_framework_over_hint():
    info = lookup_model_class("opencompass.models.HuggingFacewithChatTemplate", AIS)
    assert info is not None and info.framework == OC


def test_lookup_two_doubaos():
    exported = lookup_model_class("Doubao")
    assert exported is not None and exported.module == "opencompass.models.doubao_api"
    legacy = lookup_model_class("opencompass.models.doubao.Doubao")
    assert legacy is not None and legacy.module == "opencompass.models.doubao"
    assert not legacy.exported
    assert len(MODEL_CLASSES["Doubao"]) == 2


def test_lookup_unexported_needs_its_module():
    assert lookup_model_class("opencompass.models.TurboMindAPIModel") is None
    info = lookup_model_class("opencompass.models.turbomind_api.TurboMindAPIModel")
    assert info is not None and info.kind == "lm"
    assert lookup_model_class("TurboMindAPIModel") is info


def test_lookup_ambiguous_bare_name_needs_hint():
    with pytest.raises(AmbiguousModelClassError) as err:
        lookup_model_class("HuggingFacewithChatTemplate")
    assert err.value.frameworks == (OC, AIS)
    assert get("HuggingFacewithChatTemplate", OC).framework == OC
    assert get("HuggingFacewithChatTemplate", AIS).framework == AIS
    assert frameworks_defining("HuggingFace") == {OC, AIS}
    assert frameworks_defining("OpenAI") == {OC}


def test_lookup_bare_name_and_alias():
    info = lookup_model_class("VLLMCustomAPIChat")
    assert info is not None and info.framework == AIS
    assert lookup_model_class("GLM-130B") is lookup_model_class("GLM130B")
    assert lookup_model_class("OpenAI", AIS) is None
    assert lookup_model_class("  OpenAI  ") is lookup_model_class("OpenAI")


def test_lookup_unknowns():
    assert lookup_model_class("NoSuchModel") is None
    assert lookup_model_class("") is None
    assert lookup_model_class("my_project.models.OpenAI") is None
    assert lookup_model_class("opencompass.models.vllm.OpenAI") is None
    for name in OUT_OF_SCOPE_CLASSES:
        assert lookup_model_class(name) is None
    with pytest.raises(ValueError):
        lookup_model_class("OpenAI", "lmdeploy")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        lookup_model_class(None)  # type: ignore[arg-type]


def test_qualified_name_round_trips():
    for rec in ALL_MODEL_CLASSES:
        assert lookup_model_class(rec.qualified_name) is rec
