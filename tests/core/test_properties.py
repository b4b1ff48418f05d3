"""Property tests: random templates, rows and meta templates never crash the core.

For any dataset config, rows and model config hypothesis can build (braces in odd places,
dialogue dicts nested wrongly, label dicts, ice tokens anywhere, unicode and huge values,
missing and extra columns, non-string values, meta templates with wrong types), rendering

- raises nothing but :class:`WorkbenchError` (with a message), and
- is deterministic: the same inputs give the same output, and the provenance render's
  text is exactly the fast render's.

Every raw exception these tests found is kept below as a regression example
(``test_regressions``), so the bugs stay fixed without hypothesis finding them again.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.core.errors import WorkbenchError
from workbench.core.render import PairRenderer
from workbench.core.spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec
from workbench.core.templates.prompt_list import to_json

# Deterministic by construction: a fixed seed per test, no example database on disk.
PROPERTY = settings(
    max_examples=300, deadline=None, derandomize=True, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

COLUMNS = ["question", "answer", "label", "{x}", "cont", "content", "dialogue", "choices"]
CONTENT = "<AIS_TEXT_START>{question}<AIS_CONTENT_TAG><AIS_IMAGE_START>img.png<AIS_CONTENT_TAG><AIS_AUDIO_START>a"
ROLES = ["HUMAN", "BOT", "SYSTEM", "USER", ""]
HUGE = "lorem {question} ipsum } { " * 4_000  # ~100k characters, braces and all

# -- text -------------------------------------------------------------------------------

_pieces = st.one_of(
    st.sampled_from([
        "{question}", "{answer}", "{label}", "{unknown}", "{", "}", "{{", "}}", "{}", "{{question}}",
        "</E>", "</SEP>", "<E>", "\n", " ", "section", "{{7*7}}", "{%", "%}", "\x1b[31m", "\u202e",
        "<AIS_TEXT_START>", "<AIS_IMAGE_START>", "<AIS_CONTENT_TAG>", "\\", "'", '"',
    ]),
    st.text(max_size=8),
)
texts = st.lists(_pieces, max_size=6).map("".join)
odd_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True),
                        st.just(["a", "b"]), st.just({"k": "v"}), st.just(("t",)))


def weighted(*choices: tuple[int, Any]):
    """One of the strategies, each as often as its weight says."""
    pool = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(pool) - 1).flatmap(lambda i: pool[i])


def maybe_odd(strategy, weight: int = 8):
    """Mostly ``strategy`` (weight to 1), sometimes a value of the wrong type."""
    return weighted((weight, strategy), (1, odd_scalars))


# -- prompt templates ------------------------------------------------------------------------

role_items = st.fixed_dictionaries(
    {"role": maybe_odd(st.sampled_from(ROLES), 10)},
    optional={
        "prompt": maybe_odd(texts),
        "fallback_role": st.sampled_from(ROLES),
        "generate": st.booleans(),
        "prompt_mm": weighted(
            (6, st.just({"text": {"type": "text", "text": "{question}"},
                         "image": {"type": "image_url", "image_url": {"url": "{image}"}}})),
            (1, st.dictionaries(st.sampled_from(["text", "image", "audio", "image_url"]),
                                weighted((3, st.fixed_dictionaries({}, optional={
                                    "type": texts, "text": maybe_odd(texts), "image_url": maybe_odd(texts)})),
                                    (1, odd_scalars)), max_size=2)),
            (1, odd_scalars)),
        "extra": texts,
    },
)
markers = st.fixed_dictionaries({"section": st.sampled_from(["begin", "round", "end", "ice", "x"]),
                                 "pos": st.sampled_from(["begin", "end", "middle"])})
dialogue_items = weighted((8, role_items), (3, texts), (1, markers), (1, odd_scalars))
dialogue_parts = weighted((8, st.lists(dialogue_items, max_size=5)), (2, texts), (1, odd_scalars))
dialogues = st.fixed_dictionaries(
    {"round": maybe_odd(st.lists(dialogue_items, max_size=5), 12)},
    optional={"begin": dialogue_parts, "end": dialogue_parts},
)
label_dicts = st.dictionaries(
    st.one_of(st.sampled_from(["A", "B", "yes", "no", "0"]), st.integers(0, 3)),
    weighted((6, texts), (3, dialogues), (1, odd_scalars)),
    max_size=4,
)
templates = weighted((6, texts), (6, dialogues), (3, label_dicts),
                     (1, st.fixed_dictionaries({}, optional={"begin": dialogue_parts, "end": dialogue_parts})),
                     (1, odd_scalars))
template_types = weighted(
    (20, st.just("PromptTemplate")), (2, st.just("opencompass.openicl.PromptTemplate")),
    (2, st.just("MultiTurnPromptTemplate")), (2, st.just("MMPromptTemplate")),
    (1, st.sampled_from(["RawPromptTemplate", "NoSuchTemplate"])))
template_cfgs = st.fixed_dictionaries(
    {"type": template_types, "template": templates},
    optional={"ice_token": maybe_odd(st.sampled_from(["</E>", "<E>", "{question}", "", "\n"])),
              "sep_token": maybe_odd(st.sampled_from(["</SEP>", "", "}"]))},
)

# -- retrievers, inferencers, readers ------------------------------------------------------------

retrievers = weighted(
    (6, st.just({"type": "ZeroRetriever"})),
    (4, st.fixed_dictionaries({"type": st.just("FixKRetriever"),
                               "fix_id_list": maybe_odd(st.lists(maybe_odd(st.integers(-4, 4), 12),
                                                                 max_size=3))})),
    (3, st.fixed_dictionaries({"type": st.just("RandomRetriever")},
                              optional={"ice_num": maybe_odd(st.integers(-2, 4)),
                                        "seed": maybe_odd(st.integers(0, 5))})),
    (3, st.fixed_dictionaries({"type": st.just("BM25Retriever")},
                              optional={"ice_num": maybe_odd(st.integers(-2, 3))})),
    (2, st.fixed_dictionaries({"type": st.just("SlidingWindowRetriever"),
                               "k": maybe_odd(st.integers(-1, 3))})),
    (2, st.fixed_dictionaries({"type": st.just("ZeroRetriever")},
                              optional={"ice_separator": maybe_odd(texts), "ice_eos_token": maybe_odd(texts)})),
    (1, st.fixed_dictionaries({"type": st.sampled_from(["TopkRetriever", "Nope"])})),
    (1, odd_scalars),
)
inferencers = st.fixed_dictionaries(
    {"type": weighted((8, st.just("GenInferencer")),
                      (2, st.sampled_from(["PPLInferencer", "LLInferencer", "CLPInferencer",
                                           "ChatInferencer", "MultiTurnGenInferencer",
                                           "GLMChoiceInferencer"])),
                      (1, st.just("AttackInferencer")))},
    optional={"infer_mode": st.sampled_from(["every", "every_with_gt", "last", "sometimes"]),
              "labels": maybe_odd(st.lists(st.sampled_from(["A", "B", 0, 1]), max_size=3)),
              "gen_field_replace_token": maybe_odd(texts)},
)
readers = st.fixed_dictionaries(
    {"input_columns": maybe_odd(st.lists(st.sampled_from(COLUMNS), max_size=3), 20),
     "output_column": weighted((8, st.just("answer")), (4, st.sampled_from(COLUMNS)), (1, odd_scalars))},
    optional={"train_split": st.sampled_from(["train", "test", "dev"]),
              "test_split": st.sampled_from(["train", "test", "dev"]),
              "test_range": maybe_odd(st.sampled_from(["[:2]", "[1:]", "[::-1]", "[::0]", "nope", 1, 0.5]))},
)


@st.composite
def dataset_cfgs(draw) -> dict:
    infer: dict[str, Any] = {"retriever": draw(retrievers), "inferencer": draw(inferencers)}
    if draw(st.integers(0, 5)):
        infer["prompt_template"] = draw(maybe_odd(template_cfgs, 20))
    if draw(st.integers(0, 2)) == 0:
        infer["ice_template"] = draw(maybe_odd(template_cfgs, 20))
    cfg: dict[str, Any] = {"abbr": "prop", "reader_cfg": draw(maybe_odd(readers, 30)), "infer_cfg": infer}
    if draw(st.integers(0, 9)) == 0:
        cfg["n"], cfg["k"] = draw(maybe_odd(st.integers(1, 2))), draw(maybe_odd(st.integers(1, 2)))
    return cfg


# -- rows -------------------------------------------------------------------------------

values = st.one_of(
    texts, texts, texts,
    st.text(max_size=40),  # any unicode, surrogates excluded by hypothesis
    st.sampled_from([HUGE, "}" * 5000, "{question}" * 300, CONTENT]),
    st.integers(), st.floats(), st.booleans(), st.none(),
    st.lists(texts, max_size=3), st.dictionaries(st.sampled_from(["role", "content"]), texts, max_size=2),
)
rows_one = st.dictionaries(st.one_of(st.sampled_from(COLUMNS), st.text(max_size=4)), values, max_size=6)
row_lists = st.lists(rows_one, min_size=0, max_size=4)
row_sources = weighted(
    (10, row_lists),
    (2, st.fixed_dictionaries({"train": row_lists, "test": row_lists})),
    (1, st.dictionaries(st.sampled_from(["train", "test", "dev"]), row_lists, max_size=2)),
    (1, st.lists(maybe_odd(rows_one, 6), max_size=3)),  # a row that is not a mapping
)

# -- models and meta templates ------------------------------------------------------------------

meta_roles = st.fixed_dictionaries(
    {"role": maybe_odd(st.sampled_from(ROLES), 12)},
    optional={"begin": maybe_odd(texts), "end": maybe_odd(texts), "api_role": maybe_odd(st.sampled_from(ROLES)),
              "generate": st.booleans(), "prompt": maybe_odd(texts)},
)
meta_templates = st.fixed_dictionaries(
    {},
    optional={"round": maybe_odd(st.lists(st.one_of(meta_roles, meta_roles, texts), max_size=4), 12),
              "reserved_roles": maybe_odd(st.lists(meta_roles, max_size=2)),
              "begin": maybe_odd(texts), "end": maybe_odd(texts)},
)
MODEL_TYPES = ["HuggingFaceCausalLM", "HuggingFacewithChatTemplate", "OpenAI", "OpenAISDK", "VLLM",
               "TurboMindModelwithChatTemplate", "VLLMwithChatTemplate", "NotAModelClass",
               "VLLMCustomAPIChat", "VLLMCustomAPI"]
model_cfgs = weighted(
    (1, st.none()),
    (4, st.fixed_dictionaries(
        {"abbr": st.just("m"), "type": st.sampled_from(MODEL_TYPES)},
        optional={"meta_template": maybe_odd(meta_templates, 12),
                  "max_seq_len": maybe_odd(st.integers(1, 64)),
                  "path": st.just("/nonexistent/model/folder")},
    )),
)
frameworks = st.sampled_from([OPENCOMPASS, AISBENCH])


# -- running a render -----------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A request's contents as plain JSON (PStr becomes str, so fast and traced compare equal)."""
    return to_json(value)


