"""``workbench compare``: a shipped benchmark's OpenCompass config and lm-eval task for one chat
model, rows in each framework's layout (OpenCompass's data folder, lm-eval's splits), through the
command line; bad input (an unknown benchmark, missing rows, a missing file) one located message
each, never a traceback."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
import yaml

from tests.headless.helpers import run_cli

SHIPPED = Path(__file__).resolve().parent.parent / "parity" / "lmeval" / "shipped"
CHATML = SHIPPED.parent / "chat" / "chatml"


@pytest.fixture
def oc_data(tmp_path, monkeypatch):
    """OpenCompass's data folder (data/gsm8k/*.jsonl, data/mmlu/{dev,test}/anatomy_*.csv) made from
    the same rows lm-eval's splits hold, found through COMPASS_DATA_CACHE as OpenCompass finds it."""
    (tmp_path / "data" / "gsm8k").mkdir(parents=True)
    for split in ("train", "test"):
        shutil.copy(SHIPPED / "gsm8k" / f"{split}.jsonl", tmp_path / "data" / "gsm8k" / f"{split}.jsonl")
    for split in ("dev", "test"):
        folder = tmp_path / "data" / "mmlu" / split
        folder.mkdir(parents=True)
        rows = [json.loads(line) for line in (SHIPPED / "mmlu" / f"{split}.jsonl").read_text().splitlines()]
        with open(folder / f"anatomy_{split}.csv", "w", newline="") as f:
            for row in rows:
                csv.writer(f).writerow([row["question"], *row["choices"], "ABCD"[row["answer"]]])
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    return tmp_path


def compare(*args: str) -> tuple[int, dict, str]:
    run = run_cli("compare", *args, "--format", "json")
    return run.code, json.loads(run.out) if run.out.strip() else {}, run.err


GSM8K = ["gsm8k", "--chat-template", str(CHATML), "--data", f"test={SHIPPED / 'gsm8k' / 'test.jsonl'}",
         "--data", f"train={SHIPPED / 'gsm8k' / 'train.jsonl'}"]
MMLU = ["mmlu", "--subject", "anatomy", "--chat-template", str(CHATML),
        "--data", f"test={SHIPPED / 'mmlu' / 'test.jsonl'}", "--data", f"dev={SHIPPED / 'mmlu' / 'dev.jsonl'}"]


def test_gsm8k_rows_aligned_and_the_differences_classed(oc_data):
    code, doc, _ = compare(*GSM8K)
    assert code == 1 and doc["errors"] == []
    assert doc["schema"] == "prompt-workbench/compare@1"
    assert [(s["framework"], s["dataset"], s["request"]) for s in doc["sides"]] == [
        ("OpenCompass 0.5.4", "gsm8k", "generation"), ("lm-eval 0.4.13", "gsm8k", "generation")]
    assert doc["summary"]["compared"] == 3 and doc["summary"]["unmatched"] == 0
    # four worked answers written in OpenCompass's template against lm-eval's five drawn shots;
    # OpenCompass's "Let's think step by step" and its "\n" after "Answer:"; 512 new tokens against 256
    assert set(doc["summary"]["kinds"]) == {"shots", "delimiters", "wording", "generation", "extraction"}
    row = doc["rows"][0]
    oc, lm = row["sides"]
    assert oc["index"] == lm["index"] == 0 and row["key"] == "Tom has 0 apples and buys 2 more. How many apples?"
    assert (oc["shots"], oc["shot_source"], lm["shots"], lm["shot_source"]) == (4, "template", 5, "sampler")
    assert oc["messages"][-1]["content"].endswith("Let's think step by step\nAnswer:\n")
    assert lm["messages"][-1]["content"].endswith("How many apples?\nAnswer:")
    kinds = {d["kind"]: d for d in row["against_first"][0]["differences"]}
    assert (kinds["delimiters"]["left"], kinds["delimiters"]["right"]) == ("'\\n'", "''")
    assert "max_new_tokens 512" in kinds["generation"]["left"] and "'Question:'" in kinds["generation"]["right"]
    # the diff runs rebuild both final inputs
    diff = row["against_first"][0]["diff"]
    assert "".join(t for op, t in diff if op != "+") == oc["final"]
    assert "".join(t for op, t in diff if op != "-") == lm["final"]


