"""Dev-only: max_seq_len goldens made by the real OpenCompass 0.5.4 inferencers.

Run in the framework venv (tools/setup_fwenv.sh), never in tests:

    $FWENV/bin/python tools/gen_truncation_goldens.py

Each case builds a real retriever (FixKRetriever) and a real model wrapper with
``tokenizer_only=True`` over a model folder made from tests/chat_templates/tokenizer_fixture.py,
then runs the inferencer's own max_seq_len loop (GenInferencer's
``get_generation_prompt_list_from_retriever_indices``, ``PPLInferencer.inference``,
``LLInferencer.inference``, ``CLPInferencer.inference``) with the leaf model calls recorded
instead of run.  Recorded per sample and label: the in-context examples kept, the prompt the
model would get and, for chat-template models, the chat template's text.
Output: tests/chat_templates/truncation_goldens.json.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from types import SimpleNamespace

from _shared import CHAT_TEMPLATES_DIR, builtin_chat_template, quiet, tokenizer_fixture, write_json

CHATML = builtin_chat_template("chatml")
LLAMA3 = builtin_chat_template("llama3")

TRAIN = [
    {"question": "Tom has 3 apples and 2 more apples", "answer": "5", "label": "A"},
    {"question": "Ann reads 5 pages a day for 2 days", "answer": "10", "label": "B"},
    {"question": "How many is 1 + 1", "answer": "2", "label": "A"},
    {"question": "He has 4 apples and gives one apples to Ann and one to Tom and one to me", "answer": "1",
     "label": "B"},
    {"question": "What is 7 + 2", "answer": "9", "label": "A"},
]
TEST = [
    {"question": "What is 2 + 2", "answer": "4", "label": "A", "cont": "4",
     "choices": ["A", "B"]},
    {"question": "Tom has 9 apples and Ann has 8 apples and he has 7 pages and she reads 6 pages a day",
     "answer": "30", "label": "B", "cont": "30", "choices": ["A", "B"]},
    {"question": "Hi", "answer": "0", "label": "A", "cont": "0", "choices": ["A", "B"]},
    {"question": " ".join(["apples"] * 60), "answer": "0", "label": "B", "cont": "0",
     "choices": ["A", "B"]},
]
READER = {"input_columns": ["question"], "output_column": "answer"}
FIX = [0, 1, 2, 3, 4]

STRING_ICE = {"ice_template": {"type": "PromptTemplate", "template": "Q: {question}\nA: {answer}\n"},
              "prompt_template": {"type": "PromptTemplate", "template": "</E>Q: {question}\nA:",
                                  "ice_token": "</E>"}}
DIALOGUE_ICE = {
    "ice_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]}},
    "prompt_template": {"type": "PromptTemplate", "template": {"begin": "</E>", "round": [
        {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]},
        "ice_token": "</E>"},
}
LABEL_ICE = {
    "ice_template": {"type": "PromptTemplate", "template": "Q: {question}\nA: {answer}\n"},
    "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>", "template": {
        "A": "</E>Q: {question}\nA: the answer is one of the apples and pages and days there",
        "B": "</E>Q: {question}\nA: no"}},
}
LM_META = {"round": [{"role": "HUMAN", "begin": "<s>User: ", "end": "\n"},
                     {"role": "BOT", "begin": "Assistant: ", "end": "\n", "generate": True}]}

CASES = [
    {"id": "gen-lm-string", "inferencer": "GenInferencer", "templates": STRING_ICE,
     "model": {"type": "HuggingFaceCausalLM", "max_seq_len": 40}},
    {"id": "gen-lm-meta-dialogue", "inferencer": "GenInferencer", "templates": DIALOGUE_ICE,
     "model": {"type": "HuggingFaceCausalLM", "max_seq_len": 55, "meta_template": LM_META}},
    {"id": "gen-chat-chatml", "inferencer": "GenInferencer", "templates": DIALOGUE_ICE,
     "model": {"type": "HuggingFacewithChatTemplate", "max_seq_len": 60},
     "folder": {"chat_template": CHATML, "tokens": {"eos_token": "<|im_end|>", "bos_token": None}}},
    {"id": "gen-chat-llama3", "inferencer": "GenInferencer", "templates": DIALOGUE_ICE,
     "model": {"type": "HuggingFacewithChatTemplate", "max_seq_len": 70},
     "folder": {"chat_template": LLAMA3, "tokens": {"bos_token": "<|begin_of_text|>",
                                                     "eos_token": "<|eot_id|>"}}},
    {"id": "ppl-lm-labels", "inferencer": "PPLInferencer", "templates": LABEL_ICE,
     "model": {"type": "HuggingFaceCausalLM", "max_seq_len": 45}},
    {"id": "ll-lm-labels", "inferencer": "LLInferencer", "templates": LABEL_ICE,
     "model": {"type": "HuggingFaceCausalLM", "max_seq_len": 45}},
    {"id": "clp-lm-string", "inferencer": "CLPInferencer", "templates": STRING_ICE,
     "model": {"type": "HuggingFaceCausalLM", "max_seq_len": 40}},
    {"id": "gen-lm-no-limit", "inferencer": "GenInferencer", "templates": STRING_ICE,
     "model": {"type": "HuggingFaceCausalLM"}},
]


def jsonable(x):
    if isinstance(x, str):
        return str(x)
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    return x


def run_case(case: dict, folder: Path) -> dict:
    import numpy as np
    from datasets import Dataset, DatasetDict
    from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate
    from opencompass.models.huggingface_above_v4_33 import _convert_chat_messages
    from opencompass.openicl.icl_dataset_reader import DatasetReader
    from opencompass.openicl.icl_inferencer import CLPInferencer, GenInferencer, LLInferencer, PPLInferencer
    from opencompass.openicl.icl_prompt_template import PromptTemplate
    from opencompass.openicl.icl_retriever import FixKRetriever

    reader = DatasetReader(DatasetDict({"train": Dataset.from_list(TRAIN), "test": Dataset.from_list(TEST)}),
                           **READER)
    dataset = SimpleNamespace(reader=reader, train=reader.dataset["train"], test=reader.dataset["test"])
    retriever = FixKRetriever(dataset, fix_id_list=FIX)
    t = case["templates"]
    ice_template = PromptTemplate(**{k: v for k, v in t["ice_template"].items() if k != "type"})
    prompt_template = PromptTemplate(**{k: v for k, v in t["prompt_template"].items() if k != "type"})
    mcfg = case["model"]
    cls = {"HuggingFaceCausalLM": HuggingFaceCausalLM,
           "HuggingFacewithChatTemplate": HuggingFacewithChatTemplate}[mcfg["type"]]
    kwargs = {"path": str(folder), "tokenizer_only": True, "max_seq_len": mcfg.get("max_seq_len", 2048)}
    if "meta_template" in mcfg:
        kwargs["meta_template"] = mcfg["meta_template"]
    model = cls(**kwargs)
    max_seq_len = mcfg.get("max_seq_len")  # what OpenICLInferTask hands the inferencer

    # Which examples each prompt was built from: the last generate_ice before each prompt.
    last_ice: list = []
    real_generate_ice = retriever.generate_ice

    def generate_ice(idx_list, ice_template=None):
        last_ice[:] = [list(idx_list)]
        return real_generate_ice(idx_list, ice_template=ice_template)

    retriever.generate_ice = generate_ice
    # PPL/LL/CLP write the shortened lists back into ice_idx_list: read its state instead.
    state: list = []
    real_retrieve = retriever.retrieve

    def retrieve():
        state[:] = [real_retrieve()]
        return state[0]

    retriever.retrieve = retrieve
    kept: dict = {}
    for method in ("generate_prompt_for_generate_task", "generate_label_prompt"):
        real = getattr(retriever, method)

        def wrapped(idx, *a, _real=real, **k):
            label = k.get("label", a[1] if len(a) > 1 and _real.__name__ == "generate_label_prompt" else None)
            if case["inferencer"] == "GenInferencer":
                kept[(idx, label)] = last_ice[0] if last_ice else []
            else:
                kept[(idx, label)] = list(state[0][idx])
            return _real(idx, *a, **k)

        setattr(retriever, method, wrapped)

    def final(prompt, mode):
        parsed = model.parse_template(prompt, mode=mode)
        out = {"model_input": jsonable(parsed)}
        if mcfg["type"] == "HuggingFacewithChatTemplate":
            messages = _convert_chat_messages([parsed])[0]
            out["model_input"] = messages
            out["model_text"] = model.tokenizer.apply_chat_template(messages, add_generation_prompt=True,
                                                                     tokenize=False)
        return out

    samples: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        if case["inferencer"] == "GenInferencer":
            inf = GenInferencer(model=model, max_out_len=8, max_seq_len=max_seq_len, output_json_filepath=tmp)
            prompts = inf.get_generation_prompt_list_from_retriever_indices(
                retriever.retrieve(), retriever, "", max_seq_len=max_seq_len, ice_template=ice_template,
                prompt_template=prompt_template)
            for idx, prompt in enumerate(prompts):
                samples[idx] = [{"label": None, "kept": kept[(idx, None)], **final(prompt, "gen")}]
        elif case["inferencer"] in ("PPLInferencer", "LLInferencer"):
            recorded: list = []
            model.get_ppl_from_template = lambda ps, mask_length=None: (
                recorded.extend(ps) or np.zeros(len(ps)))
            model.get_loglikelihood = lambda ps, conts, **k: recorded.extend(ps) or np.zeros(len(ps))
            cls_ = PPLInferencer if case["inferencer"] == "PPLInferencer" else LLInferencer
            inf = cls_(model=model, max_seq_len=max_seq_len, output_json_filepath=tmp)
            inf.inference(retriever, ice_template=ice_template, prompt_template=prompt_template)
            labels = list(prompt_template.template)
            for n, prompt in enumerate(recorded):
                label, idx = labels[n // len(TEST)], n % len(TEST)
                samples.setdefault(idx, []).append({"label": label, "kept": kept[(idx, label)],
                                                    **final(prompt, "ppl")})
        else:
            recorded = []
            inf = CLPInferencer(model=model, max_seq_len=max_seq_len, output_json_filepath=tmp)
            inf._get_cond_prob = lambda texts, pos, ids: recorded.extend(texts) or [[0.0, 0.0]] * len(texts)
            inf.inference(retriever, ice_template=ice_template, prompt_template=prompt_template)
            for idx, prompt in enumerate(recorded):
                samples[idx] = [{"label": None, "kept": kept[(idx, None)], "model_input": prompt}]
    return {**case, "samples": [samples[i] for i in range(len(TEST))]}


def main() -> None:
    import opencompass

    write_model_folder = tokenizer_fixture().write_model_folder
    out = []
    for case in CASES:
        plain = {"chat_template": None, "tokens": {"bos_token": "<s>", "eos_token": "</s>"}}
        folder_cfg = case.get("folder", plain)
        with tempfile.TemporaryDirectory() as tmp, quiet():
            folder = write_model_folder(Path(tmp) / "model", folder_cfg["chat_template"],
                                        folder_cfg["tokens"])
            (folder / "generation_config.json").write_text('{"eos_token_id": 2}', encoding="utf-8")
            result = run_case(case, folder)
        result["folder"] = folder_cfg
        out.append(result)
    doc = {"generator": "tools/gen_truncation_goldens.py", "opencompass": opencompass.__version__,
           "train": TRAIN, "test": TEST, "reader": READER, "fix_id_list": FIX, "cases": out}
    path = CHAT_TEMPLATES_DIR / "truncation_goldens.json"
    write_json(path, doc)
    print(f"{len(out)} cases -> {path}")
    for case in out:
        print(case["id"], [[(r["label"], r["kept"]) for r in s] for s in case["samples"]])


if __name__ == "__main__":
    main()
