"""The JSON of the core's values (strings, prompt lists, requests, samples) as ``json.dumps``
writes them, made fast for exports of hundreds of thousands of requests.

May import: the core and the other headless modules (:mod:`.stamp_writer` among them); not tui
(the other front end), commands or ``cli``.
"""

from __future__ import annotations

import json
import re
import threading
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from ...core.inferencers.sample_form import stand_in
from ...core.reference import reference
from ...core.result import Request, Sample, Stamp
from ...core.templates.prompt_list import to_json
from ..stream import SampleWriter
from .stamp_writer import StampWriter

# Characters JSON may carry raw but a terminal would act on (DEL, C1 controls, bidi
# overrides, zero-width and line/paragraph separators), and lone surrogates (a row's
# "\ud800", which UTF-8 cannot carry): always written as \uXXXX.
_UNSAFE = re.compile("[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


_threads = threading.local()  # each thread's C encoder (its circular-reference marks are its own)


def _encoder() -> Any:
    """``JSONEncoder(ensure_ascii=False, default=to_json)``'s C encoder, built once a thread:
    ``JSONEncoder.encode`` builds a new one (and its closures) every call, a third of the cost of
    a request's small values. Its marks are cleared when an encode fails part-way, as json's own
    encoder would be dropped."""
    marks: dict = {}
    if c_make_encoder is None:  # no C accelerator: json's own, as dumps would
        plain = json.JSONEncoder(ensure_ascii=False, default=to_json)
        encoder = lambda value, _level: plain.iterencode(value)  # noqa: E731
    else:
        encoder = c_make_encoder(marks, to_json, encode_basestring, None, ": ", ", ", False, False, True)
    _threads.encoder, _threads.marks = encoder, marks
    return encoder


def dumps(value: Any, indent: int | None = None) -> str:
    """``json.dumps`` with non-ASCII text as it is and _UNSAFE characters written as \\uXXXX.

    PromptLists and PStr (list and str subclasses) encode as they are, anything else through
    ``to_json``. One Python call for the usual values: the export makes hundreds of thousands.
    """
    if isinstance(value, str):
        text = encode_basestring(value)
    elif value is None:
        return "null"
    elif indent is None:
        try:
            encoder = _threads.encoder
        except AttributeError:
            encoder = _encoder()
        try:
            text = "".join(encoder(value, 0))
        except BaseException:
            _threads.marks.clear()
            raise
    else:
        text = json.dumps(value, ensure_ascii=False, indent=indent, default=to_json)
    # the usual case checked at C speed; every character _UNSAFE names is one isprintable refuses
    if (text.isascii() and "\x7f" not in text) or text.isprintable():
        return text
    return _UNSAFE.sub(_escape, text)


def prompt_list_text(prompt: Any) -> str:
    """``dumps`` of a prompt list. A prepared template's fill shares every item no row changes
    (the system prompt, the in-context examples) with the template, which is cached and never
    changed: the JSON of the template's items is kept with it, and a fill encodes only the items
    its row changed (a list's JSON is its items' joined by ", " in brackets; the escapes are per
    character). A row the interpreter renders (one a form refuses) then encodes like a stamp's."""
    source = getattr(prompt, "filled_from", None)
    if source is None or len(source) != len(prompt) or reference():
        return dumps(prompt)
    known = source.__dict__.get("items_json")
    if known is None:
        known = source.items_json = [dumps(item) for item in list.__iter__(source)]
    return "[" + ", ".join([text if mine is theirs else dumps(mine)
                            for mine, theirs, text in zip(prompt, source, known)]) + "]"


def escaped_values(values: list[str]) -> list[str]:
    """Each value as ``dumps`` writes it inside a string (without its quotes): the usual values
    joined by a NUL, escaped and checked in one C call each, and cut at the NUL's escape (the
    escapes are per character; no value of those holds a NUL, nor a backslash, whose escape
    could run into a cut's)."""
    joined = "\x00".join(values)
    if values and joined.count("\x00") == len(values) - 1 and "\\" not in joined:
        text = encode_basestring(joined)
        if (text.isascii() and "\x7f" not in text) or text.isprintable():
            return text[1:-1].split("\\u0000")
    return [dumps(v)[1:-1] for v in values]


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
        out["tokens"] = _tokens_json(tokens)
    truncation = getattr(request, "truncation", None)
    if truncation is not None:
        out["truncation"] = _truncation_json(truncation)
    out["wire"] = None  # an API model's HTTP request (core.models.wire), below
    for key, value in request.extra:
        out[key] = _extra_json(value)
    return out


def _tokens_json(tokens: Any) -> dict[str, Any]:
    return {"total": tokens.total, "exact": tokens.exact, "method": tokens.method,
            "sections": dict(tokens.sections) if tokens.sections else None}


def _tokens_text(tokens: Any) -> str:
    """``dumps(_tokens_json(tokens))``, written directly for the usual count (no sections)."""
    total, exact = tokens.total, tokens.exact
    if type(total) is int and type(exact) is bool and not tokens.sections:
        return (f'{{"total": {total}, "exact": {"true" if exact else "false"}, '
                f'"method": {dumps(tokens.method)}, "sections": null}}')
    return dumps(_tokens_json(tokens))


def _truncation_json(truncation: Any) -> dict[str, Any]:
    return {"max_seq_len": truncation.max_seq_len,
            "retrieved": list(truncation.retrieved), "kept": list(truncation.kept),
            "dropped": list(truncation.dropped), "overflow": truncation.overflow,
            "steps": [list(step) for step in truncation.steps],
            "inherited": truncation.inherited, "exact": truncation.exact,
            "method": truncation.method, "why": truncation.describe()}


def _truncation_text(truncation: Any) -> str:
    """``dumps(_truncation_json(truncation))``, written directly where every number is an int
    (a meta-template model's every request carries one: a dict built and walked was ~6 µs)."""
    retrieved, kept, dropped = truncation.retrieved, truncation.kept, truncation.dropped
    steps = truncation.steps
    limit, inherited, exact, overflow = (truncation.max_seq_len, truncation.inherited, truncation.exact,
                                         truncation.overflow)
    numbers = (limit, inherited, *retrieved, *kept, *dropped, *(n for step in steps for n in step))
    if not (type(exact) is bool and type(overflow) is bool and all(type(n) is int for n in numbers)):
        return dumps(_truncation_json(truncation))
    ints = ", ".join
    return (f'{{"max_seq_len": {limit}, "retrieved": [{ints(map(str, retrieved))}], '
            f'"kept": [{ints(map(str, kept))}], "dropped": [{ints(map(str, dropped))}], '
            f'"overflow": {"true" if overflow else "false"}, '
            f'"steps": [{ints(f"[{ints(map(str, step))}]" for step in steps)}], '
            f'"inherited": {inherited}, "exact": {"true" if exact else "false"}, '
            f'"method": {dumps(truncation.method)}, "why": {dumps(truncation.describe())}}}')


def _extra_json(value: Any) -> Any:
    return value.to_json() if hasattr(value, "to_json") else to_json(value)


# the keys a request always has, before its extras (an extra of the same name takes its place)
_FIXED = frozenset(("label", "turn", "prompt_list", "model_input", "model_text", "depends_on_turns",
                    "tokens", "truncation"))


def request_text(request: Request) -> str:
    """``dumps(request_json(request))``: see :func:`request_parts`."""
    parts: list[str] = []
    request_parts(request, parts)
    return "".join(parts)


def request_parts(request: Request, parts: list[str]) -> None:
    """Add the pieces of ``dumps(request_json(request))`` to ``parts``, its fields encoded one by
    one: no dict built and walked per request, and nothing joined that the caller will join
    again."""
    extra = request.extra
    if extra and any(not isinstance(key, str) or key in _FIXED for key, _ in extra):
        fields = request_json(request)  # an extra replaces a field: the general way keeps its place
        head = {"label": fields.pop("label"), "turn": fields.pop("turn")}
        prompt = dumps(fields.pop("prompt_list"))
        parts += [dumps(head)[:-1], ', "prompt_list": ', prompt, ", ", dumps(fields)[1:]]
        return
    label, turn = request.label, request.turn
    if label is None and turn is None:
        parts.append('{"label": null, "turn": null, "prompt_list": ')
    else:
        parts += ['{"label": ', dumps(label), ', "turn": ', dumps(turn), ', "prompt_list": ']
    parts += [prompt_list_text(request.prompt_list), ', "model_input": ', dumps(request.model_input),
              ', "model_text": ', dumps(request.model_text)]
    if request.depends_on:
        parts += [', "depends_on_turns": ', dumps(list(request.depends_on))]
    tokens = getattr(request, "tokens", None)
    if tokens is not None:
        parts += [', "tokens": ', _tokens_text(tokens)]
    truncation = getattr(request, "truncation", None)
    if truncation is not None:
        parts += [', "truncation": ', _truncation_text(truncation)]
    if not extra:
        parts.append(', "wire": null}')
    else:
        tail: dict[str, Any] = {"wire": None}
        for key, value in extra:
            tail[key] = _extra_json(value)
        parts += [", ", dumps(tail)[1:]]


def sample_text(sample: Sample, indent: str) -> str:
    """One sample: its fields on a line, then one compact line per request (fast to write,
    and a request stays greppable)."""
    parts: list[str] = []
    sample_parts(sample, indent, parts)
    return "".join(parts)


def sample_parts(sample: Sample, indent: str, parts: list[str]) -> None:
    """Add the pieces of :func:`sample_text` to ``parts`` (the writer joins them 64 KB at a time)."""
    if type(sample.index) is int and type(sample.source_index) is int and all(
            type(i) is int for i in sample.ice_indices):  # what dumps would write, without it
        parts.append(f'{{"index": {sample.index}, "source_index": {sample.source_index}, '
                     f'"ice_indices": [{", ".join(map(str, sample.ice_indices))}]')
    else:
        parts.append(dumps({"index": sample.index, "source_index": sample.source_index,
                            "ice_indices": list(sample.ice_indices)})[:-1])
    if not sample.requests:
        parts.append(', "requests": []}')
        return
    between = f",\n{indent}  "
    parts.append(f', "requests": [\n{indent}  ')
    for r, request in enumerate(sample.requests):
        if r:
            parts.append(between)
        request_parts(request, parts)
    parts.append(f"\n{indent}]}}")


SAMPLE_INDENT = "        "


def json_stamps(utf8: bool = False) -> StampWriter:
    """Stamps written as :func:`sample_text` writes samples (see stamp_writer.py); with ``utf8``,
    as its UTF-8 bytes."""
    return StampWriter(lambda sample: sample_text(sample, SAMPLE_INDENT), escaped_values,
                       lambda n: escaped_values([stand_in(n)])[0], utf8)


class JsonSample:
    """A sample as :func:`write_render_json` writes it: what ``--jobs`` workers send back."""

    stamps = True  # a stamp is written from its form (each worker process keeps its own writer)
    _writer: SampleWriter | None = None

    def __call__(self, pair: Any, sample: Sample | Stamp) -> str:
        if JsonSample._writer is None:
            JsonSample._writer = SampleWriter(lambda s: sample_text(s, SAMPLE_INDENT), json_stamps())
        return JsonSample._writer.text(sample)