def test_mmlu_generation_against_scored_choices(oc_data):
    code, doc, _ = compare(*MMLU, "--num-fewshot", "2")
    assert code == 1 and doc["errors"] == []
    assert [s["dataset"] for s in doc["sides"]] == ["lukaemon_mmlu_anatomy", "mmlu_anatomy"]
    assert doc["subject"] == "anatomy"
    assert set(doc["summary"]["kinds"]) == {"request", "shots", "system", "choices", "delimiters", "wording",
                                            "extraction"}
    lm = doc["rows"][0]["sides"][1]
    # under a chat template lm-eval's continuations lose their leading space
    assert lm["continuations"] == ["A", "B", "C", "D"]
    assert lm["messages"][0] == {"role": "system", "content":
                                 "The following are multiple choice questions (with answers) about anatomy.\n\n"}


def test_text_and_markdown_outputs(oc_data):
    text = run_cli("compare", *GSM8K, "--color", "never")
    assert text.code == 1
    assert "number and choice of shots: differs in 3 of 3" in text.out
    assert "[-Let's think step by step↵" in text.out
    md = run_cli("compare", *MMLU, "--format", "markdown")
    assert md.out.startswith("### mmlu (anatomy): the same rows through 2 frameworks")
    assert "| request | generation | continuation |" in md.out
    assert "<details><summary>lm-eval 0.4.13: the final input" in md.out


def test_an_unknown_benchmark_names_the_shipped_ones():
    run = run_cli("compare", "mmluu")
    assert run.code == 2 and "'mmluu' is no shipped benchmark and no file" in run.err
    assert "mmlu, mmlu_pro, gsm8k, math, gpqa, bbh, arc, hellaswag, ceval, cmmlu" in run.err


def test_an_unknown_subject_names_the_subjects():
    run = run_cli("compare", "mmlu", "--subject", "anatomyy")
    assert run.code == 2 and "--subject anatomyy: MMLU has no such subject" in run.err and "anatomy," in run.err


def test_missing_rows_say_what_to_pass(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    code, doc, err = compare("gsm8k", "--chat-template", str(CHATML))
    assert code == 3 and "Traceback" not in err
    assert [e["side"] for e in doc["errors"]] == ["gsm8k", "gsm8k"]
    assert "--data gsm8k=FILE" in doc["errors"][0]["hint"] and "--data SPLIT=FILE" in doc["errors"][1]["hint"]
    assert "gsm8k_gen.py: no rows for gsm8k" in err


def test_a_missing_data_file_is_a_usage_error():
    run = run_cli("compare", "gsm8k", "--data", "test=/nonexistent/test.jsonl")
    assert run.code == 2 and "no such file" in run.err


def test_two_configs_by_position_and_by_key(tmp_path):
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text('task: a\noutput_type: generate_until\ndoc_to_text: "Q: {{q}}\\nA:"\ndoc_to_target: "{{a}}"\n'
                 'test_split: test\n')
    b.write_text('task: b\noutput_type: generate_until\ndoc_to_text: "Q: {{q}}\\n\\nA:"\ndoc_to_target: "{{a}}"\n'
                 'test_split: test\n')
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"q": "one", "a": "1"}\n{"q": "two", "a": "2"}\n')
    code, doc, _ = compare(str(a), str(b), "--data", f"test={rows}")
    assert code == 1 and doc["summary"] == {"compared": 2, "unmatched": 0, "kinds": {"delimiters": 2}}
    assert doc["notes"] == ["a: rows aligned by position (no --key)", "b: rows aligned by position (no --key)"]
    code, doc, _ = compare(str(a), str(a), "--data", f"test={rows}", "--key", "q", "--key", "q")
    assert code == 0 and doc["summary"] == {"compared": 2, "unmatched": 0, "kinds": {}}
    assert [r["key"] for r in doc["rows"]] == ["one", "two"]


