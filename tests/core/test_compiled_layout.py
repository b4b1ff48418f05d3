"""A compiled meta-template layout gives exactly what walking the PromptList gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import make_pair
from workbench.core.models.meta_template import APIParser, LMParser
from workbench.core.provenance import spans_of
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.render_notes import Notes
from workbench.core.templates.prompt_list import PromptList, to_json

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
    walking = make_pair(cfg, {"train": train, "test": test}, model)
    walking.engine(True).model.parser._compile = lambda source, mode: None
    for i in range(len(test)):
        fast = pair.sample(i).requests
        traced = pair.sample(i, provenance=True).requests
        walked = walking.sample(i, provenance=True).requests
        assert [str(r.model_input) for r in fast] == [str(r.model_input) for r in walked]
        # with provenance the compiled layout gives the walk's runs too
        assert [(r.model_input, spans_of(r.model_input)) for r in traced] == \
            [(r.model_input, spans_of(r.model_input)) for r in walked]


def test_the_layout_is_compiled_and_used():
    """Every sample parsed for real (not spliced: a splice parses one row in all)."""
    rows = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(4)]
    made = make_pair(CFG, {"train": rows, "test": rows},
                     {"type": "HuggingFaceCausalLM", "path": "x", "meta_template": META})
    pair = PairRenderer(made.dataset, made.model_spec, RenderOptions(splice=False))
    texts = [pair.sample(i).requests[0].model_input for i in range(4)]
    layouts = [entry[1] for entry in pair.engine(False).model.parser._layouts.values()]
    assert any(layout is not None for layout in layouts)
    assert texts[3] == "<bos><|sys|>Sys {hint}\n<|user|>Q: q0\n<|bot|>a0<eot>\n<|user|>Q: q1\n" \
        "<|bot|>a1<eot>\n<|user|>Q: q3\n<|bot|>"


API_META = {"round": [{"role": "HUMAN", "api_role": "HUMAN", "begin": "[u]", "end": ""},
                      {"role": "BOT", "api_role": "BOT", "generate": True}],
            "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM", "prompt": "default sys"}]}
NUL_API_META = {**API_META, "round": [{**API_META["round"][0], "end": "\x00"}, API_META["round"][1]]}
# plain string items are dropped by API parsers, with a warning (per row) when they hold text
API_CFG = {**CFG, "infer_cfg": {**CFG["infer_cfg"], "prompt_template": {
    "type": "PromptTemplate", "template": {
        "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Sys {hint}"}, "</E>",
                  {"role": "SYSTEM"}, "{question}", {"section": "ice", "pos": "begin"},
                  {"section": "ice", "pos": "end"}],
        "round": [{"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "HUMAN", "prompt": "again"},
                  {"role": "BOT", "prompt": "{answer}"}],
        "end": [{"role": "HUMAN", "prompt": "bye"}, "after the end {answer}"]}, "ice_token": "</E>"}}}


def _rendered(pair, n):
    return [[to_json(r.model_input) for r in pair.sample(i).requests] for i in range(n)], pair.notes.messages


def _traced(pair, n):
    """Each message's text and where each of its characters came from."""
    texts = [[[m.get("prompt", m.get("content")) for m in r.model_input if isinstance(m, dict)]
              for r in pair.sample(i, provenance=True).requests] for i in range(n)]
    return [[[(t, spans_of(t)) for t in request] for request in sample] for sample in texts]


@settings(max_examples=100, deadline=None)
@given(train=rows, test=rows, meta=st.sampled_from([API_META, NUL_API_META]),
       model_type=st.sampled_from(["OpenAI", "HuggingFacewithChatTemplate"]))
def test_compiled_messages_equal_the_walk(train, test, meta, model_type):
    model = {"type": model_type, "path": "x", "meta_template": meta}
    pair = make_pair(API_CFG, {"train": train, "test": test}, model)
    walking = make_pair(API_CFG, {"train": train, "test": test}, model)
    for provenance in (False, True):
        walking.engine(provenance).model.parser._compile = lambda source, mode: None
    # the same messages and the same warnings, in the same order, as walking every row
    assert _rendered(pair, len(test)) == _rendered(walking, len(test))
    # and with provenance, the same runs
    assert _traced(pair, len(test)) == _traced(walking, len(test))
    for i in range(len(test)):
        fast = pair.sample(i).requests
        traced = pair.sample(i, provenance=True).requests
        assert [to_json(r.model_input) for r in fast] == [to_json(r.model_input) for r in traced]


def test_the_messages_layout_is_compiled_and_used():
    rows = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(4)]
    rows[3]["question"] = " "
    pair = make_pair(API_CFG, {"train": rows, "test": rows},
                     {"type": "OpenAI", "path": "x", "meta_template": API_META})
    inputs = [pair.sample(i).requests[0].model_input for i in range(4)]
    layouts = [entry[1] for entry in pair.engine(False).model.parser._layouts.values()]
    assert any(layout is not None for layout in layouts)
    assert to_json(inputs[2]) == [
        {"role": "SYSTEM", "prompt": "Sys {hint}"}, {"role": "HUMAN", "prompt": "[u]Q: q0"},
        {"role": "BOT", "prompt": "a0"}, {"role": "HUMAN", "prompt": "[u]Q: q1"}, {"role": "BOT", "prompt": "a1"},
        {"role": "SYSTEM", "prompt": "default sys"}, {"role": "HUMAN", "prompt": "[u]"},
        {"role": "BOT", "prompt": ""}, {"role": "HUMAN", "prompt": "[u]Q: q2"}, {"role": "BOT", "prompt": ""},
        {"role": "HUMAN", "prompt": "[u]again"}]
    # each row's own string items are warned about, compiled or not; row 3's is only a space
    dropped = [m for m in pair.notes.messages if m.startswith("a non-empty string item")]
    assert dropped == [f"a non-empty string item {q!r} is dropped for API-style models (the framework "
                       "ignores strings without a role)" for q in ("q0", "q1", "q2")]


def _template(n: int) -> PromptList:
    """A prepared template whose shape depends on ``n`` (how many rounds)."""
    items: list = [{"section": "round", "pos": "begin"}]
    for k in range(n):
        items += [{"role": "HUMAN", "prompt": f"Q{k}: {{question}}"}, {"role": "BOT", "prompt": f"A{k}"}]
    items.append({"section": "round", "pos": "end"})
    return PromptList(items)


def _filled(template: PromptList, question: str) -> PromptList:
    filled = template.fill_prepared((("question", question),))
    filled.filled_from = template
    return filled


def test_an_edited_template_never_gets_the_old_layout():
    # A save prepares new template objects: each parser must lay out each one as a walk
    # would, however many layouts it compiled before (they are kept by template object).
    for parser, walker in ((LMParser(META, Notes()), LMParser(META, Notes())),
                           (APIParser(API_META, Notes()), APIParser(API_META, Notes()))):
        walker._compile = lambda source, mode: None  # type: ignore[method-assign]
        for edit in range(40):
            template = _template(1 + edit % 3)
            for question in ("x", "y", "z"):  # the second use compiles, the third applies
                got = parser.parse(_filled(template, question), "gen")
                assert to_json(got) == to_json(walker.parse(_filled(template, question), "gen"))
            del template