def _request(request) -> tuple:
    return (_plain(request.prompt_list), _plain(request.model_input), _plain(request.label),
            request.turn, request.model_text if request.model_text is None else str(request.model_text),
            request.depends_on, _plain([list(x) for x in request.extra]))


def render_all(dataset_cfg: dict, rows: Any, model_cfg: dict | None, framework: str,
               provenance: bool = False) -> tuple:
    """Everything a render shows, as plain data; an error is an outcome like any other."""
    try:
        dataset = DatasetSpec(abbr="prop", cfg=dataset_cfg, rows=rows, framework=framework)
        model = None if model_cfg is None else ModelSpec(abbr="m", cfg=model_cfg, framework=framework)
        pair = PairRenderer(dataset, model)
    except WorkbenchError as exc:
        assert isinstance(exc.message, str) and exc.message.strip(), f"empty message: {exc!r}"
        return ("pair error", exc.message)
    samples = []
    for index in range(min(len(pair), 3)):
        try:
            sample = pair.sample(index, provenance=provenance)
        except WorkbenchError as exc:
            assert isinstance(exc.message, str) and exc.message.strip(), f"empty message: {exc!r}"
            samples.append(("sample error", exc.message))
            continue
        samples.append((sample.index, sample.source_index, sample.ice_indices,
                        tuple(_request(r) for r in sample.requests)))
    return ("ok", pair.model_kind, tuple(pair.notes.messages), tuple(samples))


