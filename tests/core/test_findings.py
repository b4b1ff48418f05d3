"""Findings: PW101 unknown-key (a key the framework's class rejects) and PW201
unsent-generation-prompt (a generating turn's prompt the meta template drops)."""

from __future__ import annotations

import pytest

from tests.conftest import make_pair
from workbench.core.config_keys import MODEL_POPPED, accepted, unknown_keys
from workbench.core.errors import RenderError
from workbench.core.findings import RULES, Finding
from workbench.core.render_notes import Notes
from workbench.core.spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec, Source

META = {"round": [{"role": "HUMAN", "begin": "<|user|>\n", "end": "\n"},
                  {"role": "BOT", "begin": "<|assistant|>\n", "end": "\n", "generate": True}]}
API_META = {"round": [{"role": "HUMAN", "api_role": "HUMAN"},
                      {"role": "BOT", "api_role": "BOT", "generate": True}]}
ROWS = [{"question": "1+1?", "answer": "2"}]


def dataset(bot_prompt: str = "", inferencer: str = "GenInferencer", reader: dict | None = None,
            retriever: dict | None = None, template_extra: dict | None = None) -> dict:
    return {
        "abbr": "ds",
        "reader_cfg": reader or {"input_columns": ["question"], "output_column": "answer"},
        "infer_cfg": {
            "prompt_template": {"type": "PromptTemplate", **(template_extra or {}),
                                "template": {"round": [{"role": "HUMAN", "prompt": "Q: {question}"},
                                                       {"role": "BOT", "prompt": bot_prompt}]}},
            "retriever": retriever or {"type": "ZeroRetriever"},
            "inferencer": {"type": inferencer},
        },
    }


def model(**extra) -> dict:
    return {"type": "HuggingFaceCausalLM", "abbr": "m", "path": "x", "meta_template": META, **extra}


def raised(dataset_cfg: dict, model_cfg: dict | None = None, framework: str = OPENCOMPASS) -> RenderError:
    with pytest.raises(RenderError) as info:
        make_pair(dataset_cfg, ROWS, model_cfg, framework)
    return info.value


# -- PW101 unknown-key --------------------------------------------------------------------------

def test_the_table_is_the_frameworks_own():
    reader = accepted(OPENCOMPASS, "reader", "DatasetReader")
    assert {"input_columns", "output_column", "train_split", "test_range"} <= reader
    assert "meta_template" in accepted(OPENCOMPASS, "model", "HuggingFaceCausalLM")
    # AISBench 3.1's retrievers take the templates its task copies into them; OpenCompass's do not
    assert "prompt_template" in accepted(AISBENCH, "retriever", "ZeroRetriever")
    assert "prompt_template" not in accepted(OPENCOMPASS, "retriever", "ZeroRetriever")
    # every OpenCompass inferencer keeps **kwargs: it accepts (and ignores) any key
    assert accepted(OPENCOMPASS, "inferencer", "GenInferencer") is None
    assert accepted(OPENCOMPASS, "model", "NoSuchModel") is None


@pytest.mark.parametrize(("where", "key", "meant"), [
    ("model", "meta_templat", "meta_template"),
    ("model", "max_seq_lenn", "max_seq_len"),
    ("reader", "input_column", "input_columns"),
])
def test_a_misspelled_key_is_the_frameworks_type_error_with_did_you_mean(where, key, meant):
    if where == "model":
        cfg = model()
        cfg[key] = cfg.pop(meant, 2048)
        error = raised(dataset(), cfg)
        assert error.in_model and error.key_path == (key,)
        assert error.message.startswith("model: HuggingFaceCausalLM.__init__() got an unexpected keyword "
                                        f"argument {key!r}")
    else:
        error = raised(dataset(reader={key: ["question"], "output_column": "answer"}), model())
        assert not error.in_model and error.key_path == ("reader_cfg", key)
        assert "DatasetReader.__init__() got an unexpected keyword argument 'input_column'" in error.message
    assert error.rule == "PW101"
    assert error.hint == f"did you mean {meant!r}?"
    assert "OpenCompass 0.5.4 raises this TypeError" in error.message


def test_without_a_close_name_the_hint_lists_what_the_class_takes():
    error = raised(dataset(template_extra={"zzz": 1}), model())
    assert error.key_path == ("infer_cfg", "prompt_template", "zzz")
    assert error.hint == "PromptTemplate takes: ice_token, sep_token, template"


def test_keys_the_framework_takes_out_first_are_not_errors():
    cfg = model(abbr="m", run_cfg={"num_gpus": 1}, batch_size=8, max_out_len=100, min_out_len=1,
                summarizer_abbr="s", pred_postprocessor={"type": "x"})
    assert make_pair(dataset(), ROWS, cfg).sample(0).requests
    # AISBench pops attr and traffic_cfg, and keeps max_out_len (its model classes take it)
    ais = {"type": "VLLMCustomAPIChat", "abbr": "m", "attr": "service", "traffic_cfg": {},
           "max_out_len": 10, "path": "", "model": "x"}
    spec = ModelSpec("m", ais, AISBENCH)
    assert list(unknown_keys(DatasetSpec("d", {}, framework=AISBENCH), spec)) == []
    assert "attr" in MODEL_POPPED[AISBENCH] and "attr" not in MODEL_POPPED[OPENCOMPASS]


def test_the_same_key_per_framework_as_each_framework_decides():
    retriever = {"type": "ZeroRetriever", "prompt_template": {"type": "PromptTemplate", "template": "{q}"}}
    ais = DatasetSpec("d", dataset(retriever=retriever), framework=AISBENCH)
    assert list(unknown_keys(ais, None)) == []
    oc = DatasetSpec("d", dataset(retriever=retriever), framework=OPENCOMPASS)
    [error] = unknown_keys(oc, None)
    assert error.key_path == ("infer_cfg", "retriever", "prompt_template")


