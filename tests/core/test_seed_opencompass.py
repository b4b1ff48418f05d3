"""Every example of OpenCompass's prompt-template docs (spec/seeds/001, 002), with its documented result."""

from __future__ import annotations

import pytest

from tests.conftest import make_pair, no_markers
from workbench.core.errors import RenderError

EXAMPLE = {"question": "1+1=?", "answer": "2", "irrelevant_infos": "blabla"}
EX1 = {"question": "2+2=?", "answer": "4", "irrelevant_infos": "blabla"}
EX2 = {"question": "3+3=?", "answer": "6", "irrelevant_infos": "blabla"}
READER = {"input_columns": ["question"], "output_column": "answer"}


def dataset(prompt_template=None, ice_template=None, retriever=None, inferencer="GenInferencer",
            reader=READER, **extra):
    infer_cfg = {"retriever": retriever or {"type": "ZeroRetriever"},
                 "inferencer": {"type": inferencer, **extra}}
    if prompt_template is not None:
        infer_cfg["prompt_template"] = prompt_template
    if ice_template is not None:
        infer_cfg["ice_template"] = ice_template
    return {"abbr": "doc", "reader_cfg": reader, "infer_cfg": infer_cfg}


def pt(template, **kw):
    return {"type": "PromptTemplate", "template": template, **kw}


def first_request(pair, sample=0):
    return pair.sample(sample).requests[0]


def test_string_template_masks_the_output_column_and_keeps_unknown_fields():
    pair = make_pair(dataset(pt("{anything}\nQuestion: {question}\nAnswer: {answer}")), [EXAMPLE])
    request = first_request(pair)
    assert request.prompt_list == "{anything}\nQuestion: 1+1=?\nAnswer: "
    assert request.model_input == "{anything}\nQuestion: 1+1=?\nAnswer: "
    assert any("{anything}" in w for w in pair.notes.messages)


def test_single_round_dialogue():
    template = {"round": [{"role": "HUMAN", "prompt": "Question: {question}"},
                          {"role": "BOT", "prompt": "Answer: {answer}"}]}
    pair = make_pair(dataset(pt(template)), [EXAMPLE])
    assert no_markers(first_request(pair).prompt_list) == [
        {"role": "HUMAN", "prompt": "Question: 1+1=?"},
        {"role": "BOT", "prompt": "Answer: "},
    ]


def test_multi_round_dialogue():
    template = {"round": [
        {"role": "HUMAN", "prompt": "Question: 2+2=?"}, {"role": "BOT", "prompt": "Answer: 4"},
        {"role": "HUMAN", "prompt": "Question: 3+3=?"}, {"role": "BOT", "prompt": "Answer: 6"},
        {"role": "HUMAN", "prompt": "Question: {question}"}, {"role": "BOT", "prompt": "Answer: {answer}"},
    ]}
    pair = make_pair(dataset(pt(template)), [EXAMPLE])
    assert no_markers(first_request(pair).prompt_list) == [
        {"role": "HUMAN", "prompt": "Question: 2+2=?"}, {"role": "BOT", "prompt": "Answer: 4"},
        {"role": "HUMAN", "prompt": "Question: 3+3=?"}, {"role": "BOT", "prompt": "Answer: 6"},
        {"role": "HUMAN", "prompt": "Question: 1+1=?"}, {"role": "BOT", "prompt": "Answer: "},
    ]


def test_dialogue_with_system_instruction_keeps_fallback_role():
    template = {
        "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Solve the following questions."}],
        "round": [{"role": "HUMAN", "prompt": "Question: {question}"},
                  {"role": "BOT", "prompt": "Answer: {answer}"}],
    }
    request = first_request(make_pair(dataset(pt(template)), [EXAMPLE]))
    assert no_markers(request.prompt_list) == [
        {"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Solve the following questions."},
        {"role": "HUMAN", "prompt": "Question: 1+1=?"},
        {"role": "BOT", "prompt": "Answer: "},
    ]
    # With no meta template every item is joined by '\n' (the last BOT prompt included).
    assert request.model_input == "Solve the following questions.\nQuestion: 1+1=?\nAnswer: "


