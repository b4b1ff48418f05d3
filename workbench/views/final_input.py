"""The final-input pane: exactly what the model receives for one request.

A local model gets one string; an API model a list of role messages; a chat-template
model chat messages (and, when the chat template ran, the string it produced).

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..core.models.wire import body_text, wire_of
from ..core.provenance import GLUE, ICE, META, PREDICTION, ROW, TEMPLATE, Origin
from ..core.result import CONTINUATION_SEAM, Request, scored_text
from .fragments import badge, body, faint
from .options import ViewOptions
from .safe import one_line
from .styled import styled


def legend(opts: ViewOptions) -> Text:
    """What each provenance colour means, each name written in its own colour."""
    out = Text()
    entries = [("template", Origin(TEMPLATE)), ("row", Origin(ROW)), ("ex.1", Origin(ICE, example=0)),
               ("ex.2", Origin(ICE, example=1)), ("meta", Origin(META)), ("inserted", Origin(GLUE)),
               ("output", Origin(PREDICTION))]
    for i, (name, origin) in enumerate(entries):
        if i:
            out.append(" ")
        out.append(name, style=opts.palette.origin_style(origin))
    return out


def input_length(request: Request) -> int:
    """Characters the model receives (message bodies summed for message lists)."""
    value = request.model_text if request.model_text is not None else request.model_input
    if isinstance(value, str):
        return len(value)
    total = 0
    for message in value or ():
        if isinstance(message, Mapping):
            content = message.get("content", message.get("prompt"))
            total += len(content) if isinstance(content, str) else 0
    return total


def final_input_body(request: Request, opts: ViewOptions) -> RenderableType:
    value = request.model_input
    parts: list[RenderableType] = []
    if isinstance(value, str):
        parts.append(styled(value, opts) if value else faint("(empty string)", opts))
    elif isinstance(value, Sequence):
        parts.append(messages_view(value, opts))
    else:
        parts.append(body(value, opts))
    if request.model_text is not None:
        parts.append(Rule("chat template output", style=opts.palette.style("faint"),
                          characters="┄", align="left"))
        parts.append(styled(request.model_text, opts) if request.model_text
                     else faint("(empty string)", opts))
    continuation = next((v for k, v in request.extra if k == "continuation"), None)
    if continuation is not None:  # scored after the input (LL, lm-eval): seen, and seen apart
        parts.append(Rule(CONTINUATION_SEAM, style=opts.palette.style("faint"), characters="┄", align="left"))
        text = scored_text(continuation)
        parts.append(styled(text, opts) if text else faint("(empty string)", opts))
    until = next((v for k, v in request.extra if k == "until"), None)
    if until is not None:  # where lm-eval stops the generation
        parts.append(Rule(one_line(f"until {json.dumps(until, ensure_ascii=False)}", 200),
                          style=opts.palette.style("faint"), characters="┄", align="left"))
    return Group(*parts) if len(parts) > 1 else parts[0]


def messages_view(messages: Sequence[Any], opts: ViewOptions) -> RenderableType:
    if not messages:
        return faint("(no messages)", opts)
    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column("role", no_wrap=True)
    table.add_column("content", ratio=1, overflow="fold")
    for message in messages:
        if isinstance(message, Mapping):
            content = message.get("content", message.get("prompt"))
            extras = {k: v for k, v in message.items() if k not in ("role", "content", "prompt")}
            cell: RenderableType = body(content, opts)
            if extras:
                note = faint(" ".join(f"{one_line(str(k), 20)}={one_line(repr(v), 40)}"
                                      for k, v in extras.items()), opts)
                cell = Group(cell, note)
            table.add_row(badge(message.get("role", "?"), opts), cell)
        else:
            table.add_row(faint("item", opts), body(message, opts))
    return table


def wire_view(request: Request, opts: ViewOptions, notes: Sequence[str] = ()) -> RenderableType:
    """The request as the server gets it: endpoint and JSON body (credentials redacted).

    ``notes`` are the model's wire warnings (why there is no request, or what it ignores).
    """
    wire = wire_of(request)
    said = [Text("⚠ " + one_line(n, 400), style=opts.palette.style("warning")) for n in notes]
    if wire is None:
        why = said or [faint("(no HTTP request: the model is not an API model)", opts)]
        return Group(*why, final_input_body(request, opts))
    head = f"POST {wire.endpoint}" + ("" if wire.exact else "  (max_tokens from an estimated count)")
    return Group(Rule(one_line(head, 200), style=opts.palette.style("faint"), characters="┄", align="left"),
                 *said, styled(body_text(wire), opts))


def recorded_output(request: Request) -> str | None:
    """The answer ``--run`` recorded for this request, if any."""
    for key, value in request.extra:
        if key == "recorded_output" and isinstance(value, str):
            return value
    return None


def answer_view(request: Request, opts: ViewOptions, marks: Sequence[tuple[int, int]] = ()) -> RenderableType:
    """The model's recorded answer, under a rule, so prompt and answer read together; ``marks``
    the spans the evaluator's rule read (highlighted)."""
    answer = recorded_output(request)
    rule = Rule("the model's answer, as the run recorded it", style=opts.palette.style("faint"),
                characters="┄", align="left")
    if answer is None:
        return Group(rule, faint("(no recorded answer: start the app with --run RUN_DIR, or the run has "
                                 "none for this request)", opts))
    return Group(rule, styled(answer, opts, marks=marks) if answer else faint("(empty string)", opts))


