"""``extract CONFIG --self-test``: the config's own exemplars and asked answer format through
its extraction (``core.answers.self_test``), per dataset, as the
``prompt-workbench/extract-self-test@1`` document; each dataset in a bounded child.

May import: loading, the core and the other headless modules; not views, tui, commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from ..core.answers.catalog import Unresolved
from ..core.answers.chain import PairFailure
from ..core.answers.self_test import self_test
from ..core.dataset_reader import ReaderConfig, build_splits
from ..core.errors import WorkbenchError
from .bounded_call import run_bounded
from .chinese_segmenter import jieba_segmenter

SCHEMA = "prompt-workbench/extract-self-test@1"


def _checks(spec: Any, model: Any) -> Callable[[Callable[[str], None]], Any]:
    def job(progress: Callable[[str], None]) -> Any:
        progress(spec.abbr)
        try:
            splits = build_splits(spec.rows, ReaderConfig.from_cfg(spec.cfg.get("reader_cfg")), spec.abbr,
                                  spec.framework)
            checks = self_test(spec.cfg, model.cfg if model is not None else {}, splits.train, splits.test,
                               jieba_segmenter)
        except PairFailure as exc:
            return {"error": exc.message, "hint": exc.hint, "kind": "fails"}
        except Unresolved as exc:
            return {"error": exc.message, "hint": exc.hint, "kind": "not-rewritten"}
        except WorkbenchError as exc:
            return {"error": exc.message, "hint": exc.hint, "kind": "unreadable"}
        return {"checks": [asdict(c) for c in checks]}

    return job


def run_self_test(workspace: Any, config: str, timeout: float) -> dict[str, Any]:
    document: dict[str, Any] = {"schema": SCHEMA, "config": config, "datasets": [], "errors": [],
                                "warnings": list(workspace.warnings)}
    for error in workspace.errors:
        document["errors"].append({"dataset": None, "kind": "unreadable", "file": error.file,
                                   "line": error.line, "message": error.message, "hint": error.hint})
    model = workspace.models[0] if workspace.models else None
    rowless = []
    for spec in workspace.datasets:
        where = {"file": spec.source.file, "line": spec.source.line}
        if spec.rows is None or (spec.rows_source is not None and spec.rows_source.kind == "placeholder"):
            rowless.append(spec.abbr)
            continue
        outcome = run_bounded(_checks(spec, model), timeout)
        if outcome.failure is not None:
            document["errors"].append({"dataset": spec.abbr, "kind": "fails", **where, "hint": None,
                                       "message": f"the self-test {outcome.failure}"})
            continue
        if "error" in outcome.value:
            value = outcome.value
            document["errors"].append({"dataset": spec.abbr, "kind": value["kind"], **where,
                                       "message": value["error"], "hint": value["hint"]})
            continue
        checks = outcome.value["checks"]
        document["datasets"].append({"dataset": spec.abbr, "model": model.abbr if model is not None else None,
                                     "checks": checks})
        for check in checks:
            if check["correct"] is False:
                what = "the template's own exemplar" if check["source"].startswith("exemplar") \
                    else "the answer format the prompt asks for"
                document["warnings"].append(
                    f"[{spec.abbr}] the evaluator cannot read {what}: {check['source']} {check['text']!r} is "
                    f"extracted as {check['extracted']!r} against the gold {check['gold']!r}")
    if rowless:
        document["warnings"].append(
            f"{len(rowless)} dataset{'s' if len(rowless) > 1 else ''} with no rows (placeholders), not "
            "self-tested (their exemplars and gold are not known; give --data ABBR=FILE): "
            + ", ".join(rowless))
    return document
