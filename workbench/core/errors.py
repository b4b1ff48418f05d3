"""Errors are values at the boundary: every problem carries a message and a hint.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

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
        rule: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.file = file
        self.line = line
        self.rule = rule  # the finding's id (core/findings.py), when a rule raised it

    def located(self) -> str:
        where = self.file or "<config>"
        if self.line:
            where += f":{self.line}"
        return f"{where}: {self.message}"


class RenderError(WorkbenchError):
    """A (dataset, model) pair cannot be rendered: a refusal or a bad template.

    ``key_path`` names the part of the config at fault (``("infer_cfg", "retriever")``), in
    the dataset's config, or in the model's when ``in_model``; the render reports the line
    that part was written on. ``role`` names the role of a dataset template item the model
    does not know: the render points at the template item that wrote it (a typo is there
    more often than in the meta template), falling back to ``key_path``.
    """

    def __init__(self, message: str, *, hint: str | None = None, file: str | None = None,
                 line: int | None = None, key_path: tuple | None = None, in_model: bool = False,
                 role: str | None = None, rule: str | None = None) -> None:
        super().__init__(message, hint=hint, file=file, line=line, rule=rule)
        self.key_path = tuple(key_path) if key_path is not None else None
        self.in_model = in_model
        self.role = role

    def at(self, key_path: tuple, in_model: bool = False) -> RenderError:
        """Name the part at fault, unless a deeper raise already named a finer one."""
        if self.key_path is None:
            self.key_path = tuple(key_path)
            self.in_model = in_model
        return self


class InputCut(RenderError):
    """The model class would cut the input before sending it (a truncation ``mode``), and the
    workbench does not reproduce the cut: what a run records (the uncut prompt) is not what the
    model got."""


class ConfigError(WorkbenchError):
    """A config file cannot be loaded at all."""


class UnsupportedError(RenderError):
    """The framework would render this pair; the workbench cannot (it would need code it does
    not run, such as a dataset's own template class).  Told apart from the framework's own
    refusals so coverage can be counted honestly."""


#: What a builder (meta-template parser, chat template, wire builder) may raise on a prompt
#: shape it was not written for: caught where the builder is called, so one pair fails, not
#: the render (issue 27, item 9).
BUILDER_FAILURES = (TypeError, ValueError, LookupError, AttributeError)


class BuilderError(RenderError):
    """A builder raised on this pair's prompt: the pair fails (never just a warning, as the
    wire's own refusals are)."""


def builder_failed(what: str, exc: BaseException, *, key_path: tuple = (),
                   in_model: bool = True) -> BuilderError:
    """The error of a builder that raised on this pair's prompt: said for the pair, located at
    the part of the config it builds from, instead of a traceback that ends the render."""
    detail = str(exc).splitlines()[0][:200] if str(exc) else ""
    return BuilderError(f"{what} cannot build this pair's input ({type(exc).__name__}"
                       f"{': ' + detail if detail else ''}); the rest of the render goes on",
                       hint="the prompt holds an item of a shape the builder does not take; if the "
                       "framework renders this config, please report it with the config",
                       key_path=key_path, in_model=in_model)
