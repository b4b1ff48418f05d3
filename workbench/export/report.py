"""Errors and warnings on stderr, one per line, with untrusted text made inert.

Errors read ``file:line: [dataset × model] message (hint: ...)`` so editors and CI logs
can jump to the line; warnings read ``warning: [dataset × model] message``.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from ..core.visible import visible


def _pair(item: Any) -> str:
    if getattr(item, "dataset", None) is None and getattr(item, "model", None):
        return f"[model {item.model}] "  # said once per model (e.g. its requests on the wire)
    if getattr(item, "dataset", None) or getattr(item, "model", None):
        return f"[{item.dataset} × {item.model or 'no model'}] "
    return ""


def error_line(error: Any) -> str:
    where = error.file or "<config>"
    if error.line:
        where += f":{error.line}"
    line = f"{where}: {_pair(error)}{error.message}"
    if error.hint:
        line += f" (hint: {error.hint})"
    return visible(line).replace("\n", " ")


def warning_line(warning: Any) -> str:
    return visible(f"warning: {_pair(warning)}{warning.message}").replace("\n", " ")


def report_problems(result: Any, warnings: bool = True, stream: TextIO | None = None) -> None:
    out = stream or sys.stderr
    for error in result.errors:
        print(error_line(error), file=out)
    if warnings:
        for warning in result.warnings:
            print(warning_line(warning), file=out)
