"""Requests rendered per second, headless, beside the plainest Python doing the same work.

Two configs of 10,000 test rows each: gsm8k-like (4-shot FixK dialogue examples, a system
turn, an internlm-style meta template) and mmlu-like (4 labels, PPL, 2-shot label-dict
examples). For each, the workbench's rate with and without token accounting, and through
the whole JSON export (also of the same rows made so that the interpreter renders each), beside
the floor: a loop of ``str.replace`` over the rows on a prompt whose constant part (examples,
meta template) is built once.

``python -m benchmarks`` measures in a process of its own (:func:`measure_fresh`): the
harness's earlier sections leave a heap of their objects behind, and every full garbage
collection the renders' allocations start walks all of it (3 million leftover objects made
the gsm8k-like render ~1.4x slower, the floor, which allocates no tracked objects, not).
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import DatasetSpec, ModelSpec
from workbench.headless.formats.json_export import write_render_json

ROWS = 10_000
META = {
    "round": [
        {"role": "HUMAN", "begin": "<|im_start|>user\n", "end": "<|im_end|>\n"},
        {"role": "BOT", "begin": "<|im_start|>assistant\n", "end": "<|im_end|>\n", "generate": True},
    ],
    "reserved_roles": [{"role": "SYSTEM", "begin": "<|im_start|>system\n", "end": "<|im_end|>\n"}],
}
MODEL = ModelSpec("internlm-like",
                  {"type": "HuggingFaceCausalLM", "path": "internlm/x", "meta_template": META})
Q = "Question: {question}\nLet's think step by step\nAnswer:"


def gsm_dataset() -> DatasetSpec:
    train = [{"question": f"Tom has {i} apples and buys {i + 3} more. How many apples now?",
              "answer": f"He has {i} + {i + 3} = {2 * i + 3} apples.\nThe answer is {2 * i + 3}"}
             for i in range(8)]
    test = [{"question": f"Ann reads {i} pages a day for {i % 7 + 1} days. How many pages in all?",
             "answer": str(i * (i % 7 + 1))} for i in range(ROWS)]
    round_ = [{"role": "HUMAN", "prompt": Q}, {"role": "BOT", "prompt": "{answer}\n"}]
    cfg = {
        "abbr": "gsm8k-like",
        "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
        "infer_cfg": {
            "ice_template": {"type": "PromptTemplate", "template": {"round": round_}},
            "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>", "template": {
                "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN",
                           "prompt": "Solve the math problems."}, "</E>"],
                "round": round_}},
            "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1, 2, 3]},
            "inferencer": {"type": "GenInferencer"},
        },
    }
    return DatasetSpec("gsm8k-like", cfg, {"train": train, "test": test})


def gsm_floor(dataset: DatasetSpec) -> Callable[[], int]:
    rows = dataset.rows
    ice = "".join(f"<|im_start|>user\n{Q.replace('{question}', r['question'])}<|im_end|>\n"
                  f"<|im_start|>assistant\n{r['answer']}\n<|im_end|>\n" for r in rows["train"][:4])
    prompt = (f"<|im_start|>system\nSolve the math problems.<|im_end|>\n{ice}"
              f"<|im_start|>user\n{Q}<|im_end|>\n<|im_start|>assistant\n")

    def run() -> int:
        out = [prompt.replace("{question}", r["question"]) for r in rows["test"]]
        return len(out)

    return run


LABELS = "ABCD"
MMLU_Q = "{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer:"


def mmlu_dataset() -> DatasetSpec:
    def row(i: int) -> dict:
        return {"question": f"Which of these is item number {i}?", "A": f"a{i}", "B": f"b{i}",
                "C": f"c{i}", "D": f"d{i}", "target": LABELS[i % 4]}

    def template(with_ice: bool) -> dict:
        out = {}
        for label in LABELS:
            dialogue = {"round": [{"role": "HUMAN", "prompt": MMLU_Q},
                                  {"role": "BOT", "prompt": f"{label}\n"}]}
            if with_ice:
                dialogue["begin"] = [{"role": "SYSTEM", "fallback_role": "HUMAN",
                                      "prompt": "Multiple choice questions."}, "</E>"]
            out[label] = dialogue
        return out

    cfg = {
        "abbr": "mmlu-like",
        "reader_cfg": {"input_columns": ["question", "A", "B", "C", "D"], "output_column": "target"},
        "infer_cfg": {
            "ice_template": {"type": "PromptTemplate", "template": template(False)},
            "prompt_template": {"type": "PromptTemplate", "template": template(True), "ice_token": "</E>"},
            "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
            "inferencer": {"type": "PPLInferencer"},
        },
    }
    return DatasetSpec("mmlu-like", cfg, {"train": [row(i) for i in range(5)],
                                          "test": [row(i) for i in range(ROWS)]})


def mmlu_floor(dataset: DatasetSpec) -> Callable[[], int]:
    rows = dataset.rows

    def turn(r: dict, label: str) -> str:
        q = MMLU_Q
        for key in ("question", "A", "B", "C", "D"):
            q = q.replace("{" + key + "}", r[key])
        return f"<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n{label}\n<|im_end|>\n"

    ice = "".join(turn(rows["train"][i], rows["train"][i]["target"]) for i in (0, 1))
    prompts = {label: (f"<|im_start|>system\nMultiple choice questions.<|im_end|>\n{ice}"
                       f"<|im_start|>user\n{MMLU_Q}<|im_end|>\n<|im_start|>assistant\n{label}\n<|im_end|>\n")
               for label in LABELS}

    def run() -> int:
        n = 0
        for r in rows["test"]:
            for label in LABELS:
                p = prompts[label]
                for key in ("question", "A", "B", "C", "D"):
                    p = p.replace("{" + key + "}", r[key])
                n += 1
        return n

    return run


def _rate(work: Callable[[], int], repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        started = time.perf_counter()
        n = work()
        rates.append(n / (time.perf_counter() - started))
    return statistics.median(rates)


def _render(dataset: DatasetSpec, options: RenderOptions) -> Callable[[], int]:
    def run() -> int:
        pair = PairRenderer(dataset, MODEL, options)
        return sum(len(s.requests) for s in pair.samples())

    return run


def interpreted(dataset: DatasetSpec) -> DatasetSpec:
    """The same rows, each question ending in an unclosed ``{x``: a later field could fill such a
    value again, so no form splices or stamps a row and each is the interpreter's, as a TopK
    retriever's rows or a plan that reads the row are (sample_form.py's ``value-refills``)."""
    test = [{**row, "question": row["question"] + " {x"} for row in dataset.rows["test"]]
    return replace(dataset, rows={**dataset.rows, "test": test})


def _export(dataset: DatasetSpec, requests: int) -> Callable[[], int]:
    """The whole ``render --format json`` path in process, written to memory."""
    def run() -> int:
        write_render_json(render_workspace([dataset], [MODEL]), io.StringIO())
        return requests

    return run


def measure(repeat: int = 3) -> list[dict]:
    """Rates in requests per second (medians), and their ratio to the floor.

    The floor and the renders are measured in rounds, one run of each a round, and each
    ratio is the median of its rounds' ratios: a machine shared with other jobs changes speed
    from one second to the next, and runs measured side by side see the same machine (measured
    one block after the other, a slow spell lands on one side only)."""
    out = []
    for dataset, floor, per_row in ((gsm_dataset(), gsm_floor, 1), (mmlu_dataset(), mmlu_floor, 4)):
        work = {"floor": floor(dataset), "prompts": _render(dataset, RenderOptions(measure=False)),
                "with_tokens": _render(dataset, RenderOptions())}
        rates: dict[str, list[float]] = {name: [] for name in work}
        for _ in range(repeat):
            for name, run in work.items():
                rates[name].append(_rate(run, 1))
        export = _rate(_export(dataset, ROWS * per_row), 1)
        by_interpreter = _rate(_export(interpreted(dataset), ROWS * per_row), 1)
        row = {"config": dataset.abbr, **{name: statistics.median(r) for name, r in rates.items()},
               "json_export": export, "json_export_interpreted": by_interpreter}
        row["ratios"] = {name: statistics.median(f / r for f, r in zip(rates["floor"], rates[name]))
                         for name in ("prompts", "with_tokens")}
        out.append(row)
    return out


def measure_fresh(repeat: int = 3) -> list[dict]:
    """:func:`measure` in a new Python process (see the module's docstring)."""
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-m", "benchmarks.throughput", str(repeat)], cwd=root, env=env,
                          capture_output=True, text=True, timeout=1800)
    if done.returncode:
        raise RuntimeError(f"benchmarks.throughput failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


GSM_CONFIG = '''from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.models import HuggingFaceCausalLM

datasets = [{dataset!r}]
models = [dict(abbr="internlm-like", type=HuggingFaceCausalLM, path="internlm/x", meta_template={meta!r})]
'''


def write_gsm_workspace(folder: Path) -> Path:
    """The gsm8k-like case as files (config + rows), for timing a whole ``workbench render``."""
    dataset = gsm_dataset()
    (folder / "gsm8k_like.json").write_text(json.dumps(dataset.rows), encoding="utf-8")
    cfg = {**dataset.cfg, "path": "gsm8k_like.json"}
    (folder / "eval_gsm8k_like.py").write_text(GSM_CONFIG.format(dataset=cfg, meta=META), encoding="utf-8")
    return folder / "eval_gsm8k_like.py"


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 3)))
