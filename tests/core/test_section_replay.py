"""Token sections replayed on prepared templates' twins equal those of a provenance render.

The text format's token counts by section come from a provenance render of the first sample
that uses a prepared template and, for every later row, from a replay of the row's fill on its
twin (core/models/section_replay.py). Each config here is rendered both ways: the replay's
counts (and everything else) must equal the provenance render's, request by request, and the
work is counted: one provenance render per prepared template, the other samples replayed.
Samples are not spliced here: a spliced sample's sections come from its skeleton instead
(tests/core/test_sample_splice.py).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.models import section_replay
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import DatasetSpec, ModelSpec, Source
from workbench.core.templates.prompt_list import safe_format, safe_format_coded
from workbench.loading.models.model_assets import attach_assets

HERE = Path(__file__).resolve().parent.parent / "chat_templates"
sys.path.insert(0, str(HERE))
from tokenizer_fixture import write_model_folder  # noqa: E402

CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}" \
         "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
META = {
    "round": [{"role": "HUMAN", "begin": "<|im_start|>user\n", "end": "<|im_end|>\n"},
              {"role": "BOT", "begin": "<|im_start|>assistant\n", "end": "<|im_end|>\n", "generate": True}],
    "reserved_roles": [{"role": "SYSTEM", "begin": "<|im_start|>system\n", "end": "<|im_end|>\n"}],
}
API_META = {"round": [{"role": "HUMAN", "api_role": "HUMAN"},
                      {"role": "BOT", "api_role": "BOT", "generate": True}],
            "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}]}

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


def _rows(n: int, long_every: int = 0) -> list[dict]:
    rows = []
    for i in range(n):
        words = WORDS[i % 10:] + WORDS[:i % 10]
        question = " ".join(words * (40 if long_every and i % long_every == 0 else 1))
        # a value holding a later column's field: the fill replaces it again (once per copy)
        if i % 3 == 1:
            question += " {answer}?"
        rows.append({"question": f"{question} #{i}", "answer": "ABCD"[i % 4], "note": f"n{i}"})
    return rows


ROWS = {"train": _rows(6), "test": _rows(9, long_every=4)}

DIALOGUE = {
    "ice_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "Q: {question} ({note})"}, {"role": "BOT", "prompt": "A: {answer}"}]}},
    "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>", "template": {
        "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Be brief."}, "</E>"],
        "round": [{"role": "HUMAN", "prompt": "Q: {question}\nSay {answer}"},
                  {"role": "BOT", "prompt": "A: {answer}"}],
        "end": [{"role": "HUMAN", "prompt": "Thanks ({note})."}]}},
    "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1, 2]},
    "inferencer": {"type": "GenInferencer", "gen_field_replace_token": "ANSWER"},
}
# the example carries a test column's field, which the test row fills (an ice leak)
LEAKY = copy.deepcopy(DIALOGUE)
LEAKY["ice_template"]["template"]["round"][0]["prompt"] = "Q: {question} (cf. {note})"
LEAKY["retriever"] = {"type": "RandomRetriever", "ice_num": 2, "seed": 3}
PPL = {
    "ice_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]}},
    "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>", "template": {
        label: {"begin": "</E>", "round": [{"role": "HUMAN", "prompt": "Q: {question}"},
                                          {"role": "BOT", "prompt": f"A: {label}"}]}
        for label in "AB"}},
    "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
    "inferencer": {"type": "PPLInferencer"},
}
STRING = {
    "ice_template": {"type": "PromptTemplate", "template": "Q: {question}\nA: {answer}\n"},
    "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>",
                        "template": "</E>Q: {question}\nA:"},
    "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
    "inferencer": {"type": "GenInferencer"},
}
CHAT_TURNS = {
    "prompt_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"},
        {"role": "HUMAN", "prompt": "And {note}?"}, {"role": "BOT", "prompt": ""}]}},
    "retriever": {"type": "ZeroRetriever"},
    "inferencer": {"type": "ChatInferencer", "infer_mode": "every"},
}
INFER = {"dialogue": DIALOGUE, "leaky": LEAKY, "ppl": PPL, "string": STRING, "chat_turns": CHAT_TURNS}


def _model(kind: str, tmp_path: Path, max_seq_len: int | None = 300) -> ModelSpec:
    limit = {} if max_seq_len is None else {"max_seq_len": max_seq_len}
    if kind == "meta":  # a local model with a meta template; max_seq_len drops examples of long rows
        cfg = {"type": "HuggingFaceCausalLM", "path": "nowhere/model", "meta_template": META, **limit}
    elif kind == "plain":  # no meta template: items joined by '\n'
        cfg = {"type": "HuggingFaceCausalLM", "path": "nowhere/model", **limit}
    elif kind == "chat":  # a chat template from a local folder, with its tokenizer when available
        cfg = {"type": "HuggingFacewithChatTemplate",
               "path": str(write_model_folder(tmp_path / "chat", CHATML,
                                              {"bos_token": "<s>", "eos_token": "<|im_end|>"}))}
    else:  # an API model whose meta template maps roles
        cfg = {"type": "OpenAISDK", "path": "gpt-x", "key": "k", "meta_template": API_META}
    (spec,) = attach_assets([ModelSpec(abbr=kind, cfg={"abbr": kind, **cfg}, source=Source())], tmp_path)
    return spec


def _pair(infer: str, model: str, tmp_path: Path, replay: bool = True,
          max_seq_len: int | None = 300) -> PairRenderer:
    cfg = {"abbr": infer, "reader_cfg": {"input_columns": ["question", "note"], "output_column": "answer"},
           "infer_cfg": INFER[infer]}
    pair = PairRenderer(DatasetSpec(abbr=infer, cfg=cfg, rows=copy.deepcopy(ROWS)),
                        _model(model, tmp_path, max_seq_len),
                        RenderOptions(token_sections=True, splice=False))
    if not replay:
        pair.section_replay.replay = lambda *args, **kwargs: None  # type: ignore[method-assign]
    return pair


def _differences(infer: str, model: str, tmp_path: Path) -> tuple[list[str], PairRenderer]:
    """Where the replayed render differs from the provenance render (empty: nowhere)."""
    fast, slow = _pair(infer, model, tmp_path), _pair(infer, model, tmp_path, replay=False)
    out = []
    for i in range(len(fast)):
        a, b = fast.sample(i), slow.sample(i)
        assert len(a.requests) == len(b.requests)
        for k, (x, y) in enumerate(zip(a.requests, b.requests)):
            if x != y:
                out.append(f"sample {i} request {k}: {x.tokens} != {y.tokens}")
    assert slow.section_replay.replayed == 0 and slow.provenance_renders == len(slow)
    return out, fast


CASES = [(infer, model) for infer in ("dialogue", "leaky", "string") for model in ("meta", "plain", "chat", "api")]
CASES += [("ppl", "meta"), ("ppl", "plain"), ("chat_turns", "chat"), ("chat_turns", "api")]


@pytest.mark.parametrize(("infer", "model"), CASES)
def test_replayed_sections_equal_the_provenance_render(infer, model, tmp_path):
    differences, fast = _differences(infer, model, tmp_path)
    assert not differences, differences[:3]
    sample = fast.sample(1)
    assert all(r.tokens is not None and r.tokens.sections for r in sample.requests)


@pytest.mark.parametrize("model", ["meta", "plain", "chat", "api"])
def test_a_prepared_template_is_rendered_with_provenance_once(model, tmp_path):
    """FixK: every row uses the same examples. Without max_seq_len that is one prepared
    template, so one provenance render (the first sample) and every other sample replayed."""
    fast = _pair("dialogue", model, tmp_path, max_seq_len=None)
    assert fast.limiter is None
    for i in range(len(fast)):
        fast.sample(i)
    assert fast.provenance_renders == 1
    assert fast.section_replay.replayed == len(fast) - 1


def test_truncation_makes_a_prepared_template_per_example_set(tmp_path):
    """max_seq_len drops examples from the long rows: each shortened set is its own prepared
    template, rendered with provenance once; the rows after it are replayed."""
    fast = _pair("dialogue", "meta", tmp_path)
    kept = {fast.sample(i).requests[0].truncation.kept for i in range(len(fast))}
    assert len(kept) > 1  # some rows lost examples
    assert fast.provenance_renders == len(kept)
    assert fast.section_replay.replayed == len(fast) - len(kept)


def test_string_templates_and_chat_turns_take_the_provenance_render(tmp_path):
    """No prepared PromptList to replay on: every sample is rendered with provenance (as before)."""
    for infer, model in (("string", "meta"), ("chat_turns", "chat")):
        fast = _pair(infer, model, tmp_path)
        for i in range(len(fast)):
            fast.sample(i)
        assert fast.section_replay.replayed == 0 and fast.provenance_renders == len(fast)


def test_the_comparison_sees_sections_that_are_wrong(tmp_path, monkeypatch):
    """A replay that codes the row's values as the template's would count them as "other":
    the comparison above must catch it."""
    real = section_replay.safe_format_coded

    def row_as_template(text, codes, pairs):
        return real(text, codes, [(token, value, "o") for token, value, _ in pairs])

    monkeypatch.setattr(section_replay, "safe_format_coded", row_as_template)
    differences, _ = _differences("dialogue", "meta", tmp_path)
    assert differences


_FIELDS = st.sampled_from(["{a}", "{b}", "{ab}", "{", "}", "x", " ", "{a", "b}"])


@settings(max_examples=300, derandomize=True, deadline=None)
@given(template=st.lists(_FIELDS, max_size=12).map("".join),
       values=st.lists(st.lists(_FIELDS, max_size=4).map("".join), min_size=3, max_size=3))
def test_the_coded_fill_is_the_fill(template, values):
    """The fill on section codes is ``safe_format`` itself (same tokens, same order, a value's
    own ``{field}`` filled by a later column), each value coded as its own."""
    pairs = list(zip(["{a}", "{b}", "{ab}"], values))
    codes = "".join("p" for _ in template)
    text, coded = safe_format_coded(template, codes, [(t, v, "t") for t, v in pairs])
    assert text == safe_format(template, pairs)
    assert len(coded) == len(text)
