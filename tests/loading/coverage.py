"""Coverage of the frameworks' shipped dataset configs: what renders, what is refused, what not.

Every dataset config in OpenCompass 0.5.4 (``opencompass/configs/datasets``) and AISBench
3.1.20260630 (``ais_bench/benchmark/configs/datasets``), from their PyPI wheels (downloaded,
never installed, see ``framework_trees.py``), is loaded through its ``read_base`` chain and
rendered with placeholder rows through three models of its own framework: a local model with
a meta template, one without, and a chat-template model.  A config is *covered* when every
(dataset, model) pair either renders all its samples or is refused with the error the
framework itself raises (a load error, a refusal); a file that defines no datasets (a helper
other configs import) is covered too, since the framework finds nothing in it either.  It is
*not covered* when the workbench cannot render what the framework would: an
``UnsupportedError`` (a dataset's own template class, bfcl-eval's prompts), a retriever the
workbench does not implement, or a crash.

Run it as a script to print the report, or to rewrite the report in docs/coverage.md::

    python -m tests.loading.coverage [--jobs N] [--update-docs]

``tests/loading/test_coverage.py`` runs it in the test suite and fails below 98%.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.errors import RenderError, UnsupportedError, WorkbenchError
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import AISBENCH, OPENCOMPASS, ModelSpec, type_name

from . import framework_trees as trees

THRESHOLD = 0.98
DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"
START = "<!-- coverage:start (written by python -m tests.loading.coverage --update-docs) -->"
END = "<!-- coverage:end -->"

#: (distribution, folder of dataset configs, framework)
FOLDERS = (
    (trees.OPENCOMPASS, "opencompass/configs/datasets", OPENCOMPASS),
    (trees.AISBENCH, "ais_bench/benchmark/configs/datasets", AISBENCH),
)
#: Retrievers the core renders; the others need an embedding model or are a dataset's own.
RENDERED_RETRIEVERS = {"ZeroRetriever", "FixKRetriever", "RandomRetriever", "BM25Retriever",
                       "SlidingWindowRetriever"}

_META = dict(
    round=[dict(role="HUMAN", begin="<|im_start|>user\n", end="<|im_end|>\n"),
           dict(role="BOT", begin="<|im_start|>assistant\n", end="<|im_end|>\n", generate=True)],
    reserved_roles=[dict(role="SYSTEM", begin="<|im_start|>system\n", end="<|im_end|>\n")],
)


def models(framework: str) -> list[ModelSpec]:
    """The three model kinds every config is rendered through, as its own framework names them."""
    package = "opencompass.models" if framework == OPENCOMPASS else "ais_bench.benchmark.models"
    return [
        ModelSpec("lm-meta-template", {"type": f"{package}.HuggingFaceCausalLM", "path": "/cov/lm",
                                       "meta_template": _META, "max_out_len": 64}, framework),
        ModelSpec("lm-plain", {"type": f"{package}.HuggingFaceCausalLM", "path": "/cov/lm",
                               "max_out_len": 64}, framework),
        ModelSpec("chat-template", {"type": f"{package}.HuggingFacewithChatTemplate",
                                    "path": "/cov/chat", "max_out_len": 64}, framework),
    ]


@dataclass
class Outcome:
    config: str  # relative to the tree
    status: str  # "renders" | "refused" | "helper" | "not covered"
    refusals: list[str] = field(default_factory=list)  # framework-equivalent errors
    reasons: list[str] = field(default_factory=list)  # why not covered

    @property
    def covered(self) -> bool:
        return self.status != "not covered"


def dataset_configs(root: Path, folder: str) -> list[Path]:
    return sorted(p for p in (root / folder).rglob("*.py")
                  if p.name != "__init__.py" and "__pycache__" not in p.parts)


_loader = None
# Prompts and model inputs only: model_text and token counts are other tests' business.
_OPTIONS = RenderOptions(measure=False)


def _get_loader():
    global _loader
    if _loader is None:
        from workbench.loading.workspace import Loader

        _loader = Loader(isolate=False)  # the frameworks' own configs: no need for the sandbox
    return _loader


def _retriever(cfg) -> str | None:
    infer = cfg.get("infer_cfg")
    retriever = infer.get("retriever") if isinstance(infer, dict) else None
    kind = retriever.get("type") if isinstance(retriever, dict) else None
    return type_name(kind) if kind is not None else None


def _short(message: str, root: str) -> str:
    return message.replace(root, "<root>").split("\n")[0][:300]


def check(task: tuple[str, str, str]) -> Outcome:
    """Load one config and render every pair it makes through the three models."""
    path, root, framework = task
    name = os.path.relpath(path, root)
    workspace = _get_loader().load([path], roots=[root])
    refusals = [f"load: {_short(e.message, root)}" for e in workspace.errors]
    reasons: list[str] = []
    for dataset in workspace.datasets:
        retriever = _retriever(dataset.cfg)
        for model in models(framework):
            try:
                pair = PairRenderer(dataset, model, _OPTIONS)
                for _sample in pair.samples():
                    pass
            except UnsupportedError as exc:
                reasons.append(_short(exc.message, root))
            except RenderError as exc:
                if retriever is not None and retriever not in RENDERED_RETRIEVERS:
                    reasons.append(f"{retriever}: {_short(exc.message, root)}")
                else:
                    refusals.append(_short(exc.message, root))
            except WorkbenchError as exc:
                refusals.append(_short(exc.message, root))
            except Exception as exc:  # a bug: never covered
                reasons.append(f"crash: {type(exc).__name__}: {_short(str(exc), root)}")
    if reasons:
        return Outcome(name, "not covered", refusals, sorted(set(reasons)))
    if refusals:
        return Outcome(name, "refused", sorted(set(refusals)))
    if not workspace.datasets:
        return Outcome(name, "helper")
    return Outcome(name, "renders")


def run(jobs: int | None = None, roots: dict[str, Path] | None = None) -> list[Outcome]:
    """Every config of both trees (``roots`` maps a distribution name to its tree)."""
    tasks = []
    for dist, folder, framework in FOLDERS:
        root = (roots or {}).get(dist.name) or trees.tree(dist)
        tasks += [(str(p), str(root), framework) for p in dataset_configs(root, folder)]
    jobs = jobs or min(os.cpu_count() or 1, 8)
    if jobs <= 1:
        return [check(t) for t in tasks]
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method)) as pool:
        return list(pool.map(check, tasks, chunksize=8))


# -- the report ---------------------------------------------------------------------------

def _category(message: str) -> str:
    """A refusal or reason with its particulars (names, paths, numbers) blurred."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|‹[^›]*›", "…", message)
    text = re.sub(r"<root>\S*", "<file>", text)
    text = re.sub(r"\d+", "N", text)
    return text[:160]


