"""``workbench lint``'s text: one located line per finding (the same finding over several pairs
once, with how many more), the errors that stopped a pair, and a closing count.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

from typing import Any, TextIO

from ..core.findings import SEVERITIES
from ..core.inert_text import visible
from .stderr_report import error_line


def finding_line(item: Any, more: int = 0) -> str:
    f = item.finding
    where = (f.file or "<config>") + (f":{f.line}" if f.line else "")
    pair = f"[{item.dataset} × {item.model or 'no model'}] " if item.dataset or item.model else ""
    hint = f" (hint: {f.hint})" if f.hint else ""
    tail = f" (and {more} more pair{'s' * (more != 1)})" if more else ""
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
    groups = grouped(listed.findings)
    for item, more in groups:
        print(finding_line(item, more), file=out)
    counts = listed.counts()
    said = ", ".join(f"{counts[s]} {s}" for s in SEVERITIES if counts[s])
    failing = len(listed.failing(floor))
    if not listed.findings:
        summary = f"workbench lint: no findings in {listed.pairs} pair{'s' * (listed.pairs != 1)}"
    else:
        summary = (f"workbench lint: {len(listed.findings)} finding{'s' * (len(listed.findings) != 1)} "
                   f"({said}) in {listed.pairs} pair{'s' * (listed.pairs != 1)}; {failing} at or above "
                   f"--fail-on {floor}")
    print(summary, file=err)