def test_an_inferencer_that_keeps_kwargs_accepts_a_typo_as_the_framework_does():
    cfg = dataset()
    cfg["infer_cfg"]["inferencer"]["max_out_lenn"] = 5
    assert make_pair(cfg, ROWS, model()).sample(0).requests


def test_the_error_points_at_the_keys_own_line():
    spec = DatasetSpec("d", dataset(reader={"input_column": ["question"]}), rows=ROWS,
                       source=Source("cfg.py", 1),
                       locations={("reader_cfg",): Source("cfg.py", 3),
                                  ("reader_cfg", "input_column"): Source("cfg.py", 4)})
    from workbench.core.lazy_pairs import LazyPairs
    [error] = LazyPairs([spec], []).result().errors
    assert (error.file, error.line, error.rule) == ("cfg.py", 4, "PW101")


# -- PW201 unsent-generation-prompt -------------------------------------------------------------

def test_the_generating_turns_prompt_is_reported_marked_and_not_sent():
    pair = make_pair(dataset("A:"), ROWS, model())
    request = pair.sample(0).requests[0]
    assert request.model_input == "<|user|>\nQ: 1+1?\n<|assistant|>\n"  # 'A:' never sent
    [warning] = [w for w in pair.warnings() if w.rule]
    assert warning.rule == "PW201" and "BOT turn's prompt 'A:' is never sent" in warning.message
    items = list(request.prompt_list)
    assert items[pair.unsent_item(request)] == {"role": "BOT", "prompt": "A:"}


def test_an_api_model_drops_it_too():
    api = {"type": "OpenAI", "abbr": "api", "path": "gpt", "meta_template": API_META}
    pair = make_pair(dataset("A:"), ROWS, api)
    assert [m["prompt"] for m in pair.sample(0).requests[0].model_input] == ["Q: 1+1?"]
    assert any(w.rule == "PW201" for w in pair.warnings())


@pytest.mark.parametrize("bot_prompt", ["", "{answer}"])
def test_an_empty_or_output_column_prompt_is_no_finding(bot_prompt):
    pair = make_pair(dataset(bot_prompt), ROWS, model())
    request = pair.sample(0).requests[0]
    assert not any(w.rule for w in pair.warnings())
    assert pair.unsent_item(request) is None


def test_ppl_lays_out_every_turn():
    cfg = dataset()
    cfg["infer_cfg"]["prompt_template"]["template"] = {
        label: {"round": [{"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": label}]}
        for label in ("yes", "no")}
    cfg["infer_cfg"]["inferencer"] = {"type": "PPLInferencer"}
    pair = make_pair(cfg, ROWS, model())
    assert pair.sample(0).requests[0].model_input.endswith("<|assistant|>\nyes\n")
    assert not any(w.rule for w in pair.warnings())


def test_the_finding_is_located_at_the_templates_round():
    spec = DatasetSpec("d", dataset("A:"), rows=ROWS, source=Source("cfg.py", 1),
                       locations={("infer_cfg", "prompt_template"): Source("cfg.py", 5),
                                  ("infer_cfg", "prompt_template", "template", "round", 1): Source("cfg.py", 7)})
    from workbench.core.lazy_pairs import LazyPairs
    result = LazyPairs([spec], [ModelSpec("m", model())]).result()
    [warning] = [w for w in result.warnings if w.rule]
    assert (warning.file, warning.line) == ("cfg.py", 7)
    assert warning.hint and "HUMAN" in warning.hint


# -- the finding type ----------------------------------------------------------------------------

def test_notes_keep_a_findings_id_place_and_hint_once_per_message():
    notes = Notes()
    finding = Finding("PW201", "dropped", hint="move it", file="a.py", line=3)
    notes.find(finding)
    notes.find(finding)
    notes.warn("plain")
    [found, plain] = notes.pair_warnings("d", "m")
    assert (found.rule, found.file, found.line, found.hint) == ("PW201", "a.py", 3, "move it")
    assert plain.rule is None and notes.count("dropped") == 2
    assert finding.tag == "PW201 unsent-generation-prompt" and finding.severity == "warning"


def test_every_rule_has_a_unique_id_and_name_and_a_severity():
    assert len({r.name for r in RULES.values()}) == len(RULES)
    assert all(r.severity in ("error", "warning", "info") for r in RULES.values())


def test_a_dropped_line_end_alone_is_no_finding():
    # '{answer}\n' serves the in-context examples and the test round alike: only its '\n' is dropped
    pair = make_pair(dataset("{answer}\n"), ROWS, model())
    assert not any(w.rule for w in pair.warnings())


def test_a_raw_prompt_templates_typo_is_the_same_finding():
    cfg = dataset()
    cfg["infer_cfg"]["prompt_template"] = {"type": "RawPromptTemplate", "format_variable": True,
                                           "messages": [{"role": "user", "content": "{question}"}]}
    error = raised(cfg, model())
    assert error.rule == "PW101" and error.key_path == ("infer_cfg", "prompt_template", "format_variable")
    assert "RawPromptTemplate.__init__() got an unexpected keyword argument 'format_variable'" in error.message
    assert error.hint == "did you mean 'format_variables'?"


def test_a_scoring_inferencer_parses_in_ppl_mode_and_sends_the_turn():
    cfg = dataset("A:", inferencer="PPLOnlyInferencer", reader={"input_columns": ["question"],
                                                                 "output_column": None})
    pair = make_pair(cfg, ROWS, model())
    assert pair.sample(0).requests[0].model_input.endswith("<|assistant|>\nA:\n")
    assert not any(w.rule for w in pair.warnings())
