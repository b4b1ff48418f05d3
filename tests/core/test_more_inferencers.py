"""The inferencers beyond Gen/PPL/LL/CLP/Chat: what each row becomes, and the refusals.

The r_inf_* parity goldens pin the requests against the real frameworks; these tests name the
behaviour and the refusals for model kinds the goldens cannot run (agent models).
"""

from __future__ import annotations

import pytest

from workbench.core.errors import RenderError, UnsupportedError
from workbench.core.render import PairRenderer
from workbench.core.spec import AISBENCH, DatasetSpec, ModelSpec

OC = "opencompass.models."
META = {"round": [{"role": "HUMAN", "begin": "<u>", "end": "</u>"},
                  {"role": "BOT", "begin": "<b>", "end": "</b>", "generate": True}]}
LM = {"type": OC + "HuggingFaceCausalLM", "path": "/x", "meta_template": META}
API = {"type": OC + "OpenAI", "path": "gpt", "key": "x"}
CHAT = {"type": OC + "HuggingFacewithChatTemplate", "path": "/nonexistent"}
ROWS = {"train": [{"q": f"t{i}", "a": f"A{i}"} for i in range(2)],
        "test": [{"q": "x0", "a": "g0"}, {"q": "x1", "a": "g1"}]}


def pair(inferencer: dict, model: dict | None = LM, *, template=None, output="a", framework="opencompass",
         rows=ROWS) -> PairRenderer:
    cfg = {"abbr": "d", "reader_cfg": {"input_columns": ["q"], "output_column": output},
           "infer_cfg": {"prompt_template": {"template": template or "Q: {q}\nA:"},
                         "retriever": {"type": "ZeroRetriever"}, "inferencer": inferencer}}
    spec = ModelSpec("m", model, framework) if model is not None else None
    return PairRenderer(DatasetSpec("d", cfg, rows, framework=framework), spec)


def test_sc_sends_the_same_prompt_sc_size_times():
    requests = pair({"type": "SCInferencer", "sc_size": 3}).sample(0).requests
    assert len(requests) == 3 and len({r.model_input for r in requests}) == 1
    assert [dict(r.extra)["draw"] for r in requests] == [0, 1, 2]


def test_ppl_only_scores_the_ppl_parse_and_wants_no_output_column():
    dialogue = {"round": [{"role": "HUMAN", "prompt": "{q}"}, {"role": "BOT", "prompt": "{q}!"}]}
    request = pair({"type": "PPLOnlyInferencer"}, output=None, template=dialogue).sample(0).requests[0]
    assert request.model_input == "<u>x0</u><b>x0!</b>"  # ppl mode: the BOT turn is scored too
    with pytest.raises(RenderError, match="supports `output_column=None` only"):
        pair({"type": "PPLOnlyInferencer"})
    with pytest.raises(RenderError, match="does not support ppl-based evaluation"):
        pair({"type": "PPLOnlyInferencer"}, CHAT, output=None)


def test_mink_percent_needs_a_class_with_get_mink_percent():
    assert pair({"type": "MinKPercentInferencer"}, output=None).sample(0).requests
    with pytest.raises(RenderError, match="no attribute 'get_mink_percent'"):
        pair({"type": "MinKPercentInferencer"}, API, output=None)


def test_inference_ppl_only_runs_on_chat_template_classes_with_the_label_spans():
    rows = {"test": [{"q": "x", "label": [[0, 1, 1]]}], "train": []}
    request = pair({"type": "InferencePPLOnlyInferencer"}, CHAT, output=None, rows=rows).sample(0).requests[0]
    assert request.model_input == "Q: x\nA:" and dict(request.extra)["label_spans"] == [[0, 1, 1]]
    with pytest.raises(RenderError, match="takes from 2 to 3 positional arguments"):
        pair({"type": "InferencePPLOnlyInferencer"}, LM, output=None, rows=rows)


def test_swce_loss_tokenizes_each_rows_prompt_as_it_is():
    p = pair({"type": "SWCELossInferencer", "block_size": 8, "stride": 4}, output=None)
    assert p.sample(1).requests[0].model_input == "Q: x1\nA:"
    with pytest.raises(RenderError, match="API model"):
        pair({"type": "SWCELossInferencer"}, API, output=None)


def test_attack_renders_the_prompt_selection_and_needs_max_seq_len():
    inferencer = {"type": "AttackInferencer", "adv_key": "adv", "original_prompt_list": ["P1", "P2"]}
    with pytest.raises(RenderError, match="KeyError: 'max_seq_len'"):
        pair(inferencer, template="{adv} {q}")
    requests = pair(inferencer, {**LM, "max_seq_len": 100000, "max_out_len": 8},
                    template="{adv} {q}").sample(0).requests
    assert [r.model_input for r in requests] == ["P1 x0", "P2 x0"]


def test_tot_shows_the_entry_the_search_starts_from():
    p = pair({"type": "ToTInferencer", "prompt_wrapper": {"type": "Game24PromptWrapper"}}, CHAT)
    request = p.sample(0).requests[0]
    assert request.model_input == "Q: x0\nA:"  # the parse OpenCompass records, before chat messages
    assert any("Game24PromptWrapper" in m for m in p.notes.messages)


def test_agent_needs_an_agent_model():
    dialogue = {"round": [{"role": "HUMAN", "prompt": "{q}"}, {"role": "BOT", "prompt": "{a}"}]}
    with pytest.raises(RenderError, match="no attribute 'agent'"):
        pair({"type": "AgentInferencer"}, template=dialogue)
    agent = {"type": OC + "lagent.CodeAgent", "llm": {}}
    request = pair({"type": "AgentInferencer"}, agent, template=dialogue).sample(0).requests[0]
    assert request.model_input == [{"role": "user", "content": "x0"}]


