"""RawPromptTemplate: messages, examples, expand_column, and what each model kind does with them.

The byte-for-byte facts are pinned by the r_raw_* parity goldens; these tests name them.
"""

from __future__ import annotations

import pytest

from workbench.core.errors import RenderError
from workbench.core.provenance import ROW, spans_of
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import DatasetSpec, ModelSpec
from workbench.core.templates.raw_prompt_template import RawPromptTemplate, parse_for_api
from workbench.loading.rows.placeholder_rows import placeholder_rows

RAW = "opencompass.openicl.icl_raw_prompt_template.RawPromptTemplate"
API = {"type": "opencompass.models.OpenAI", "path": "gpt", "key": "x"}
LM = {"type": "opencompass.models.HuggingFaceCausalLM", "path": "/x"}
CHAT = {"type": "opencompass.models.HuggingFacewithChatTemplate", "path": "/nonexistent"}
ROWS = {"train": [{"q": f"t{i}", "a": f"A{i}"} for i in range(3)], "test": [{"q": "x", "a": "gold"}]}


def user(content: str) -> dict:
    return {"role": "user", "content": content}


def dataset(messages, *, ice=None, retriever=None, inferencer=None, rows=ROWS, **more) -> DatasetSpec:
    infer = {"prompt_template": {"type": RAW, "messages": messages, **more},
             "retriever": retriever or {"type": "ZeroRetriever"},
             "inferencer": inferencer or {"type": "GenInferencer"}}
    if ice is not None:
        infer["ice_template"] = {"type": RAW, "messages": ice}
    cfg = {"abbr": "raw", "reader_cfg": {"input_columns": ["q"], "output_column": "a"}, "infer_cfg": infer}
    return DatasetSpec("raw", cfg, rows)


def render(ds: DatasetSpec, model: dict | None = API, options: RenderOptions | None = None):
    spec = ModelSpec("m", model) if model is not None else None
    return PairRenderer(ds, spec, options)


def first_input(ds, model=API):
    return render(ds, model).sample(0).requests[0].model_input


def test_content_is_filled_and_the_output_column_is_not_masked():
    pair = render(dataset([user("{q} [{a}]")]))
    assert pair.sample(0).requests[0].model_input == [user("x [gold]")]
    assert any("does not mask the output column" in m for m in pair.notes.messages)


def test_format_variables_false_sends_fields_as_written():
    pair = render(dataset([user("{q}")], format_variables=False))
    assert pair.sample(0).requests[0].model_input == [user("{q}")]
    assert any("format_variables=False" in m for m in pair.notes.messages)


def test_the_ice_placeholder_takes_example_messages_and_other_strings_are_dropped():
    ds = dataset(["</E>", "stray", user("{q}")], ice=[user("{q}"), {"role": "assistant", "content": "{a}"}],
                 retriever={"type": "FixKRetriever", "fix_id_list": [1, 0]})
    assert first_input(ds) == [user("t1"), {"role": "assistant", "content": "A1"},
                               user("t0"), {"role": "assistant", "content": "A0"}, user("x")]


def test_string_examples_do_not_replace_the_placeholder():
    ds = dataset(["</E>", user("{q}")], retriever={"type": "FixKRetriever", "fix_id_list": [0]})
    ds.cfg["infer_cfg"]["ice_template"] = {"type": "PromptTemplate", "template": "{q}={a}"}
    assert first_input(ds) == [user("x")]


def test_expand_column_splices_a_copy_of_the_rows_messages_unfilled():
    rows = [{"q": "x", "a": "g", "hist": [user("{q} stays"), {"role": "assistant", "content": "r"}], "s": "str"}]
    ds = dataset([{"expand_column": "hist"}, {"expand_column": "s"}, user("{q}")], rows=rows)
    pair = render(ds)
    assert pair.sample(0).requests[0].model_input == [user("{q} stays"), {"role": "assistant", "content": "r"},
                                                      user("x")]
    assert any("'s'" in m and "nothing is inserted" in m for m in pair.notes.messages)
    assert rows[0]["hist"][0] == user("{q} stays")  # the row itself is untouched


@pytest.mark.parametrize(("model", "words"), [(LM, "AssertionError"), (CHAT, "KeyError: 'prompt'")])
def test_local_and_chat_template_models_refuse_raw_messages(model, words):
    with pytest.raises(RenderError, match="go to API models only") as caught:
        render(dataset([user("{q}")]), model)
    assert words in caught.value.message


