"""``render --format text``: what the model receives, request by request, in plain text.

Untrusted text passes through :func:`visible`, so an escape sequence in a row shows as
``␛[31m`` instead of recolouring the terminal; ``whitespace`` also shows newlines,
tabs and trailing spaces (``↵ → ·``).  ``raw`` writes the exact characters, for piping
into other tools.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TextIO

from ...core.errors import RenderError
from ...core.inert_text import printable, visible
from ...core.inferencers.sample_form import stand_in
from ...core.models.wire import body_text, wire_of
from ...core.result import CONTINUATION_SEAM, RenderResult, Request, Sample, Stamp, scored_text
from ..render_filter import label_text
from ..stream import Chunks, SampleWriter
from .json_export import collect_warnings, stopped_error
from .stamp_writer import StampWriter

SamplesOf = Callable[[Any], Iterable[Sample]]


_SURROGATE = re.compile("[\ud800-\udfff]")
#: The one character --raw cannot write exactly: UTF-8 has no encoding for a lone surrogate.
RAW_SURROGATE = ("--raw: a lone surrogate (a JSON \\ud800 with no partner) has no UTF-8 encoding; "
                 "written as its escape, \\udXXX")


@dataclass(frozen=True)
class TextOptions:
    whitespace: bool = False  # ↵ · → for newlines, trailing spaces, tabs
    raw: bool = False  # exact characters, nothing escaped (for pipes)

    def show(self, text: str, notes: Any = None) -> str:
        if self.raw:
            if _SURROGATE.search(text) is None:
                return text
            if notes is not None:
                notes.warn(RAW_SURROGATE)
            return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
        return visible(text, whitespace=self.whitespace)

    def name(self, text: str) -> str:
        """Names (abbrs, roles, labels) are never shown with whitespace marks."""
        return self.show(text) if self.raw else visible(text)


def message_body(message: Any) -> tuple[str | None, str]:
    """(role, text) of one API/chat message; a non-text body as JSON."""
    if not isinstance(message, dict):
        return None, message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
    role = message.get("role")
    if role is None and "content" not in message and "prompt" not in message:
        # a content part (VITA's multimodal input is a list of them), shown whole
        return None, json.dumps(message, ensure_ascii=False)
    body = message.get("content", message.get("prompt"))
    if not isinstance(body, str):
        body = json.dumps(body, ensure_ascii=False)
    return (None if role is None else str(role)), body


def request_tags(sample: Sample, request: Request) -> list[str]:
    tags = [f"sample {sample.index}"]
    if request.label is not None:
        tags.append(f"label {label_text(request.label)}")
    if request.turn is not None:
        tags.append(f"turn {request.turn}")
    return tags


#: What a piece of a request's text is: written as is, a name, or untrusted text.
_LITERAL, _NAME, _BODY = 0, 1, 2


def _request_parts(pair: Any, sample: Sample, request: Request) -> tuple[list[str], list[int]]:
    """The pieces of one request's text, unescaped, and what each is (``_LITERAL`` ...)."""
    head = f"{pair.dataset_abbr} · {pair.model_abbr or '(no model)'} · " + " · ".join(
        request_tags(sample, request))
    texts = ["=== ", head, " ===\n"]
    kinds = [_LITERAL, _NAME, _LITERAL]
    value = request.model_input
    if isinstance(value, str):
        texts += (value, "\n")
        kinds += (_BODY, _LITERAL)
    else:
        for message in value:
            role, body = message_body(message)
            if role is not None:
                texts += ("[", role, "]\n")
                kinds += (_LITERAL, _NAME, _LITERAL)
            texts += (body, "\n")
            kinds += (_BODY, _LITERAL)
    if request.model_text is not None:
        texts += ("--- chat template text ---\n", request.model_text, "\n")
        kinds += (_LITERAL, _BODY, _LITERAL)
    for key, value in request.extra:
        if key == "continuation":  # scored after the input (LL, lm-eval): seen, and seen apart
            texts += (f"--- {CONTINUATION_SEAM} ---\n", scored_text(value), "\n")
            kinds += (_LITERAL, _BODY, _LITERAL)
        elif key == "until":
            texts += ("--- until ", json.dumps(value, ensure_ascii=False), " ---\n")
            kinds += (_LITERAL, _BODY, _LITERAL)
    tokens = getattr(request, "tokens", None)
    if tokens is not None:
        parts = " · ".join(f"{k.replace('_', ' ')} {v}" for k, v in tokens.sections)
        line = f"{tokens.label} · {tokens.method}" + (f" · {parts}" if parts else "")
        texts += ("--- ", line, " ---\n")
        kinds += (_LITERAL, _NAME, _LITERAL)
    truncation = getattr(request, "truncation", None)
    if truncation is not None:
        texts += ("--- ", truncation.describe(), " ---\n")
        kinds += (_LITERAL, _NAME, _LITERAL)
    wire = wire_of(request)
    if wire is not None:
        estimated = "" if wire.exact else " (max_tokens from an estimated token count)"
        texts += ("--- ", f"on the wire: POST {wire.endpoint}{estimated}", " ---\n", body_text(wire), "\n")
        kinds += (_LITERAL, _NAME, _LITERAL, _BODY, _LITERAL)
    return texts, kinds