def check(dataset_cfg: dict, rows: Any, model_cfg: dict | None = None, framework: str = OPENCOMPASS) -> tuple:
    """The properties, for one input: only WorkbenchError, deterministic, provenance-equal."""
    first = render_all(dataset_cfg, rows, model_cfg, framework)
    again = render_all(dataset_cfg, rows, model_cfg, framework)
    assert first == again, "the same inputs rendered differently"
    traced = render_all(dataset_cfg, rows, model_cfg, framework, provenance=True)
    if first[0] == "ok":
        # notes may differ (the traced engine keeps its own); the samples may not
        assert traced[0] == "ok"
        assert traced[3] == first[3], "the provenance render's text differs from the fast one's"
    else:
        assert traced == first
    return first


@PROPERTY
@given(cfg=dataset_cfgs(), rows=row_sources, model=model_cfgs, framework=frameworks)
def test_random_configs_rows_and_models_raise_only_workbench_errors_and_are_deterministic(
        cfg, rows, model, framework):
    check(cfg, rows, model, framework)


# Well-formed shapes (so most draws get past validation and into filling and parsing).
well_formed_templates = st.one_of(
    texts.map(lambda t: t + "{question}"),
    st.builds(lambda h, b: {"round": [{"role": "HUMAN", "prompt": h}, {"role": "BOT", "prompt": b}]},
              texts, texts),
    st.builds(lambda s, h, b, e: {"begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": s}],
                                  "round": [{"role": "HUMAN", "prompt": h}, {"role": "BOT", "prompt": b}],
                                  "end": e}, texts, texts, texts, texts),
    st.builds(lambda a, b: {"A": a, "B": b}, texts, texts),
)
well_formed_rows = st.lists(
    st.fixed_dictionaries({"question": values, "answer": values},
                          optional={"label": values, "extra": values}),
    min_size=1, max_size=4,
)