AIS_ARC = SHIPPED.parent.parent / "cases" / "ais_ARC_c_gen_0_shot_chat_prompt"


def test_an_aisbench_config_against_an_lm_eval_task_for_compares_own_model(tmp_path):
    """The AISBench config's own models (one of which AISBench refuses) are not the model compared:
    compare renders it with AISBench's chat-template class, and says nothing of the others."""
    rows = tmp_path / "arc.jsonl"
    rows.write_text(json.dumps({"question": "Which gas?", "choices": {"text": ["oxygen", "carbon dioxide"],
                                                                       "label": ["A", "B"]}, "answerKey": "B"}) + "\n")
    code, doc, err = compare(str(AIS_ARC / "config.py"), str(SHIPPED.parents[3] / "shipped_configs" / "lm_eval" / "tasks" / "arc" / "arc_challenge.yaml"),
                             "--data", str(AIS_ARC / "data.json"), "--data", f"test={rows}", "--data", f"train={rows}",
                             "--data", f"validation={rows}", "--chat-template", str(CHATML), "--limit", "1")
    assert code == 1 and doc["errors"] == [] and "VLLMCustomAPIChat" not in err, err
    ais, lm = doc["sides"]
    assert (ais["framework"], ais["dataset"], ais["chat_template"]) == ("AISBench 3.1.20260630", "ARC-c", "chatml")
    assert lm["request"] == "continuation" and doc["summary"]["kinds"]["request"] == 1
    assert doc["rows"][0]["sides"][0]["final"].startswith("<|im_start|>user\nQuestion: question 0")


def test_markdown_keeps_row_text_inert(tmp_path):
    task = tmp_path / "t.yaml"
    task.write_text('task: t\noutput_type: generate_until\ndoc_to_text: "{{q}}"\ndoc_to_target: "{{a}}"\n'
                    'test_split: test\n')
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"q": "<details><summary>x</summary>\n```\n| a |", "a": "1"}) + "\n")
    run = run_cli("compare", str(task), str(task), "--data", f"test={rows}", "--key", "q", "--key", "q",
                  "--format", "markdown")
    assert run.code == 0
    assert "#### Row: &lt;details&gt;&lt;summary&gt;x&lt;/summary&gt; ``` \\| a \\|" in run.out
    assert "\n````text\n<details><summary>x</summary>\n```\n| a |\n````\n" in run.out


BASE_TASK = {
    "output_type": "generate_until", "test_split": "test", "fewshot_split": "train",
    "doc_to_text": "Question: {{q}}\nA. {{c[0]}}\nB. {{c[1]}}\nAnswer:", "doc_to_target": "{{a}}",
    "generation_kwargs": {"until": ["\n\n"]},
}
#: One change to the base task, and the one class of difference it makes (the request kind also
#: changes how the answer is read).
MINIMAL_PAIRS = {
    "shots": ({"num_fewshot": 1}, {"shots"}),
    "delimiters": ({"doc_to_text": "Question: {{q}}\nA. {{c[0]}}\nB. {{c[1]}}\n\nAnswer: "}, {"delimiters"}),
    "choices": ({"doc_to_text": "Question: {{q}}\n(A) {{c[0]}}\n(B) {{c[1]}}\nAnswer:"}, {"choices"}),
    "system": ({"description": "Answer with the letter.\n"}, {"system"}),
    "wording": ({"doc_to_text": "Solve this. Question: {{q}}\nA. {{c[0]}}\nB. {{c[1]}}\nAnswer:"}, {"wording"}),
    "generation": ({"generation_kwargs": {"until": ["\n\n"], "max_gen_toks": 32}}, {"generation"}),
    "extraction": ({"filter_list": [{"name": "letter", "filter": [{"function": "regex", "regex_pattern": "([AB])"},
                                                                    {"function": "take_first"}]}]}, {"extraction"}),
    "request": ({"output_type": "multiple_choice", "doc_to_choice": ["A", "B"], "doc_to_target": 0},
                {"request", "extraction"}),
    "chat_template": ({"gen_prefix": "The answer is"}, {"chat_template"}),
}


