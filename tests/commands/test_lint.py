"""``workbench lint``: findings as located lines or JSON, --select/--ignore/--fail-on as ruff
reads them, --overlap, and --lint on render and snapshot --check (exit 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.headless.helpers import Run, edit, run_cli, write_workspace
from workbench.core.tokens.counting import tokenizers_available


def workspace(tmp: Path, unfilled: bool = False) -> Path:
    write_workspace(tmp)
    if unfilled:
        edit(tmp / "datasets" / "qa_gen.py", "Answer briefly.", "Answer {briefly}.")
    return tmp


def lint(tmp: Path, *args: str, unfilled: bool = False) -> Run:
    return run_cli("lint", "eval.py", "--model", "chat-lm", *args, cwd=workspace(tmp, unfilled))


def test_the_bundled_demo_is_clean_and_the_pitfalls_are_not():
    clean = run_cli("lint")
    assert clean.code == 0 and clean.out == "" and "no findings in 12 pairs" in clean.err
    pitfalls = run_cli("lint", "--pitfalls")
    assert "PW201 unsent-generation-prompt" in pitfalls.out
    assert "answer_prefix_gen.py:22: warning:" in pitfalls.out  # the generating turn's line
    assert pitfalls.code == 3  # its PPL config is refused for API and chat models, said on stderr
    assert "does not support ppl-based evaluation" in pitfalls.err and "Traceback" not in pitfalls.err


def test_a_finding_is_one_located_line_with_its_id_severity_and_hint(tmp_path):
    result = lint(tmp_path, unfilled=True)
    assert result.code == 1
    (line,) = result.out.splitlines()
    assert line.startswith(f"{tmp_path / 'datasets' / 'qa_gen.py'}:")
    assert ": warning: [qa × chat-lm] PW202 unfilled-placeholder: prompt_template: {briefly} matches no " \
        "column" in line and "(hint: " in line
    assert "1 finding (1 warning) in 2 pairs; 1 at or above --fail-on warning" in result.err


def test_select_ignore_and_fail_on_as_ruff_reads_them(tmp_path):
    assert lint(tmp_path, "--ignore", "PW202", unfilled=True).code == 0
    assert lint(tmp_path, "--select", "unfilled-placeholder", unfilled=True).code == 1
    assert lint(tmp_path, "--select", "PW3", unfilled=True).code == 0
    assert lint(tmp_path, "--select", "PW3", "--select", "PW202", unfilled=True).code == 1  # repeatable
    assert lint(tmp_path, "--fail-on", "error", unfilled=True).code == 0
    # information (every row the same example) is said when selected, and fails only --fail-on info
    info = lint(tmp_path, "--select", "ALL")
    assert "info: [qa × chat-lm] PW303 fixed-shots: all 3 rows use the same 1 example" in info.out
    assert info.code == 0
    assert lint(tmp_path, "--select", "ALL", "--fail-on", "info").code == 1
    unknown = lint(tmp_path, "--select", "PW999")
    assert unknown.code == 2 and "no rule is named 'PW999'" in unknown.err


def test_json_lists_each_finding_with_its_place(tmp_path):
    result = lint(tmp_path, "--format", "json", unfilled=True)
    document = json.loads(result.out)
    (finding,) = document["findings"]
    assert finding["id"] == "PW202" and finding["severity"] == "warning" and finding["name"] == "unfilled-placeholder"
    assert finding["file"].endswith("qa_gen.py") and isinstance(finding["line"], int) and finding["hint"]
    assert document["counts"] == {"error": 0, "warning": 1, "info": 0} and document["failing"] == 1


def test_overlap_finds_a_near_duplicate_of_the_example_pool(tmp_path):
    workspace(tmp_path)
    (tmp_path / "test_set.jsonl").write_text(json.dumps({"question": "what is 2 + 2"}) + "\n", encoding="utf-8")
    result = run_cli("lint", "eval.py", "--model", "chat-lm", "--overlap", "test_set.jsonl", cwd=tmp_path)
    assert "PW305 example-test-overlap: 1 of the 1 rows of the --overlap test set" in result.out
    assert result.code == 1
    missing = run_cli("lint", "eval.py", "--overlap", "nowhere.jsonl", cwd=tmp_path)
    assert missing.code == 2 and "--overlap nowhere.jsonl" in missing.err and "Traceback" not in missing.err


def test_render_and_snapshot_check_with_lint_make_findings_errors(tmp_path):
    ws = workspace(tmp_path, unfilled=True)
    plain = run_cli("render", "eval.py", "--model", "chat-lm", cwd=ws)
    assert plain.code == 0
    linted = run_cli("render", "eval.py", "--model", "chat-lm", "--lint", cwd=ws)
    assert linted.code == 3
    said = [line for line in linted.err.splitlines() if "{briefly}" in line]
    assert len(said) == 1 and "PW202 unfilled-placeholder" in said[0] and "--lint: " in said[0]
    assert run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", cwd=ws).code == 0
    check = run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", "--check", "--lint", cwd=ws)
    assert check.code == 3 and "snapshot check failed (--lint): 1 lint finding(s)" in check.out
    assert "passed" not in check.out
    clean = workspace(tmp_path / "clean")
    assert run_cli("render", "eval.py", "--model", "chat-lm", "--lint", cwd=clean).code == 0


def test_lint_is_listed_in_the_commands_help():
    assert "lint" in run_cli("--help").out


def answer_format_config(tmp: Path) -> Path:
    """The self-test's minimal config: its exemplar writes 'The answer is (B)', its evaluator reads
    only 'ANSWER: B' (AISBench #525), with three rows."""
    from tests.commands.test_extract import SELF_TEST_CONFIG

    (tmp / "eval.py").write_text(SELF_TEST_CONFIG, encoding="utf-8")
    rows = [{"question": f"q{i}", "answer": letter} for i, letter in enumerate("BCA")]
    (tmp / "mcq.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return tmp / "eval.py"


ANSWER_FORMAT = ("PW213 answer-format: the evaluator cannot read the template's own exemplar: exemplar 0 "
                 "'The answer is (B)' is extracted as '' against the gold 'B' (2 of 2 exemplars); a model "
                 "that answers so is scored wrong")


def test_answer_format_is_one_finding_in_lint_render_and_the_self_test(tmp_path):
    config = answer_format_config(tmp_path)
    linted = run_cli("lint", str(config), "--select", "PW213")
    assert linted.code == 1, linted.err
    # located at the ice_template, whose exemplar the evaluator cannot read
    assert linted.out.startswith(f"{config}:12: warning: [mcq × no model] {ANSWER_FORMAT} (hint: make the "
                                 "ice_template's answer and the postprocessor's pattern agree")
    document = json.loads(run_cli("lint", str(config), "-f", "json").out)
    (found,) = [f for f in document["findings"] if f["id"] == "PW213"]
    assert (found["name"], found["file"], found["line"]) == ("answer-format", str(config), 12)
    assert not [n for n in document["not_checked"] if "PW213" in n["ids"]]
    rendered = run_cli("render", str(config), "--limit", "1", "-f", "json")
    assert rendered.code == 0, rendered.err
    (warning,) = [w for w in json.loads(rendered.out)["warnings"] if w.get("id") == "PW213"]
    assert "PW213 answer-format: " + warning["message"] == ANSWER_FORMAT
    assert (warning["file"], warning["line"]) == (str(config), 12)
    assert f"{config}:12: [mcq × no model] {ANSWER_FORMAT}" in rendered.err  # said once on stderr
    assert rendered.err.count("PW213") == 1
    gated = run_cli("render", str(config), "--limit", "1", "--lint")
    assert gated.code == 3 and gated.err.count("PW213") == 1  # the error, not the warning too
    tested = run_cli("extract", str(config), "--self-test")
    assert f"warning: [mcq] {ANSWER_FORMAT}" in tested.err
    assert run_cli("lint", str(config), "--select", "PW213", "--ignore", "answer-format").code == 0


def test_answer_format_is_quiet_where_the_evaluator_reads_the_exemplar(tmp_path):
    # the shipped mmlu_gen_79e572: its exemplar line 'Answer: {target}' follows a prompt that already
    # ends 'Answer:', so a model writes ' B', which first_capital_postprocess reads as 'B'
    config = Path(__file__).parents[1] / "parity" / "cases" / "oc_mmlu_gen_79e572" / "config.py"
    rows = [{"input": f"Which is a mammal? ({i})", "A": "Shark", "B": "Whale", "C": "Trout", "D": "Eel",
             "target": "BACD"[i % 4]} for i in range(6)]
    (tmp_path / "mmlu.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    data = ["--data", f"lukaemon_mmlu_college_biology={tmp_path / 'mmlu.jsonl'}"]
    quiet = run_cli("lint", str(config), "--select", "PW213", *data)
    assert quiet.code == 0 and quiet.out == "", quiet.out
    # the other dataset has no rows: not checked, and why, once
    assert ("workbench lint: PW213 answer-format not checked for 1 dataset (rows are placeholders, so no "
            "exemplar or gold is known; give --data ABBR=FILE): lukaemon_mmlu_college_chemistry") in quiet.err
    document = json.loads(run_cli("lint", str(config), "-f", "json", *data).out)
    assert {"ids": ["PW213"], "dataset": "lukaemon_mmlu_college_chemistry", "model": None,
            "why": "rows are placeholders, so no exemplar or gold is known; give --data ABBR=FILE"} \
        in document["not_checked"]


LL_CONFIG = '''
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import LLInferencer
from opencompass.models import HuggingFaceCausalLM

datasets = [dict(
    abbr='ll', type='opencompass.datasets.CustomDataset', path='ll.jsonl',
    reader_cfg=dict(input_columns=['q', 'cont'], output_column='a'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template={0: 'Q: {q}\\nA:{cont}'}),
        retriever=dict(type=ZeroRetriever), inferencer=dict(type=LLInferencer)),
)]
models = [dict(type=HuggingFaceCausalLM, abbr='lm', path='no/such/folder')]
'''


@pytest.mark.skipif(not tokenizers_available(), reason="the tokens extra is not installed")
def test_token_seams_with_lint_tokenizer_and_without_one(tmp_path):
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "chat_templates"))
    from tokenizer_fixture import build_bpe_tokenizer_json

    (tmp_path / "eval.py").write_text(LL_CONFIG, encoding="utf-8")
    (tmp_path / "ll.jsonl").write_text(json.dumps({"q": "Hi", "cont": " C", "a": 0}) + "\n", encoding="utf-8")
    bare = run_cli("lint", "eval.py", cwd=tmp_path)
    assert bare.code == 0 and bare.out == ""
    assert ("workbench lint: PW214, PW215 not checked for 1 pair (no tokenizer to show the token seams with"
            in bare.err) and bare.err.count("PW214") == 1  # once, however many rules and samples
    tokenizer = build_bpe_tokenizer_json(tmp_path / "bpe" / "tokenizer.json")
    merged = run_cli("lint", "eval.py", "--tokenizer", str(tokenizer), cwd=tmp_path)
    assert merged.code == 1 and "warning: [ll × lm] PW214 merge-across-seam: a token merges across" in merged.out
    assert "PW214, PW215 not checked" not in merged.err
    assert run_cli("lint", "eval.py", "--tokenizer", str(tmp_path / "none"), cwd=tmp_path).code == 2


def test_answer_format_checks_are_bounded_and_a_runaway_pattern_is_said(tmp_path):
    """A config's pattern that backtracks forever over its own exemplar ends that dataset's checks
    (the child is killed), not the lint: the dataset is said not checked, and why."""
    from tests.conftest import make_pair
    from workbench.headless.extract_self_test import answer_format_warnings

    dataset = {"abbr": "slow", "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
               "infer_cfg": {"ice_template": {"type": "PromptTemplate", "template": "{q}\n" + "a" * 40 + "{a}\n"},
                             "prompt_template": {"type": "PromptTemplate", "template": "</E>{q}\n",
                                                 "ice_token": "</E>"},
                             "retriever": {"type": "FixKRetriever", "fix_id_list": [0]},
                             "inferencer": {"type": "GenInferencer"}},
               "eval_cfg": {"evaluator": {"type": "AccEvaluator"}, "pred_postprocessor": {
                   "type": "match_answer_pattern", "answer_pattern": r"(a+)+b"}}}
    rows = {"train": [{"q": "q0", "a": "!"}], "test": [{"q": "q1", "a": "!"}]}
    pair = make_pair(dataset, rows)
    found, skipped = answer_format_warnings([pair], timeout=0.5)
    assert found == [] and skipped == [("slow", "bounded", "the self-test ran past 0.5 s")]
