"""model_text per wrapper class, model folders, --chat-template, special tokens and token counts."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.core.models.model_text import OVERRIDE_KEY
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import DatasetSpec, ModelSpec, Source
from workbench.core.tokens.counting import SECTIONS, tokenizers_available
from workbench.loading.models.model_assets import (
    attach_assets,
    read_model_folder,
    resolve_model_path,
    with_chat_template,
)

HERE = Path(__file__).resolve().parent.parent / "chat_templates"
sys.path.insert(0, str(HERE))
from tokenizer_fixture import write_model_folder  # noqa: E402

CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}" \
         "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
THINKING = CHATML + "{% if enable_thinking is defined and not enable_thinking %}<think>\n\n</think>\n\n{% endif %}"
BOS_TEMPLATE = "{{ bos_token }}" + CHATML

DATASET = {
    "abbr": "qa",
    "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
    "infer_cfg": {
        "ice_template": {"type": "PromptTemplate", "template": {"round": [
            {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]}},
        "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>", "template": {
            "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Be brief."}, "</E>"],
            "round": [{"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]}},
        "retriever": {"type": "FixKRetriever", "fix_id_list": [0]},
        "inferencer": {"type": "GenInferencer"},
    },
}
ROWS = {"train": [{"question": "What is 1 + 1", "answer": "2"}],
        "test": [{"question": "What is 2 + 2", "answer": "4"}]}


def folder_with(tmp_path: Path, template=CHATML, tokens=None, **kw) -> Path:
    tokens = tokens if tokens is not None else {"bos_token": "<s>", "eos_token": "<|im_end|>", "pad_token": None}
    if tokenizers_available():
        return write_model_folder(tmp_path / "model", template, tokens, **kw)
    folder = tmp_path / "model"
    folder.mkdir(parents=True)
    (folder / "tokenizer_config.json").write_text(json.dumps({**tokens, "chat_template": template}))
    return folder


def pair(model_cfg: dict, source: Source | None = None, cwd: Path | None = None) -> PairRenderer:
    """The pair with the model's files read as the loader reads them (relative paths from ``cwd``)."""
    (model,) = attach_assets([ModelSpec(abbr="m", cfg={"abbr": "m", **model_cfg}, source=source or Source())],
                             cwd)
    # Sections are asked for, as the text exports and panes ask for them.
    return PairRenderer(DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS), model,
                        RenderOptions(token_sections=True))


def first(p: PairRenderer):
    return p.sample(0).requests[0]


def test_hf_renders_the_folder_template_and_ignores_kwargs(tmp_path):
    folder = folder_with(tmp_path, THINKING)
    p = pair({"type": "HuggingFacewithChatTemplate", "path": str(folder),
              "chat_template_kwargs": {"enable_thinking": False}})
    request = first(p)
    expected = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in request.model_input)
    assert [m["role"] for m in request.model_input] == ["user", "assistant", "user"]
    assert request.model_text == expected + "<|im_start|>assistant\n"
    assert any("never reach the chat template" in m for m in p.notes.messages)


def test_vllm_passes_chat_template_kwargs(tmp_path):
    folder = folder_with(tmp_path, THINKING)
    request = first(pair({"type": "VLLMwithChatTemplate", "path": str(folder),
                          "chat_template_kwargs": {"enable_thinking": False}}))
    assert request.model_text.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")


def test_turbomind_strips_a_leading_bos(tmp_path):
    folder = folder_with(tmp_path, BOS_TEMPLATE)
    hf = first(pair({"type": "HuggingFacewithChatTemplate", "path": str(folder)}))
    tm = first(pair({"type": "TurboMindModelwithChatTemplate", "path": str(folder)}))
    assert hf.model_text.startswith("<s><|im_start|>")
    assert tm.model_text == hf.model_text[len("<s>"):]
    if tokenizers_available():
        # LMDeploy adds the BOS back when it tokenises: the same count either way.
        assert tm.tokens.total == hf.tokens.total and tm.tokens.exact


