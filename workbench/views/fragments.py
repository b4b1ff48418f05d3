"""Small renderables every view is built from: role badges, faint notes, snippets, bodies.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .options import ViewOptions
from .safe import one_line, visible
from .styled import styled


def badge(role: Any, opts: ViewOptions, fallback: Any = None) -> Text:
    name = one_line(str(role), 24)
    out = Text(f" {name} ", style=opts.palette.role_style(str(role)))
    if fallback:
        out.append(f" ↪{one_line(str(fallback), 16)}", style=opts.palette.style("faint"))
    return out


def faint(text: str, opts: ViewOptions) -> Text:
    return Text(visible(text), style=opts.palette.style("faint"))


def snippet(value: Any, opts: ViewOptions, limit: int = 48) -> Text:
    """One safe line of a longer text (``↵`` for newlines), provenance colours kept."""
    text = value if isinstance(value, str) else _summary(value)
    cut = text if len(text) <= limit else text[: limit - 1]
    marked = styled(cut, ViewOptions(whitespace=True, provenance=opts.provenance, palette=opts.palette,
                                     tokens=opts.tokens))
    line = Text("").join(marked.split("\n", allow_blank=True))
    line.no_wrap = True
    line.overflow = "ellipsis"
    if len(text) > limit:
        line.append("…", style=opts.palette.style("faint"))
    return line


def body(value: Any, opts: ViewOptions) -> RenderableType:
    """A message body: text styled, an empty string marked, multimodal parts listed."""
    if isinstance(value, str):
        if value == "":
            return faint("(empty)", opts)
        return styled(value, opts)
    if isinstance(value, (list, tuple)) and all(isinstance(p, Mapping) for p in value):
        return Group(*(part(p, opts) for p in value)) if value else faint("(no parts)", opts)
    if value is None:
        return faint("(none)", opts)
    return styled(_json(value), opts)


def part(p: Mapping[str, Any], opts: ViewOptions) -> Text:
    """One multimodal part: ``text`` shown as text, anything else named with its payload."""
    kind = str(p.get("type", "part"))
    if kind == "text" and isinstance(p.get("text"), str):
        out = Text()
        out.append(f"[{one_line(kind, 16)}] ", style=opts.palette.style("faint"))
        return out.append_text(body(p["text"], opts) if p["text"] else faint("(empty)", opts))
    payload = p.get(kind, {k: v for k, v in p.items() if k != "type"})
    if isinstance(payload, Mapping) and len(payload) == 1:
        payload = next(iter(payload.values()))
    out = Text()
    out.append(f"[{one_line(kind, 24)}] ", style=opts.palette.style("label"))
    out.append_text(styled(payload if isinstance(payload, str) else _json(payload), opts))
    return out


def _summary(value: Any) -> str:
    """Multimodal parts as their text with ``[image_url]``-style tags; anything else as JSON."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(p, Mapping) for p in value):
        bits = [p["text"] if p.get("type") == "text" and isinstance(p.get("text"), str)
                else f"[{p.get('type', 'part')}]" for p in value]
        return " ".join(bits)
    return _json(value)


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)
