"""Applying a chat template to a request's messages, as ``tokenizer.apply_chat_template`` does:
by the outline recorded for the messages' shape (:mod:`.chat_outline`) where one serves and
was checked against a real run, else by running the template in the sandbox
(:mod:`.chat_sandbox`). ``chat_layout`` gives a text by its outline alone, with where each
content went, for the stamps' forms.

May import: jinja2, :mod:`.chat_sandbox`, :mod:`.chat_outline`, :mod:`.chat_template`,
:mod:`.sandbox_bounds`, the top of ``workbench.core``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import accumulate
from typing import Any

import jinja2

from ..reference import reference
from . import sandbox_bounds as bounds
from .chat_outline import NONCE, ChatOutline, Inspected, Text, TracedWork, joined, memo_of
from .chat_sandbox import MAX_TEMPLATE_SIZE, TemplateRaised, compile_template, render_clock, template_line
from .chat_template import ChatTemplate, ChatTemplateError

# -- the data the template sees ---------------------------------------------------------


def _plain(value: Any) -> Any:
    """Plain JSON-like copies (transformers rebuilds template inputs from plain types)."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Mapping):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return f"<{type(value).__name__}>"


_REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")
_REASONING_KEYS = frozenset(_REASONING_FIELDS)


def _messages(messages: Iterable[Mapping[str, Any]]) -> list[dict]:
    out = []
    for message in messages:
        if type(message) is dict and all(type(k) is str and type(v) is str for k, v in message.items()):
            plain = message.copy()  # already plain (the usual role and content): copied, not walked
        else:
            plain = _plain({k: v for k, v in message.items() if v is not None})
        if _REASONING_KEYS.isdisjoint(plain):
            out.append(plain)
            continue
        reasoning = next((plain[k] for k in _REASONING_FIELDS if plain.get(k) is not None), None)
        if reasoning is not None:
            plain = {"thinking": reasoning, **plain, "reasoning_content": reasoning}
        out.append(plain)
    return out


def render_chat_template(
    template: ChatTemplate,
    messages: Iterable[Mapping[str, Any]],
    *,
    add_generation_prompt: bool = True,
    special_tokens: Mapping[str, str | None] | None = None,
    kwargs: Mapping[str, Any] | None = None,
    clock: Callable[[], datetime] | None = None,
    reuse: bool = True,
) -> str:
    """``tokenizer.apply_chat_template(messages, tokenize=False, ...)`` without transformers.

    ``special_tokens`` are the tokenizer's named tokens (``bos_token`` ...); a token whose
    value is ``None`` stays undefined.  ``kwargs`` (e.g. a VLLM model's
    ``chat_template_kwargs``) override them, as in transformers.  ``clock`` is what
    ``strftime_now`` reads (``datetime.now`` for today's date); without one a template that
    asks for the date fails, located.  ``reuse`` (the default) splices the contents into the
    output recorded for messages of this shape (:mod:`.chat_outline`): the same text, one
    join instead of a render; ``reuse=False`` always runs the template.
    """
    request = _request(template, messages, add_generation_prompt, special_tokens, kwargs, clock)
    if reuse and not reference():  # (the reference mode runs every template: core/reference.py)
        spliced = _spliced(request)
        if spliced is not None:
            return spliced
    return _rendered(request)


@dataclass(frozen=True)
class ChatLayout:
    """A chat template's output as its shape's outline makes it: the contents copied in as they
    are, whatever they hold, so a text made of these contents' parts is made the same way for
    any other contents of the same shape within the bounds."""

    text: str
    fits: Callable[[int], bool]  # the longest content -> whether the outline's splice holds
    #: where each content starts in ``text``, in message order (None: a content is copied in
    #: more than once, or not at all, or out of order)
    places: tuple[int, ...] | None


