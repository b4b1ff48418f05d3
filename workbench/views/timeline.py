"""The timeline pane: the requests one sample becomes, and what each adds to the one before.

Multi-turn inference sends a request per turn; PPL one per label.  For each request the
view lists the items it has beyond the previous request (and, for labels, the items it
has instead), marking BOT turns as ground truth (from the row) or as stand-ins for a
model output the render does not have.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..core.provenance import PREDICTION, ROW, spans_of
from ..core.result import Request, Sample, scored_text
from .fragments import badge, faint, snippet
from .options import ViewOptions
from .prompt_list import _items
from .safe import one_line

Item = tuple[Any, Any]  # (role or None for a string item, text)


def _content(item: Any) -> tuple[Any, Any] | None:
    if isinstance(item, Mapping):
        if "section" in item:
            return None
        for key in ("prompt", "content", "prompt_mm"):
            if key in item:
                return item.get("role"), item[key]
        return item.get("role"), None
    if isinstance(item, str):
        return (None, item) if item else None
    return None, item


def request_items(request: Request) -> list[Item]:
    return [c for c in (_content(i) for i in _items(request.prompt_list)) if c is not None]


def _same(a: Item, b: Item) -> bool:
    return a[0] == b[0] and str(a[1]) == str(b[1])


def _origin_kinds(text: Any) -> set[str]:
    return {origin.kind for _, origin in spans_of(text)} if isinstance(text, str) else set()


def request_tag(request: Request, number: int) -> str:
    if request.turn is not None:
        return f"turn {request.turn}"
    if request.label is not None:
        label = repr(request.label) if isinstance(request.label, str) else str(request.label)
        return f"label {one_line(label, 24)}"
    return f"request {number}"


def _describe(item: Item, opts: ViewOptions, bot_roles=("BOT", "assistant")) -> Text:
    role, text = item
    out = Text()
    out.append("+", style=opts.palette.style("faint"))
    out.append_text(badge(role, opts) if role is not None else faint("str", opts))
    out.append(" ")
    out.append_text(snippet(text, opts, 40))
    if role in bot_roles:
        kinds = _origin_kinds(text)
        if PREDICTION in kinds:
            out.append("  stand-in for model output", style=opts.palette.style("warning"))
        elif ROW in kinds:
            out.append("  ground truth", style=opts.palette.style("faint"))
    return out


def timeline_view(sample: Sample, selected: int, opts: ViewOptions) -> RenderableType:
    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column("mark", no_wrap=True)
    table.add_column("tag", no_wrap=True)
    table.add_column("adds", ratio=1, overflow="fold")
    requests = sample.requests
    if not requests:
        return faint("this sample sends no request", opts)
    first = request_items(requests[0])
    previous: list[Item] | None = None
    for n, request in enumerate(requests):
        items = request_items(request)
        mark = Text("●" if n == selected else "○",
                    style=opts.palette.style("selected") if n == selected else opts.palette.style("faint"))
        tag = Text(f"{n + 1} {request_tag(request, n + 1)}",
                   style=opts.palette.style("label") if n == selected else "")
        lines: list[Text] = []
        if previous is None:
            ice = len(sample.ice_indices)
            summary = f"{len(items)} item{'s' if len(items) != 1 else ''}"
            if ice:
                summary += f" · {ice} in-context example{'s' if ice != 1 else ''}"
            lines.append(faint(summary, opts))
            last_human = next((it for it in reversed(items) if it[0] not in (None, "BOT", "assistant")), None)
            if last_human is not None:
                lines.append(_describe(last_human, opts))
        else:
            # Labels differ from the first request; turns grow from the previous one.
            base = first if request.label is not None else previous
            common = 0
            while common < min(len(base), len(items)) and _same(base[common], items[common]):
                common += 1
            added, dropped = items[common:], base[common:]
            for item in added:
                lines.append(_describe(item, opts))
            if dropped and request.label is not None:
                lines.append(faint("in place of " + ", ".join(
                    f"{one_line(str(r or 'str'), 16)} {one_line(str(t), 24)}" for r, t in dropped), opts))
            elif dropped:
                lines.append(faint(f"drops {len(dropped)} item(s) of request {n}", opts))
            if not added and not dropped:
                lines.append(faint("same prompt as before", opts))
        continuation = next((v for k, v in request.extra if k == "continuation"), None)
        if continuation is not None:  # what sets a choice apart when the prompts are alike
            lines.append(faint(f"scores {one_line(repr(scored_text(continuation)), 40)}", opts))
        if request.depends_on:
            lines.append(Text("needs the model's output of turn " +
                              ", ".join(str(t) for t in request.depends_on),
                              style=opts.palette.style("warning")))
        cell = Text("\n").join(lines) if lines else Text("")
        table.add_row(mark, tag, cell)
        previous = items
    return table
