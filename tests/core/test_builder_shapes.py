"""No builder takes a render down (issue 27, item 9).

Every wire builder, meta-template parser and chat template is run over every shape a
PromptList item can take; each outcome is a result or a RenderError (one line), never another
exception. In a render, a builder that raises is an error of its own pair, located at the
config, and the other pairs render.
"""

from __future__ import annotations

import pytest

from tests.headless.helpers import run_cli
from workbench.core.errors import BuilderError, RenderError
from workbench.core.lazy_pairs import render_workspace
from workbench.core.models import model_input, model_text
from workbench.core.models.model_input import ModelAdapter
from workbench.core.models.model_text import OVERRIDE_KEY, ModelText
from workbench.core.models.wire import BUILDERS, WireCall, WireClass, wire_for, wire_of
from workbench.core.render_notes import Notes
from workbench.core.result import PairError, Request
from workbench.core.spec import AISBENCH, DatasetSpec, ModelSpec, Source
from workbench.core.templates.prompt_list import PromptList
from workbench.core.tokens.chat_template import BUILTIN_NAMES

#: Every shape an item of a PromptList (or of a parsed model input) can take.
SHAPES = {
    "string": "plain text", "empty string": "", "whitespace": " \n",
    "role": {"role": "HUMAN", "prompt": "q"}, "role without prompt": {"role": "HUMAN"},
    "fallback role": {"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "s"},
    "unknown role": {"role": "NARRATOR", "prompt": "n"}, "role None": {"role": None, "prompt": "x"},
    "prompt None": {"role": "HUMAN", "prompt": None}, "prompt int": {"role": "HUMAN", "prompt": 7},
    "prompt parts": {"role": "HUMAN", "prompt": [{"type": "text", "text": "t"}]},
    "chatml": {"role": "user", "content": "q"},
    "section begin": {"section": "round", "pos": "begin"}, "section end": {"section": "round", "pos": "end"},
    "section bad pos": {"section": "round", "pos": "middle"},
    "multimodal": {"role": "HUMAN", "prompt_mm": [{"type": "text", "text": "t"},
                                                  {"type": "image_url", "image_url": {"url": "file:///a.png"}}]},
    "text part": {"type": "text", "text": "t"}, "image part": {"type": "image_url", "image_url": {"url": "u"}},
    "part without type": {"text": "t"}, "image part bad url": {"type": "image_url", "image_url": 5},
    "None": None, "int": 3, "empty list": [], "nested list": [{"role": "HUMAN", "prompt": "q"}],
    "empty dict": {},
}
ROUND = [{"section": "round", "pos": "begin"}, {"role": "HUMAN", "prompt": "q"}, {"role": "BOT", "prompt": ""},
         {"section": "round", "pos": "end"}]
META = {"begin": "meta instruction\nYou are an AI assistant.\n",
        "round": [{"role": "HUMAN", "api_role": "HUMAN", "begin": "<H>"},
                  {"role": "BOT", "api_role": "BOT", "begin": "<B>", "generate": True}],
        "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}], "end": "end"}
CFG = {"path": "m", "key": "k", "url": "http://127.0.0.1:1/v1", "host_ip": "127.0.0.1", "host_port": 1,
       "generation_kwargs": {}, "max_seq_len": 4096, "model": "m"}


def _inputs(item):
    """The item as a whole input, alone in a list, and after a meta template's begin string."""
    yield item
    yield [item]
    yield PromptList([META["begin"], item])


def _outcome_is_sane(shape: str, build, *args) -> None:
    """``build(*args)`` returns, or raises a RenderError of one line: nothing else escapes."""
    try:
        build(*args)
    except RenderError as exc:
        assert exc.message and "\n" not in exc.message, shape
        assert exc.hint is None or "\n" not in exc.hint, shape


def _wire(name: str, given, ppl: bool) -> None:
    wire_for(WireCall(name, CFG, given, 100, len, ppl=ppl))


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_every_wire_builder_takes_every_shape(name):
    for shape, item in SHAPES.items():
        for given in _inputs(item):
            for ppl in (False, True):
                _outcome_is_sane(shape, _wire, name, given, ppl)


PARSED_BY = [
    ModelSpec("lm", {"type": "HuggingFaceCausalLM", "path": "x"}),
    ModelSpec("lm-meta", {"type": "HuggingFaceCausalLM", "path": "x", "meta_template": META}),
    ModelSpec("api", {"type": "OpenAI", "path": "x", "key": "k"}),
    ModelSpec("api-meta", {"type": "OpenAI", "path": "x", "key": "k", "meta_template": META}),
    *(ModelSpec(f"chat-{name}", {"type": "HuggingFacewithChatTemplate", "path": "x", OVERRIDE_KEY: name})
      for name in sorted(BUILTIN_NAMES)),  # every built-in chat template
    ModelSpec("vllm-chat", {"type": "VLLMwithChatTemplate", "path": "x", OVERRIDE_KEY: "chatml",
                            "chat_template_kwargs": {"enable_thinking": False}}),
    ModelSpec("ais-api", {"type": "VLLMCustomAPIChat", "path": "x"}, framework=AISBENCH),
    ModelSpec("ais-api-meta", {"type": "VLLMCustomAPIChat", "path": "x", "meta_template": META},
              framework=AISBENCH),
    ModelSpec("ais-lm-meta", {"type": "VLLMCustomAPI", "path": "x", "meta_template": META}, framework=AISBENCH),
]


def _parse_and_finish(spec: ModelSpec, prompt: PromptList, mode: str) -> None:
    """The meta template parser, then (chat-template models) the chat template."""
    adapter = ModelAdapter(spec, Notes())
    parsed = adapter.parse(prompt, mode)
    ModelText(adapter, Notes()).finish(Request(prompt, parsed), None)


@pytest.mark.parametrize("spec", PARSED_BY, ids=lambda s: s.abbr)
def test_every_meta_template_parser_and_chat_template_takes_every_shape(spec):
    for shape, item in SHAPES.items():
        for prompt in (PromptList([item]), PromptList([ROUND[0], item, *ROUND[1:]]),
                       PromptList([{"section": "begin", "pos": "begin"}, item, {"section": "begin", "pos": "end"},
                                   *ROUND])):
            for mode in ("gen", "ppl"):
                _outcome_is_sane(shape, _parse_and_finish, spec, prompt, mode)


DATASET = {
    "abbr": "qa", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
    "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}]}},
        "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}},
}


def _dataset() -> DatasetSpec:
    return DatasetSpec("qa", DATASET, rows=[{"question": "2+2?", "answer": "4"}], source=Source("eval.py", 3))


def test_an_api_meta_template_begin_string_is_the_frameworks_failure_and_the_rest_renders():
    """The seed docs' meta template `begin` string with an API model: OpenCompass 0.5.4's
    APITemplateParser puts it first as a plain string, and OpenAI._preprocess_messages fails on
    it (TypeError: string indices must be integers): checked against the real class. The
    pair renders its PromptList with wire null and that failure said; the other pair is whole."""
    api = ModelSpec("gpt", {"type": "OpenAI", "path": "gpt-4o", "key": "k", "meta_template": META})
    ais = ModelSpec("ais", {"type": "VLLMCustomAPIChat", "path": "m", "meta_template": META}, framework=AISBENCH)
    local = ModelSpec("local", {"type": "HuggingFaceCausalLM", "path": "x", "meta_template": META})
    result = render_workspace([_dataset()], [api, ais, local])
    assert not result.errors
    pairs = {p.model_abbr: p for p in result.pairs}
    first = pairs["gpt"].sample(0).requests[0]
    assert first.model_input[0] == META["begin"] and wire_of(first) is None
    said = {w.model: w.message for w in result.warnings}
    assert "OpenCompass 0.5.4 fails here: OpenAI._preprocess_messages" in said["gpt"]
    assert "TypeError: string indices must be integers, not 'str'" in said["gpt"]
    assert "AISBench 3.1.20260630 fails here: VLLMCustomAPIChat.get_request_body" in said["ais"]
    assert pairs["local"].sample(0).requests[0].model_input.startswith(META["begin"])


def _breaks(monkeypatch, which: str) -> None:
    def boom(*_args, **_kw):
        raise TypeError("string indices must be integers, not 'str'")

    if which == "wire":
        monkeypatch.setitem(BUILDERS, "OpenAI", WireClass(boom))
    elif which == "meta template":
        monkeypatch.setattr(model_input.APIParser, "parse", boom)
    else:
        monkeypatch.setattr(model_text.ModelText, "model_text", boom)


@pytest.mark.parametrize("which", ["wire", "meta template", "chat template"])
def test_a_builder_that_raises_fails_its_pair_only(monkeypatch, which):
    _breaks(monkeypatch, which)
    api = ModelSpec("gpt", {"type": "OpenAI", "path": "gpt-4o", "key": "k",
                            "meta_template": {"round": META["round"]}}, source=Source("models.py", 7))
    chat = ModelSpec("chat", {"type": "HuggingFacewithChatTemplate", "path": "x", OVERRIDE_KEY: "chatml"},
                     source=Source("models.py", 12))
    local = ModelSpec("local", {"type": "HuggingFaceCausalLM", "path": "x"})
    result = render_workspace([_dataset()], [api, chat, local])
    # a chat-template model parses with the API template parser first
    broken = {"wire": ["gpt"], "meta template": ["gpt", "chat"], "chat template": ["chat"]}[which]
    assert [e.model for e in result.errors] == broken
    for error in result.errors:  # the model's line, or (no meta template to blame) the dataset's
        assert isinstance(error, PairError) and error.file in ("models.py", "eval.py") and error.line
        assert "TypeError" in error.message and error.hint
    assert {p.model_abbr for p in result.pairs} == {"gpt", "chat", "local"} - set(broken)
    assert all(p.sample(0).requests for p in result.pairs)


def test_the_render_command_says_it_in_one_located_line(monkeypatch, tmp_path):
    _breaks(monkeypatch, "wire")
    config = tmp_path / "eval.py"
    config.write_text(
        f"datasets = [{DATASET!r}]\n"
        "models = [\n"
        f"    dict(abbr='gpt', type='OpenAI', path='gpt-4o', key='k', meta_template={{'round': {META['round']!r}}}),\n"
        "    dict(abbr='local', type='HuggingFaceCausalLM', path='x'),\n"
        "]\n", encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"question": "2+2?", "answer": "4"}\n', encoding="utf-8")
    run = run_cli("render", str(config), "--data", str(rows), "-f", "text", "-q")
    assert run.code == 3 and "Traceback" not in run.err
    errors = run.err.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith(f"{config}:3: [qa × gpt] ")  # the model's line
    assert "=== qa · local · sample 0 ===" in run.out


def test_builder_error_is_a_render_error():
    assert issubclass(BuilderError, RenderError)