def chat_layout(
    template: ChatTemplate,
    messages: Iterable[Mapping[str, Any]],
    *,
    add_generation_prompt: bool = True,
    special_tokens: Mapping[str, str | None] | None = None,
    kwargs: Mapping[str, Any] | None = None,
    clock: Callable[[], datetime] | None = None,
) -> ChatLayout | None:
    """``render_chat_template`` of ``messages`` by their shape's outline alone; None where the
    template is not spliced (it looks at a content, transforms one or reads the clock)."""
    if reference():
        return None
    request = _request(template, messages, add_generation_prompt, special_tokens, kwargs, clock)
    found = _outline_of(request)
    if found is None:
        return None
    outline, contents = found
    if outline.transformed or outline.clock_reads or not outline.fits(max(map(len, contents))):
        return None
    text = outline.splice(contents)
    order = [index for _, index in sorted(outline.slots)]
    places = None
    if order == list(range(len(contents))):
        filled = list(outline.pieces)
        for at, index in outline.slots:
            filled[at] = contents[index]
        starts = list(accumulate(map(len, filled), initial=0))
        places = tuple(starts[at] for at, _ in sorted(outline.slots))
    return ChatLayout(text, outline.fits, places)


def _request(template: ChatTemplate, messages: Iterable[Mapping[str, Any]], add_generation_prompt: bool,
             special_tokens: Mapping[str, str | None] | None, kwargs: Mapping[str, Any] | None,
             clock: Callable[[], datetime] | None) -> _Request:
    """One render's template and inputs, as the template will see them."""
    messages = messages if isinstance(messages, list) else list(messages)
    if not messages:
        raise ChatTemplateError("Cannot apply chat template to an empty conversation.",
                                template=template, hint="every message of the prompt was empty")
    compiled = compile_template(template)
    tokens = special_tokens if special_tokens is not None else template.default_tokens
    variables: dict[str, Any] = {k: str(v) for k, v in tokens.items() if v is not None}
    # apply_chat_template's own tools/documents parameters: chat_template_kwargs may fill them
    variables.update(tools=None, documents=None)
    variables.update(_plain(dict(kwargs or {})))
    return _Request(template, compiled, messages, add_generation_prompt, variables, clock)


class _Request:
    """One render's template and inputs (the plain copy of the messages made only if needed:
    a spliced render never needs it)."""

    __slots__ = ("_chat", "add_generation_prompt", "clock", "compiled", "messages", "template", "variables")

    def __init__(self, template: ChatTemplate, compiled: jinja2.Template, messages: list[Mapping[str, Any]],
                 add_generation_prompt: bool, variables: dict[str, Any],
                 clock: Callable[[], datetime] | None) -> None:
        self.template, self.compiled, self.messages = template, compiled, messages
        self.add_generation_prompt, self.variables, self.clock = add_generation_prompt, variables, clock
        self._chat: list[dict] | None = None

    @property
    def chat(self) -> list[dict]:
        """The messages as the template sees them (plain copies, reasoning fields aligned)."""
        if self._chat is None:
            self._chat = _messages(self.messages)
        return self._chat

    def generate(self, messages: list[dict]) -> Iterator[Any]:
        return self.compiled.generate(messages=messages, add_generation_prompt=self.add_generation_prompt,
                                      **self.variables)


_ROLE_CONTENT = ("role", "content")


def _shape(request: _Request) -> tuple[list[str], Any] | None:
    """The contents, and the key of everything else the template sees; None if a content is
    not a string (a list of parts: rendered for real)."""
    contents: list[str] = []
    roles: list[str] = []
    for message in request.messages:  # the usual {"role": str, "content": str}, read as it is
        if type(message) is not dict or tuple(message) != _ROLE_CONTENT:
            break
        role, content = message["role"], message["content"]
        if type(role) is not str or type(content) is not str:
            break
        roles.append(role)
        contents.append(content)
    else:
        return contents, ("role-content", tuple(roles))
    contents = []
    shape = []
    for plain in request.chat:
        content = plain.get("content")
        if type(content) is str:
            contents.append(content)
            plain = {**plain, "content": None}  # None never reaches a template: _messages drops it
        elif "content" in plain:
            return None
        shape.append(plain)
    return contents, repr(shape)


