"""Configs, rows and models the fast paths' tests render both ways (spliced, stamped, written
from pieces) and compare with the interpreter: dialogue, PPL and string templates, an example
that leaks a test column's field, ChatInferencer turns; a meta-template model, a plain one, a
chat-template one with its tokenizer, an API one. The rows hold a value with a later column's
``{field}`` and long values that make max_seq_len drop examples."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from workbench.core.spec import ModelSpec, Source
from workbench.loading.models.model_assets import attach_assets

HERE = Path(__file__).resolve().parent.parent / "chat_templates"
sys.path.insert(0, str(HERE))
from tokenizer_fixture import write_model_folder  # noqa: E402

CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}" \
         "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
META = {
    "round": [{"role": "HUMAN", "begin": "<|im_start|>user\n", "end": "<|im_end|>\n"},
              {"role": "BOT", "begin": "<|im_start|>assistant\n", "end": "<|im_end|>\n", "generate": True}],
    "reserved_roles": [{"role": "SYSTEM", "begin": "<|im_start|>system\n", "end": "<|im_end|>\n"}],
}
API_META = {"round": [{"role": "HUMAN", "api_role": "HUMAN"},
                      {"role": "BOT", "api_role": "BOT", "generate": True}],
            "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}]}

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


def _rows(n: int, long_every: int = 0) -> list[dict]:
    rows = []
    for i in range(n):
        words = WORDS[i % 10:] + WORDS[:i % 10]
        question = " ".join(words * (40 if long_every and i % long_every == 0 else 1))
        # a value holding a later column's field: the fill replaces it again (once per copy)
        if i % 3 == 1:
            question += " {answer}?"
        rows.append({"question": f"{question} #{i}", "answer": "ABCD"[i % 4], "note": f"n{i}"})
    return rows


ROWS = {"train": _rows(6), "test": _rows(9, long_every=4)}

DIALOGUE = {
    "ice_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "Q: {question} ({note})"}, {"role": "BOT", "prompt": "A: {answer}"}]}},
    "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>", "template": {
        "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Be brief."}, "</E>"],
        "round": [{"role": "HUMAN", "prompt": "Q: {question}\nSay {answer}"},
                  {"role": "BOT", "prompt": "A: {answer}"}],
        "end": [{"role": "HUMAN", "prompt": "Thanks ({note})."}]}},
    "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1, 2]},
    "inferencer": {"type": "GenInferencer", "gen_field_replace_token": "ANSWER"},
}
# the example carries a test column's field, which the test row fills (an ice leak)
LEAKY = copy.deepcopy(DIALOGUE)
LEAKY["ice_template"]["template"]["round"][0]["prompt"] = "Q: {question} (cf. {note})"
LEAKY["retriever"] = {"type": "RandomRetriever", "ice_num": 2, "seed": 3}
PPL = {
    "ice_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]}},
    "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>", "template": {
        label: {"begin": "</E>", "round": [{"role": "HUMAN", "prompt": "Q: {question}"},
                                          {"role": "BOT", "prompt": f"A: {label}"}]}
        for label in "AB"}},
    "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
    "inferencer": {"type": "PPLInferencer"},
}
STRING = {
    "ice_template": {"type": "PromptTemplate", "template": "Q: {question}\nA: {answer}\n"},
    "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>",
                        "template": "</E>Q: {question}\nA:"},
    "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
    "inferencer": {"type": "GenInferencer"},
}
CHAT_TURNS = {
    "prompt_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"},
        {"role": "HUMAN", "prompt": "And {note}?"}, {"role": "BOT", "prompt": ""}]}},
    "retriever": {"type": "ZeroRetriever"},
    "inferencer": {"type": "ChatInferencer", "infer_mode": "every"},
}
INFER = {"dialogue": DIALOGUE, "leaky": LEAKY, "ppl": PPL, "string": STRING, "chat_turns": CHAT_TURNS}


def _model(kind: str, tmp_path: Path, max_seq_len: int | None = 300) -> ModelSpec:
    limit = {} if max_seq_len is None else {"max_seq_len": max_seq_len}
    if kind == "meta":  # a local model with a meta template; max_seq_len drops examples of long rows
        cfg = {"type": "HuggingFaceCausalLM", "path": "nowhere/model", "meta_template": META, **limit}
    elif kind == "plain":  # no meta template: items joined by '\n'
        cfg = {"type": "HuggingFaceCausalLM", "path": "nowhere/model", **limit}
    elif kind == "chat":  # a chat template from a local folder, with its tokenizer when available
        cfg = {"type": "HuggingFacewithChatTemplate",
               "path": str(write_model_folder(tmp_path / "chat", CHATML,
                                              {"bos_token": "<s>", "eos_token": "<|im_end|>"}))}
    else:  # an API model whose meta template maps roles
        cfg = {"type": "OpenAISDK", "path": "gpt-x", "key": "k", "meta_template": API_META}
    (spec,) = attach_assets([ModelSpec(abbr=kind, cfg={"abbr": kind, **cfg}, source=Source())], tmp_path)
    return spec

