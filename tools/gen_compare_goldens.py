"""Dev-only: the goldens of ``workbench compare`` (tests/parity/compare/): what the REAL frameworks
send for the same rows of MMLU (anatomy) and GSM8K through the configs compare ships
(``shipped_configs/``), for one chat model (the chatml tokenizer folder of
tests/parity/lmeval/chat/chatml).

The rows are lm-eval's fixtures (tests/parity/lmeval/shipped/{mmlu,gsm8k}/*.jsonl); OpenCompass
reads them in its own layout, which this tool writes once (``--side opencompass``):
``tests/parity/compare/oc_data/data/gsm8k/{train,test}.jsonl`` and
``data/mmlu/{dev,test}/anatomy_{dev,test}.csv`` (MMLUDataset's headerless CSV).

Two runs, one per framework venv::

    /work/envs/fw/bin/python tools/gen_compare_goldens.py --side opencompass
    HF_DATASETS_OFFLINE=1 /work/envs/lmeval/bin/python tools/gen_compare_goldens.py --side lm-eval

OpenCompass: the shipped config loaded with mmengine, its dataset run through the real
``OpenICLInferTask`` by tools/gen_goldens.py's harness (a ``HuggingFacewithChatTemplate`` whose
loading is stubbed records the messages its ``generate`` is given), then those messages through
the tokenizer folder's ``apply_chat_template(m, add_generation_prompt=True, tokenize=False)``,
the call ``HuggingFacewithChatTemplate.generate`` makes (huggingface_above_v4_33.py).
lm-eval: the shipped task YAML through tools/gen_lmeval_goldens.py's path (lm-eval's own loader,
``build_all_requests``, HFLM's chat-template call), with lm-eval's command-line defaults for
``--apply_chat_template`` (shots as turns).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "parity" / "compare"
SHIPPED_ROWS = ROOT / "tests" / "parity" / "lmeval" / "shipped"
CHATML = ROOT / "tests" / "parity" / "lmeval" / "chat" / "chatml"
CONFIGS = ROOT / "shipped_configs"

#: case -> (OpenCompass config, its abbr, lm-eval task YAML, lm-eval's --num_fewshot, split files)
CASES = {
    "gsm8k": ("opencompass/configs/datasets/gsm8k/gsm8k_gen.py", "gsm8k", "lm_eval/tasks/gsm8k/gsm8k.yaml",
              None, {"test": "gsm8k/test.jsonl", "train": "gsm8k/train.jsonl"}),
    "mmlu_anatomy": ("opencompass/configs/datasets/mmlu/mmlu_gen.py", "lukaemon_mmlu_anatomy",
                     "lm_eval/tasks/mmlu/default/mmlu_anatomy.yaml", None,
                     {"test": "mmlu/test.jsonl", "dev": "mmlu/dev.jsonl"}),
    "mmlu_anatomy-2shot": ("opencompass/configs/datasets/mmlu/mmlu_gen.py", "lukaemon_mmlu_anatomy",
                           "lm_eval/tasks/mmlu/default/mmlu_anatomy.yaml", 2,
                           {"test": "mmlu/test.jsonl", "dev": "mmlu/dev.jsonl"}),
}


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def oc_rows(case: str) -> dict[str, list[dict]]:
    """The case's rows as OpenCompass's loader gives them (MMLU: input, A-D, target)."""
    files = CASES[case][4]
    if case.startswith("gsm8k"):
        return {split: _jsonl(SHIPPED_ROWS / file) for split, file in files.items()}
    return {split: [{"input": r["question"], **dict(zip("ABCD", r["choices"], strict=True)),
                     "target": "ABCD"[r["answer"]]} for r in _jsonl(SHIPPED_ROWS / file)]
            for split, file in files.items()}


def write_oc_layout() -> None:
    data = OUT / "oc_data" / "data"
    (data / "gsm8k").mkdir(parents=True, exist_ok=True)
    for split, rows in oc_rows("gsm8k").items():
        (data / "gsm8k" / f"{split}.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    for split, rows in oc_rows("mmlu_anatomy").items():
        (data / "mmlu" / split).mkdir(parents=True, exist_ok=True)
        with open(data / "mmlu" / split / f"anatomy_{split}.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            for r in rows:
                writer.writerow([r["input"], r["A"], r["B"], r["C"], r["D"], r["target"]])


def opencompass_golden(case: str) -> dict:
    sys.path.insert(0, str(ROOT / "tools"))
    import gen_goldens
    from opencompass.models import HuggingFacewithChatTemplate
    from transformers import AutoTokenizer

    config, abbr = CASES[case][0], CASES[case][1]
    cfg = gen_goldens.load_config(CONFIGS / config)
    (ds_cfg,) = [d for d in gen_goldens.dataset_cfgs(cfg) if d["abbr"] == abbr]
    model_cfg = dict(abbr="compare-model", type=HuggingFacewithChatTemplate, path=str(CHATML), batch_size=1)
    # in a temporary folder, as gen_goldens runs a pair: the harness writes its rows' datasets cache there
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp), gen_goldens.quiet():
        render = gen_goldens.run_oc_pair(ds_cfg, model_cfg, oc_rows(case), abbr, "compare-model", Path(tmp))
    tokenizer = AutoTokenizer.from_pretrained(str(CHATML), local_files_only=True)
    rows = []
    for sample in render["samples"]:
        messages = sample["requests"][0]["model_input"]
        final = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        rows.append({"index": sample["index"], "messages": messages, "final": final})
    return {"framework": "opencompass", "config": config, "dataset": abbr, "rows": rows}


def lmeval_golden(case: str) -> dict:
    sys.path.insert(0, str(ROOT / "tools"))
    import datasets
    import gen_lmeval_goldens
    from lm_eval.api.task import ConfigurableTask
    from lm_eval.tasks._yaml_loader import load_yaml

    _, _, yaml_path, num_fewshot, files = CASES[case]
    cfg = load_yaml(CONFIGS / yaml_path)
    data = {split: str(SHIPPED_ROWS / file) for split, file in files.items()}
    cfg["custom_dataset"] = lambda **_: datasets.load_dataset("json", data_files=data)
    task = ConfigurableTask(config=cfg)
    if num_fewshot is not None and task.get_config("num_fewshot") != 0:
        task.set_config(key="num_fewshot", value=num_fewshot)
    elif task.get_config("num_fewshot") is None:
        task.set_config(key="num_fewshot", value=0)
    task.set_fewshot_seed(seed=1234)
    chat = gen_lmeval_goldens._chat(CHATML)
    multiturn = gen_lmeval_goldens._multiturn({"chat": "chatml", "multiturn": None})
    task.build_all_requests(system_instruction=None, apply_chat_template=True, fewshot_as_multiturn=multiturn,
                            chat_template=chat)
    by_doc: dict[int, dict] = {}
    for inst in sorted(task.instances, key=lambda i: (i.doc_id, i.idx)):
        row = by_doc.setdefault(inst.doc_id, {"index": inst.doc_id, "final": inst.arguments[0],
                                              "continuations": []})
        if isinstance(inst.arguments[1], str):
            row["continuations"].append(inst.arguments[1])
    return {"framework": "lm-eval", "config": yaml_path, "task": task.config.task,
            "num_fewshot": num_fewshot, "rows": list(by_doc.values())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("opencompass", "lm-eval"), required=True)
    args = parser.parse_args()
    (OUT / "goldens").mkdir(parents=True, exist_ok=True)
    if args.side == "opencompass":
        write_oc_layout()
    for case in CASES:
        golden = opencompass_golden(case) if args.side == "opencompass" else lmeval_golden(case)
        path = OUT / "goldens" / f"{case}.{args.side}.json"
        path.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}: {len(golden['rows'])} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
