"""Problems as a banner: where (file:line), what, and what to do about it.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from ..core.findings import tag
from .options import ViewOptions, located
from .safe import visible


@dataclass(frozen=True)
class Problem:
    """One error as the views show it, whatever layer raised it."""

    message: str
    file: str | None = None
    line: int | None = None
    hint: str | None = None
    scope: str | None = None  # e.g. "gsm8k × gpt-4o" for a pair that cannot render
    kind: str = "error"  # "error" | "missing" | "warning"
    rule: str | None = None  # the finding's id, when a rule raised it (core/findings.py)

    @classmethod
    def of(cls, error, scope: str | None = None) -> Problem:
        """From a ConfigError, RenderError or PairError (anything with message/file/line/hint)."""
        if scope is None and getattr(error, "dataset", None) is not None:
            scope = f"{error.dataset} × {error.model or 'no model'}"
        return cls(message=str(getattr(error, "message", error)), file=getattr(error, "file", None),
                   line=getattr(error, "line", None), hint=getattr(error, "hint", None), scope=scope,
                   rule=getattr(error, "rule", None))


def problem_text(problem: Problem, opts: ViewOptions) -> Text:
    palette = opts.palette
    out = Text()
    head = "missing" if problem.kind == "missing" else ("warning" if problem.kind == "warning" else "error")
    out.append(f"{head} ", style=palette.style("warning" if head != "error" else "error"))
    if problem.file:
        out.append(visible(located(problem.file, problem.line, opts.root)), style=palette.style("location"))
        out.append(" ")
    if problem.scope:
        out.append(f"[{visible(problem.scope)}] ", style=palette.style("faint"))
    if problem.rule:
        out.append(f"{tag(problem.rule)}: ", style=palette.style("faint"))
    out.append(visible(problem.message))
    if problem.hint:
        out.append("\n  hint: ", style=palette.style("faint"))
        out.append(visible(problem.hint), style=palette.style("hint"))
    return out


def error_banner(problems: Sequence[Problem], opts: ViewOptions, stale: bool = False,
                 limit: int = 4) -> RenderableType:
    """Every problem, the first ``limit`` in full; ``stale`` says the panes show an older render."""
    lines: list[RenderableType] = [problem_text(p, opts) for p in problems[:limit]]
    if len(problems) > limit:
        lines.append(Text(f"… and {len(problems) - limit} more", style=opts.palette.style("faint")))
    if stale:
        lines.append(Text("showing the last good render, dimmed, until this is fixed",
                          style=opts.palette.style("faint")))
    return Group(*lines)
