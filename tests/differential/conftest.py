"""The harness's report: how often each rule sent a row back to the interpreter over its inputs
(workbench/core/refusals.py), after the tests' summary; a rule no input reached says so."""

from __future__ import annotations

from typing import Any

from workbench.core.refusals import RULES, hits


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not hits:  # (no differential test ran in this process)
        return
    terminalreporter.section("fast-path refusals (in this process; CLI renders not counted)")
    for rule in RULES:
        terminalreporter.write_line(f"{hits[rule]:>8}  {rule}")
