"""Messages that say what happened and what to do: custom datasets, input columns the rows lack."""

from __future__ import annotations

from workbench.core.lazy_pairs import render_workspace
from workbench.core.spec import DatasetSpec

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
