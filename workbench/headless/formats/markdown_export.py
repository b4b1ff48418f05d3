"""``render --format markdown``: a readable report to paste into a review or an issue.

Each request's final input sits in a fenced block longer than any backtick run in it,
so nothing in a row can close the fence early; names in headings are escaped.  All
text passes through :func:`visible` (``--raw`` does not apply: markdown is for people).

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from ...core.errors import RenderError
from ...core.inert_text import visible
from ...core.models.wire import body_text, wire_of
from ...core.result import CONTINUATION_SEAM, PairError, RenderResult, Request, Sample, scored_text
from ...core.warning_groups import WarningGroup, group_warnings
from ..render_filter import label_text
from .json_export import collect_warnings, stopped_error
from .lengths_export import LengthsCollector, write_lengths_markdown
from .text_export import message_body

SamplesOf = Callable[[Any], Iterable[Sample]]
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")
_BACKTICKS = re.compile(r"`+")


def md_escape(text: str) -> str:
    """Inline text with markdown's punctuation escaped (and unsafe characters made visible)."""
    return _MD_SPECIAL.sub(r"\\\1", visible(text).replace("\n", " "))


def inline_code(text: str) -> str:
    body = visible(text).replace("\n", " ")
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(body)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{ticks}{pad}{body}{pad}{ticks}"


def fenced(text: str, whitespace: bool = False, info: str = "text") -> str:
    body = visible(text, whitespace=whitespace)
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{body}\n{fence}\n"


def _request_heading(sample: Sample, request: Request) -> str:
    parts = [f"Sample {sample.index}"]
    if request.label is not None:
        parts.append(f"label {md_escape(label_text(request.label))}")
    if request.turn is not None:
        parts.append(f"turn {request.turn}")
    return " · ".join(parts)


def write_request_markdown(sample: Sample, request: Request, out: TextIO, whitespace: bool) -> None:
    out.write(f"### {_request_heading(sample, request)}\n\n")
    facts = []
    if sample.ice_indices:
        facts.append("in-context examples " + ", ".join(str(i) for i in sample.ice_indices))
    if request.depends_on:
        facts.append("contains the model's answers to turns "
                     + ", ".join(str(t) for t in request.depends_on))
    tokens = getattr(request, "tokens", None)
    if tokens is not None:
        facts.append(md_escape(tokens.label))
    truncation = getattr(request, "truncation", None)
    if truncation is not None and truncation.dropped:
        facts.append(md_escape(truncation.describe()))
    if facts:
        out.write(f"*{'; '.join(facts)}*\n\n")
    value = request.model_input
    if isinstance(value, str):
        out.write(fenced(value, whitespace))
    else:
        for message in value:
            role, body = message_body(message)
            if role is not None:
                out.write(f"**{md_escape(role)}**\n\n")
            out.write(fenced(body, whitespace))
            out.write("\n")
    if request.model_text is not None:
        out.write("\n**Chat template text**\n\n")
        out.write(fenced(request.model_text, whitespace))
    for key, value in request.extra:
        if key == "continuation":  # scored after the input (LL, lm-eval): seen, and seen apart
            out.write(f"\n**{CONTINUATION_SEAM.capitalize()}**\n\n")
            out.write(fenced(scored_text(value), whitespace))
        elif key == "until":
            out.write(f"\n**until** {inline_code(json.dumps(value, ensure_ascii=False))}\n")
    wire = wire_of(request)
    if wire is not None:
        estimated = "" if wire.exact else " (max_tokens from an estimated token count)"
        out.write(f"\n**On the wire**: POST {inline_code(wire.endpoint)}{md_escape(estimated)}\n\n")
        out.write(fenced(body_text(wire), whitespace, info="json"))
    out.write("\n")


def _problem(item: PairError | WarningGroup) -> str:
    pair = ""
    if item.dataset is None and item.model:
        pair = f"model {md_escape(item.model)}: "
    elif item.dataset or item.model:
        pair = f"{md_escape(item.dataset or '')} × {md_escape(item.model or 'no model')}: "
    where = ""
    if isinstance(item, PairError) and item.file:
        where = inline_code(f"{item.file}:{item.line}" if item.line else item.file) + " "
    text = f"- {where}{pair}{md_escape(item.message)}"
    if isinstance(item, WarningGroup) and item.count > 1:
        text += f" ({md_escape(item.elsewhere())})"
    if isinstance(item, PairError) and item.hint:
        text += f" (hint: {md_escape(item.hint)})"
    return text + "\n"


def write_render_markdown(result: RenderResult, out: TextIO,
                          samples_of: SamplesOf = lambda pair: pair.samples(),
                          whitespace: bool = False) -> RenderResult:
    out.write(f"# Prompts of {inline_code(result.config)}\n\n")
    lengths = LengthsCollector()
    samples_of = lengths.wrap(samples_of)
    for pair in result.pairs:
        out.write(f"## {md_escape(pair.dataset_abbr)} × {md_escape(pair.model_abbr or 'no model')}\n\n")
        out.write(f"*{md_escape(pair.inferencer)}, {md_escape(pair.model_kind)} model*\n\n")
        try:
            for sample in samples_of(pair):
                for request in sample.requests:
                    write_request_markdown(sample, request, out, whitespace)
        except RenderError as exc:
            error = stopped_error(pair, exc)
            result.errors.append(error)
            out.write(f"**Rendering stopped:** {md_escape(error.message)}\n\n")
    write_lengths_markdown(lengths, out, md_escape, fenced)
    collect_warnings(result)
    if result.errors:
        out.write("## Errors\n\n")
        out.writelines(_problem(e) for e in result.errors)
        out.write("\n")
    if result.warnings:
        out.write("## Warnings\n\n")
        out.writelines(_problem(w) for w in group_warnings(result.warnings))
        out.write("\n")
    return result