def _spliced(request: _Request) -> str | None:
    """The render from this shape's outline (recorded now if new), or None: render for real."""
    found = _outline_of(request)
    if found is None:
        return None
    outline, contents = found
    if not outline.fits(max(map(len, contents))):
        return None  # a bound could be reached: the real render says so, exactly
    return outline.splice(contents)


def _outline_of(request: _Request) -> tuple[ChatOutline, list[str]] | None:
    """This shape's outline (recorded now if new) and the request's contents; None: the
    template is rendered for real."""
    memo = memo_of(request.template.source)
    if memo.hopeless:
        return None
    shaped = _shape(request)
    if shaped is None or not shaped[0]:
        return None
    contents, shape = shaped
    key = repr((shape, request.add_generation_prompt, request.variables, request.clock is None))
    outline = memo.shapes.get(key, False)
    if outline is None:
        return None
    if outline is False or not outline.same_clock(request.clock):  # type: ignore[union-attr]
        outline = _recorded(request, key)
        if outline is not None and not _witnessed(outline, request, contents):
            outline = None
        memo.remember(key, outline)
        if outline is None:
            return None
    assert isinstance(outline, ChatOutline)
    return outline, contents


def _witnessed(outline: ChatOutline, request: _Request, contents: list[str]) -> bool:
    """Whether the shape's first splice equals the template run for real on the same messages:
    the run-time check every fast path has (a outline that differs, or a first request it
    cannot check, is never used: the shape is rendered for real from then on)."""
    if not outline.fits(max(map(len, contents))):
        return False
    try:
        return outline.splice(contents) == _rendered(request)
    except ChatTemplateError:
        return False


def _recorded(request: _Request, key: str) -> ChatOutline | None:
    """Run the template once with stand-ins for the contents; None if it looks at one (or
    fails in any way: the real render then fails as it always did)."""
    source = request.template.source
    if "autoescape" in source or NONCE in source or NONCE in key:
        return None  # escaping would transform contents; a mark must be nobody's text
    stand_ins = []
    slot = 0
    for message in request.chat:
        if "content" in message:
            message = {**message, "content": Text.slot(slot)}
            slot += 1
        stand_ins.append(message)
    work = TracedWork()
    bounds.begin(work)
    render_clock.clock = request.clock
    try:
        chunks = [work.unmarked(chunk) for chunk in request.generate(stand_ins)]
        if work.inspected is not None:
            return None
        return ChatOutline.of(joined(chunks), work)
    except Inspected:
        return None
    except Exception:  # the real render raises it, located
        return None
    finally:
        render_clock.clock = None
        bounds.end()


def _rendered(request: _Request) -> str:
    """The template run on the messages themselves."""
    template = request.template
    bounds.begin()
    render_clock.clock = request.clock
    try:
        out: list[str] = []
        size = 0
        for chunk in request.generate(request.chat):
            size += len(chunk)
            if size > MAX_TEMPLATE_SIZE:
                raise bounds.refuse_size("the template's output", size)
            out.append(chunk)
        return "".join(out)
    except TemplateRaised as exc:
        raise ChatTemplateError(str(exc.message), template=template,
                                template_line=template_line(sys.exc_info()[2]),
                                hint="the template refuses these messages (raise_exception)") from None
    except jinja2.exceptions.SecurityError as exc:
        raise ChatTemplateError(f"sandbox: {exc}", template=template,
                                template_line=template_line(sys.exc_info()[2]),
                                hint="chat templates run sandboxed, as transformers runs them") from None
    except jinja2.exceptions.TemplateError as exc:
        raise ChatTemplateError(str(exc), template=template,
                                template_line=template_line(sys.exc_info()[2])) from None
    except Exception as exc:  # a template can fail in any Python way (TypeError on '+', ...)
        raise ChatTemplateError(f"{type(exc).__name__}: {exc}", template=template,
                                template_line=template_line(sys.exc_info()[2])) from None
    finally:
        render_clock.clock = None
        bounds.end()
