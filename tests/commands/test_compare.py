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
    assert kinds["delimiters"]["right"] == "'\\n' → ''"
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