def judge_view(request: Request | None, judge: str, opts: ViewOptions, problem: str | None = None,
               notes: Sequence[str] = ()) -> RenderableType:
    """What the LLM evaluator sends its judge for this sample (``--judge``, core/judge.py),
    under a rule naming the judge model: the same final-input body as any request."""
    rule = Rule(one_line(f"the judge's prompt · {judge}", 120), style=opts.palette.style("faint"),
                characters="┄", align="left")
    said = [Text("⚠ " + one_line(n, 400), style=opts.palette.style("warning")) for n in notes]
    if request is None:
        return Group(rule, faint(one_line(problem or "(no judge request for this sample)", 400), opts))
    return Group(rule, *said, final_input_body(request, opts))


def final_input_view(request: Request, opts: ViewOptions, wire_notes: Sequence[str] = (),
                     marks: Sequence[tuple[int, int]] = ()) -> RenderableType:
    """The request's final input; with ``opts.answers`` the recorded answer under it (``marks``
    highlighted in it)."""
    if opts.wire:
        view = wire_view(request, opts, wire_notes)
    elif opts.provenance:
        view = Group(legend(opts), final_input_body(request, opts))
    else:
        view = final_input_body(request, opts)
    return Group(view, answer_view(request, opts, marks)) if opts.answers else view


MIN_COLUMN = 28  # cells a model's column needs to keep words whole; narrower, the models stack


@dataclass(frozen=True)
class SideBySide:
    """Every model's final input as columns when the width gives each at least
    :data:`MIN_COLUMN` cells, else one under another (at 80 columns four columns broke words
    one letter to a line)."""

    columns: Sequence[tuple[str, RenderableType]]
    opts: ViewOptions

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        opts = self.opts
        if options.max_width >= len(self.columns) * (MIN_COLUMN + 2):
            table = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, padding=(0, 1),
                          header_style=opts.palette.style("label"))
            for title, _ in self.columns:
                table.add_column(one_line(title, 60), ratio=1, overflow="fold")
            table.add_row(*(renderable for _, renderable in self.columns))
            yield table
            return
        for title, renderable in self.columns:
            yield Rule(Text(one_line(title, 60), style=opts.palette.style("label")),
                       style=opts.palette.style("faint"), align="left")
            yield renderable


def side_by_side_view(columns: Sequence[tuple[str, RenderableType]], opts: ViewOptions) -> RenderableType:
    """Several models' final inputs for the same sample, one column each (stacked when narrow)."""
    if not columns:
        return faint("(no models)", opts)
    both = SideBySide(tuple(columns), opts)
    return Group(legend(opts), both) if opts.provenance else both
