"""Dev-only: write tests/parity/lmeval/goldens/<case>.json with lm-eval 0.4.13's own prompt code.

Run in a venv with lm_eval 0.4.13, datasets and transformers (no torch, no network):
    python3 -m venv /tmp/lmeval/venv && /tmp/lmeval/venv/bin/pip install lm_eval==0.4.13 transformers
    HF_DATASETS_OFFLINE=1 HF_DATASETS_CACHE=/tmp/lmeval/hfcache \
        /tmp/lmeval/venv/bin/python tools/gen_lmeval_goldens.py

For every case of tests/parity/lmeval/cases.py the task is built from its YAML (lm-eval's own
loader: include chain, !function), its docs come from the local JSONL files
(``custom_dataset``: ``load_dataset("json")``, as lm-eval's download() reads local files),
the evaluator's steps are taken as ``simple_evaluate`` takes them (num_fewshot, the seed 1234) and
``build_all_requests`` makes the Instances. ``fewshot_as_multiturn`` is what lm-eval's own command
line makes of the case's flags (``--apply_chat_template`` with a chat template, and
``--fewshot_as_multiturn BOOL`` only when the case gives it), so a case without it is a default
run. A chat template is applied by the case's tokenizer folder (AutoTokenizer, offline), through
the same call and retry as ``HFLM.apply_chat_template`` (HFLM itself needs torch). A golden
records every Instance's doc id, index and arguments, or the exception.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "parity" / "lmeval"
sys.path.insert(0, str(HERE))

import datasets  # noqa: E402
import jinja2  # noqa: E402
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


def _multiturn(case: dict) -> bool:
    """``fewshot_as_multiturn`` as lm-eval 0.4.13's command line resolves the case's flags."""
    from lm_eval._cli import HarnessCLI
    from lm_eval.config.evaluate_config import EvaluatorConfig

    argv = ["run", "--model", "hf", "--tasks", "case"]
    if case["chat"]:
        argv.append("--apply_chat_template")
    if case["multiturn"] is not None:
        argv += ["--fewshot_as_multiturn", str(case["multiturn"]).lower()]
    return bool(EvaluatorConfig.from_cli(HarnessCLI()._parser.parse_args(argv)).fewshot_as_multiturn)


def golden(case: dict) -> dict:
    cfg = load_yaml(HERE / case["task"])
    # as lm-eval's download() reads local JSONL: datasets' JSON builder (every key of every row)
    files = {split: str(HERE / file) for split, file in case["data"].items()}
    cfg["custom_dataset"] = lambda **_: datasets.load_dataset("json", data_files=files)
    try:
        task = ConfigurableTask(config=cfg)
        if case["num_fewshot"] is not None:
            if task.get_config("num_fewshot") != 0:
                task.set_config(key="num_fewshot", value=case["num_fewshot"])
        elif task.get_config("num_fewshot") is None:
            task.set_config(key="num_fewshot", value=0)
        task.set_fewshot_seed(seed=1234)
        chat = _chat(HERE / case["chat"]) if case["chat"] else None
        task.build_all_requests(system_instruction=case["system"], apply_chat_template=chat is not None,
                                fewshot_as_multiturn=_multiturn(case), chat_template=chat)
    except Exception as exc:  # the cases where lm-eval raises
        return {"case": case, "error": type(exc).__name__, "message": str(exc)[:300]}
    requests = [{"doc_id": inst.doc_id, "idx": inst.idx,
                 "arguments": [a if not isinstance(a, dict) else {"until": a.get("until")}
                               for a in inst.arguments]}
                for inst in task.instances]
    return {"case": case, "requests": requests}


def main() -> None:
    out = HERE / "goldens"
    out.mkdir(exist_ok=True)
    for case in CASES:
        text = json.dumps(golden(case), indent=1, ensure_ascii=False) + "\n"
        (out / f"{case['name']}.json").write_text(text)
    print(f"{len(CASES)} goldens in {out}")


if __name__ == "__main__":
    main()
