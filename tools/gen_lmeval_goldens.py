"""Dev-only: write tests/parity/lmeval/goldens/<case>.json with lm-eval 0.4.13's own prompt code.

Run in a venv with lm_eval 0.4.13, datasets and transformers (no torch, no network):
    python3 -m venv /tmp/lmeval/venv && /tmp/lmeval/venv/bin/pip install lm_eval==0.4.13 transformers
    HF_DATASETS_OFFLINE=1 HF_DATASETS_CACHE=/tmp/lmeval/hfcache \
        /tmp/lmeval/venv/bin/python tools/gen_lmeval_goldens.py

For every case of tests/parity/lmeval/cases.py the task is built from its YAML (lm-eval's own
loader: include chain, !function), its docs come from the local JSONL files
(``custom_dataset``: ``load_dataset("json")``, as lm-eval's download() reads local files),
the evaluator's steps are taken as ``simple_evaluate`` takes them (num_fewshot, the seeds) and
``build_all_requests`` makes the Instances. ``fewshot_as_multiturn`` is what lm-eval's own command
line makes of the case's flags (``--apply_chat_template`` with a chat template, and
``--fewshot_as_multiturn BOOL`` only when the case gives it), so a case without it is a default
run. A chat template is applied by the case's tokenizer folder (AutoTokenizer, offline), through
the same call and retry as ``HFLM.apply_chat_template`` (HFLM itself needs torch). A golden
records every Instance's doc id, index and arguments, or the exception.

As ``simple_evaluate`` does, Python's ``random`` and numpy's global state are seeded (``--seed``'s
defaults, 0 and 1234, or the case's ``--seed``) before the tasks are built, every task of a case
(``also``: more tasks rendered together) is built in order, then each builds its requests; each
case gets a datasets cache of its own, so ``Dataset.map`` runs as on a first run (its cache file
is then reused by the later calls of the same process_docs on the same split).

    python tools/gen_lmeval_goldens.py [CASE ...]   # only the named cases (default: all)
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "parity" / "lmeval"
sys.path.insert(0, str(HERE))

import datasets  # noqa: E402
import jinja2  # noqa: E402
import numpy as np  # noqa: E402
from cases import CASES  # noqa: E402
from lm_eval.api.task import ConfigurableTask  # noqa: E402
from lm_eval.tasks._yaml_loader import load_yaml  # noqa: E402


def _chat(folder: Path):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)

    def apply(history, add_generation_prompt=True):
        kwargs = {"tokenize": False, "add_generation_prompt": add_generation_prompt,
                  "continue_final_message": not add_generation_prompt}
        try:
            return tok.apply_chat_template(history, **kwargs)
        except jinja2.exceptions.TemplateError:
            return tok.apply_chat_template([m for m in history if m["role"] != "system"], **kwargs)

    return apply


def _command_line(case: dict):
    """lm-eval 0.4.13's command line for the case's flags, resolved as it resolves them."""
    from lm_eval._cli import HarnessCLI
    from lm_eval.config.evaluate_config import EvaluatorConfig

    argv = ["run", "--model", "hf", "--tasks", "case"]
    if case["chat"]:
        argv.append("--apply_chat_template")
    if case["multiturn"] is not None:
        argv += ["--fewshot_as_multiturn", str(case["multiturn"]).lower()]
    if case.get("seed") is not None:
        argv += ["--seed", case["seed"]]
    return EvaluatorConfig.from_cli(HarnessCLI()._parser.parse_args(argv))


def _build(path: Path, files: dict, cache: str) -> ConfigurableTask:
    cfg = load_yaml(path)
    # as lm-eval's download() reads local JSONL: datasets' JSON builder (every key of every row)
    cfg["custom_dataset"] = lambda **_: datasets.load_dataset("json", data_files=files,
                                                                cache_dir=cache)
    return ConfigurableTask(config=cfg)


def golden(case: dict, cache: str) -> dict:
    files = {split: str(HERE / file) for split, file in case["data"].items()}
    cli = _command_line(case)
    # simple_evaluate's arguments from the command line's seed slots (python, numpy, torch, fewshot)
    seeds = cli.seed
    paths = [case["task"], *case.get("also", ())]
    try:
        if seeds[0] is not None:
            random.seed(seeds[0])
        if seeds[1] is not None:
            np.random.seed(seeds[1])
        tasks = [_build(HERE / path, files, cache) for path in paths]
        chat = _chat(HERE / case["chat"]) if case["chat"] else None
        for task in tasks:
            if case["num_fewshot"] is not None:
                if task.get_config("num_fewshot") != 0:
                    task.set_config(key="num_fewshot", value=case["num_fewshot"])
            elif task.get_config("num_fewshot") is None:
                task.set_config(key="num_fewshot", value=0)
            task.set_fewshot_seed(seed=seeds[3])
        for task in tasks:
            task.build_all_requests(system_instruction=case["system"], apply_chat_template=chat is not None,
                                    fewshot_as_multiturn=bool(cli.fewshot_as_multiturn), chat_template=chat)
    except Exception as exc:  # the cases where lm-eval raises
        return {"case": case, "error": type(exc).__name__, "message": str(exc)[:300]}
    requests = [{**({"task": inst.task_name} if case.get("also") else {}),
                 "doc_id": inst.doc_id, "idx": inst.idx,
                 "arguments": [a if not isinstance(a, dict) else {"until": a.get("until")}
                               for a in inst.arguments]}
                for task in tasks for inst in task.instances]
    return {"case": case, "requests": requests}


def main() -> None:
    out = HERE / "goldens"
    out.mkdir(exist_ok=True)
    wanted = set(sys.argv[1:])
    cases = [case for case in CASES if not wanted or case["name"] in wanted]
    for case in cases:
        with tempfile.TemporaryDirectory() as cache:
            text = json.dumps(golden(case, cache), indent=1, ensure_ascii=False) + "\n"
        (out / f"{case['name']}.json").write_text(text)
    print(f"{len(cases)} goldens in {out}")


if __name__ == "__main__":
    main()
