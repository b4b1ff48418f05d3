"""Every rule over a pair: the findings the render raised, then the lint's own, selected.

May import: ``context``, the rule modules, and the core modules they import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..config_keys import unknown_keys
from ..findings import INFO, RULES, SEVERITIES, Finding
from ..render import PairRenderer
from ..spec import DatasetSpec, ModelSpec
from ..tokens.seams import PieceSource
from . import few_shot, markers, seams, sizes, token_marks
from .context import LintContext

Rule = Callable[[LintContext], Iterator[Finding]]

#: (rule id, function), in the order findings are listed. PW101, PW201, PW202 and PW203 are
#: raised by the render and listed from it; PW213 by the front ends (the self-test runs in a
#: child), listed from the result's warnings (``listing.lint_result``).
LINT_RULES: tuple[tuple[str, Rule], ...] = (
    ("PW204", seams.trailing_space),
    ("PW205", seams.double_space),
    ("PW206", seams.separators),
    ("PW207", markers.in_template),
    ("PW208", markers.in_rows),
    ("PW209", markers.system_dropped),
    ("PW210", sizes.unused_column),
    ("PW211", sizes.over_max_seq_len),
    ("PW212", sizes.thinking_undecided),
    ("PW214", token_marks.merge_across_seam),
    ("PW215", token_marks.space_before_continuation),
    ("PW216", token_marks.control_token_in_data),
    ("PW217", token_marks.loglikelihood_mask),
    ("PW301", few_shot.own_row),
    ("PW302", few_shot.duplicate_shots),
    ("PW303", few_shot.fixed_shots),
    ("PW304", few_shot.label_imbalance),
    ("PW305", few_shot.overlap),
)
#: The rules that read the dataset alone (rows, columns, picks; no model, no rendered sample):
#: their findings are worked out once for the pairs of a dataset (``LintContext.of_dataset``).
OF_DATASET = frozenset(("PW301", "PW302", "PW304"))


@dataclass(frozen=True)
class PairFinding:
    """A finding of one (dataset, model) pair, located."""

    dataset: str | None
    model: str | None
    finding: Finding


class Selection:
    """``--select``/``--ignore`` as ruff reads them: ids, id prefixes (``PW3``) or names. With no
    ``--select``, every error and warning rule; information rules (PW205, PW210, PW303) are said
    when selected (``--select ALL``, or by id)."""

    def __init__(self, select: Sequence[str] = (), ignore: Sequence[str] = ()) -> None:
        self.select = [s.strip() for s in select if s.strip()]
        self.ignore = [s.strip() for s in ignore if s.strip()]

    @classmethod
    def everything(cls) -> Selection:
        """Every rule, information too (the survey over shipped configs, tests)."""
        return cls(["ALL"])

    @staticmethod
    def _matches(rule_id: str, codes: Sequence[str]) -> bool:
        name = RULES[rule_id].name
        return any(code == "ALL" or rule_id.startswith(code.upper()) or code == name for code in codes)

    def wants(self, rule_id: str) -> bool:
        if self.select and not self._matches(rule_id, self.select):
            return False
        if not self.select and RULES[rule_id].severity == INFO:
            return False  # information is asked for (--select ALL, or by id): not a problem to fix
        return not self._matches(rule_id, self.ignore)

    def unknown(self) -> list[str]:
        """Codes that name no rule (a typo the user should hear about)."""
        return [c for c in (*self.select, *self.ignore)
                if c != "ALL" and not any(self._matches(r, [c]) for r in RULES)]


def at_least(severity: str, floor: str) -> bool:
    """Whether ``severity`` is ``floor`` or above (error > warning > info)."""
    return SEVERITIES.index(severity) <= SEVERITIES.index(floor)


def key_findings(dataset: DatasetSpec, model: ModelSpec | None) -> list[Finding]:
    """Every PW101 of a pair (the render stops at the first)."""
    return [Finding(exc.rule or "PW101", exc.message, exc.hint, exc.file, exc.line)
            for exc in unknown_keys(dataset, model)]


def _listed(rule: Rule, ctx: LintContext) -> list[Finding]:
    return list(rule(ctx))


def lint_pair(pair: PairRenderer, selection: Selection | None = None,
              overlap: Sequence[Mapping[str, Any]] | None = None,
              not_checked: list[tuple[str, str]] | None = None,
              tokenizer: PieceSource | None = None) -> list[Finding]:
    """The findings of a rendered pair: the render's own, then each selected rule's;
    ``not_checked`` gets (rule id, why) of each selected rule that could not look; ``tokenizer``
    reads the token seams instead of the model's own."""
    selection = selection or Selection()
    ctx = LintContext(pair, overlap, tokenizer=tokenizer)
    found: list[Finding] = []
    for warning in pair.warnings():
        if warning.rule is not None and selection.wants(warning.rule):
            found.append(Finding(warning.rule, warning.message, warning.hint, warning.file, warning.line))
    for rule_id, rule in LINT_RULES:
        if selection.wants(rule_id):
            made = ctx.of_dataset(rule_id, partial(_listed, rule, ctx)) if rule_id in OF_DATASET \
                else rule(ctx)
            found.extend(ctx.at(f) for f in made)
    if not_checked is not None:
        not_checked.extend(ctx.not_checked)
    # rules that render more samples may raise more of the render's findings (PW203 per request)
    said = {(f.rule, f.message) for f in found}
    for warning in pair.warnings():
        if warning.rule is not None and selection.wants(warning.rule) \
                and (warning.rule, warning.message) not in said:
            found.append(Finding(warning.rule, warning.message, warning.hint, warning.file, warning.line))
    return found


def counted(findings: Iterable[PairFinding]) -> dict[str, int]:
    """How many findings of each severity."""
    counts = dict.fromkeys(SEVERITIES, 0)
    for f in findings:
        counts[f.finding.severity] += 1
    return counts
