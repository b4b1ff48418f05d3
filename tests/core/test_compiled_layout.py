"""A compiled meta-template layout gives exactly what walking the PromptList gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import make_pair

META = {"begin": "<bos>", "end": "<end>",
        "round": [{"role": "HUMAN", "begin": "<|user|>", "end": "\n"},
                  {"role": "BOT", "begin": "<|bot|>", "end": "<eot>\n", "generate": True}],
        "reserved_roles": [{"role": "SYSTEM", "begin": "<|sys|>", "end": "\n"}]}
# With a NUL in the meta template the layout is not compiled (slots are NUL-delimited).
NUL_META = {**META, "round": [{**META["round"][0], "end": "\x00\n"}, META["round"][1]]}
CFG = {
    "abbr": "c",
    "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
    "infer_cfg": {
        "ice_template": {"type": "PromptTemplate", "template": {"round": [
            {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "{answer}"}]}},
        "prompt_template": {"type": "PromptTemplate", "template": {
            "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Sys {hint}"}, "</E>"],
            "round": [{"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "{answer}"}],
            "end": [{"role": "HUMAN", "prompt": "bye"}]}, "ice_token": "</E>"},
        "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
        "inferencer": {"type": "GenInferencer"},
    },
}
cell = st.lists(st.sampled_from(["a", " ", "\n", "{", "}", "\x00", "0", "{question}",
                                 "{hint}", "\x001\x00", "é"]), max_size=8).map("".join)
rows = st.lists(st.fixed_dictionaries({"question": cell, "answer": cell}, optional={"hint": cell}),
                min_size=4, max_size=6)


@settings(max_examples=150, deadline=None)
@given(train=rows, test=rows, ppl=st.booleans(), meta=st.sampled_from([META, NUL_META]))
def test_compiled_layout_equals_the_walk(train, test, ppl, meta):
    cfg = {**CFG, "infer_cfg": {**CFG["infer_cfg"]}}
    if ppl:
        cfg["infer_cfg"]["inferencer"] = {"type": "PPLInferencer", "labels": ["x", "y"]}
    model = {"type": "HuggingFaceCausalLM", "path": "x", "meta_template": meta}
    pair = make_pair(cfg, {"train": train, "test": test}, model)
    for i in range(len(test)):
        fast = pair.sample(i).requests
        walked = pair.sample(i, provenance=True).requests
        assert [str(r.model_input) for r in fast] == [str(r.model_input) for r in walked]


def test_the_layout_is_compiled_and_used():
    rows = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(4)]
    pair = make_pair(CFG, {"train": rows, "test": rows},
                     {"type": "HuggingFaceCausalLM", "path": "x", "meta_template": META})
    texts = [pair.sample(i).requests[0].model_input for i in range(4)]
    layouts = [entry[1] for entry in pair.engine(False).model.parser._layouts.values()]
    assert any(layout is not None for layout in layouts)
    assert texts[3] == "<bos><|sys|>Sys {hint}\n<|user|>Q: q0\n<|bot|>a0<eot>\n<|user|>Q: q1\n" \
        "<|bot|>a1<eot>\n<|user|>Q: q3\n<|bot|>"
