"""Messages that say what happened and what to do: custom datasets, input columns the rows lack."""

from __future__ import annotations

from workbench.core.lazy_pairs import render_workspace
from workbench.core.spec import DatasetSpec, ModelSpec, Source

from ..conftest import make_pair

QA = {
    "abbr": "qa",
    "reader_cfg": {"input_columns": ["question", "context"], "output_column": "answer"},
    "infer_cfg": {
        "ice_template": {"type": "PromptTemplate", "template": "Q: {question} {context}\nA: {answer}\n"},
        "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>",
                            "template": "</E>Q: {question} {context}\nA:"},
        "retriever": {"type": "FixKRetriever", "fix_id_list": [0]},
        "inferencer": {"type": "GenInferencer"},
    },
}


def test_an_input_column_the_rows_lack_is_sent_as_written_and_named_once():
    rows = {"train": [{"question": "1 + 1", "context": "sums", "answer": "2"}],
            "test": [{"question": "2 + 2", "answer": "4"}]}
    pair = make_pair(QA, rows)
    assert pair.sample(0).requests[0].model_input.endswith("Q: 2 + 2 {context}\nA:")
    about_context = [m for m in pair.notes.messages if "context" in m]
    assert about_context == [
        "reader_cfg.input_columns lists 'context', but the test rows have no such column, so {context} "
        "is sent as written (the frameworks do not check input columns)"]


def test_train_rows_are_checked_when_examples_are_retrieved():
    rows = {"train": [{"question": "1 + 1", "answer": "2"}],
            "test": [{"question": "2 + 2", "context": "sums", "answer": "4"}]}
    messages = make_pair(QA, rows).notes.messages
    assert any(m.startswith("reader_cfg.input_columns lists 'context', but the train rows") for m in messages)


def test_no_warning_when_the_rows_have_every_input_column():
    rows = [{"question": "2 + 2", "context": "sums", "answer": "4"}]
    assert not any("input_columns" in m for m in make_pair(QA, rows).notes.messages)


def test_a_custom_dataset_says_opencompass_builds_its_prompts_at_run_time():
    custom = DatasetSpec(abbr="mine", cfg={"path": "data/mine.jsonl", "data_type": "mcq", "infer_method": "ppl"},
                         rows=[{"question": "q", "A": "a", "answer": "A"}])
    (error,) = render_workspace([custom], []).errors
    assert "OpenCompass custom dataset" in error.message and "data_type='mcq', infer_method='ppl'" in error.message
    assert "builds at run time" in error.message and "reader_cfg=dict(" in error.hint
    plain = DatasetSpec(abbr="demo", cfg={"type": "X", "reader_cfg": {"input_columns": ["q"]}}, rows=[])
    (error,) = render_workspace([plain], []).errors
    assert error.message == "dataset 'demo' has no infer_cfg dict"


def test_a_column_missing_everywhere_gets_one_warning_not_two():
    rows = [{"question": "2 + 2", "answer": "4"}, {"question": "3 + 3", "answer": "6"}]
    about_context = [m for m in make_pair(QA, rows).notes.messages if "context" in m]
    assert len(about_context) == 1 and about_context[0].startswith("reader_cfg.input_columns lists 'context'")


def test_an_input_column_no_template_names_says_the_prompts_do_not_change_and_suggests_the_column():
    typo = {**QA, "reader_cfg": {"input_columns": ["questoin"], "output_column": "answer"},
            "infer_cfg": {**QA["infer_cfg"], "ice_template": {"type": "PromptTemplate",
                                                              "template": "Q: {question}\nA: {answer}\n"},
                          "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>",
                                              "template": "</E>Q: {question}\nA:"}}}
    rows = [{"question": "2 + 2", "answer": "4"}]
    pair = make_pair(typo, rows)
    assert pair.sample(0).requests[0].model_input.endswith("Q: 2 + 2\nA:")  # filled from the row
    (said,) = [m for m in pair.notes.messages if "questoin" in m]
    assert "sent as written" not in said
    assert said == ("reader_cfg.input_columns lists 'questoin', but the test rows have no such column and no "
                    "template names {questoin}: the prompts are the same, but a retriever that reads the input "
                    "columns (BM25, TopK, VoteK...) fails with KeyError: 'questoin' (a typo of 'question'?)")


def test_a_role_the_model_does_not_know_is_reported_where_the_template_wrote_it():
    dataset = DatasetSpec(
        abbr="qa", rows=[{"question": "2 + 2", "answer": "4"}], source=Source("datasets/qa.py", 20),
        cfg={"reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
             "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": {"round": [
                 {"role": "HUMNA", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}]}},
                 "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}}},
        locations={("infer_cfg", "prompt_template"): Source("datasets/qa.py", 3),
                   ("infer_cfg", "prompt_template", "template", "round", 0): Source("datasets/qa.py", 5)})
    model = ModelSpec(abbr="m", source=Source("models/m.py", 2), cfg={
        "type": "HuggingFaceCausalLM", "meta_template": {"round": [
            {"role": "HUMAN", "begin": "<user>", "end": "\n"},
            {"role": "BOT", "begin": "<bot>", "end": "\n", "generate": True}]}})
    (error,) = render_workspace([dataset], [model]).errors
    assert (error.file, error.line) == ("datasets/qa.py", 5)  # the typo's line, not the model's
    assert "'HUMNA'" in error.message and "HUMAN, BOT" in error.hint
