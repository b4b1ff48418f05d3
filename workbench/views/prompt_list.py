"""The PromptList pane: the filled intermediate list the template builds for one request.

Role items get a badge, strings a faint ``str`` tag, section markers show faintly, and
the items of each in-context example are grouped under a numbered heading naming the
train row they came from.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.findings import tag as tag_of
from ..core.models.meta_template import UNSENT_PROMPT
from ..core.result import Request, Sample
from .fragments import badge, body, faint
from .options import ViewOptions
from .safe import one_line
from .styled import styled


def _items(prompt_list: Any) -> list[Any]:
    if isinstance(prompt_list, str):
        return [prompt_list]
    if isinstance(prompt_list, (list, tuple)):
        return list(list.__iter__(prompt_list)) if isinstance(prompt_list, list) else list(prompt_list)
    return [prompt_list]


# Extras another view shows in full (``b`` the HTTP request, ``v`` the run's answer): a repr of
# them in the heading would be noise cut mid-word.
SHOWN_ELSEWHERE = frozenset({"wire", "recorded_output"})


def request_heading(request: Request, opts: ViewOptions) -> Text | None:
    """What sets this request apart from its siblings: its label, turn, and extras."""
    bits: list[tuple[str, str]] = []
    if request.label is not None:
        bits.append(("label ", one_line(repr(request.label) if isinstance(request.label, str)
                                        else str(request.label), 40)))
    if request.turn is not None:
        bits.append(("turn ", str(request.turn)))
    for key, value in request.extra:
        if key in SHOWN_ELSEWHERE:
            continue
        bits.append((f"{one_line(str(key), 20)} ", one_line(repr(value), 40)))
    if not bits:
        return None
    out = Text()
    for i, (name, value) in enumerate(bits):
        if i:
            out.append("  ")
        out.append(name, style=opts.palette.style("faint"))
        out.append(value, style=opts.palette.style("label"))
    return out


def prompt_list_view(request: Request, opts: ViewOptions, sample: Sample | None = None,
                     unsent: int | None = None) -> RenderableType:
    """The request's PromptList (or its plain string prompt), item by item; ``unsent``: the
    item the model's meta template never sends (finding PW201), marked as such."""
    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column("role", no_wrap=True)
    table.add_column("content", ratio=1, overflow="fold")
    ice_indices: Sequence[int] = sample.ice_indices if sample is not None else ()
    example = 0
    in_example = False
    gutter = "│ "
    for index, item in enumerate(_items(request.prompt_list)):
        if isinstance(item, Mapping) and "section" in item:
            section, pos = str(item.get("section")), str(item.get("pos"))
            if section == "ice":
                if pos == "begin":
                    in_example = True
                    src = f" · train row {ice_indices[example]}" if example < len(ice_indices) else ""
                    example += 1
                    table.add_row(faint(f"╭ example {example}", opts), faint(src.lstrip(" ·"), opts))
                else:
                    in_example = False
                    table.add_row(faint("╰", opts), Text(""))
                continue
            marker = f"┄ {one_line(section, 20)} ┄" if pos == "begin" else f"┄ /{one_line(section, 20)} ┄"
            table.add_row(faint(marker, opts), Text(""))
            continue
        prefix = faint(gutter, opts) if in_example else Text("")
        if isinstance(item, Mapping):
            role = item.get("role", "?")
            tag = prefix + badge(role, opts, item.get("fallback_role"))
            if "prompt_mm" in item:
                content = body(item["prompt_mm"], opts)
            elif "prompt" in item:
                content = body(item["prompt"], opts)
            elif "content" in item:
                content = body(item["content"], opts)
            else:
                content = faint("(no prompt)", opts)
            if index == unsent:
                content = Group(content, Text(
                    f"⚠ not sent ({tag_of(UNSENT_PROMPT)}): the meta template generates at this role's "
                    "begin, so the input ends before this text", style=opts.palette.style("warning")))
            table.add_row(tag, content)
        elif isinstance(item, str):
            table.add_row(prefix + faint("str", opts), styled(item, opts) if item else faint("''", opts))
        else:
            table.add_row(prefix + faint(type(item).__name__, opts), body(item, opts))
    heading = request_heading(request, opts)
    return Group(heading, table) if heading is not None else table
