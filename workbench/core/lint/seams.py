"""Whitespace at the seams: the generation point, the template's own text, between examples.

May import: ``context`` and the core modules it imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from itertools import pairwise
from typing import Any

from ..findings import Finding
from ..provenance import ROW, TEMPLATE, spans_of
from .context import LintContext

_DOUBLE = re.compile(r"\S(  +)(?=\S)")
_TAIL = re.compile(r"\s*\Z")
_HEAD = re.compile(r"\A\s*")


def _generated_text(request: Any) -> str | None:
    """The text the model continues, where it is one string (an API request is not)."""
    if isinstance(request.model_text, str):
        return request.model_text
    return request.model_input if isinstance(request.model_input, str) else None


def _ends_in_space(request: Any) -> bool:
    """A generation point after a space or tab the text does not hold alone."""
    text = _generated_text(request) if request.label is None else None
    return text is not None and text[-1:] in (" ", "\t") and bool(text.rstrip(" \t"))


def trailing_space(ctx: LintContext) -> Iterator[Finding]:
    """PW204: "Answer: " leaves a space token before the answer the model should write. Only a
    space the dataset's template or row wrote: a meta template's own (Llama 2's BOT begin ' ')
    is the model's convention."""
    if ctx.pair.plan.parse_mode != "gen" or not len(ctx.pair):
        return
    # who wrote the space is asked of a render with provenance only where the plain sample (the
    # same text, already made) ends in one: most pairs never build their provenance engine
    if not any(map(_ends_in_space, ctx.sample(0).requests)):
        return
    for request in ctx.pair.sample(0, provenance=True).requests:
        if not _ends_in_space(request):
            continue
        text = _generated_text(request) or ""
        spans = spans_of(text)
        if not spans or spans[-1][1].kind not in (TEMPLATE, ROW):
            continue
        tail = text[-20:].split("\n")[-1]
        yield Finding(
            "PW204", f"the input ends with {str(tail)!r}: the model starts generating after a "
            "space, which most tokenizers make a token of its own, so the answer's usual "
            "' X' token cannot follow",
            hint="end the prompt without the trailing space (e.g. 'Answer:')",
            key_path=_last_text_path(ctx))
        return


def _last_text_path(ctx: LintContext) -> tuple:
    """The last template text that ends in a space (the one the generation point follows)."""
    found = [path for path, text in ctx.template_texts()
             if path[1] == "prompt_template" and text.endswith((" ", "\t"))]
    return found[-1] if found else ("infer_cfg", "prompt_template")


def double_space(ctx: LintContext) -> Iterator[Finding]:
    """PW205: two spaces in a template's own words (row values are the data's business)."""
    for path, text in ctx.template_texts():
        for line in text.split("\n"):
            match = _DOUBLE.search(line.lstrip())
            if match is not None:
                start = max(0, match.start() - 15)
                yield Finding("PW205", f"{path[1]} writes {line.lstrip()[start:match.end() + 16]!r}: two "
                              "spaces in a row, which tokenize otherwise than one",
                              hint="write one space", key_path=path[:3])
                return


def _seam(left: str, glue: str, right: str) -> str:
    return _TAIL.search(left).group() + glue + _HEAD.search(right).group()  # type: ignore[union-attr]


def separators(ctx: LintContext) -> Iterator[Finding]:
    """PW206: examples that run together, or are joined otherwise than the test item follows."""
    engine = ctx.pair.engine(False)
    ice_template = engine.ice_template
    if ice_template is None or getattr(ice_template, "prompt_type", "meta") == "meta":
        return
    retriever = ctx.pair.retriever
    between: set[str] = set()
    before_test: set[str] = set()
    after = _after_ice_token(ctx)
    for i in range(min(20, len(ctx.pair))):
        picks = ctx.pair.picks[i]
        if not picks:
            continue
        made = [ice_template.generate_ice_item(engine.ice_pairs(k, idx), engine.train_label(idx))
                for k, idx in enumerate(picks)]
        items = [item for item in made if isinstance(item, str)]
        if len(items) < len(made):
            return
        between.update(_seam(a, retriever.ice_separator, b) for a, b in pairwise(items))
        if after is not None:
            before_test.add(_seam(items[-1], retriever.ice_eos_token, after))
    path = ("infer_cfg", "ice_template")
    if "" in between:
        yield Finding("PW206", "in-context examples run together: one ends and the next starts with no "
                      "separator between them", hint="end the ice_template with '\\n', or set the "
                      "retriever's ice_separator", key_path=path)
    elif len(between) > 1:
        shown = ", ".join(sorted(map(repr, between)))
        yield Finding("PW206", f"in-context examples are joined by {shown} in different prompts (an "
                      "example column that ends with a newline in some rows only)",
                      hint="strip the column, or end the ice_template with a fixed separator", key_path=path)
    elif between and before_test and before_test != between:
        yield Finding("PW206", f"in-context examples are joined by {next(iter(between))!r}, but the test "
                      f"item follows the last one after {', '.join(sorted(map(repr, before_test)))}",
                      hint="end every example the way the test item is preceded (ice_template, "
                      "ice_separator, ice_eos_token)", key_path=path)


def _after_ice_token(ctx: LintContext) -> str | None:
    """The template text written right after the ice_token (where the test item starts)."""
    body = ctx.infer_cfg.get("prompt_template") or ctx.infer_cfg.get("ice_template")
    token = body.get("ice_token") if isinstance(body, Mapping) else None
    if not isinstance(token, str) or not token:
        return None
    for _path, text in ctx.template_texts():
        if token in text:
            rest = text.split(token, 1)[1]
            return rest if rest.strip() else None
    return None
