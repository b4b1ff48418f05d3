"""``render --format json``: the public contract of docs/render-json.md, streamed.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from typing import Any, TextIO

from ...core.errors import RenderError
from ...core.render import error_source
from ...core.result import PairError, PairWarning, RenderResult, Request, Sample
from ...core.templates.prompt_list import to_json
from ...core.warning_groups import WarningGroup, group_warnings
from ..stream import Serialized
from .lengths_export import LengthsCollector

SCHEMA = "prompt-workbench/render@1"

# Characters JSON may carry raw but a terminal would act on (DEL, C1 controls, bidi
# overrides, zero-width and line/paragraph separators), and lone surrogates (a row's
# "\ud800", which UTF-8 cannot carry): always written as \uXXXX.
_UNSAFE = re.compile("[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")


_ENCODE = json.JSONEncoder(ensure_ascii=False, default=to_json).encode


def dumps(value: Any, indent: int | None = None) -> str:
    # Without indent, json uses its C encoder; PromptLists and PStr (list and str
    # subclasses) encode as they are, anything else through to_json. One encoder serves
    # every call without indent (json.dumps would build one a call).
    if indent is None:
        text = _ENCODE(value)
    else:
        text = json.dumps(value, ensure_ascii=False, indent=indent, default=to_json)
    if text.isascii() and "\x7f" not in text:  # the usual case, checked at C speed
        return text
    if text.isprintable():  # every character _UNSAFE names is one isprintable refuses
        return text
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def request_json(request: Request) -> dict[str, Any]:
    out: dict[str, Any] = {
        "label": request.label,
        "turn": request.turn,
        "prompt_list": request.prompt_list,
        "model_input": request.model_input,
        "model_text": request.model_text,
    }
    if request.depends_on:
        out["depends_on_turns"] = list(request.depends_on)
    tokens = getattr(request, "tokens", None)
    if tokens is not None:
        out["tokens"] = {"total": tokens.total, "exact": tokens.exact, "method": tokens.method,
                         "sections": dict(tokens.sections) if tokens.sections else None}
    truncation = getattr(request, "truncation", None)
    if truncation is not None:
        out["truncation"] = {"max_seq_len": truncation.max_seq_len,
                             "retrieved": list(truncation.retrieved), "kept": list(truncation.kept),
                             "dropped": list(truncation.dropped), "overflow": truncation.overflow,
                             "steps": [list(step) for step in truncation.steps],
                             "inherited": truncation.inherited, "exact": truncation.exact,
                             "method": truncation.method, "why": truncation.describe()}
    out["wire"] = None  # an API model's HTTP request (core.models.wire), below
    for key, value in request.extra:
        out[key] = value.to_json() if hasattr(value, "to_json") else to_json(value)
    return out


class PromptListJson:
    """``dumps`` of a prompt list, its shared items encoded once.

    A filled prepared template shares every item no row changes (the in-context examples,
    the system prompt) with the template, which is cached and never changed: the same
    objects in every request that uses it. Their JSON is kept by identity (the item held, so
    its id names it); items the fill made, and lists that are not such fills, encode as usual.
    The text is what ``dumps`` of the whole list gives: a list is its items' JSON joined by
    ", " in brackets, and the escapes are per character.
    """

    def __init__(self, limit: int = 1 << 16) -> None:
        self._seen: dict[int, tuple[Any, str]] = {}
        self._limit = limit

    def __call__(self, prompt: Any) -> str:
        source = getattr(prompt, "filled_from", None)
        if source is None or len(source) != len(prompt):
            return dumps(prompt)
        seen = self._seen
        parts = []
        for item, shared in zip(prompt, source):
            if item is not shared:
                parts.append(dumps(item))
                continue
            got = seen.get(id(item))
            if got is None or got[0] is not item:
                if len(seen) >= self._limit:
                    seen.clear()
                got = seen[id(item)] = (item, dumps(item))
            parts.append(got[1])
        return "[" + ", ".join(parts) + "]"


_prompt_list_json = PromptListJson()


def request_text(request: Request) -> str:
    """``dumps(request_json(request))``, its prompt list through :class:`PromptListJson`."""
    fields = request_json(request)
    head = {"label": fields.pop("label"), "turn": fields.pop("turn")}
    prompt = _prompt_list_json(fields.pop("prompt_list"))
    return f'{dumps(head)[:-1]}, "prompt_list": {prompt}, {dumps(fields)[1:]}'


def rows_source_json(pair: Any) -> dict[str, Any] | None:
    """Which route gave the pair's dataset its rows (see ``RowsSource``)."""
    source = getattr(pair.dataset, "rows_source", None)
    return source.to_json() if source is not None else None


def error_json(error: PairError) -> dict[str, Any]:
    out = {"dataset": error.dataset, "model": error.model, "file": error.file,
           "line": error.line, "message": error.message}
    if error.hint:
        out["hint"] = error.hint
    return out