def test_relative_path_tries_cwd_then_the_config_folder(tmp_path):
    configs = tmp_path / "configs"
    configs.mkdir()
    folder_with(configs / "models")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert resolve_model_path("models/model", str(configs / "eval.py"), cwd=elsewhere) == \
        (configs / "models" / "model").resolve()
    assert resolve_model_path("models/model", None, cwd=elsewhere) is None
    p = pair({"type": "HuggingFacewithChatTemplate", "path": "models/model"},
             Source(str(configs / "eval.py"), 3), cwd=elsewhere)
    assert first(p).model_text is not None


def test_missing_folder_gives_null_model_text_and_a_warning(tmp_path):
    p = pair({"type": "HuggingFacewithChatTemplate", "path": "org/not-here"}, cwd=tmp_path)
    request = first(p)
    assert request.model_text is None
    assert any("is not a local folder" in m and "--chat-template" in m for m in p.notes.messages)
    assert request.tokens is not None and not request.tokens.exact


def test_chat_template_override_builtin_file_and_model_name(tmp_path):
    spec = ModelSpec(abbr="m", cfg={"type": "HuggingFacewithChatTemplate", "path": "nowhere"})
    (marked,) = with_chat_template([spec], "llama3")
    assert marked.cfg[OVERRIDE_KEY] == "llama3"
    p = PairRenderer(DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS), marked)
    assert first(p).model_text.startswith("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n")

    template = tmp_path / "mine.jinja"
    template.write_text("{% for m in messages %}[{{ m.role }}]{% endfor %}")
    (marked,) = with_chat_template([spec], "mine.jinja", cwd=str(tmp_path))
    assert first(PairRenderer(DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS), marked)).model_text == \
        "[user][assistant][user]"

    folder = folder_with(tmp_path / "named")
    extra = folder / "additional_chat_templates"
    extra.mkdir()
    (extra / "tool_use.jinja").write_text("TOOLS {{ messages | length }}")
    p = pair({"type": "HuggingFacewithChatTemplate", "path": str(folder), OVERRIDE_KEY: "tool_use"})
    assert first(p).model_text == "TOOLS 3"

    result = render_workspace([DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS)],
                              [ModelSpec(abbr="m", cfg={"type": "HuggingFacewithChatTemplate", "path": "x",
                                                        OVERRIDE_KEY: "nope"})])
    assert result.errors and "neither a file" in result.errors[0].message


