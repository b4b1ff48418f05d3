"""Dev-only: the goldens of ``workbench compare`` (tests/parity/compare/): what the REAL frameworks
send for the same rows of a shipped benchmark (``CASES``: MMLU anatomy at 0 and 2 shots, GSM8K,
ARC-Challenge, ...) through the configs compare ships (``shipped_configs/``), for one chat model
(the chatml tokenizer folder of tests/parity/lmeval/chat/chatml).

The rows are lm-eval's fixtures (tests/parity/lmeval/shipped/<benchmark>/*.jsonl); OpenCompass
reads the same rows in its own layout, which this tool writes (``--side opencompass``) under
``tests/parity/compare/oc_data/data/`` (e.g. ``gsm8k/{train,test}.jsonl``, MMLUDataset's headerless
``mmlu/{dev,test}/anatomy_{dev,test}.csv``, ARCDataset's AI2 JSONL), and OpenCompass's own dataset
class loads them from there (``COMPASS_DATA_CACHE``), so the layout is held to the framework too.

Two runs, one per framework venv::

    /work/envs/fw/bin/python tools/gen_compare_goldens.py --side opencompass
    HF_DATASETS_OFFLINE=1 /work/envs/lmeval/bin/python tools/gen_compare_goldens.py --side lm-eval

(``--case NAME``, repeatable, makes only those cases.)

OpenCompass: the shipped config loaded with mmengine, its dataset's rows run through the real
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
import dataclasses
import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "parity" / "compare"
PARITY = ROOT / "tests" / "parity"
CHATML = ROOT / "tests" / "parity" / "lmeval" / "chat" / "chatml"
CONFIGS = ROOT / "shipped_configs"
OC_DATA = OUT / "oc_data"

def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _mmlu_layout(data: Path, files: dict[str, Path]) -> None:
    """MMLUDataset's headerless CSV: question, A-D, the answer's letter."""
    for split, file in files.items():
        (data / "mmlu" / split).mkdir(parents=True, exist_ok=True)
        with open(data / "mmlu" / split / f"anatomy_{split}.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            for r in _jsonl(file):
                writer.writerow([r["question"], *r["choices"], "ABCD"[r["answer"]]])


def _gsm8k_layout(data: Path, files: dict[str, Path]) -> None:
    for split, file in files.items():
        _write_jsonl(data / "gsm8k" / f"{split}.jsonl", _jsonl(file))


def _arc_layout(data: Path, files: dict[str, Path]) -> None:
    """ARCDataset's one file (the data id ``opencompass/ai2_arc-dev``): AI2's own JSONL, the
    question's ``stem`` and ``choices`` as a list of {text, label}; lm-eval's test rows."""
    rows = []
    for r in _jsonl(files["test"]):
        choices = [{"text": t, "label": label}
                   for t, label in zip(r["choices"]["text"], r["choices"]["label"], strict=True)]
        rows.append({"id": r["id"], "question": {"stem": r["question"], "choices": choices},
                     "answerKey": r["answerKey"]})
    _write_jsonl(data / "ARC" / "ARC-c" / "ARC-Challenge-Dev.jsonl", rows)


def _hellaswag_layout(data: Path, files: dict[str, Path]) -> None:
    """HellaswagDatasetwithICE's folder: ``hellaswag_train_sampled25.jsonl`` (train) and
    ``hellaswag.jsonl`` (val), rows of ``query``, ``choices`` and ``gold``, which are lm-eval's
    processed docs (OpenCompass's own hellaswag data has lm-eval's fields; its ModelScope branch
    reads them from the validation split): the shipped task's ``process_docs`` makes them."""
    import datasets

    spec = importlib.util.spec_from_file_location(
        "hellaswag_utils", CONFIGS / "lm_eval" / "tasks" / "hellaswag" / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    for split, name in (("train", "hellaswag_train_sampled25.jsonl"), ("validation", "hellaswag.jsonl")):
        docs = utils.process_docs(datasets.Dataset.from_list(_jsonl(files[split])))
        _write_jsonl(data / "hellaswag" / name,
                     [{"query": d["query"], "choices": d["choices"], "gold": d["gold"]} for d in docs])


def _bbh_layout(data: Path, files: dict[str, Path]) -> None:
    """BBHDataset's ``data/BBH/data/<subject>.json``: ``{"examples": [{input, target}, ...]}``."""
    (data / "BBH" / "data").mkdir(parents=True, exist_ok=True)
    subject = files["test"].name.removesuffix("_test.jsonl")
    document = {"examples": _jsonl(files["test"])}
    (data / "BBH" / "data" / f"{subject}.json").write_text(
        json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _math_layout(data: Path, files: dict[str, Path]) -> None:
    """MATHDataset's ``data/math/math.json``, one object of every subject's problems keyed by
    number: the subject's test rows, then another subject's (geometry_test.jsonl beside them),
    which OpenCompass reads as the same dataset and lm-eval as another task."""
    rows = _jsonl(files["test"]) + _jsonl(files["test"].parent / "geometry_test.jsonl")
    (data / "math").mkdir(parents=True, exist_ok=True)
    (data / "math" / "math.json").write_text(
        json.dumps({str(n): r for n, r in enumerate(rows)}, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8")


def _mmlu_pro_layout(data: Path, files: dict[str, Path]) -> None:
    """MMLUProDataset's ``load_dataset(data/mmlu_pro)``: the release's parquet split files (every
    category in one, the loader keeps its own)."""
    import datasets

    for split, file in files.items():
        (data / "mmlu_pro" / "data").mkdir(parents=True, exist_ok=True)
        datasets.Dataset.from_list(_jsonl(file)).to_parquet(
            str(data / "mmlu_pro" / "data" / f"{split}-00000-of-00001.parquet"))


def _gpqa_layout(data: Path, files: dict[str, Path]) -> None:
    """GPQADataset's ``data/gpqa/gpqa_diamond.csv``: the release's CSV, its header first, the
    question in column 7 and the correct answer then the three incorrect ones after it (the
    rows' keys are in the release's column order)."""
    rows = _jsonl(files["train"])
    (data / "gpqa").mkdir(parents=True, exist_ok=True)
    with open(data / "gpqa" / "gpqa_diamond.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(list(rows[0]))
        for r in rows:
            writer.writerow(list(r.values()))


def _ceval_layout(data: Path, files: dict[str, Path]) -> None:
    """CEvalDataset's ``data/ceval/formal_ceval/{dev,val,test}/<subject>_<split>.csv`` (a header row;
    it reads all three): the release's columns, its test split without answers (here the val
    rows, which no render reads)."""
    subject = files["val"].name.removesuffix("_val.jsonl")
    splits = {"dev": _jsonl(files["dev"]), "val": _jsonl(files["val"])}
    splits["test"] = [{k: v for k, v in r.items() if k not in ("answer", "explanation")}
                      for r in splits["val"]]
    for split, rows in splits.items():
        folder = data / "ceval" / "formal_ceval" / split
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / f"{subject}_{split}.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(list(rows[0]))
            writer.writerows(list(r.values()) for r in rows)


def _cmmlu_layout(data: Path, files: dict[str, Path]) -> None:
    """CMMLUDataset's ``data/cmmlu/{dev,test}/<subject>.csv``: the release's header (an unnamed
    index column, then Question, A-D, Answer) and seven cells a row."""
    subject = files["test"].name.removesuffix("_test.jsonl")
    for split in ("dev", "test"):
        (data / "cmmlu" / split).mkdir(parents=True, exist_ok=True)
        with open(data / "cmmlu" / split / f"{subject}.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["", "Question", "A", "B", "C", "D", "Answer"])
            for n, r in enumerate(_jsonl(files[split])):
                writer.writerow([n, r["Question"], r["A"], r["B"], r["C"], r["D"], r["Answer"]])


@dataclass(frozen=True)
class Case:
    """One golden pair: the shipped OpenCompass config and abbr, the shipped lm-eval task YAML
    with lm-eval's ``--num_fewshot`` (None: the task's own), its split files in lm-eval's layout
    (under tests/parity: lm-eval's fixtures, or compare/rows/ where a config wants more rows),
    and the writer of the same rows in OpenCompass's layout under oc_data/data; ``chat`` False is
    compare without ``--chat-template``: a base ``HuggingFaceCausalLM`` with no meta template, and
    lm-eval without ``--apply_chat_template``."""

    oc_config: str
    abbr: str
    task_yaml: str
    num_fewshot: int | None
    files: dict[str, str]
    oc_layout: Callable[[Path, dict[str, Path]], None]
    chat: bool = True


_MMLU = ("opencompass/configs/datasets/mmlu/mmlu_gen.py", "lukaemon_mmlu_anatomy",
         "lm_eval/tasks/mmlu/default/mmlu_anatomy.yaml")
_MMLU_FILES = {"test": "lmeval/shipped/mmlu/test.jsonl", "dev": "lmeval/shipped/mmlu/dev.jsonl"}
CASES = {
    "gsm8k": Case("opencompass/configs/datasets/gsm8k/gsm8k_gen.py", "gsm8k",
                  "lm_eval/tasks/gsm8k/gsm8k.yaml", None,
                  {"test": "lmeval/shipped/gsm8k/test.jsonl", "train": "lmeval/shipped/gsm8k/train.jsonl"},
                  _gsm8k_layout),
    "mmlu_anatomy": Case(*_MMLU, None, _MMLU_FILES, _mmlu_layout),
    "mmlu_anatomy-2shot": Case(*_MMLU, 2, _MMLU_FILES, _mmlu_layout),
    "arc": Case("opencompass/configs/datasets/ARC_c/ARC_c_gen.py", "ARC-c",
                "lm_eval/tasks/arc/arc_challenge.yaml", None,
                {"test": "lmeval/shipped/arc/test.jsonl", "train": "lmeval/shipped/arc/train.jsonl"},
                _arc_layout),
    # FixKRetriever takes train rows 0-9: more rows than lm-eval's fixture has
    "hellaswag": Case("opencompass/configs/datasets/hellaswag/hellaswag_gen.py", "hellaswag",
                      "lm_eval/tasks/hellaswag/hellaswag.yaml", None,
                      {"validation": "compare/rows/hellaswag/validation.jsonl",
                       "train": "compare/rows/hellaswag/train.jsonl"}, _hellaswag_layout),
    # the default subject (free-form answers) and one of multiple choice (bbh_mcq_postprocess)
    **{f"bbh_{subject}": Case("opencompass/configs/datasets/bbh/bbh_gen.py", f"bbh-{subject}",
                              f"lm_eval/tasks/bbh/cot_fewshot/{subject}.yaml", None,
                              {"test": f"compare/rows/bbh/{subject}_test.jsonl"}, _bbh_layout)
       for subject in ("boolean_expressions", "date_understanding")},
    "math_algebra": Case("opencompass/configs/datasets/math/math_gen.py", "math",
                         "lm_eval/tasks/hendrycks_math/hendrycks_math_algebra.yaml", None,
                         {"test": "compare/rows/math/algebra_test.jsonl",
                          "train": "compare/rows/math/algebra_train.jsonl"}, _math_layout),
    "mmlu_pro_biology": Case("opencompass/configs/datasets/mmlu_pro/mmlu_pro_gen.py", "mmlu_pro_biology",
                             "lm_eval/tasks/mmlu_pro/mmlu_pro_biology.yaml", None,
                             {"test": "compare/rows/mmlu_pro/test.jsonl",
                              "validation": "compare/rows/mmlu_pro/validation.jsonl"}, _mmlu_pro_layout),
    # lm-eval's process_docs shuffles the choices with Python's random, which the run seeds (0)
    "gpqa_diamond": Case("opencompass/configs/datasets/gpqa/gpqa_gen.py", "GPQA_diamond",
                         "lm_eval/tasks/gpqa/cot_zeroshot/gpqa_diamond_cot_zeroshot.yaml", None,
                         {"train": "compare/rows/gpqa/train.jsonl"}, _gpqa_layout),
    # OpenCompass's five fixed dev shots, against lm-eval's default 0 and --num_fewshot 5
    **{f"ceval_accountant{tail}": Case("opencompass/configs/datasets/ceval/ceval_gen.py", "ceval-accountant",
                                       "lm_eval/tasks/ceval/ceval-valid_accountant.yaml", shots,
                                       {"val": "compare/rows/ceval/accountant_val.jsonl",
                                        "dev": "compare/rows/ceval/accountant_dev.jsonl"}, _ceval_layout)
       for tail, shots in (("", None), ("-5shot", 5))},
    "cmmlu_agronomy": Case("opencompass/configs/datasets/cmmlu/cmmlu_gen.py", "cmmlu-agronomy",
                           "lm_eval/tasks/cmmlu/cmmlu_agronomy.yaml", None,
                           {"test": "compare/rows/cmmlu/agronomy_test.jsonl",
                            "dev": "compare/rows/cmmlu/agronomy_dev.jsonl"}, _cmmlu_layout),
}
# without --chat-template: plain text on both sides, lm-eval's delimiters (target " ", fewshot
# "\n\n") in the text itself, OpenCompass's rounds joined with no meta template
CASES.update({f"{name}-plain": dataclasses.replace(CASES[name], chat=False)
              for name in ("mmlu_anatomy-2shot", "arc", "hellaswag")})


def _files(case: Case) -> dict[str, Path]:
    return {split: PARITY / file for split, file in case.files.items()}


def write_oc_layout() -> None:
    for case in CASES.values():
        case.oc_layout(OC_DATA / "data", _files(case))


def oc_rows(ds_cfg) -> list[dict] | dict[str, list[dict]]:
    """The rows OpenCompass's own dataset class reads from the layout (COMPASS_DATA_CACHE=oc_data),
    a list for a Dataset, per split for a DatasetDict."""
    from datasets import Dataset

    not_load = ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")
    kwargs = {k: v for k, v in ds_cfg.items() if k not in not_load}
    os.environ["COMPASS_DATA_CACHE"] = str(OC_DATA)
    loaded = ds_cfg["type"].load(**kwargs)
    if isinstance(loaded, Dataset):
        return loaded.to_list()
    return {split: part.to_list() for split, part in loaded.items()}


def opencompass_golden(case: str) -> dict:
    sys.path.insert(0, str(ROOT / "tools"))
    import gen_goldens
    from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate
    from transformers import AutoTokenizer

    config, abbr, chat = CASES[case].oc_config, CASES[case].abbr, CASES[case].chat
    cfg = gen_goldens.load_config(CONFIGS / config)
    (ds_cfg,) = [d for d in gen_goldens.dataset_cfgs(cfg) if d["abbr"] == abbr]
    model_cls = HuggingFacewithChatTemplate if chat else HuggingFaceCausalLM
    model_cfg = dict(abbr="compare-model", type=model_cls, path=str(CHATML), batch_size=1)
    # in a temporary folder, as gen_goldens runs a pair: the harness writes its rows' datasets cache there
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp), gen_goldens.quiet():
        render = gen_goldens.run_oc_pair(ds_cfg, model_cfg, oc_rows(ds_cfg), abbr, "compare-model", Path(tmp))
    tokenizer = AutoTokenizer.from_pretrained(str(CHATML), local_files_only=True)
    rows = []
    for sample in render["samples"]:
        given = sample["requests"][0]["model_input"]
        if not chat:  # a base model is given the prompt text itself
            rows.append({"index": sample["index"], "messages": None, "final": given})
            continue
        final = tokenizer.apply_chat_template(given, add_generation_prompt=True, tokenize=False)
        rows.append({"index": sample["index"], "messages": given, "final": final})
    return {"framework": "opencompass", "config": config, "dataset": abbr, "rows": rows}


def lmeval_golden(case: str) -> dict:
    """lm-eval's Instances for the case, by tools/gen_lmeval_goldens.py's ``golden`` (a default run
    of the one task, with ``--apply_chat_template`` where the case has the chat model: simple_evaluate's
    seeds, shots as turns)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import gen_lmeval_goldens
    from lm_eval.tasks._yaml_loader import load_yaml

    yaml_path, num_fewshot = CASES[case].task_yaml, CASES[case].num_fewshot
    files = {split: str(f) for split, f in _files(CASES[case]).items()}
    spec = {"task": str(CONFIGS / yaml_path), "data": files,
            "chat": str(CHATML) if CASES[case].chat else None, "multiturn": None, "system": None,
            "num_fewshot": num_fewshot}
    with tempfile.TemporaryDirectory() as cache:
        made = gen_lmeval_goldens.golden(spec, cache)
    if "error" in made:
        raise SystemExit(f"{case}: lm-eval raised {made['error']}: {made['message']}")
    by_doc: dict[int, dict] = {}
    for request in sorted(made["requests"], key=lambda r: (r["doc_id"], r["idx"])):
        context, second = request["arguments"][0], request["arguments"][1]
        row = by_doc.setdefault(request["doc_id"],
                                {"index": request["doc_id"], "final": context, "continuations": []})
        if isinstance(second, str):
            row["continuations"].append(second)
    return {"framework": "lm-eval", "config": yaml_path, "task": load_yaml(CONFIGS / yaml_path)["task"],
            "num_fewshot": num_fewshot, "rows": list(by_doc.values())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=("opencompass", "lm-eval"), required=True)
    parser.add_argument("--case", action="append", choices=sorted(CASES),
                        help="only these cases (default: all)")
    args = parser.parse_args()
    (OUT / "goldens").mkdir(parents=True, exist_ok=True)
    if args.side == "opencompass":
        write_oc_layout()
    for case in args.case or CASES:
        golden = opencompass_golden(case) if args.side == "opencompass" else lmeval_golden(case)
        path = OUT / "goldens" / f"{case}.{args.side}.json"
        path.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}: {len(golden['rows'])} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
