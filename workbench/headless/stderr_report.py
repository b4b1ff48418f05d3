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
from ..core.warning_groups import WarningGroup, group_warnings
from ..core.warning_kinds import real_run_differs

#: The hint of a warning --strict made an error.
STRICT_HINT = ("--strict: the real run differs from what is shown here, or fails; fix the config "
               "or the inputs, or run without --strict")


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


def differing(result: Any) -> list[WarningGroup]:
    """The warnings (grouped, one per cause) that say the real run differs or fails."""
    return [g for g in group_warnings(result.warnings) if real_run_differs(g.message)]


def strict_line(group: WarningGroup, where: str = "") -> str:
    """A warning --strict made an error: a located line (the config, as warnings carry no line)."""
    more = group.elsewhere()
    tail = f" ({more})" if more else ""
    message = group.message
    if message.endswith(")") and "(hint: " in message:  # one hint: the warning's, then --strict's
        cut = message.rindex("(hint: ")
        message, hint = message[:cut].rstrip(), f"{message[cut + 7:-1]}; {STRICT_HINT}"
    else:
        hint = STRICT_HINT
    line = f"{where or '<config>'}: {_pair(group)}{message}{tail} (hint: {hint})"
    return visible(line).replace("\n", " ")


def report_problems(result: Any, warnings: bool = True, stream: TextIO | None = None,
                    strict: bool = False, prog: str = "workbench", others: bool = True) -> int:
    """Errors one a line; warnings once per message, with how many more places it applies to.
    Those that say the real run differs or fails are errors under ``strict``, else counted in
    a closing line (``others`` False: only those are said). Returns how many such warnings there
    are (each once)."""
    out = stream or sys.stderr
    for error in result.errors:
        print(error_line(error), file=out)
    groups = group_warnings(result.warnings)
    found = [g for g in groups if real_run_differs(g.message)]
    if strict:
        for group in found:
            print(strict_line(group, getattr(result, "config", "")), file=out)
    if warnings:
        for group in groups:
            if group in found:
                if not strict:
                    print(warning_line(group), file=out)
            elif others:
                print(warning_line(group), file=out)
    if found and not strict and warnings:
        print(count_line(prog, found), file=out)
    return len(found)


def count_line(prog: str, found: list[WarningGroup]) -> str:
    """The closing count of warnings that mean the real run differs, without --strict."""
    places = sum(g.count for g in found)
    many = len(found) != 1
    return (f"{prog}: {len(found)} warning{'s' * many} above say{'' if many else 's'} the real run differs "
            f"from what is shown, or fails ({places} place{'s' * (places != 1)}); --strict makes "
            f"{'them errors' if many else 'it an error'} (exit 3)")