@pytest.mark.parametrize("model", [LM, CHAT])
def test_no_messages_are_nothing_to_refuse(model):
    # every parser maps a list to its items parsed, so an expand_column of a str column (no
    # message) reaches a local model as [] (golden: oc_clbench_llmjudge_rawprompt_gen_84a8f0)
    rows = {"train": ROWS["train"], "test": [{"q": "x", "a": "g", "hist": "not a list"}]}
    pair = render(dataset([{"expand_column": "hist"}], rows=rows), model)
    assert pair.sample(0).requests[0].model_input == []
    assert any("nothing is inserted" in m for m in pair.notes.messages)


def test_a_dict_meta_template_is_ignored_for_api_models():
    meta = {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}]}
    assert first_input(dataset([user("{q}")]), {**API, "meta_template": meta}) == [user("x")]


def test_a_list_meta_template_is_merged():
    meta = [{"role": "system", "content": "S. "}, {"role": "user", "content": ">> "}]
    assert first_input(dataset([user("{q}")]), {**API, "meta_template": meta}) == [
        {"role": "system", "content": "S. "}, user(">> x")]


def test_list_meta_merge_rules():
    prompt = [user("u1"), {"role": "assistant", "content": "a1"}, user("u2")]
    assert parse_for_api([], [{"role": "system", "content": "S"}]) == []
    late = [{"role": "user", "content": "[u]"}, {"role": "assistant", "content": "[a]"},
            {"role": "system", "content": "[s]"}]
    assert parse_for_api(prompt, late) == [user("[u]u1"), {"role": "assistant", "content": "[a]a1"},
                                           {"role": "system", "content": "[s]"}, user("u2")]
    with pytest.raises(RenderError, match="AssertionError"):
        parse_for_api([{"role": "user"}], None)


def test_a_list_meta_template_fails_on_a_prompt_list():
    cfg = {"abbr": "d", "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
           "infer_cfg": {"prompt_template": {"template": {"round": [{"role": "HUMAN", "prompt": "{q}"}]}},
                         "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}}}
    with pytest.raises(RenderError, match="list indices"):
        render(DatasetSpec("d", cfg, ROWS), {**API, "meta_template": [{"role": "system", "content": "S"}]})


@pytest.mark.parametrize(("messages", "words"), [
    ("{q}", "messages must be a list"),
    ([{"role": "HUMAN", "content": "x"}], "invalid role: HUMAN"),
    ([{"role": "user", "prompt": "x"}], "missing 'content' key"),
])
def test_the_frameworks_validation(messages, words):
    with pytest.raises(RenderError, match=words):
        RawPromptTemplate(messages)


def test_multiround_answers_each_empty_assistant_message_in_turn():
    rows = [{"q": "x", "a": "g", "dialogue": [user("one"), {"role": "assistant", "content": ""},
                                              user("two"), {"role": "assistant", "content": ""}]}]
    ds = dataset([{"expand_column": "dialogue"}], rows=rows,
                 inferencer={"type": "GenInferencer", "multiround": True})
    requests = render(ds).sample(0).requests
    assert [r.turn for r in requests] == [0, 1] and requests[1].depends_on == (0,)
    assert requests[1].model_input == [user("one"), {"role": "assistant", "content": "‹prediction turn 0›"},
                                       user("two")]
    answers = RenderOptions(predictions=lambda d, m, i, t: f"real answer {t}")
    again = render(ds, API, answers).sample(0).requests[1].model_input
    assert again[1] == {"role": "assistant", "content": "real answer 0"}


def test_provenance_marks_row_values():
    request = render(dataset([user("Q: {q}")])).sample(0, provenance=True).requests[0]
    content = request.model_input[0]["content"]
    assert [origin.kind for _n, origin in spans_of(content)][-1] == ROW


def test_placeholder_rows_give_expand_columns_a_chat():
    cfg = dataset([{"expand_column": "dialogue"}], inferencer={"type": "GenInferencer", "multiround": True}).cfg
    cfg = {**cfg, "reader_cfg": {"input_columns": ["dialogue"], "output_column": "a"}}
    rows = placeholder_rows(cfg)
    chat = rows["test"][0]["dialogue"]
    assert [m["role"] for m in chat] == ["user", "assistant", "user", "assistant"]
    assert chat[1]["content"] == ""  # what multiround answers