def test_agent_every_mode_marks_later_turns_as_depending_on_answers():
    rows = {"test": [{"dialogue": [{"role": "user", "content": "u1"}, {"role": "assistant", "content": "a1"},
                                   {"role": "user", "content": "u2"}, {"role": "assistant", "content": "a2"}]}],
            "train": []}
    cfg = {"abbr": "d", "reader_cfg": {"input_columns": ["dialogue"], "output_column": None},
           "infer_cfg": {"prompt_template": {"template": "{dialogue}"}, "retriever": {"type": "ZeroRetriever"},
                         "inferencer": {"type": "AgentInferencer", "infer_mode": "every"}}}
    agent = ModelSpec("agent", {"type": OC + "lagent.LagentAgent"})
    requests = PairRenderer(DatasetSpec("d", cfg, rows), agent).sample(0).requests
    assert [r.depends_on for r in requests] == [(), (0,)]
    assert requests[1].model_input[-1] == {"role": "user", "content": "u2"}
    assert requests[1].model_input[1]["content"] == "‹prediction turn 0›"


def test_inferencers_that_are_not_rendered_say_so():
    with pytest.raises(UnsupportedError, match="ParallelGenInferencer"):
        pair({"type": "ParallelGenInferencer"})
    with pytest.raises(RenderError, match="registry") as caught:
        pair({"type": "NoSuchInferencer"})
    assert not isinstance(caught.value, UnsupportedError)


def test_bfcl_refuses_local_models_and_does_not_render_api_ones():
    ais = "ais_bench.benchmark.models."
    local = {"type": ais + "HuggingFaceCausalLM", "path": "/x", "attr": "local"}
    with pytest.raises(RenderError, match="no attribute 'inference'") as caught:
        pair({"type": "BFCLV3FunctionCallInferencer"}, local, framework=AISBENCH)
    assert not isinstance(caught.value, UnsupportedError)
    api = {"type": ais + "VLLMCustomAPIChat", "path": "", "attr": "service"}
    with pytest.raises(UnsupportedError, match="bfcl-eval"):
        pair({"type": "BFCLV3FunctionCallInferencer"}, api, framework=AISBENCH)


CLP_ROWS = {split: [{**row, "choices": ["no", "yes"]} for row in rows] for split, rows in ROWS.items()}


def test_clp_refuses_classes_without_get_logits():
    with pytest.raises(RenderError, match="no attribute 'get_logits'"):
        pair({"type": "CLPInferencer"}, CHAT, rows=CLP_ROWS)
    with pytest.raises(RenderError, match="API model is not supported"):
        pair({"type": "CLPInferencer"}, API)


@pytest.mark.parametrize(("choices", "stops"), [
    (..., "KeyError: 'choices'"), ([], "IndexError"), (None, "TypeError"), ("", "IndexError")])
@pytest.mark.parametrize("model", [LM, CHAT])
def test_clp_stops_where_test_row_0_has_no_choices_to_score(choices, stops, model):
    # OpenCompass reads retriever.test_ds[0]['choices'] before it scores anything, and before it
    # looks for get_logits (goldens: oc_civilcomments_clp, x_clp_choices_empty, x_clp_choices_none)
    rows = ROWS if choices is ... else {split: [{**row, "choices": choices} for row in rows_]
                                        for split, rows_ in ROWS.items()}
    with pytest.raises(RenderError, match="first test row's 'choices' column") as caught:
        pair({"type": "CLPInferencer"}, model, rows=rows)
    assert stops in caught.value.message
    assert "'choices' list" in (caught.value.hint or "")


def test_clp_reads_only_test_row_0s_choices():
    rows = {"train": CLP_ROWS["train"], "test": [{**CLP_ROWS["test"][0]}, {"q": "no choices here", "a": "b"}]}
    requests = pair({"type": "CLPInferencer"}, rows=rows).sample(1).requests
    assert dict(requests[0].extra)["choices"] == ["no", "yes"]


NO_GOLD = {"train": ROWS["train"], "test": [{"q": "x0"}, {"q": "x1"}]}


@pytest.mark.parametrize(("inferencer", "model", "framework"), [
    ("GenInferencer", LM, "opencompass"), ("GenInferencer", API, "opencompass"),
    ("SCInferencer", LM, "opencompass"), ("GenInferencer", LM, AISBENCH)])
def test_the_inferencers_that_read_the_gold_stop_where_no_test_row_has_it(inferencer, model, framework):
    # dataset['test'][output_column] is a KeyError where no row has the column, once the prompts
    # are built (goldens: x_gold_column_missing, x_ais_gold_column_missing)
    if framework == AISBENCH:
        model = {**model, "type": model["type"].replace(OC, "ais_bench.benchmark.models."), "attr": "local"}
    with pytest.raises(RenderError, match="reads the gold answers as the test split's 'a' column") as caught:
        pair({"type": inferencer}, model, rows=NO_GOLD, framework=framework)
    assert "KeyError" in caught.value.message and "the column 'a'" in (caught.value.hint or "")


def test_the_gold_is_not_asked_of_inferencers_that_do_not_read_it_nor_where_a_row_has_it():
    assert pair({"type": "GLMChoiceInferencer", "choices": ["A", "B"]}, rows=NO_GOLD).sample(0).requests
    assert pair({"type": "GenInferencer"}, rows=NO_GOLD, output=None).sample(0).requests
    some = {"train": ROWS["train"], "test": [{"q": "x0"}, {"q": "x1", "a": "g1"}]}
    assert pair({"type": "GenInferencer"}, rows=some).sample(0).requests