def _reason(message: str) -> str:
    """A reason without the list of what is supported."""
    return re.split(r" \(supported: |; supported: ", message)[0]


def figure(outcomes: Sequence[Outcome]) -> float:
    return sum(o.covered for o in outcomes) / len(outcomes)


def report(outcomes: Sequence[Outcome]) -> str:
    """Markdown: the figure, the counts, what is not covered (each config with its reasons),
    and the framework-equivalent refusals met, by kind."""
    counts = Counter(o.status for o in outcomes)
    per_tree: dict[str, Counter] = defaultdict(Counter)
    for o in outcomes:
        per_tree[o.config.split("/", 1)[0]][o.covered] += 1
    lines = [
        f"**{figure(outcomes):.2%}** of the {len(outcomes)} dataset config files that ship with "
        "OpenCompass 0.5.4 and AISBench 3.1.20260630 are covered "
        f"(threshold {THRESHOLD:.0%}): {counts['renders']} render through all three models, "
        f"{counts['refused']} render where the frameworks do and are refused with the "
        f"framework's own error elsewhere, {counts['helper']} define no datasets (helpers other "
        f"configs import); {counts['not covered']} are not covered.",
        "",
        "| tree | files | covered |",
        "| --- | ---: | ---: |",
    ]
    for tree_name, c in sorted(per_tree.items()):
        lines.append(f"| `{tree_name}` | {c[True] + c[False]} | {c[True]} |")
    lines += ["", "Not covered, and why:", ""]
    by_reason: dict[str, list[str]] = defaultdict(list)
    for o in sorted((o for o in outcomes if not o.covered), key=lambda o: o.config):
        by_reason["; ".join(_reason(r) for r in o.reasons)].append(o.config)
    for reason, configs in sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"- {reason} ({len(configs)}): " + ", ".join(f"`{c}`" for c in configs))
    refusal_kinds: Counter = Counter()
    for o in outcomes:
        for r in set(_category(r) for r in o.refusals):
            refusal_kinds[r] += 1
    lines += ["", "Framework-equivalent refusals met (configs per kind):", ""]
    for text, n in refusal_kinds.most_common():
        lines.append(f"- {n} × {text}")
    return "\n".join(lines) + "\n"


def doc_section() -> str | None:
    text = DOC.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return None
    return text.split(START, 1)[1].split(END, 1)[0].strip("\n") + "\n"


def update_doc(outcomes: Sequence[Outcome]) -> None:
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{START}\n{report(outcomes)}{END}{tail}", encoding="utf-8")


def not_covered_in_doc() -> set[str]:
    section = doc_section() or ""
    block = section.split("Not covered, and why:", 1)[-1].split("Framework-equivalent refusals", 1)[0]
    return set(re.findall(r"`([^`]+\.py)`", block))


def main(argv: Iterable[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--update-docs", action="store_true", help="rewrite the report in docs/coverage.md")
    args = ap.parse_args(list(argv) if argv is not None else None)
    outcomes = run(args.jobs)
    sys.stdout.write(report(outcomes))
    if args.update_docs:
        update_doc(outcomes)
    return 0 if figure(outcomes) >= THRESHOLD else 1


if __name__ == "__main__":
    sys.exit(main())