@PROPERTY
@given(template=well_formed_templates, ice=st.one_of(st.none(), well_formed_templates),
       rows=well_formed_rows, retriever=retrievers,
       inferencer=st.sampled_from(["GenInferencer", "PPLInferencer", "CLPInferencer"]),
       model=model_cfgs, framework=frameworks)
def test_well_formed_templates_with_hostile_rows(template, ice, rows, retriever, inferencer, model, framework):
    infer: dict[str, Any] = {"retriever": retriever, "inferencer": {"type": inferencer},
                             "prompt_template": {"type": "PromptTemplate", "template": template}}
    if ice is not None:
        infer["ice_template"] = {"type": "PromptTemplate", "template": ice}
        infer["prompt_template"]["ice_token"] = "</E>"
    cfg = {"abbr": "prop", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": infer}
    check(cfg, rows, model, framework)


@PROPERTY
@given(meta=meta_templates, model_type=st.sampled_from(MODEL_TYPES), rows=well_formed_rows,
       template=well_formed_templates, framework=frameworks)
def test_random_meta_templates(meta, model_type, rows, template, framework):
    cfg = {"abbr": "prop", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": {"retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"},
                         "prompt_template": {"type": "PromptTemplate", "template": template}}}
    check(cfg, rows, {"abbr": "m", "type": model_type, "meta_template": meta}, framework)


@PROPERTY
@given(value=values)
def test_a_row_value_is_sent_as_written(value):
    """Whatever a row holds reaches the model as its text: never evaluated, never re-filled by later columns
    unless it names them (the frameworks' str.replace order)."""
    cfg = {"abbr": "prop", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": {"retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"},
                         "prompt_template": {"type": "PromptTemplate", "template": "Q: {question}|"}}}
    outcome = check(cfg, [{"question": value, "answer": "secret"}])
    assert outcome[0] == "ok"
    (sample,) = outcome[3]
    text = sample[3][0][1]
    expected = value if isinstance(value, str) else str(value)
    # only the columns filled after it can change the value (the frameworks' str.replace order):
    # the masked output column, then the idx/subdivision columns every dataset gets
    for token, filler in (("{answer}", ""), ("{subdivision}", "prop"), ("{idx}", "0")):
        expected = expected.replace(token, filler)
    assert text == "Q: " + expected + "|"


# -- regressions: every raw exception the properties found, kept as an example --------------------------

