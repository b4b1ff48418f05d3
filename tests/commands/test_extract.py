"""``workbench extract RUN_DIR``: the extract@1 document, its text and markdown, bad input (one
located error each, the other pairs still reported), and ``--against CONFIG [--rev REV]``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

GIT = shutil.which("git")
MODEL = "dict(abbr='m1', path='org/m', type='opencompass.models.OpenAISDK')"


def dataset(abbr: str, eval_cfg: str, column: str = "answer") -> str:
    return (f"    dict(abbr={abbr!r}, type='opencompass.datasets.CustomDataset', path='x.jsonl',\n"
            f"        reader_cfg=dict(input_columns=['question'], output_column={column!r}),\n"
            f"        eval_cfg={eval_cfg}),\n")


GSM8K = ("dict(evaluator=dict(type='opencompass.datasets.Gsm8kEvaluator'), "
         "pred_postprocessor=dict(type='opencompass.datasets.gsm8k_postprocess'), "
         "dataset_postprocessor=dict(type='opencompass.datasets.gsm8k_dataset_postprocess'))")
MCQ = ("dict(evaluator=dict(type='opencompass.openicl.icl_evaluator.AccEvaluator'), "
       "pred_postprocessor=dict(type='opencompass.utils.text_postprocessors.first_option_postprocess', "
       "options='ABCD'))")
MCQ_PATTERN = ("dict(evaluator=dict(type='opencompass.openicl.icl_evaluator.AccEvaluator'), "
               "pred_postprocessor=dict(type='match_answer_pattern', answer_pattern=r'(?i)ANSWER\\s*:\\s*([A-D])'))")


def write_run(root: Path, datasets: dict[str, str], predictions: dict[str, object]) -> Path:
    """A run folder: its dumped config with ``datasets`` (abbr -> eval_cfg source) and one model,
    and ``predictions`` (file stem -> records, or the file's raw text)."""
    run = root / "outputs" / "20261127_120000"
    (run / "configs").mkdir(parents=True)
    (run / "predictions" / "m1").mkdir(parents=True)
    body = "".join(dataset(abbr, cfg) for abbr, cfg in datasets.items())
    (run / "configs" / "20261127_120000_1.py").write_text(f"datasets=[\n{body}]\nmodels=[{MODEL}]\n",
                                                         encoding="utf-8")
    for stem, records in predictions.items():
        text = records if isinstance(records, str) else json.dumps(records, ensure_ascii=False, indent=4)
        (run / "predictions" / "m1" / f"{stem}.json").write_text(text, encoding="utf-8")
    return run


def records(*pairs: tuple[str, object]) -> dict:
    return {str(i): {"origin_prompt": "q", "prediction": p, "gold": g} for i, (p, g) in enumerate(pairs)}


def good_run(root: Path) -> Path:
    return write_run(root, {"gsm8k": GSM8K, "mcq": MCQ}, {
        "gsm8k": records(("She pays 1,234 dollars.", "x\n#### 1,234"), ("The answer is 72", "y\n#### 72")),
        "mcq": records(("The answer is (B)", "B"), ("\x1b[31mC\x1b[0m", "C"), ("no idea", "D")),
    })


def extract(run: Path, *args: str):
    result = run_cli("extract", str(run), *args)
    assert "Traceback" not in result.err
    return result


def test_json_document(tmp_path):
    result = extract(good_run(tmp_path))
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert document["schema"] == "prompt-workbench/extract@1" and document["errors"] == []
    gsm8k, mcq = document["pairs"]
    assert (gsm8k["dataset"], gsm8k["model"]) == ("gsm8k", "m1")
    assert gsm8k["samples"][0] == {
        "index": "0", "prediction": "She pays 1,234 dollars.", "extracted": "234", "gold": "1234",
        "correct": False, "match": {"stage": "eval_cfg.pred_postprocessor", "function": "gsm8k_postprocess",
                                    "rule": "the last number before 'Question:' (\\-?\\d+\\.\\d+|\\-?\\d+)",
                                    "span": [11, 14], "matched": "234"}}
    assert gsm8k["accuracy"] == 50.0 and gsm8k["metric"] == "accuracy" and gsm8k["gold_from"] == "predictions"
    assert [s["extracted"] for s in mcq["samples"]] == ["B", "C", ""]  # "idea": no capital letter
    assert [s["correct"] for s in mcq["samples"]] == [True, True, False]
    assert mcq["samples"][0]["match"]["rule"] == r"[Tt]he answer is:?\s+\(?([ABCD])\)?"
    assert mcq["samples"][0]["match"]["span"] == [0, 17] and mcq["samples"][2]["match"] is None
    assert mcq["accuracy"] == 2 / 3 * 100  # AccEvaluator's order: the ratio, then times 100
    assert any("'1,234' is extracted as '234'" in w for w in document["warnings"])


def test_text_and_markdown_show_outputs_inert(tmp_path):
    run = good_run(tmp_path)
    text = extract(run, "-f", "text")
    assert text.code == 0 and "\x1b" not in text.out
    assert re.search(r'✗ +0  extracted "234" +gold "1234"', text.out)
    assert "gsm8k × m1: 2 samples, accuracy 50.00" in text.out
    wrong = extract(run, "-f", "text", "--wrong")
    assert '"234"' in wrong.out and '"72"' not in wrong.out
    markdown = extract(run, "-f", "markdown")
    assert "## gsm8k × m1" in markdown.out and '| 0 | ✗ | "234" | "1234" |' in markdown.out
    assert "\x1b" not in markdown.out


def test_hostile_output_is_valid_inert_json(tmp_path):
    run = write_run(tmp_path, {"mcq": MCQ}, {"mcq": '{"0": {"prediction": "\\ud800 \\u001b[2J (B) \\u202e", '
                                                   '"gold": "B"}}'})
    result = extract(run)
    assert result.code == 0 and "\x1b" not in result.out and "\u202e" not in result.out
    (sample,) = json.loads(result.out)["pairs"][0]["samples"]
    assert sample["prediction"] == "\ud800 \x1b[2J (B) \u202e" and sample["extracted"] == "B"


def test_none_stays_null_and_unscored_pairs_say_why(tmp_path):
    first_number = ("dict(evaluator=dict(type='opencompass.evaluator.GenericLLMEvaluator'), pred_postprocessor="
                    "dict(type='opencompass.datasets.InfiniteBench_first_number_postprocess'))")
    run = write_run(tmp_path, {"judged": first_number}, {"judged": records(("no digits", "3"), ("7 cats", "7"))})
    document = json.loads(extract(run).out)
    pair = document["pairs"][0]
    assert [s["extracted"] for s in pair["samples"]] == [None, "7"]
    assert [s["correct"] for s in pair["samples"]] == [None, None] and pair["accuracy"] is None
    assert pair["scored_by"] == "framework" and "GenericLLMEvaluator" in pair["note"]


def test_bad_input_is_one_located_error_each_and_the_rest_is_reported(tmp_path):
    slow = "dict(evaluator=dict(type='AccEvaluator'), pred_postprocessor=dict(type='match_answer_pattern', " \
           "answer_pattern='^(a+)+$'))"
    plain = "dict(evaluator=dict(type='AccEvaluator'))"
    raising = "dict(evaluator=dict(type='AccEvaluator'), pred_postprocessor=dict(type='gsm8k', oops=1))"
    run = write_run(tmp_path, {"ok": MCQ, "slow": slow, "notjson": plain, "holes": plain, "nogold": GSM8K,
                               "absent": plain, "raises": raising, "unregistered": MCQ.replace(
                                   "'opencompass.utils.text_postprocessors.first_option_postprocess'",
                                   "'first_option_postprocess'")}, {
        "ok": records(("A", "A")),
        "slow": records(("aaa", "aaa"), ("a" * 64 + "b", "x")),
        "notjson": '{"0": {"prediction": "A", "gold": "A"},\n "1": {',
        "holes": {"0": {"prediction": "A", "gold": "A"}, "2": {"prediction": "B", "gold": "B"}},
        "nogold": records(("4", "#### 4"), ("5", "five")),
        "raises": records(("4", "4")),
        "unregistered": records(("A", "A")),
    })
    result = extract(run, "--timeout", "2")
    assert result.code == 3
    document = json.loads(result.out)
    assert [p["dataset"] for p in document["pairs"] if p["error"] is None] == ["ok"]
    errors = {e["dataset"]: e for e in document["errors"]}
    flagged = {p["dataset"]: p["error"] for p in document["pairs"] if p["error"] is not None}
    assert flagged == errors and all(p["samples"] == [] for p in document["pairs"] if p["error"])
    assert set(errors) == {"slow", "notjson", "holes", "nogold", "absent", "raises", "unregistered"}
    assert errors["slow"]["sample"] == "1" and "ran past 2 s" in errors["slow"]["message"]
    assert errors["notjson"]["line"] == 2 and "not valid JSON" in errors["notjson"]["message"]
    assert "record '1' is missing" in errors["holes"]["message"]
    assert errors["nogold"]["sample"] == "1" and errors["nogold"]["line"] == 7
    assert "FileNotFoundError" in errors["absent"]["message"]
    assert "unexpected keyword argument 'oops'" in errors["raises"]["message"]
    assert "not a TEXT_POSTPROCESSORS key" in errors["unregistered"]["message"]
    lines = [line for line in result.err.splitlines() if not line.startswith("warning:")]
    assert len(lines) == 7 and all(re.match(r"^\S+?(:\d+)?: \[\w+ × m1\] ", line) for line in lines)


def test_huge_predictions_file_is_refused_at_its_size(tmp_path, monkeypatch):
    monkeypatch.setattr("workbench.loading.predictions.MAX_PREDICTION_BYTES", 64)
    run = write_run(tmp_path, {"big": MCQ}, {"big": records(("A" * 100, "A"))})
    result = extract(run)
    assert result.code == 3
    (error,) = json.loads(result.out)["errors"]
    assert error["dataset"] == "big" and error["file"].endswith("big.json")


def test_partial_files_in_order_and_a_gap_said(tmp_path):
    run = write_run(tmp_path, {"mcq": MCQ}, {"mcq_0": records(("A", "A"), ("B", "C")),
                                             "mcq_1": records(("D", "D")), "mcq_3": records(("A", "A"))})
    result = extract(run)
    pair = json.loads(result.out)["pairs"][0]
    assert [s["index"] for s in pair["samples"]] == ["0", "1", "2"]
    assert [s["correct"] for s in pair["samples"]] == [True, False, True]
    assert "mcq_2.json is missing but _3 exists" in result.err


def test_a_config_that_cannot_load(tmp_path):
    run = good_run(tmp_path)
    (run / "configs" / "20261127_120000_1.py").write_text("datasets = [\n", encoding="utf-8")
    result = extract(run)
    assert result.code == 3
    assert re.match(r"^\S+20261127_120000_1\.py:\d+: the config cannot be loaded", result.err)
    missing = extract(tmp_path / "nowhere")
    assert missing.code == 3 and "run folder not found" in missing.err


def test_a_config_that_loops_is_stopped_at_the_timeout(tmp_path):
    run = good_run(tmp_path)
    (run / "configs" / "20261127_120000_1.py").write_text("while True:\n    pass\n", encoding="utf-8")
    result = extract(run, "--timeout", "2")
    assert result.code == 3 and len(result.err.splitlines()) == 1
    assert re.match(r"^\S+20261127_120000_1\.py(:\d+)?: the config cannot be loaded", result.err)
    assert json.loads(result.out)["pairs"] == []


def test_more_bad_predictions_are_one_located_error_each(tmp_path):
    plain = "dict(evaluator=dict(type='AccEvaluator'))"
    run = write_run(tmp_path, {"ok": MCQ, "deep": plain, "alist": plain, "notdict": plain, "bytes": plain,
                               "number": MCQ}, {
        "ok": records(("A", "A")), "deep": "[" * 100_000 + "]" * 100_000, "alist": '["A", "B"]',
        "notdict": '{"0": "just text"}', "number": '{"0": {"prediction": 5, "gold": "A"}}'})
    (run / "predictions" / "m1" / "bytes.json").write_bytes(b'{"0": {"prediction": "\xff\xfe", "gold": "A"}}')
    result = extract(run)
    assert result.code == 3
    document = json.loads(result.out)
    assert [p["dataset"] for p in document["pairs"] if p["error"] is None] == ["ok"]
    errors = {e["dataset"]: e["message"] for e in document["errors"]}
    assert set(errors) == {"deep", "alist", "notdict", "bytes", "number"}
    assert "nested too deep" in errors["deep"] and "holds a list" in errors["alist"]
    assert "record '0' is a str" in errors["notdict"] and "not UTF-8" in errors["bytes"]
    # what the real first_option_postprocess raises on a number (tests/core/answers/goldens.json)
    assert errors["number"].endswith("raised AttributeError: 'int' object has no attribute 'strip'")
    assert len([line for line in result.err.splitlines() if not line.startswith("warning:")]) == 5


def test_against_lists_flips_and_the_score_delta(tmp_path):
    run = write_run(tmp_path, {"mcq": MCQ}, {"mcq": records(
        ("Answer: Let's think step by step. The answer is (B)", "B"), ("ANSWER: C", "C"), ("It is D", "A"))})
    edited = tmp_path / "edited.py"
    edited.write_text(f"datasets=[\n{dataset('mcq', MCQ_PATTERN)}]\n", encoding="utf-8")
    result = extract(run, "--against", str(edited))
    assert result.code == 1, result.err
    pair = json.loads(result.out)["pairs"][0]
    assert pair["accuracy"] == pytest.approx(200 / 3)
    against = pair["against"]
    assert against["accuracy"] == pytest.approx(100 / 3) and against["delta"] == pytest.approx(-100 / 3)
    assert [(f["index"], f["extracted"], f["against_extracted"]) for f in against["flips"]] == [("0", "B", "")]
    same = extract(run, "--against", str(run / "configs" / "20261127_120000_1.py"), "-f", "text")
    assert same.code == 0 and "0 verdicts flip" in same.out


@pytest.mark.skipif(GIT is None, reason="needs git")
def test_against_a_git_revision(tmp_path):
    run = write_run(tmp_path, {"mcq": MCQ}, {"mcq": records(("The answer is (B)", "B"), ("ANSWER: C", "C"))})
    repo = tmp_path / "repo"
    repo.mkdir()
    config = repo / "eval.py"
    config.write_text(f"datasets=[\n{dataset('mcq', MCQ_PATTERN)}]\n", encoding="utf-8")

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t",
                        "-c", "commit.gpgsign=false", *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", "eval.py")
    git("commit", "-qm", "pattern")
    config.write_text(f"datasets=[\n{dataset('mcq', MCQ)}]\n", encoding="utf-8")  # the edit, uncommitted
    at_head = extract(run, "--against", str(config), "--rev", "HEAD")
    assert at_head.code == 1
    document = json.loads(at_head.out)
    assert document["against"] == f"HEAD:{config}"
    assert [f["index"] for f in document["pairs"][0]["against"]["flips"]] == ["0"]
    now = extract(run, "--against", str(config))
    assert now.code == 0
    unknown = extract(run, "--against", str(config), "--rev", "no-such-rev")
    assert unknown.code == 2 and "unknown revision" in unknown.err
    assert extract(run, "--rev", "HEAD").code == 2


SELF_TEST_CONFIG = '''
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.utils.text_postprocessors import match_answer_pattern

datasets = [dict(
    abbr='mcq', type='opencompass.datasets.CustomDataset', path='mcq.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', train_split='test'),
    infer_cfg=dict(
        ice_template=dict(type=PromptTemplate, template=dict(round=[
            dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='The answer is ({answer})')])),
        prompt_template=dict(type=PromptTemplate, ice_token='</E>', template=dict(begin='</E>', round=[
            dict(role='HUMAN', prompt="{question}\\nEnd with 'ANSWER: $LETTER'.")])),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=GenInferencer)),
    eval_cfg=dict(evaluator=dict(type=AccEvaluator),
                  pred_postprocessor=dict(type=match_answer_pattern, answer_pattern=r'(?i)ANSWER\\s*:\\s*([A-D])')),
)]
'''


def test_self_test_says_when_the_evaluator_cannot_read_the_templates_own_exemplar(tmp_path):
    (tmp_path / "eval.py").write_text(SELF_TEST_CONFIG, encoding="utf-8")
    rows = [{"question": f"q{i}", "answer": letter} for i, letter in enumerate("BCA")]
    (tmp_path / "mcq.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = run_cli("extract", str(tmp_path / "eval.py"), "--self-test", "--data",
                     f"mcq={tmp_path / 'mcq.jsonl'}")
    assert result.code == 1, result.err
    assert "Traceback" not in result.err
    (dataset,) = json.loads(result.out)["datasets"]
    checks = {c["source"]: c for c in dataset["checks"]}
    assert checks["exemplar 0"] == {"source": "exemplar 0", "text": "The answer is (B)", "extracted": "",
                                    "gold": "B", "correct": False}
    assert checks["format"]["text"] == "ANSWER: B" and checks["format"]["correct"] is True
    assert ("[mcq] PW213 answer-format: the evaluator cannot read the template's own exemplar: exemplar 0 'The answer is (B)' "
            "is extracted as '' against the gold 'B'") in result.err
    text = run_cli("extract", str(tmp_path / "eval.py"), "--self-test", "--data",
                   f"mcq={tmp_path / 'mcq.jsonl'}", "-f", "text")
    assert re.search(r'✗ exemplar 0 +"The answer is \(B\)"  extracted ""  gold "B"', text.out)


#: A stand-in OpenCompass (never the real one): a registry with two postprocessors the workbench
#: does not rewrite, one of which raises on its second text.
STAND_IN = {
    "opencompass/__init__.py": "",
    "opencompass/datasets/__init__.py": "",
    "opencompass/utils/__init__.py": "",
    "opencompass/registry.py": "class Registry(dict):\n    def get(self, key):\n        return dict.get(self, key)\n"
                               "TEXT_POSTPROCESSORS = Registry()\n",
    "opencompass/utils/text_postprocessors.py": (
        "from opencompass.registry import TEXT_POSTPROCESSORS\n"
        "print('noise on stdout')\n"
        "def shout(text, suffix='!'):\n    return text.upper() + suffix\n"
        "def boom(text):\n    if text == 'b':\n        raise ValueError('no b')\n    return None\n"
        "TEXT_POSTPROCESSORS['lcsts'] = shout\nTEXT_POSTPROCESSORS['cmrc'] = boom\n"),
}


def stand_in_python(root: Path) -> str:
    import os
    import sys

    for name, text in STAND_IN.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    python = root / "framework-python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{root}" exec "{sys.executable}" "$@"\n', encoding="utf-8")
    os.chmod(python, 0o755)
    return str(python)


def test_the_framework_route_applies_what_has_no_rewrite(tmp_path):
    acc = "dict(evaluator=dict(type='AccEvaluator'), pred_postprocessor=dict(type='lcsts', suffix='?'))"
    raising = "dict(evaluator=dict(type='AccEvaluator'), pred_postprocessor=dict(type='cmrc'))"
    run = write_run(tmp_path, {"cn": acc, "raising": raising},
                    {"cn": records(("a", "A?"), ("b", "B!")), "raising": records(("a", "A"), ("b", "B"))})
    python = stand_in_python(tmp_path / "framework")
    result = extract(run, "--framework-python", python)
    assert result.code == 3
    document = json.loads(result.out)
    cn = next(p for p in document["pairs"] if p["dataset"] == "cn")
    assert [s["extracted"] for s in cn["samples"]] == ["A?", "B?"] and cn["accuracy"] == 50.0
    assert cn["framework_steps"] == ["eval_cfg.pred_postprocessor lcsts"]
    (error,) = document["errors"]
    assert (error["dataset"], error["sample"], error["kind"]) == ("raising", "1", "fails")
    assert "cmrc raised ValueError: no b" in error["message"]
    without = json.loads(extract(run, "--framework-python", str(tmp_path / "no-such-python")).out)
    assert all(e["kind"] == "not-rewritten" and "cannot run" in e["message"] for e in without["errors"])


def test_html_is_one_inert_page_with_the_matched_span_marked(tmp_path):
    run = write_run(tmp_path, {"mcq": MCQ_PATTERN}, {"mcq": records(
        ("<script>alert(1)</script> Answer: B", "B"), ("\x1b[31mANSWER: C\x1b[0m \u202e", "C"), ("no idea", "D"))})
    result = extract(run, "-f", "html")
    assert result.code == 0, result.err
    page = result.out
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\x1b" not in page and "\u202e" not in page and "␛</span>[31m" in page  # a visible stand-in
    marked = re.findall(r'<span class="(s\d+)">Answer: B</span>', page)
    assert marked, "the span the pattern read is drawn in a class of its own"
    assert re.search(rf"\.{marked[0]} {{[^}}]*background-color", page)  # the palette's `matched` look
    assert "mcq × m1" in page and "accuracy 66.67 · 1 wrong of 3" in page
    assert "<th>against</th>" not in page  # no --against: no such column
    wrong = extract(run, "-f", "html", "--wrong").out
    assert "no idea" in wrong and "Answer: B</span>" not in wrong
    refused = run_cli("extract", str(run), "--self-test", "-f", "html")
    assert refused.code == 2 and "--format html is a run's report" in refused.err