@pytest.mark.parametrize("kind", MINIMAL_PAIRS)
def test_a_minimal_pair_of_configs_differs_in_its_one_class(kind, tmp_path):
    """Two task YAMLs that differ in one respect, through the command line with one chat model:
    only that class of difference is named, on every row."""
    change, expected = MINIMAL_PAIRS[kind]
    for name, task in (("a", BASE_TASK), ("b", {**BASE_TASK, **change})):
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump({"task": f"task_{name}", **task}, sort_keys=False),
                                               encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"q": f"What is {i}?", "c": [str(i), "x"], "a": "A"}) + "\n" for i in range(3)))
    code, doc, err = compare(str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"), "--key", "q", "--key", "q",
                             "--data", f"test={rows}", "--data", f"train={rows}", "--chat-template", str(CHATML))
    assert doc["errors"] == [], err
    assert code == 1
    assert doc["summary"] == {"compared": 3, "unmatched": 0, "kinds": dict.fromkeys(expected, 3)}


def test_hostile_row_text_is_inert_and_the_json_decodes_to_it(tmp_path):
    task = tmp_path / "t.yaml"
    task.write_text('task: t\noutput_type: generate_until\ndoc_to_text: "{{q}}"\ndoc_to_target: "{{a}}"\n'
                    'test_split: test\n')
    hostile = "Hi\x1b[31mRED\x1b]52;c;cHduZWQ=\x07\x9b2J\u202eevil\u200b!"
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"q": hostile, "a": "1"}) + "\n")
    run = run_cli("compare", str(task), str(task), "--data", f"test={rows}", "--format", "json")
    assert "\x1b" not in run.out and "\x9b" not in run.out and "\u202e" not in run.out
    doc = json.loads(run.out)
    assert doc["rows"][0]["sides"][0]["final"] == hostile
    text = run_cli("compare", str(task), str(task), "--data", f"test={rows}", "--show", "1", "--color", "always")
    assert "\x9b" not in text.out and "\u202e" not in text.out and "\x1b]52" not in text.out
    assert "␛[31mRED" in text.out


def test_a_key_column_the_rows_lack_aligns_by_position_and_says_so(tmp_path):
    task = tmp_path / "t.yaml"
    task.write_text('task: t\noutput_type: generate_until\ndoc_to_text: "{{q}}"\ndoc_to_target: "{{a}}"\n'
                    'test_split: test\n')
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"q": "one", "a": "1"}\n{"q": "two", "a": "2"}\n')
    code, doc, _ = compare(str(task), str(task), "--data", f"test={rows}", "--key", "question", "--key", "q")
    assert code == 1 and doc["notes"] == ["t: its rows have no 'question' column: rows aligned by position"]
    # one side by position, the other by its column: no row lines up, and the command says so
    assert doc["summary"] == {"compared": 0, "unmatched": 4, "kinds": {}}


def test_the_app_mode_needs_a_terminal():
    run = run_cli("compare", "gsm8k", "--app")
    assert run.code == 2 and "--app needs a terminal (stdin and stdout)" in run.err


def test_three_sides_are_each_compared_with_the_first(tmp_path):
    for name, text in (("a", "Q: {{q}}\\nA:"), ("b", "Q: {{q}}\\nA:"), ("c", "Q: {{q}}\\n\\nA:")):
        (tmp_path / f"{name}.yaml").write_text(f'task: {name}\noutput_type: generate_until\ndoc_to_text: "{text}"\n'
                                               'doc_to_target: "{{a}}"\ntest_split: test\n')
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"q": "one", "a": "1"}\n')
    code, doc, _ = compare(*(str(tmp_path / f"{n}.yaml") for n in "abc"), "--data", f"test={rows}",
                           *("--key", "q") * 3)
    assert code == 1 and [s["dataset"] for s in doc["sides"]] == ["a", "b", "c"]
    first_b, first_c = doc["rows"][0]["against_first"]
    assert first_b["differences"] == [] and [d["kind"] for d in first_c["differences"]] == ["delimiters"]
    assert doc["summary"]["kinds"] == {"delimiters": 1}
