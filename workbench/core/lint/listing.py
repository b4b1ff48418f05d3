"""A workspace's findings: every rendered pair linted, the errors that stopped a pair kept apart.

May import: ``run`` and the core modules it imports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import WorkbenchError
from ..findings import RULES, SEVERITIES, Finding
from ..result import PairError, RenderResult
from ..spec import DatasetSpec, ModelSpec
from ..tokens.seams import PieceSource
from .run import PairFinding, Selection, at_least, key_findings, lint_pair


@dataclass(frozen=True)
class NotChecked:
    """Rules that did not look at a pair (``model`` None: at a dataset), and why."""

    ids: tuple[str, ...]
    dataset: str | None
    model: str | None
    why: str


@dataclass
class Listed:
    findings: list[PairFinding] = field(default_factory=list)
    #: what stopped a pair (or a config) without a rule: the lint could not look at it
    errors: list[PairError] = field(default_factory=list)
    pairs: int = 0
    #: rules that could not look at a pair or dataset (PW213 without rows, PW214 without a tokenizer)
    not_checked: list[NotChecked] = field(default_factory=list)

    def skipped(self, ids: Sequence[str], dataset: str | None, model: str | None, why: str) -> None:
        self.not_checked.append(NotChecked(tuple(ids), dataset, model, why))

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(SEVERITIES, 0)
        for f in self.findings:
            counts[f.finding.severity] += 1
        return counts

    def failing(self, floor: str) -> list[PairFinding]:
        return [f for f in self.findings if at_least(f.finding.severity, floor)]

    def as_json(self, floor: str) -> dict[str, Any]:
        return {
            "findings": [{"id": f.finding.rule, "name": f.finding.name, "severity": f.finding.severity,
                          "dataset": f.dataset, "model": f.model, "file": f.finding.file,
                          "line": f.finding.line, "message": f.finding.message, "hint": f.finding.hint}
                         for f in self.findings],
            "errors": [{"dataset": e.dataset, "model": e.model, "file": e.file, "line": e.line,
                        "message": e.message, "hint": e.hint} for e in self.errors],
            "pairs": self.pairs,
            "not_checked": [{"ids": list(n.ids), "dataset": n.dataset, "model": n.model, "why": n.why}
                            for n in self.not_checked],
            "counts": self.counts(),
            "fail_on": floor,
            "failing": len(self.failing(floor)),
        }


def lint_result(result: RenderResult, datasets: Sequence[DatasetSpec], models: Sequence[ModelSpec],
                selection: Selection | None = None,
                overlap: Sequence[Mapping[str, Any]] | None = None,
                tokenizer: PieceSource | None = None) -> Listed:
    """Every pair of ``result`` linted; a pair a rule (PW101) stopped lists all that rule's
    findings, a pair stopped otherwise is an error of the listing. ``result.warnings`` that carry
    a rule are a pair's findings too (raised by a front end, not by a core rule: PW213);
    ``tokenizer`` reads every pair's token seams instead of its model's own (``--tokenizer``)."""
    selection = selection or Selection()
    listed = Listed()
    for error in result.errors:
        if error.rule is None or error.rule not in RULES:
            listed.errors.append(error)
            continue
        listed.pairs += 1
        dataset = next((d for d in datasets if d.abbr == error.dataset), None)
        model = next((m for m in models if m.abbr == error.model), None)
        found = key_findings(dataset, model) if dataset is not None and error.rule == "PW101" else []
        if not found:
            found = [Finding(error.rule, error.message, error.hint, error.file, error.line)]
        listed.findings.extend(PairFinding(error.dataset, error.model, f) for f in found
                               if selection.wants(f.rule))
    # findings a front end raised for a pair (PW213: the answer-format self-test runs in a child)
    raised: dict[tuple[str | None, str | None], list[Finding]] = {}
    for warning in result.warnings:
        if warning.rule in RULES and selection.wants(warning.rule):
            raised.setdefault((warning.dataset, warning.model), []).append(
                Finding(warning.rule, warning.message, warning.hint, warning.file, warning.line))
    for pair in result.pairs:
        listed.pairs += 1
        skipped: list[tuple[str, str]] = []
        try:
            found = lint_pair(pair, selection, overlap, skipped, tokenizer)
        except WorkbenchError as exc:  # a later sample the render had not reached fails
            listed.errors.append(PairError(pair.dataset_abbr, pair.model_abbr, exc.message,
                                           exc.file, exc.line, exc.hint))
            continue
        for why in dict.fromkeys(w for _, w in skipped):  # one entry per cause, its rules together
            listed.skipped([r for r, w in skipped if w == why], pair.dataset_abbr, pair.model_abbr, why)
        said = {(f.rule, f.message) for f in found}
        found += [f for f in raised.get((pair.dataset_abbr, pair.model_abbr), ())
                  if (f.rule, f.message) not in said]
        listed.findings.extend(PairFinding(pair.dataset_abbr, pair.model_abbr, f) for f in found)
    return listed
