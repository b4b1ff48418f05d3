"""Dev-only: copy the configs ``workbench compare`` ships from the real frameworks, unchanged, into
``shipped_configs/`` (OpenCompass 0.5.4's dataset configs under ``opencompass/configs/datasets/``,
lm-eval 0.4.13's task YAMLs and utilities under ``lm_eval/tasks/``), and write the mapping
``shipped_configs/benchmarks.json``: per benchmark, which config and which task, the dataset
abbr / task name (``{subject}`` where there are several), the column the rows are aligned by,
and the subjects (read from the framework's own lists).

Run it with the framework venv (it imports OpenCompass's config lists)::

    /work/envs/fw/bin/python tools/copy_shipped_configs.py [--lmeval /work/envs/lmeval]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "shipped_configs"

#: benchmark -> (title, OpenCompass config, its abbr, its key (None: rows by position), lm-eval task
#: files (globs under lm_eval/tasks), the task name, its key, where OpenCompass lists the subjects, a note)
BENCHMARKS = {
    "mmlu": ("MMLU", "mmlu/mmlu_gen.py", "lukaemon_mmlu_{subject}", "input",
             ["mmlu/default/_default_template_yaml", "mmlu/default/mmlu_[!_]*.yaml"], "mmlu_{subject}",
             "question", ("mmlu/mmlu_all_sets.py", "mmlu_all_sets"), None),
    "mmlu_pro": ("MMLU-Pro", "mmlu_pro/mmlu_pro_gen.py", "mmlu_pro_{subject}", "question",
                 ["mmlu_pro/_default_template_yaml", "mmlu_pro/mmlu_pro_[!_]*.yaml", "mmlu_pro/utils.py"],
                 "mmlu_pro_{subject}", "question", ("mmlu_pro/mmlu_pro_categories.py", "categories"), None),
    "gsm8k": ("GSM8K", "gsm8k/gsm8k_gen.py", "gsm8k", "question", ["gsm8k/gsm8k.yaml"], "gsm8k",
              "question", None, None),
    "math": ("MATH", "math/math_gen.py", "math", "problem",
             ["hendrycks_math/hendrycks_math_[!5]*.yaml", "hendrycks_math/utils.py"],
             "hendrycks_math_{subject}", "problem", None,
             "OpenCompass reads MATH as one dataset, lm-eval as a task per subject: the rows of the "
             "other subjects are on the OpenCompass side only"),
    "gpqa": ("GPQA", "gpqa/gpqa_gen.py", "GPQA_{subject}", "question",
             ["gpqa/cot_zeroshot/_gpqa_cot_zeroshot_yaml", "gpqa/cot_zeroshot/gpqa_*_zeroshot.yaml",
              "gpqa/cot_zeroshot/utils.py"],
             "gpqa_{subject}_cot_zeroshot", "Question", None,
             "lm-eval's process_docs shuffles each question's choices (random.shuffle, from the global "
             "state its run seeds: --seed, default 0): rows align by question, the letters of the answers "
             "may differ"),
    "bbh": ("BBH", "bbh/bbh_gen.py", "bbh-{subject}", "input",
            ["bbh/cot_fewshot/_cot_fewshot_template_yaml", "bbh/cot_fewshot/[!_]*.yaml"],
            "bbh_cot_fewshot_{subject}", "input", None, None),
    "arc": ("ARC-Challenge", "ARC_c/ARC_c_gen.py", "ARC-c", "question",
            ["arc/arc_easy.yaml", "arc/arc_challenge.yaml"], "arc_challenge", "question", None, None),
    "hellaswag": ("HellaSwag", "hellaswag/hellaswag_gen.py", "hellaswag", None,
                  ["hellaswag/hellaswag.yaml", "hellaswag/utils.py"], "hellaswag", None, None,
                  "OpenCompass's ctx is lm-eval's processed query less its activity label, lm-eval's ctx the "
                  "raw ctx_a + ctx_b: no column holds the same text on both sides, so rows align by position "
                  "(both read the validation split in its order)"),
    "ceval": ("C-Eval", "ceval/ceval_gen.py", "ceval-{subject}", "question",
              ["ceval/_default_ceval_yaml", "ceval/ceval-valid_*.yaml"], "ceval-valid_{subject}", "question",
              None, None),
    "cmmlu": ("CMMLU", "cmmlu/cmmlu_gen.py", "cmmlu-{subject}", "question",
              ["cmmlu/_default_template_yaml", "cmmlu/cmmlu_[!_]*.yaml"], "cmmlu_{subject}", "Question",
              None, None),
}


def read_base_chain(path: Path) -> list[Path]:
    """The config and every file its ``read_base()`` block imports relatively, transitively."""
    seen: list[Path] = []
    todo = [path]
    while todo:
        file = todo.pop()
        if file in seen:
            continue
        seen.append(file)
        for module in re.findall(r"^\s*from \.(\w+) import", file.read_text(encoding="utf-8"), re.M):
            todo.append(file.parent / f"{module}.py")
    return seen


def task_stems(files: list[Path]) -> list[str]:
    """The ``task:`` of each YAML that names one (a group YAML lists tasks: not a subject)."""
    names = []
    for file in files:
        if file.suffix != ".yaml":
            continue
        found = re.search(r'^"?task"?:\s*"?([^"\n]+?)"?\s*$', file.read_text(encoding="utf-8"), re.M)
        if found:
            names.append(found.group(1))
    return names


def subjects_of(abbr: str, task: str, oc_names: list[str], lm_names: list[str]) -> list[str]:
    """The subjects both sides have: the ``{subject}`` each abbr and task name fills."""
    def filled(pattern: str, names: list[str]) -> set[str]:
        if "{subject}" not in pattern:
            return set()
        rx = re.compile(re.escape(pattern).replace(re.escape("{subject}"), "(.+)") + "$")
        return {m.group(1) for n in names if (m := rx.match(n))}

    return sorted(filled(abbr, oc_names) & filled(task, lm_names))


def oc_abbrs(config: Path) -> list[str]:
    """The dataset abbrs the config defines, by loading it as OpenCompass does (mmengine)."""
    from mmengine.config import Config

    cfg = Config.fromfile(str(config))
    return [d["abbr"] for key, value in cfg.items() if key.endswith("_datasets") for d in value]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lmeval", default="/work/envs/lmeval", help="the lm-eval venv")
    args = parser.parse_args()
    import opencompass

    oc_root = Path(opencompass.__file__).parent / "configs" / "datasets"
    lm_root = next(Path(args.lmeval).glob("lib/python*/site-packages/lm_eval/tasks"))
    if OUT.exists():
        for sub in ("opencompass", "lm_eval"):
            shutil.rmtree(OUT / sub, ignore_errors=True)
    mapping = {}
    for name, (title, oc_config, abbr, oc_key, lm_globs, task, lm_key, _, note) in BENCHMARKS.items():
        chain = read_base_chain(oc_root / oc_config)
        text = "\n".join(f.read_text(encoding="utf-8") for f in chain)
        extra = sorted((oc_root / Path(oc_config).parent / "lib_prompt").glob("*.txt")) \
            if "lib_prompt" in text else []
        for file in chain + extra:
            target = OUT / "opencompass" / "configs" / "datasets" / file.relative_to(oc_root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target)
        lm_files = sorted({f for pattern in lm_globs for f in lm_root.glob(pattern)})
        if not lm_files:
            sys.exit(f"{name}: no lm-eval files match {lm_globs}")
        for file in lm_files:
            target = OUT / "lm_eval" / "tasks" / file.relative_to(lm_root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target)
        tasks = task_stems(lm_files)
        abbrs = oc_abbrs(oc_root / oc_config)
        subjects = subjects_of(abbr, task, abbrs, tasks) if "{subject}" in task else []
        if "{subject}" in abbr and not subjects:
            sys.exit(f"{name}: no subject is on both sides ({abbrs[:3]}..., {tasks[:3]}...)")
        if "{subject}" in task and "{subject}" not in abbr:  # one OpenCompass dataset, lm-eval per subject
            head = task.split("{")[0]
            subjects = sorted({t[len(head):] for t in tasks if t.startswith(head)})
        lm_dir = lm_files[0].parent.relative_to(lm_root)
        files = {t: str(Path("lm_eval/tasks") / f.relative_to(lm_root))
                 for t, f in _task_files(lm_files).items()}
        pattern = task.replace("{subject}", "")
        task_path = _path_pattern(files, task) or str(Path("lm_eval/tasks") / lm_dir / f"{pattern}.yaml")
        mapping[name] = {
            "title": title,
            "sides": [
                {"framework": "opencompass", "config": str(Path("opencompass/configs/datasets") / oc_config),
                 "name": abbr, "key": oc_key},
                {"framework": "lm-eval", "config": task_path, "name": task, "key": lm_key},
            ],
            "subjects": subjects,
            "default_subject": subjects[0] if subjects else None,
            "note": note,
        }
    document = {
        "schema": "prompt-workbench/benchmarks@1",
        "made_by": "tools/copy_shipped_configs.py",
        "frameworks": {"opencompass": opencompass.__version__, "lm_eval": _lm_version(args.lmeval)},
        "benchmarks": mapping,
    }
    (OUT / "benchmarks.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
    print(f"wrote {OUT / 'benchmarks.json'}: {len(mapping)} benchmarks")
    return 0


def _task_files(files: list[Path]) -> dict[str, Path]:
    out = {}
    for file in files:
        if file.suffix != ".yaml":
            continue
        found = task_stems([file])
        if found:
            out[found[0]] = file
    return out


def _path_pattern(files: dict[str, str], task: str) -> str | None:
    """The task YAML's path with ``{subject}`` where the task name has it (the files of every
    subject follow one pattern: checked)."""
    if "{subject}" not in task:
        return files.get(task)
    rx = re.compile(re.escape(task).replace(re.escape("{subject}"), "(.+)") + "$")
    patterns = set()
    for name, path in files.items():
        m = rx.match(name)
        if m:
            patterns.add(path.replace(m.group(1), "{subject}"))
    return patterns.pop() if len(patterns) == 1 else None


def _lm_version(venv: str) -> str:
    found = next(Path(venv).glob("lib/python*/site-packages/lm_eval-*.dist-info"), None)
    return found.name.split("-")[1].removesuffix(".dist") if found else "unknown"


if __name__ == "__main__":
    sys.exit(main())
