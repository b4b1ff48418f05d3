"""Every pair of a suite checked in the background, after the first frame is on screen.

The app builds pairs when they are shown; this builds the rest at low priority, so the tree
can mark the datasets some model cannot render, and a warning can say how many other pairs
it applies to (truthfully: only once every pair has been checked). No Textual here: the
app runs :func:`check_pairs` in a thread worker.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from ..core.answers.self_test import CHECK_TIMEOUT, answer_format_findings, model_key
from ..core.errors import WorkbenchError
from ..core.lazy_pairs import LazyPairs
from ..core.lint.run import lint_pair
from ..core.result import PairError, PairWarning
from ..core.warning_groups import WarningGroup, group_warnings
from ..views.options import ViewOptions
from ..views.safe import one_line


@dataclass(frozen=True)
class PairCheck:
    """What checking every pair found."""

    pairs: int
    failing: dict[str, list[PairError]] = field(default_factory=dict)  # dataset -> its failing pairs
    warnings: tuple[WarningGroup, ...] = ()
    #: dataset -> the ids of the lint findings (``workbench lint``'s default rules) of its pairs
    findings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: dataset -> why its extraction self-test (PW213) did not finish (its child ran past its
    #: time, or crashed)
    not_checked: dict[str, str] = field(default_factory=dict)

    @property
    def failed_pairs(self) -> int:
        return sum(len(v) for v in self.failing.values())

    def places(self) -> dict[str, tuple]:
        """Each warning's message -> every (dataset, model) it applies to."""
        return {g.message: g.applies_to for g in self.warnings}




def check_pairs(pairs: LazyPairs, cancelled: Callable[[], bool], pause: Callable[[], None],
                loader: Any = None) -> PairCheck | None:
    """Build every pair (``pause()`` between two, so the UI keeps the CPU), and with a
    ``loader`` that runs configs in its worker each dataset's PW213 there, bounded
    (``Loader.self_test``; once per model the chain reads alike); None if cancelled."""
    isolated = loader is not None and loader.isolate
    failing: dict[str, list[PairError]] = {}
    warnings: list[PairWarning] = []
    findings: dict[str, set[str]] = {}
    unchecked: dict[str, str] = {}
    tested: set[tuple[str, str]] = set()
    count = 0
    for dataset in pairs.datasets:
        warnings += pairs.dataset_warnings(dataset)
        for model in pairs.models:
            if cancelled():
                return None
            if not pairs.is_built(dataset, model):
                pause()
            found = pairs.get(dataset, model)
            count += 1
            if isinstance(found, PairError):
                if dataset not in pairs.failed:  # those are marked "not loaded" already
                    failing.setdefault(dataset, []).append(found)
                continue
            warnings += found.warnings()
            rules = findings.setdefault(dataset, set())
            rules.update(_linted(found))
            if not isolated or dataset in unchecked:
                continue
            spec, model_spec = found.dataset, found.model_spec
            key = (dataset, model_key(spec.cfg, model_spec.cfg if model_spec is not None else None))
            if key in tested or "lm_eval" in spec.cfg or spec.rows_unknown:
                continue
            tested.add(key)
            pause()
            answer = loader.self_test(spec, model_spec, CHECK_TIMEOUT, cancelled)
            if cancelled():
                return None
            if "error" in answer:
                # the child ran past its time or crashed: said; the config's own reasons (no
                # eval_cfg, a postprocessor not rewritten...) are `workbench lint`'s to say
                if answer.get("kind") == "bounded":
                    unchecked[dataset] = str(answer["error"])
                continue
            rules.update(f.rule for f in answer_format_findings(answer["checks"]))
    return PairCheck(count, failing, tuple(group_warnings(warnings)),
                     {d: tuple(sorted(r)) for d, r in findings.items() if r}, unchecked)


def _linted(pair: Any) -> set[str]:
    """The ids of a pair's lint findings; a sample the lint renders that fails is the view's
    business (it says so when shown), not the mark's."""
    try:
        return {f.rule for f in lint_pair(pair)}
    except WorkbenchError:
        return set()


def failure_marks(check: PairCheck, opts: ViewOptions) -> dict[tuple[str, str], Text]:
    """The tree's mark after each dataset some model cannot render (``✖ model``, or a count),
    and after each dataset with lint findings (``⚑2``: two rules flag its pairs; `workbench lint`
    lists them), or whose self-test did not finish (``⚑?``: PW213 not checked)."""
    marks: dict[tuple[str, str], Text] = {}

    def add(dataset: str, mark: Text) -> None:
        key = ("dataset", dataset)
        marks[key] = Text.assemble(marks[key], " ", mark) if key in marks else mark

    for dataset, errors in check.failing.items():
        models = [e.model or "no model" for e in errors]
        said = ", ".join(models) if len(models) <= 2 else f"{len(models)} models"
        add(dataset, Text(f"✖ {one_line(said, 40)}", style=opts.palette.style("error")))
    for dataset, rules in check.findings.items():
        # a count, not the ids: short enough that a narrow tree still shows the ◀ after it
        add(dataset, Text(f"⚑{len(rules)}", style=opts.palette.style("warning")))
    for dataset in check.not_checked:
        add(dataset, Text("⚑?", style=opts.palette.style("faint")))
    return marks