def test_template_refusal_is_a_pair_error_with_the_template_message(tmp_path):
    refusing = "{% if messages[0]['role'] == 'system' %}\n{{ raise_exception('System role not supported') }}\n" \
               "{% endif %}ok"
    folder = folder_with(tmp_path, refusing)
    cfg = {"type": "HuggingFacewithChatTemplate", "path": str(folder),
           "meta_template": {"round": [{"role": "HUMAN", "api_role": "HUMAN"},
                                       {"role": "BOT", "api_role": "BOT", "generate": True}],
                             "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}]}}
    result = render_workspace([DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS)],
                              attach_assets([ModelSpec(abbr="m", cfg=cfg)]))
    assert len(result.errors) == 1
    assert "System role not supported" in result.errors[0].message and "line 2" in result.errors[0].message


def test_named_templates_and_defaults(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    config = {"chat_template": [{"name": "default", "template": "D"}, {"name": "rag", "template": "R"}]}
    (folder / "tokenizer_config.json").write_text(json.dumps(config))
    loaded = read_model_folder(folder)
    assert loaded.chat_template().source == "D" and loaded.chat_template("rag").source == "R"
    (folder / "tokenizer_config.json").write_text(json.dumps({"chat_template": [{"name": "rag", "template": "R"}]}))
    with pytest.raises(Exception, match="no default specified"):
        read_model_folder(folder).chat_template()
    (folder / "chat_template.jinja").write_text("FILE")  # template files win over the config
    assert read_model_folder(folder).chat_template().source == "FILE"


def test_special_tokens_for_views(tmp_path):
    folder = folder_with(tmp_path)
    special = read_model_folder(folder).special_tokens
    assert special.bos == "<s>" and special.eos == "<|im_end|>"
    assert special.named["pad_token"] is None and "pad_token" not in special.template_variables()
    if tokenizers_available():
        assert "<|im_start|>" in special.literals and special.adds_bos is True
        assert special.literals == tuple(sorted(special.literals, key=lambda s: (-len(s), s)))


#: A meta template that writes the BOS a tokenizer that adds one adds again (test_lint_rules too).
BOS_META = {"round": [{"role": "HUMAN", "begin": "<s>User: ", "end": "\n"},
                      {"role": "BOT", "begin": "Assistant: ", "end": "\n", "generate": True}]}


@pytest.mark.skipif(not tokenizers_available(), reason="the tokens extra is not installed")
def test_doubled_bos_warning_and_sections(tmp_path):
    folder = folder_with(tmp_path)
    p = pair({"type": "HuggingFaceCausalLM", "path": str(folder), "meta_template": BOS_META})
    request = first(p)
    assert any("doubled BOS" in m for m in p.notes.messages)
    sections = dict(request.tokens.sections)
    assert list(sections) == list(SECTIONS)
    assert sum(sections.values()) == request.tokens.total and request.tokens.exact
    assert sections["in_context_examples"] > 0 and sections["test_row"] > 0 and sections["meta_template"] > 0


@pytest.mark.skipif(not tokenizers_available(), reason="the tokens extra is not installed")
def test_chat_sections_split_markup_rows_and_examples(tmp_path):
    request = first(pair({"type": "HuggingFacewithChatTemplate", "path": str(folder_with(tmp_path))}))
    sections = dict(request.tokens.sections)
    assert sum(sections.values()) == request.tokens.total
    # "What is 2 + 2" from the test row; "Q: What is 1 + 1" / "A: 2" from the example and its template
    assert sections["test_row"] == 5 and sections["in_context_examples"] == 10
    assert sections["meta_template"] >= 9  # <|im_start|> user <|im_end|> ... from the chat template


def test_render_text_shows_the_exact_string_and_token_counts(tmp_path):
    from workbench.cli import main

    folder_with(tmp_path / "models")
    data = tmp_path / "rows.json"
    data.write_text(json.dumps(ROWS))
    config = tmp_path / "eval_chat.py"
    config.write_text(f"""
from opencompass.models import HuggingFacewithChatTemplate
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

datasets = [dict(abbr='qa', reader_cfg={DATASET['reader_cfg']!r},
                 infer_cfg=dict(ice_template=dict(type=PromptTemplate, template={DATASET['infer_cfg']['ice_template']['template']!r}),
                                prompt_template=dict(type=PromptTemplate, ice_token='</E>',
                                                     template={DATASET['infer_cfg']['prompt_template']['template']!r}),
                                retriever=dict(type=FixKRetriever, fix_id_list=[0]),
                                inferencer=dict(type=GenInferencer)))]
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat', path='models/model', max_seq_len=2048)]
""")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["render", str(config), "--data", str(data), "--format", "text", "--raw"])
    text = out.getvalue()
    assert code == 0, text
    assert "--- chat template text ---\n<|im_start|>user\nBe brief.\nQ: What is 1 + 1" in text
    assert "tokens" in text and "test row" in text
    if tokenizers_available():
        assert "tokenizer.json (model)" in text and "≈" not in text.split("--- chat template text ---")[1]


def test_token_literals_for_the_views(tmp_path):
    p = pair({"type": "HuggingFacewithChatTemplate", "path": str(folder_with(tmp_path))})
    literals = p.model_text.token_literals()
    assert "<s>" in literals and "<|im_end|>" in literals
    (marked,) = with_chat_template([ModelSpec(abbr="m", cfg={"type": "HuggingFacewithChatTemplate"})], "gemma")
    p = PairRenderer(DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS), marked)
    assert p.model_text.token_literals() == ("<bos>", "<eos>", "<pad>", "<unk>")
    assert PairRenderer(DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS), None).model_text is None
