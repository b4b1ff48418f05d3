"""``extract CONFIG --self-test``: the config's own exemplars and asked answer format through
its extraction (``core.answers.self_test``), per dataset, as the
``prompt-workbench/extract-self-test@1`` document; each dataset in a bounded child. The same
checks give ``lint`` and ``render`` their PW213 ``answer-format`` findings
(:func:`answer_format_warnings`), in the same words.

May import: loading, the core and the other headless modules; not views, tui, commands or ``cli``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..core.answers.self_test import (
    CHECK_TIMEOUT,
    answer_format_findings,
    checks_answer,
    model_key,
    self_test,
)
from ..core.dataset_reader import ReaderConfig, build_splits
from ..core.result import PairWarning
from ..core.spec import locate
from ..loading.chinese_segmenter import jieba_segmenter
from .bounded_call import run_bounded, run_bounded_each

SCHEMA = "prompt-workbench/extract-self-test@1"
NO_ROWS = "rows are placeholders, so no exemplar or gold is known; give --data ABBR=FILE"
#: Why an lm-eval task has no answer-format check (loading/lmeval_tasks.py): its filters score it.
LMEVAL_TASK = "an lm-eval task: the self-test runs OpenCompass's evaluation chain, not lm-eval's filters"


def _no_progress(text: str) -> None:
    """Progress nobody reads (the batched self-test says which job by its order)."""


def _checks(spec: Any, model: Any) -> Callable[[Callable[[str], None]], Any]:
    def job(progress: Callable[[str], None]) -> Any:
        progress(spec.abbr)

        def checks() -> Any:
            splits = build_splits(spec.rows, ReaderConfig.from_cfg(spec.cfg.get("reader_cfg")), spec.abbr,
                                  spec.framework)
            return self_test(spec.cfg, model.cfg if model is not None else {}, splits.train, splits.test,
                             jieba_segmenter)

        return checks_answer(checks)

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
        if spec.rows_unknown:
            rowless.append(spec.abbr)
            continue
        if "lm_eval" in spec.cfg:
            document["errors"].append({"dataset": spec.abbr, "kind": "not-rewritten", **where, "hint": None,
                                       "message": LMEVAL_TASK})
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
        for finding in answer_format_findings(checks):
            document["warnings"].append(f"[{spec.abbr}] {finding.tag}: {finding.message}")
    if rowless:
        document["warnings"].append(
            f"{len(rowless)} dataset{'s' if len(rowless) > 1 else ''} with no rows (placeholders), not "
            "self-tested (their exemplars and gold are not known; give --data ABBR=FILE): "
            + ", ".join(rowless))
    return document


def answer_format_warnings(pairs: Sequence[Any], timeout: float = CHECK_TIMEOUT
                           ) -> tuple[list[PairWarning], list[tuple[str, str, str]]]:
    """PW213 of every rendered pair (``PairRenderer``), each dataset's checks in a bounded child
    (forked now: call it before any output is written), and (dataset, kind, why) of each dataset
    not checked: ``lm-eval``, ``no-rows`` (placeholders: no exemplar or gold is known), ``not-rewritten``,
    ``unreadable``, ``fails`` (the real task fails on it) or ``bounded`` (the child ran past its
    time, or crashed)."""
    warnings: list[PairWarning] = []
    skipped: dict[str, tuple[str, str, str]] = {}
    checked: list[tuple[Any, tuple[str, str]]] = []
    jobs: dict[tuple[str, str], Callable[[], Any]] = {}
    for pair in pairs:
        spec, model = pair.dataset, pair.model_spec
        if spec.abbr in skipped:
            continue
        if "lm_eval" in spec.cfg:
            skipped[spec.abbr] = (spec.abbr, "lm-eval", LMEVAL_TASK)
            continue
        if spec.rows_unknown:
            skipped[spec.abbr] = (spec.abbr, "no-rows", NO_ROWS)
            continue
        key = (spec.abbr, model_key(spec.cfg, model.cfg if model is not None else None))
        checked.append((pair, key))
        jobs.setdefault(key, functools.partial(_checks(spec, model), _no_progress))
    # every dataset's checks in one child (a new one only after a job that ran past its time)
    answers = dict(zip(jobs, run_bounded_each(list(jobs.values()), timeout), strict=True))
    for pair, key in checked:
        spec, outcome = pair.dataset, answers[key]
        if spec.abbr in skipped:
            continue
        value = ({"error": f"the self-test {outcome.failure}", "kind": "bounded"}
                 if outcome.failure is not None else outcome.value)
        if "error" in value:
            skipped[spec.abbr] = (spec.abbr, value["kind"], value["error"])
            continue
        for finding in answer_format_findings(value["checks"]):
            where = locate(spec, finding.key_path or ())
            warnings.append(PairWarning(pair.dataset_abbr, pair.model_abbr, finding.message, finding.rule,
                                        where.file, where.line, finding.hint))
    return warnings, list(skipped.values())
