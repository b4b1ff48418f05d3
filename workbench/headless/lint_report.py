"""``workbench lint``'s text: one located line per finding (the same finding over several pairs
once, with how many more), the errors that stopped a pair, and a closing count.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

from typing import Any, TextIO

from ..core.findings import SEVERITIES, tag
from ..core.inert_text import visible
from .stderr_report import error_line

#: The hint of a finding --lint made an error.
LINT_HINT = ("--lint: a lint finding is an error here; fix it, --ignore it in `workbench lint`, or run "
             "without --lint")


def finding_line(item: Any, more: int = 0, lint_error: bool = False) -> str:
    """``file:line: warning: [dataset × model] PW204 name: message (hint: ...)``; under ``--lint``
    (``lint_error``) without the severity, the hint ending with what --lint did."""
    f = item.finding
    where = (f.file or "<config>") + (f":{f.line}" if f.line else "")
    pair = f"[{item.dataset} × {item.model or 'no model'}] " if item.dataset or item.model else ""
    tail = f" (and {more} more pair{'s' * (more != 1)})" if more else ""
    if lint_error:
        hint = f" (hint: {f.hint}; {LINT_HINT})" if f.hint else f" (hint: {LINT_HINT})"
        text = f"{where}: {pair}{f.rule} {f.name}: {f.message}{tail}{hint}"
    else:
        hint = f" (hint: {f.hint})" if f.hint else ""
        text = f"{where}: {f.severity}: {pair}{f.rule} {f.name}: {f.message}{hint}{tail}"
    return visible(text).replace("\n", " ")


def grouped(findings: list[Any]) -> list[tuple[Any, int]]:
    """Each finding once, with how many other pairs have the same one (a template's finding is
    every model's)."""
    seen: dict[tuple, list[Any]] = {}
    for item in findings:
        f = item.finding
        seen.setdefault((f.rule, f.file, f.line, f.message), []).append(item)
    return [(items[0], len(items) - 1) for items in seen.values()]


def report(listed: Any, floor: str, out: TextIO, err: TextIO) -> None:
    for error in listed.errors:
        print(error_line(error), file=err)
    for line in not_checked_lines(listed.not_checked):
        print(line, file=err)
    groups = grouped(listed.findings)
    for item, more in groups:
        print(finding_line(item, more), file=out)
    counts = listed.counts()
    said = ", ".join(f"{counts[s]} {s}{'s' * (counts[s] != 1 and s != 'info')}"  # "2 warnings", "2 info"
                     for s in SEVERITIES if counts[s])
    failing = len(listed.failing(floor))
    if not listed.findings:
        summary = f"workbench lint: no findings in {listed.pairs} pair{'s' * (listed.pairs != 1)}"
    else:
        summary = (f"workbench lint: {len(listed.findings)} finding{'s' * (len(listed.findings) != 1)} "
                   f"({said}) in {listed.pairs} pair{'s' * (listed.pairs != 1)}; {failing} at or above "
                   f"--fail-on {floor}")
    print(summary, file=err)



def not_checked_lines(not_checked: list[Any]) -> list[str]:
    """A line per set of rules and reason: the datasets (or pairs) they could not look at, and why."""
    by_why: dict[tuple[tuple[str, ...], str], list[str]] = {}
    for n in not_checked:
        by_why.setdefault((n.ids, n.why), []).append(n.dataset if n.model is None else
                                                     f"{n.dataset} × {n.model}")
    lines = []
    for (ids, why), names in by_why.items():
        rules = tag(ids[0]) if len(ids) == 1 else ", ".join(ids)
        kind = "pair" if " × " in names[0] else "dataset"
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        lines.append(visible(f"workbench lint: {rules} not checked for {len(names)} {kind}"
                             f"{'s' * (len(names) != 1)} ({why}): {shown}").replace("\n", " "))
    return lines


class LintGate:
    """``--lint`` on ``render`` and ``snapshot``: the lint findings (errors and warnings) of the
    rendered pairs are errors (exit 3), each said once as one; the render's own warnings of the
    same findings (PW201...) are not said a second time."""

    def __init__(self, result: Any) -> None:
        self.result = result
        self._failing: list[Any] | None = None

    @property
    def failing(self) -> list[Any]:
        if self._failing is None:
            # lazy: only --lint runs the rules
            from ..core.lint.listing import lint_result
            from ..core.result import RenderResult

            # the render's findings a front end raised (PW213) are among its warnings
            raised = [w for w in self.result.warnings if w.rule is not None]
            listed = lint_result(RenderResult(self.result.config, self.result.pairs, warnings=raised), (), ())
            self._failing = listed.failing("warning")
            self.result.errors.extend(listed.errors)
        return self._failing

    def report(self, err: TextIO) -> int:
        """Say each failing finding as an error line; returns how many there are."""
        failing = self.failing
        said = {(f.dataset, f.model, f.finding.message) for f in failing}
        self.result.warnings = [w for w in self.result.warnings
                                if (w.dataset, w.model, w.message) not in said]
        for item, more in grouped(failing):
            print(finding_line(item, more, lint_error=True), file=err)
        return len(failing)