def request_text(pair: Any, sample: Sample, request: Request, options: TextOptions) -> str:
    """One request as the text format writes it.

    Its pieces are joined unescaped and the whole checked once: a request holding nothing to
    escape (almost every one) is written as it is, without a check and a write per piece; any
    other, and ``--whitespace``, escapes piece by piece as before.
    """
    texts, kinds = _request_parts(pair, sample, request)
    joined = "".join(texts)
    if not options.whitespace and (
            _SURROGATE.search(joined) is None if options.raw else printable(joined)):
        return joined
    notes = getattr(pair, "notes", None)
    return "".join(text if kind == _LITERAL else options.name(text) if kind == _NAME
                   else options.show(text, notes) for text, kind in zip(texts, kinds))


@dataclass(frozen=True)
class TextSample:
    """A sample's requests as :func:`write_render_text` writes them: what ``--jobs`` workers send back."""

    options: TextOptions
    #: each pair's writer, in this process (a worker's own)
    _writers: ClassVar[dict[tuple[int, TextOptions], SampleWriter]] = {}

    @property
    def stamps(self) -> bool:
        """Whether a stamp is written from its form (not with --whitespace: trailing spaces
        depend on a value's neighbours)."""
        return not self.options.whitespace

    def __call__(self, pair: Any, sample: Sample | Stamp) -> str:
        key = (id(pair), self.options)
        writer = self._writers.get(key)
        if writer is None:
            writer = self._writers[key] = self.writer(pair)
        return writer.text(sample)

    def writer(self, pair: Any, utf8: bool = False) -> SampleWriter:
        """The samples and stamps of ``pair`` as this writes them (stamps from their forms: see
        stamp_writer.py, where :attr:`stamps`); with ``utf8``, a stamp as its UTF-8 bytes."""
        usual = lambda sample: "".join([request_text(pair, sample, r, self.options)  # noqa: E731
                                        for r in sample.requests])
        if not self.stamps:
            return SampleWriter(usual)
        return SampleWriter(usual, StampWriter(usual, _escaped(self.options), stand_in, utf8))


def _escaped(options: TextOptions) -> Callable[[list[str]], list[str] | None]:
    """A stamp's values as ``options.show`` writes them (see stamp_writer.py): character by
    character, so a value's text is the same wherever it is; with ``--raw``, a lone surrogate
    (which warns) is left to the usual way."""
    if options.raw:
        return lambda values: None if any(_SURROGATE.search(v) for v in values) else values
    return lambda values: values if printable("".join(values)) else [visible(v) for v in values]


def write_render_text(result: RenderResult, out: TextIO,
                      samples_of: SamplesOf = lambda pair: pair.samples(),
                      options: TextOptions | None = None) -> RenderResult:
    """Every request of every pair; a pair that fails part-way gains an error entry."""
    options = options or TextOptions()
    text_of = TextSample(options)
    # a sample's text held until about 64 KB are, then written in one (as bytes to a UTF-8 file:
    # a stamp's constant pieces are encoded once a form)
    buffered = Chunks(out, raw=True)
    try:
        for pair in result.pairs:
            writer = text_of.writer(pair, buffered.raw)
            try:
                for sample in samples_of(pair):
                    buffered.write(writer.text(sample))
            except RenderError as exc:
                result.errors.append(stopped_error(pair, exc))
    finally:
        buffered.flush()
    return collect_warnings(result)