READER = {"input_columns": ["question"], "output_column": "answer"}
ROWS = [{"question": "q0", "answer": "a0"}, {"question": "q1", "answer": "a1"}, {"question": "q2", "answer": "a2"}]
ROUND = {"round": [{"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}]}
LM_META = {"round": [{"role": "HUMAN", "begin": "<h>", "end": "\n"},
                     {"role": "BOT", "begin": "<b>", "end": "\n", "generate": True}]}


def ds(template: Any = None, retriever: dict | None = None, inferencer: Any = "GenInferencer",
       ice: Any = None, reader: Any = READER, template_type: str = "PromptTemplate", **extra: Any) -> dict:
    if template is None:
        template = "</E>Q: {question}" if ice is not None else "Q: {question}"
    infer: dict[str, Any] = {"retriever": retriever or {"type": "ZeroRetriever"},
                             "inferencer": inferencer if isinstance(inferencer, dict) else {"type": inferencer},
                             "prompt_template": {"type": template_type, "template": template}}
    if ice is not None:
        infer["ice_template"] = {"type": "PromptTemplate", "template": ice}
        infer["prompt_template"]["ice_token"] = extra.pop("ice_token", "</E>")
    return {"abbr": "prop", "reader_cfg": reader, "infer_cfg": infer, **extra}


REGRESSIONS: list[tuple[str, dict, Any, dict | None, str]] = [
    # TypeError: '>' not supported between 'int' and 'NoneType'
    ("n and k not numbers", ds(n=None, k=1), ROWS, None,
     "dataset k=1 and n=None must be ints (k may be a list of ints)"),
    # ZeroDivisionError in BM25Okapi (no train rows / train rows without words)
    ("BM25 over no train rows", ds(retriever={"type": "BM25Retriever"}, ice="{question}"), [], None,
     "BM25Retriever: the train split has no words to index"),
    ("BM25 over rows without words", ds(retriever={"type": "BM25Retriever"}, ice="{question}"),
     [{"question": "", "answer": ""}], None, "BM25Retriever: the train split has no words to index"),
    # TypeError: 'bool' object is not iterable; IndexError for a negative index past the start
    ("fix_id_list not a list", ds(retriever={"type": "FixKRetriever", "fix_id_list": True}, ice="{question}"),
     ROWS, None, "FixKRetriever: fix_id_list must be a list of ints, got True"),
    ("fix_id_list negative past the start",
     ds(retriever={"type": "FixKRetriever", "fix_id_list": [-5]}, ice="{question}"), ROWS, None,
     "FixKRetriever: Index -5 is out of range of 3"),
    # TypeError from int('x'); MemoryError for k=1e18; IndexError past the train rows
    ("sliding window k not a number", ds(retriever={"type": "SlidingWindowRetriever", "k": "x"}, ice="{question}"),
     ROWS, None, "SlidingWindowRetriever: k must be an int, got 'x'"),
    ("sliding window k larger than train",
     ds(retriever={"type": "SlidingWindowRetriever", "k": 10**18}, ice="{question}"), ROWS, None,
     "SlidingWindowRetriever: k=1000000000000000000 pads the first test row with train rows from index "
     "-999999999999999997, and the train split has 3"),
    ("sliding window past the train rows",
     ds(retriever={"type": "SlidingWindowRetriever", "k": 1}, ice="{question}", ice_token="</E>"),
     {"train": ROWS[:1], "test": ROWS}, None, "SlidingWindowRetriever: test row 2 takes train rows up to 1"),
    # TypeError: unhashable type: 'dict' (a meta template role)
    ("meta role not a str", ds(ROUND), ROWS,
     {"type": "HuggingFaceCausalLM", "meta_template": {"round": [{"role": {"k": "v"}}]}},
     "meta_template round item's role must be a str, got {'k': 'v'}"),
    # TypeError: can only concatenate str (not "int") to str
    ("meta role begin not a str", ds(ROUND), ROWS,
     {"type": "HuggingFaceCausalLM", "meta_template": {"round": [{"role": "HUMAN", "begin": 1},
                                                                 {"role": "BOT", "generate": True}]}},
     "meta_template role HUMAN's begin must be a str, got 1"),
    ("meta begin not a str", ds(ROUND), ROWS,
     {"type": "HuggingFaceCausalLM", "meta_template": {**LM_META, "begin": ["<s>"]}},
     "meta_template begin must be a str for a local model, got ['<s>']"),
    # TypeError: unhashable type: 'list' (a dialogue item's role, under a meta template)
    ("dialogue role not hashable",
     ds({"round": [{"role": ["HUMAN"], "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}]}), ROWS,
     {"type": "HuggingFaceCausalLM", "meta_template": LM_META},
     "a dialogue item's role must be a str, got ['HUMAN']"),
    # TypeError: argument of type 'int' is not iterable (safe_format on a role's prompt)
    ("dialogue prompt not a str", ds({"round": [{"role": "HUMAN", "prompt": 5}]}), ROWS, None,
     "prompt_template: the prompt of an item of 'round' must be a str, got 5"),
    # TypeError: replace() argument 2 must be str, not list
    ("gen_field_replace_token not a str",
     ds(inferencer={"type": "GenInferencer", "gen_field_replace_token": ["a"]}), ROWS, None,
     "GenInferencer: gen_field_replace_token must be a str, got ['a']"),
    # TypeError: 'int' object is not iterable
    ("PPL labels not a list", ds({"A": "{question} A", "B": "{question} B"},
                                 inferencer={"type": "PPLInferencer", "labels": -4}), ROWS, None,
     "PPLInferencer: labels must be a list, got -4"),
    # KeyError: 'round' (a label dict under MMPromptTemplate); AttributeError on a non-str content
    ("MM template with a label dict", ds({"A": "x", "B": "y"}, template_type="MMPromptTemplate"),
     [{"question": "q", "answer": "a", "content": "<AIS_TEXT_START>q"}], None,
     "MMPromptTemplate needs a dialogue template dict(round=[...]), not a label dict"),
    ("MM content not a str",
     ds({"round": [{"role": "HUMAN", "prompt_mm": {"text": {"type": "text", "text": "{question}"}}}]},
        template_type="MMPromptTemplate", framework="ais_bench"),
     [{"question": "q", "answer": "a", "content": 7}], None,
     "MMPromptTemplate splits the row's 'content' column on its tags, and it is a int, not a str"),
    # KeyError: 'dialogue' (ChatInferencer with a dialogue input column the rows lack)
    ("chat rows without their dialogue",
     ds(inferencer="ChatInferencer", reader={"input_columns": ["question", "dialogue"], "output_column": "answer"}),
     [{"question": "q", "answer": 1}], None,
     "ChatInferencer reads the row's 'dialogue' column as a chat, and it is not a list"),
    # ValueError: empty separator (ice_token '' splitting a dialogue)
    ("empty ice token in a dialogue",
     ds({"begin": ["</E>"], "round": ROUND["round"]}, retriever={"type": "FixKRetriever", "fix_id_list": [0]},
        ice=ROUND, ice_token=""), ROWS, None, "the ice_token is empty"),
    # 23 GB of memory, then the OOM killer: a value holding a later column's {field}, filled once per copy
    ("a row that multiplies itself", ds("{label}"),
     [{"label": HUGE, "question": HUGE, "answer": "a"}], None,
     "filling {question} would make a text of 432,068,000 characters (the limit is 33,554,432)"),
]


@pytest.mark.parametrize(("name", "cfg", "rows", "model", "message"), REGRESSIONS,
                         ids=[r[0] for r in REGRESSIONS])
def test_regressions(name, cfg, rows, model, message):
    outcome = check(cfg, rows, model, cfg.get("framework", OPENCOMPASS))
    if outcome[0] == "pair error":
        errors = [outcome[1]]
    else:
        errors = [s[1] for s in outcome[3] if s[0] == "sample error"]
    assert any(message in e for e in errors), outcome


@PROPERTY
@given(prompt=template_cfgs, ice=st.one_of(st.none(), template_cfgs), rows=well_formed_rows,
       retriever=st.sampled_from([{"type": "ZeroRetriever"}, {"type": "FixKRetriever", "fix_id_list": [0, -1]},
                                  {"type": "RandomRetriever", "ice_num": 2}]),
       inferencer=inferencers, model=model_cfgs, framework=frameworks)
def test_random_templates_in_a_sound_config(prompt, ice, rows, retriever, inferencer, model, framework):
    infer: dict[str, Any] = {"retriever": retriever, "inferencer": inferencer, "prompt_template": prompt}
    if ice is not None:
        infer["ice_template"] = ice
    cfg = {"abbr": "prop", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": infer}
    check(cfg, rows, model, framework)
