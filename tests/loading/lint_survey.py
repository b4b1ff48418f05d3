"""Every lint rule over every dataset config the frameworks ship: how many each rule flags.

The configs and models are coverage.py's (placeholder rows; a local model with a meta template,
one without, a chat-template model), the first given ``max_seq_len`` so PW211 has a limit to
compare with. A dev-only script (the whole set takes minutes): it prints the counts docs/lint.md
shows and, with ``--samples N``, N messages of each rule to read for false alarms::

    python -m tests.loading.lint_survey [--jobs N] [--samples N] [--json FILE]
    python -m tests.loading.lint_survey --select PW213,PW214,PW215,PW216,PW217 --tokenizer cl100k_base \
        --base-model       # the token rules with a stand-in tokenizer, and PW217's model class

PW213 (the extraction self-test, a front end's finding) runs as ``lint`` runs it; a rule that
could not look at a pair (no tokenizer, placeholder rows) is counted under "not checked".

``tests/loading/test_lint_shipped.py`` runs the same check over a sample of the configs in the
suite, and asserts no rule crashes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from workbench.core.errors import WorkbenchError
from workbench.core.lint.run import Selection, key_findings, lint_pair
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import OPENCOMPASS, ModelSpec
from workbench.headless.extract_self_test import answer_format_warnings

from . import coverage
from . import framework_trees as trees

_OPTIONS = RenderOptions()


def models(framework: str, base_model: bool = False) -> list[ModelSpec]:
    """coverage.py's three models; the meta-template one with a max_seq_len (and max_out_len);
    ``base_model``: and OpenCompass's HuggingFaceBaseModel (PW217's class)."""
    out = coverage.models(framework)
    first = out[0]
    out[0] = ModelSpec(first.abbr, {**first.cfg, "max_seq_len": 2048, "max_out_len": 512}, framework)
    if base_model and framework == OPENCOMPASS:
        out.append(ModelSpec("lm-base", {"type": "opencompass.models.HuggingFaceBaseModel", "path": "/cov/lm",
                                         "max_out_len": 64}, framework))
    return out


#: What a survey run reads (set once per process: the pool's workers inherit it by fork).
SETTINGS: dict = {"select": None, "tokenizer": None, "base_model": False}


@dataclass
class Flags:
    config: str
    datasets: int = 0
    #: rule id -> the findings' messages (one per pair)
    found: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    crashes: list[str] = field(default_factory=list)
    #: rule id -> pairs (PW213: datasets) it could not look at
    not_checked: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def check(task: tuple[str, str, str]) -> Flags:
    path, root, framework = task
    name = os.path.relpath(path, root)
    flags = Flags(name)
    workspace = coverage._get_loader().load([path], roots=[root])
    everything = Selection(SETTINGS["select"]) if SETTINGS["select"] else Selection.everything()
    tokenizer = _tokenizer()
    for dataset in workspace.datasets:
        flags.datasets += 1
        for model in models(framework, SETTINGS["base_model"]):
            found: list = []
            skipped: list = []
            try:
                pair = PairRenderer(dataset, model, _OPTIONS)
                found = lint_pair(pair, everything, None, skipped, tokenizer)
                if everything.wants("PW213") and model.abbr == "lm-meta-template":  # once per dataset
                    warnings, left = answer_format_warnings([pair])
                    found += [w for w in warnings if w.rule == "PW213"]
                    skipped += [("PW213", why) for _, _, why in left]
            except WorkbenchError as exc:
                if exc.rule == "PW101":
                    found = key_findings(dataset, model)
            except Exception as exc:  # a bug: the test fails on any
                flags.crashes.append(f"{dataset.abbr} × {model.abbr}: {type(exc).__name__}: {exc}"[:300])
            for f in found:
                flags.found[f.rule].append(f"{dataset.abbr} × {model.abbr}: {f.message}"[:400])
            for rule_id in dict.fromkeys(r for r, _ in skipped):
                flags.not_checked[rule_id] += 1
    flags.found = dict(flags.found)
    flags.not_checked = dict(flags.not_checked)
    return flags


def _tokenizer():
    if SETTINGS["tokenizer"] is None:
        return None
    from workbench.loading.models.model_assets import tokenizer_at

    tokenizer, problem = tokenizer_at(SETTINGS["tokenizer"])
    if problem is not None:
        raise SystemExit(problem)
    return tokenizer


def tasks() -> list[tuple[str, str, str]]:
    out = []
    for dist, folder, framework in coverage.FOLDERS:
        root = trees.tree(dist)
        out += [(str(p), str(root), framework) for p in coverage.dataset_configs(root, folder)]
    return out


def run(chosen: list[tuple[str, str, str]], jobs: int) -> list[Flags]:
    if jobs <= 1:
        return [check(t) for t in chosen]
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method)) as pool:
        return list(pool.map(check, chosen, chunksize=4))


def table(results: list[Flags]) -> str:
    """Markdown: per rule, the dataset configs (files) and datasets it flags."""
    from workbench.core.findings import RULES

    lines = ["| id | name | configs | pairs | not checked |", "|---|---|---:|---:|---:|"]
    for rule_id, rule in RULES.items():
        if SETTINGS["select"] and not Selection(SETTINGS["select"]).wants(rule_id):
            continue
        configs = sum(1 for r in results if r.found.get(rule_id))
        pairs = sum(len(r.found.get(rule_id, ())) for r in results)
        skipped = sum(r.not_checked.get(rule_id, 0) for r in results)
        lines.append(f"| `{rule_id}` | `{rule.name}` | {configs} | {pairs} | {skipped} |")
    return "\n".join(lines)


def main(argv: Iterable[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--samples", type=int, default=0)
    ap.add_argument("--every", type=int, default=1, help="every Nth config only")
    ap.add_argument("--json", default=None)
    ap.add_argument("--select", default=None, help="only these rules (as lint --select)")
    ap.add_argument("--tokenizer", default=None, help="every pair's tokenizer (as lint --tokenizer)")
    ap.add_argument("--base-model", action="store_true", help="a fourth model: OpenCompass's HuggingFaceBaseModel")
    args = ap.parse_args(list(argv) if argv is not None else None)
    SETTINGS.update(select=args.select.split(",") if args.select else None, tokenizer=args.tokenizer,
                    base_model=args.base_model)
    results = run(tasks()[::args.every], args.jobs)
    print(f"{len(results)} dataset configs, {sum(r.datasets for r in results)} datasets")
    print(table(results))
    crashes = [c for r in results for c in r.crashes]
    print(f"crashes: {len(crashes)}")
    for c in crashes[:20]:
        print("  ", c)
    if args.samples:
        by_rule: dict[str, list[str]] = defaultdict(list)
        for r in results:
            for rule_id, messages in r.found.items():
                by_rule[rule_id].append(f"{r.config}: {messages[0]}")
        for rule_id, messages in sorted(by_rule.items()):
            print(f"\n## {rule_id} ({len(messages)} configs)")
            step = max(1, len(messages) // args.samples)
            for m in messages[::step][:args.samples]:
                print("  ", m)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([{"config": r.config, "datasets": r.datasets, "found": r.found, "crashes": r.crashes}
                       for r in results], out)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
