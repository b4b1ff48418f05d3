"""Errors and warnings on stderr, one per line, with untrusted text made inert.

Errors read ``file:line: [dataset × model] message (hint: ...)`` so editors and CI logs
can jump to the line; warnings read ``warning: [dataset × model] message``, once per message,
with where else it applies (``(and 233 more datasets with template-chat)``).

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from ..core.findings import tag
from ..core.inert_text import visible
from ..core.warning_groups import group_warnings


def _pair(item: Any) -> str:
    if getattr(item, "dataset", None) is None and getattr(item, "model", None):
        return f"[model {item.model}] "  # said once per model (e.g. its requests on the wire)
    if getattr(item, "dataset", None) or getattr(item, "model", None):
        return f"[{item.dataset} × {item.model or 'no model'}] "
    return ""


def _where(item: Any) -> str:
    where = item.file or "<config>"
    if item.line:
        where += f":{item.line}"
    return where


def _finding(item: Any) -> str:
    """``PW101 unknown-key: `` before a finding's message (core/findings.py), else nothing."""
    rule = getattr(item, "rule", None)
    return f"{tag(rule)}: " if rule else ""


def error_line(error: Any) -> str:
    line = f"{_where(error)}: {_pair(error)}{_finding(error)}{error.message}"
    if error.hint:
        line += f" (hint: {error.hint})"
    return visible(line).replace("\n", " ")


def warning_line(warning: Any) -> str:
    """One warning; a :class:`WarningGroup` also says where else it applies; a finding also
    where its cause was written and what to do."""
    more = warning.elsewhere() if hasattr(warning, "elsewhere") else ""
    tail = f" ({more})" if more else ""
    if getattr(warning, "rule", None):
        hint = f" (hint: {warning.hint})" if warning.hint else ""
        text = f"warning: {_where(warning)}: {_pair(warning)}{_finding(warning)}{warning.message}{hint}{tail}"
    else:
        text = f"warning: {_pair(warning)}{warning.message}{tail}"
    return visible(text).replace("\n", " ")


def report_problems(result: Any, warnings: bool = True, stream: TextIO | None = None) -> None:
    """Errors one a line; warnings once per message, with how many more places it applies to."""
    out = stream or sys.stderr
    for error in result.errors:
        print(error_line(error), file=out)
    if warnings:
        for group in group_warnings(result.warnings):
            print(warning_line(group), file=out)
