"""Dev-only: run folders for ``workbench extract``, and what OpenCompass 0.5.4's own evaluation
task made of them.

For each case below, the eval_cfg and reader_cfg of a shipped dataset config (GSM8K, MMLU-Pro,
CMMLU, MATH, BBH, ARC-c: read with mmengine from the installed package), with the dataset type
swapped for ``CustomDataset`` over a small JSONL of our own, and adversarial predictions (reasoning,
``<think>`` blocks, full-width colons, ``\\boxed{}`` with nested braces, numbers with commas,
"Answer: Let's think step by step"). The run folder is what an OpenCompass run leaves:
``configs/<time>_<pid>.py`` dumped by mmengine, ``predictions/<model>/<dataset>.json`` (one
dataset split into ``_0``/``_1`` parts). Then ``OpenICLEvalTask`` runs on a copy, with the
evaluators' ``score`` watched: the predictions and references it received, each sample's
verdict (an evaluator without per-sample details is asked about each sample on its own), and
the figure the task wrote, or the exception the task raised. Writes, under
``tests/headless/fixture/extract_runs/``: ``run/`` and ``expected.json``.

    $FWENV/bin/python tools/gen_extract_runs.py
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from _shared import REPO, quiet, write_json

OUT = REPO / "tests" / "headless" / "fixture" / "extract_runs"
CONFIGS = Path(__import__("opencompass").__file__).parent / "configs" / "datasets"

META = dict(round=[dict(role="HUMAN", begin="<|user|>\n", end="<|end|>\n"),
                   dict(role="BOT", begin="<|assistant|>\n", end="<|end|>\n", generate=True)])
MODELS = [
    dict(abbr="hf-chat", type="opencompass.models.HuggingFaceCausalLM", path="org/model", meta_template=META,
         max_out_len=64, batch_size=1, run_cfg=dict(num_gpus=0)),
    dict(abbr="api", type="opencompass.models.OpenAISDK", path="gpt-x", key="EMPTY", max_out_len=64,
         batch_size=1),
]

THINK = "<think>\nA or B? 1,000 or 100? Let me check: 3 + 4 = 7.\n</think>\n"

CASES = {
    "gsm8k": ("gsm8k/gsm8k_gen_1d7fe4.py", "answer", [
        ("Natalia sold 48 + 24 = 72 clips.\n#### 72", "#### 72"),
        ("She pays 1,234 dollars in total. The answer is 1,234.", "x\n#### 1,234"),
        ("So she has $29.00 left.", "y\n#### 29"),
        (THINK + "The answer is 18", "z\n#### 18"),
        ("The answer is 5.\n\nQuestion: Tom has 3 apples. 9", "w\n#### 5"),
        ("Answer: Let's think step by step. 2 * 3 = 6", "#### 6"),
        ("答案：42", "#### 42"), ("-3 degrees", "#### -3"), ("0.5 hours is 30 minutes", "#### 30"),
        ("No number here.", "#### 7"), ("", "#### 0"), ("It is 1,000,000.", "#### 1000000"),
        ("3.50", "#### 3.5"), ("10.0", "#### 10"),
    ]),
    "gsm8k_nohash": ("gsm8k/gsm8k_gen_1d7fe4.py", "answer", [
        ("The answer is 4", "#### 4"), ("The answer is 5", "five, without the marker"),
    ]),
    "mmlu_pro": ("mmlu_pro/mmlu_pro_0shot_cot_gen_08c1de.py", "answer", [
        ("Let's think step by step. ... ANSWER: C", "C"), ("answer: j", "J"), ("ANSWER:(B)", "B"),
        ("Answer: Let's think step by step. The answer is (C)", "C"), ("The answer is (D).", "D"),
        (THINK + "ANSWER: A", "A"), ("答案：B", "B"), ("ANSWER : P", "P"), ("answer:\nE", "E"),
        ("Answer: **F**", "F"), ("", "A"), ("ANSWER: Q", "Q"),
    ]),
    "cmmlu": ("cmmlu/cmmlu_gen_c13365.py", "answer", [
        ("答案是 B", "B"), ("答案：C", "C"), ("the answer is d", "D"), ("我选 A。", "A"),
        (THINK + "答案是C", "C"), ("Ｂ", "B"), ("", "A"), ("因为 A 错误，所以选 D", "D"),
    ]),
    "math": ("math/math_0shot_gen_393424.py", "solution", [
        ("So the answer is $\\boxed{\\frac{\\sqrt{3}}{2}}$.", "\\frac{\\sqrt{3}}{2}"),
        ("\\boxed{{1,2}}", "1,2"), ("The final answer is 0.5.", "\\frac{1}{2}"), ("\\boxed{1/2}", "\\frac12"),
        ("Final Answer: The final answer is $10\\%$. I hope it is correct.", "10"),
        (THINK + "\\boxed{x^{2}+1}", "x^2+1"), ("\\boxed{5", "5"), ("\\fbox{7}", "7"),
        ("The answer is \\boxed{\\text{(A)}}", "\\text{(A)}"), ("\\boxed{90^\\circ}", "90"),
        ("\\boxed{\\dfrac{3}{4}}", "\\frac{3}{4}"), ("\\boxed{k = 7}", "7"), ("\\boxed{\\infty}", "\\infty"),
        ("\\boxed{1,234}", "1234"), ("", "0"),
    ]),
    "bbh": ("bbh/bbh_gen_5b92b0.py", "target", [
        ("Let's think step by step. So the answer is (A).", "(A)"), ("the answer is B", "(B)"),
        ("So the answer is (C) because", "(A)"), ("I cannot tell.", "(D)"),
        (THINK + "So the answer is (E).", "(E)"),
    ]),
    "arc_c": ("ARC_c/ARC_c_gen_1e0de5.py", "answerKey", [
        ("Answer: Let's think step by step. The answer is C", "C"), ("The answer is (B)", "B"),
        ("答案是：D", "D"), ("A", "A"), ("B错了，只有C是对的", "C"), ("选项B正确", "B"),
        (THINK + "The correct answer is: \\boxed{D}", "D"), ("I think it is a trick question.", "A"),
    ]),
}
#: Which case is written in two partial files (the size partitioner's split).
SPLIT = "cmmlu"


def _dataset(case: str, source: str, column: str) -> dict:
    from mmengine.config import Config

    cfg = Config.fromfile(str(CONFIGS / source))
    found = next(v for k, v in cfg.items() if k.endswith("_datasets") or k == "datasets")
    dataset = copy.deepcopy(dict(found[0]))
    reader = dict(dataset["reader_cfg"])
    reader["output_column"] = column
    reader.pop("train_split", None)
    reader.pop("test_split", None)
    return dict(abbr=case, type="opencompass.datasets.CustomDataset", path=f"data/{case}.jsonl",
                reader_cfg=reader, infer_cfg=dataset["infer_cfg"], eval_cfg=dataset["eval_cfg"])


def write_run(run: Path) -> list[dict]:
    datasets = []
    for case, (source, column, samples) in CASES.items():
        dataset = _dataset(case, source, column)
        datasets.append(dataset)
        (run / "data").mkdir(parents=True, exist_ok=True)
        inputs = [c for c in dataset["reader_cfg"]["input_columns"]]
        with open(run / "data" / f"{case}.jsonl", "w", encoding="utf-8") as f:
            for i, (_, gold) in enumerate(samples):
                row = {c: f"{c} {i}" for c in inputs}
                row[column] = gold
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        for model in MODELS:
            folder = run / "predictions" / model["abbr"]
            folder.mkdir(parents=True, exist_ok=True)
            records = {str(i): {"origin_prompt": f"question {i}", "prediction": pred, "gold": gold}
                       for i, (pred, gold) in enumerate(samples)}
            if case == SPLIT:
                half = len(samples) // 2
                parts = [dict(list(records.items())[:half]), dict(list(records.items())[half:])]
                for k, part in enumerate(parts):
                    renumbered = {str(i): v for i, v in enumerate(part.values())}
                    _dump(folder / f"{case}_{k}.json", renumbered)
            else:
                _dump(folder / f"{case}.json", records)
    from mmengine.config import Config

    (run / "configs").mkdir(parents=True, exist_ok=True)
    Config(dict(datasets=datasets, models=MODELS, work_dir="outputs/extract")).dump(
        str(run / "configs" / "20261127_120000_4242.py"))
    return datasets


def _dump(path: Path, records: dict) -> None:
    path.write_text(json.dumps(records, ensure_ascii=False, indent=4), encoding="utf-8")


def evaluate(run: Path) -> dict:
    """Every pair through the real OpenICLEvalTask, in a scratch copy of the run."""
    from mmengine.config import Config
    from opencompass.openicl.icl_evaluator import BaseEvaluator
    from opencompass.tasks.openicl_eval import OpenICLEvalTask

    watched: dict = {}
    real_evaluate = BaseEvaluator.evaluate

    def spy(self, k, n, original_dataset, **kwargs):
        real_score = self.score

        def score(**params):
            result = real_score(**params)
            watched["predictions"] = list(params.get("predictions") or [])
            watched["references"] = list(params.get("references") or [])
            details = result.get("details")
            if isinstance(details, dict):
                details = list(details.values())
            if details:
                watched["correct"] = [d.get("correct", d.get("is_correct")) for d in details]
            else:  # no details (AccEvaluator): the evaluator asked about each sample alone
                watched["correct"] = [real_score(predictions=[p], references=[r])["accuracy"] == 100
                                      for p, r in zip(params["predictions"], params["references"])]
            return result

        self.score = score
        return real_evaluate(self, k, n, original_dataset, **kwargs)

    BaseEvaluator.evaluate = spy
    cfg = Config.fromfile(str(next((run / "configs").glob("*.py"))))
    expected: dict = {}
    scratch = Path(tempfile.mkdtemp(prefix="extract-eval-"))
    cwd = os.getcwd()
    try:
        shutil.copytree(run, scratch, dirs_exist_ok=True)
        os.chdir(scratch)
        for model in cfg["models"]:
            for dataset in cfg["datasets"]:
                watched.clear()
                task_cfg = Config(dict(models=[model], datasets=[[dataset]], work_dir=str(scratch)))
                key = f"{dataset['abbr']} × {model['abbr']}"
                try:
                    with quiet():
                        OpenICLEvalTask(task_cfg).run()
                except Exception as exc:
                    expected[key] = {"raises": type(exc).__name__, "message": str(exc)[:200]}
                    continue
                out = scratch / "results" / model["abbr"] / f"{dataset['abbr']}.json"
                result = json.loads(out.read_text(encoding="utf-8"))
                figure = next((k for k in ("accuracy", "score") if k in result), None)
                expected[key] = {"extracted": watched.get("predictions"), "gold": watched.get("references"),
                                 "correct": watched.get("correct"), "metric": figure,
                                 "accuracy": result.get(figure) if figure else None}
    finally:
        os.chdir(cwd)
        BaseEvaluator.evaluate = real_evaluate
        shutil.rmtree(scratch, ignore_errors=True)
    return expected


def main() -> int:
    if OUT.exists():
        shutil.rmtree(OUT)
    run = OUT / "run"
    write_run(run)
    expected = evaluate(run)
    write_json(OUT / "expected.json", expected)
    failed = sum(1 for v in expected.values() if "raises" in v)
    print(f"{len(expected)} pairs ({failed} fail in OpenCompass) -> {OUT.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
