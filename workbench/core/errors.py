"""Errors are values at the boundary: every problem carries a message and a hint."""

from __future__ import annotations


class WorkbenchError(Exception):
    """The one error type the core raises for bad input (never a bare traceback)."""

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.file = file
        self.line = line

    def located(self) -> str:
        where = self.file or "<config>"
        if self.line:
            where += f":{self.line}"
        return f"{where}: {self.message}"


class RenderError(WorkbenchError):
    """A (dataset, model) pair cannot be rendered: a refusal or a bad template."""


class ConfigError(WorkbenchError):
    """A config file cannot be loaded at all."""