def warning_json(warning: PairWarning | WarningGroup) -> dict[str, Any]:
    """A warning; a group (one message, every place it applies) adds ``count`` and ``applies_to``,
    its ``dataset``/``model`` naming the first place."""
    out: dict[str, Any] = {"dataset": warning.dataset, "model": warning.model, "message": warning.message}
    if isinstance(warning, WarningGroup):
        out["count"] = warning.count
        out["applies_to"] = [{"dataset": d, "model": m} for d, m in warning.applies_to]
    return out


def sample_text(sample: Sample, indent: str) -> str:
    """One sample: its fields on a line, then one compact line per request (fast to write,
    and a request stays greppable)."""
    if type(sample.index) is int and type(sample.source_index) is int and all(
            type(i) is int for i in sample.ice_indices):  # what dumps would write, without it
        head = (f'{{"index": {sample.index}, "source_index": {sample.source_index}, '
                f'"ice_indices": [{", ".join(map(str, sample.ice_indices))}]')
    else:
        head = dumps({"index": sample.index, "source_index": sample.source_index,
                      "ice_indices": list(sample.ice_indices)})[:-1]
    if not sample.requests:
        return head + ', "requests": []}'
    lines = f",\n{indent}  ".join(map(request_text, sample.requests))
    return f'{head}, "requests": [\n{indent}  {lines}\n{indent}]}}'


SAMPLE_INDENT = "        "


class JsonSample:
    """A sample as :func:`write_render_json` writes it: what ``--jobs`` workers send back."""

    def __call__(self, pair: Any, sample: Sample) -> str:
        return sample_text(sample, SAMPLE_INDENT)


def write_render_json(result: RenderResult, out: TextIO,
                      samples_of=lambda pair: pair.samples()) -> RenderResult:
    """Write the document sample by sample, so memory stays flat on large renders.

    A pair that fails part-way keeps what was written and gains an error entry.
    Returns the result with those late errors and warnings added.
    """
    out.write("{\n")
    out.write(f'  "schema": {dumps(SCHEMA)},\n')
    out.write(f'  "config": {dumps(result.config)},\n')
    out.write('  "renders": [')
    late_errors: list[PairError] = []
    lengths = LengthsCollector()
    samples_of = lengths.wrap(samples_of)
    for p, pair in enumerate(result.pairs):
        out.write(",\n    {" if p else "\n    {")
        head = {"dataset": pair.dataset_abbr, "model": pair.model_abbr,
                "model_kind": pair.model_kind, "inferencer": pair.inferencer,
                "rows_source": rows_source_json(pair)}
        for key, value in head.items():
            out.write(f"\n      {dumps(key)}: {dumps(value)},")
        out.write('\n      "samples": [')
        try:
            for s, sample in enumerate(samples_of(pair)):
                out.write(",\n        " if s else "\n        ")
                text = sample.text if isinstance(sample, Serialized) else sample_text(sample, SAMPLE_INDENT)
                out.write(text)
        except RenderError as exc:
            late_errors.append(stopped_error(pair, exc))
        out.write(f'\n      ],\n      "lengths": {dumps(lengths.summary(pair).summary())}\n    }}')
    out.write("\n  ],\n" if result.pairs else "],\n")
    result.errors.extend(late_errors)
    collect_warnings(result)
    _write_list(out, "errors", (error_json(e) for e in result.errors), last=False)
    _write_list(out, "warnings", (warning_json(g) for g in group_warnings(result.warnings)), last=True)
    out.write("}\n")
    return result


def stopped_error(pair: Any, exc: RenderError) -> PairError:
    """A pair that failed part-way: its error, pointing at the failure or the dataset."""
    where = error_source(exc, pair.dataset, pair.model_spec)
    return PairError(pair.dataset_abbr, pair.model_abbr, f"{exc.message} (rendering stopped there)",
                     where.file, where.line, exc.hint)


def collect_warnings(result: RenderResult) -> RenderResult:
    """Add the warnings the pairs found while rendering (after the samples were written)."""
    found = [PairWarning(pair.dataset_abbr, pair.model_abbr, m)
             for pair in result.pairs for m in pair.notes.messages]
    result.warnings = _merge_warnings(result.warnings, found)
    return result


def _merge_warnings(first: list[PairWarning], more: Iterable[PairWarning]) -> list[PairWarning]:
    seen = {(w.dataset, w.model, w.message) for w in first}
    merged = list(first)
    for w in more:
        if (w.dataset, w.model, w.message) not in seen:
            seen.add((w.dataset, w.model, w.message))
            merged.append(w)
    return merged


def _write_list(out: TextIO, key: str, items: Iterable[dict], last: bool) -> None:
    items = [dumps(i) for i in items]
    body = "[\n    " + ",\n    ".join(items) + "\n  ]" if items else "[]"
    out.write(f'  "{key}": {body}')
    out.write("\n" if last else ",\n")


def render_document(result: RenderResult) -> dict[str, Any]:
    """The whole document as a dict (for tests and small renders)."""
    buffer = io.StringIO()
    write_render_json(result, buffer)
    return json.loads(buffer.getvalue())