def test_system_falls_back_to_human_in_a_meta_template_without_system():
    template = {
        "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Solve."}],
        "round": [{"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}],
    }
    meta = {"round": [{"role": "HUMAN", "begin": "<H>", "end": "\n"},
                      {"role": "BOT", "begin": "<B>", "end": "\n", "generate": True}]}
    model = {"type": "HuggingFaceCausalLM", "path": "x", "meta_template": meta}
    request = first_request(make_pair(dataset(pt(template)), [EXAMPLE], model))
    assert request.model_input == "<H>Solve.\n<H>1+1=?\n<B>"


PPL_READER = {"input_columns": ["A", "B", "C"], "output_column": "answer"}
PPL_ROW = {"A": "x", "B": "y", "C": "z", "answer": "A"}


def test_ppl_label_dict_of_strings():
    template = {
        label: "Question: Which is true?\nA. {A}\nB. {B}\nC. {C}\nAnswer: " + tail
        for label, tail in (("A", "A"), ("B", "B"), ("C", "C"), ("UNK", "None of them is true."))
    }
    pair = make_pair(dataset(pt(template), inferencer="PPLInferencer", reader=PPL_READER), [PPL_ROW])
    requests = pair.sample(0).requests
    assert [r.label for r in requests] == ["A", "B", "C", "UNK"]
    assert requests[0].prompt_list == "Question: Which is true?\nA. x\nB. y\nC. z\nAnswer: A"
    assert requests[3].model_input.endswith("Answer: None of them is true.")


def test_ppl_label_dict_of_dialogues():
    q = "Question: Which is true?\nA. {A}\nB. {B}\nC. {C}"
    template = {label: {"round": [{"role": "HUMAN", "prompt": q}, {"role": "BOT", "prompt": f"Answer: {label}"}]}
                for label in ("A", "B", "C")}
    pair = make_pair(dataset(pt(template), inferencer="PPLInferencer", reader=PPL_READER), [PPL_ROW])
    requests = pair.sample(0).requests
    assert [r.label for r in requests] == ["A", "B", "C"]
    assert no_markers(requests[1].prompt_list) == [
        {"role": "HUMAN", "prompt": "Question: Which is true?\nA. x\nB. y\nC. z"},
        {"role": "BOT", "prompt": "Answer: B"},
    ]
    assert requests[1].model_input == "Question: Which is true?\nA. x\nB. y\nC. z\nAnswer: B"


def test_ice_and_prompt_templates_as_strings():
    cfg = dataset(
        pt("Solve the following questions.\n</E>{question}\n{answer}", ice_token="</E>"),
        ice_template=pt("{question}\n{answer}"),
        retriever={"type": "FixKRetriever", "fix_id_list": [0, 1]},
    )
    pair = make_pair(cfg, {"train": [EX1, EX2], "test": [EXAMPLE]})
    sample = pair.sample(0)
    assert sample.ice_indices == (0, 1)
    assert sample.requests[0].model_input == "Solve the following questions.\n2+2=?\n4\n3+3=?\n6\n1+1=?\n"


DIALOGUE_ICE = pt({"round": [{"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}]})
DIALOGUE_PROMPT = pt({
    "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Solve the following questions."}, "</E>"],
    "round": [{"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}],
}, ice_token="</E>")


def test_ice_and_prompt_templates_as_dialogues():
    cfg = dataset(DIALOGUE_PROMPT, ice_template=DIALOGUE_ICE,
                  retriever={"type": "FixKRetriever", "fix_id_list": [0, 1]})
    request = first_request(make_pair(cfg, {"train": [EX1, EX2], "test": [EXAMPLE]}))
    assert no_markers(request.prompt_list) == [
        {"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Solve the following questions."},
        {"role": "HUMAN", "prompt": "2+2=?"}, {"role": "BOT", "prompt": "4"},
        {"role": "HUMAN", "prompt": "3+3=?"}, {"role": "BOT", "prompt": "6"},
        {"role": "HUMAN", "prompt": "1+1=?"}, {"role": "BOT", "prompt": ""},
    ]
    # The examples sit in an `ice` section nested inside `begin`, as OpenCompass emits them.
    sections = [i for i in request.prompt_list if isinstance(i, dict) and "section" in i]
    assert [(s["section"], s["pos"]) for s in sections] == [
        ("begin", "begin"), ("ice", "begin"), ("ice", "end"), ("ice", "begin"), ("ice", "end"),
        ("begin", "end"), ("round", "begin"), ("round", "end"),
    ]


def test_abbreviated_form_equals_complete_form():
    rows = {"train": [EX1, EX2], "test": [EXAMPLE]}
    fixk = {"type": "FixKRetriever", "fix_id_list": [0, 1]}
    complete = dataset(pt("</E>Q: {question}\nA: {answer}", ice_token="</E>"),
                       ice_template=pt("Q: {question}\nA: {answer}"), retriever=fixk)
    abbreviated = dataset(None, ice_template=pt("</E>Q: {question}\nA: {answer}", ice_token="</E>"),
                          retriever=fixk)
    a = first_request(make_pair(complete, rows)).model_input
    b = first_request(make_pair(abbreviated, rows)).model_input
    assert a == b == "Q: 2+2=?\nA: 4\nQ: 3+3=?\nA: 6\nQ: 1+1=?\nA: "


def test_zero_shot_with_only_an_ice_template_follows_the_docs():
    cfg = dataset(None, ice_template=pt("Q: {question}\nA: {answer}"))
    pair = make_pair(cfg, [EXAMPLE])
    assert first_request(pair).model_input == "Q: 1+1=?\nA: "
    assert any("OpenCompass 0.5.4 fails here" in w and "ice_token of ice_template" in w
               for w in pair.notes.messages)


def test_fix_id_list_on_the_inferencer_as_older_docs_write_it():
    # spec/seeds/002 (the Chinese docs) put fix_id_list on the inferencer.
    cfg = dataset(pt("Solve the following questions.\n</E>{question}\n{answer}", ice_token="</E>"),
                  ice_template=pt("{question}\n{answer}"), retriever={"type": "FixKRetriever"},
                  fix_id_list=[0, 1])
    pair = make_pair(cfg, {"train": [EX1, EX2], "test": [EXAMPLE]})
    assert first_request(pair).model_input == "Solve the following questions.\n2+2=?\n4\n3+3=?\n6\n1+1=?\n"
    assert any("no longer allowed" in w for w in pair.notes.messages)


def test_an_ice_token_missing_from_a_string_template_is_refused():
    with pytest.raises(RenderError, match="'</E>' not in"):
        make_pair(dataset(pt("Q: {question}", ice_token="</E>")), [EXAMPLE])


def test_a_test_row_value_fills_a_field_inside_an_example():
    # OpenCompass fills the whole prompt once after inserting the examples, so a
    # {field} an example leaves unfilled is filled from the test row.
    ex = {"question": "Recall {hint}", "answer": "4"}
    cfg = dataset(pt("</E>Q: {question}\nA: {answer}", ice_token="</E>"),
                  ice_template=pt("{question}\n"), retriever={"type": "FixKRetriever", "fix_id_list": [0]})
    test_row = {"question": "1+1=?", "answer": "2", "hint": "H"}
    pair = make_pair(cfg, {"train": [ex], "test": [test_row]})
    assert first_request(pair).model_input == "Recall H\n\nQ: 1+1=?\nA: "
    assert any("{hint}" in w and "test row" in w for w in pair.notes.messages)


def test_values_fill_later_columns_in_column_order():
    # safe_format replaces column by column, so a value holding {later} is filled again.
    row = {"question": "see {note}", "note": "N", "answer": "2"}
    pair = make_pair(dataset(pt("{question}")), [row])
    assert first_request(pair).model_input == "see N"
    row2 = {"note": "N", "question": "see {note}", "answer": "2"}
    assert first_request(make_pair(dataset(pt("{question}")), [row2])).model_input == "see {note}"
