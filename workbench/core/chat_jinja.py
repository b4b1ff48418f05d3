"""The Jinja side of chat templates: transformers' sandboxed environment, written anew.

Split from :mod:`workbench.core.chat_template` so that jinja2 is imported only when a
chat template is actually rendered (most renders never need one).
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache, wraps
from typing import Any, ClassVar

import jinja2
import jinja2.ext
import jinja2.nodes
import jinja2.sandbox
import jinja2.utils
from jinja2.sandbox import ImmutableSandboxedEnvironment

from . import chat_template as _data
from .chat_template import _TEMPLATE_FILENAME, ChatTemplate, ChatTemplateError

# -- the environment -----------------------------------------------------------------


class _GenerationTag(jinja2.ext.Extension):
    """``{% generation %}…{% endgeneration %}``: transformers tracks assistant spans; the text is the body."""

    tags: ClassVar[set[str]] = {"generation"}

    def parse(self, parser):  # type: ignore[no-untyped-def]
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller):  # type: ignore[no-untyped-def]
        return caller()


class _TemplateRaised(jinja2.exceptions.TemplateError):
    """What ``raise_exception`` raises (transformers raises a plain TemplateError)."""


def _raise_exception(message: Any) -> None:
    raise _TemplateRaised(message)


def _tojson(x: Any, ensure_ascii: bool = False, indent: Any = None, separators: Any = None,
            sort_keys: bool = False) -> str:
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                      sort_keys=sort_keys)


def _strftime_now(fmt: str) -> str:
    return _data.clock().strftime(fmt)


class _TemplateDict:
    """``dict(...)`` for templates, without the class itself (no attribute escapes)."""

    def __call__(self, *args: Any, **kwargs: Any) -> dict:
        return dict(*args, **kwargs)

    def fromkeys(self, *args: Any, **kwargs: Any) -> dict:
        return dict.fromkeys(*args, **kwargs)


def _check_name(name: Any) -> None:
    if isinstance(name, str) and name.startswith("_"):
        raise jinja2.exceptions.SecurityError(
            f"Chat templates cannot store underscore-prefixed attributes on a namespace, but got {name!r}. "
            "Please rename the attribute."
        )


class _TemplateNamespace(jinja2.utils.Namespace):
    def __init__(*args: Any, **kwargs: Any) -> None:
        self, rest = args[0], args[1:]
        attrs = dict(*rest, **kwargs)
        for name in attrs:
            _check_name(name)
        jinja2.utils.Namespace.__init__(self, attrs)

    def __setitem__(self, name: str, value: Any) -> None:
        _check_name(name)
        jinja2.utils.Namespace.__setitem__(self, name, value)


# -- bounds -------------------------------------------------------------------------------
# A chat template comes with a model folder nobody here wrote.  transformers' sandbox keeps
# it from Python's internals but not from the memory or the clock: `'a' * 10**10`, a
# doubling loop, or `range(100000)` nested in itself.  These bounds are far above what any
# real template builds, so real templates render exactly as before.

#: The most characters (or items) a template may build in one value, or write in all.
MAX_TEMPLATE_SIZE = 16 * 1024 * 1024
#: The most loop steps over ``range(...)`` one render may take, all ranges together.
MAX_RANGE_STEPS = 1_000_000

_budget = threading.local()


def _refuse_size(what: str, size: int) -> None:
    raise jinja2.exceptions.SecurityError(
        f"{what} would make {size:,} characters or items; the sandbox allows {MAX_TEMPLATE_SIZE:,}")


def _check_args(args: Iterable[Any]) -> None:
    for arg in args:
        if type(arg) is int and abs(arg) > MAX_TEMPLATE_SIZE:
            _refuse_size(f"an argument of {arg:,}", abs(arg))


_LONG_NUMBER = re.compile(r"\d{8,}")


def _check_format(fmt: Any) -> None:
    """A width or precision in a format string ('%1000000000s', '{:>1000000000}') is a size too."""
    if isinstance(fmt, str):
        for digits in _LONG_NUMBER.findall(fmt):
            size = int(digits[:19])  # at least as large as the number, whatever its length
            if size > MAX_TEMPLATE_SIZE:
                _refuse_size(f"the format width {digits[:19]}", size)


def _bounded_range(*args: Any) -> range:
    steps = jinja2.sandbox.safe_range(*args)  # refuses a range of more than 100,000 steps
    _budget.steps = getattr(_budget, "steps", 0) + len(steps)
    if _budget.steps > MAX_RANGE_STEPS:
        raise jinja2.exceptions.SecurityError(
            f"the template's loops over range() take more than {MAX_RANGE_STEPS:,} steps")
    return steps


def _bounded_filter(function: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(function)  # keeps jinja's pass_context/pass_environment marks
    def call(*args: Any, **kwargs: Any) -> Any:
        _check_args((*args, *kwargs.values()))
        if function.__name__ == "do_format" and args:
            _check_format(args[0])
        return function(*args, **kwargs)

    return call


class _Sandbox(ImmutableSandboxedEnvironment):
    """transformers' sandbox, with sizes bounded and unsafe attributes refused at once."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def unsafe_undefined(self, obj: Any, attribute: str) -> Any:
        # jinja returns an Undefined that prints as '' and fails only when used further:
        # `{{ cycler.__init__ }}` would render empty; say what was refused instead.
        raise jinja2.exceptions.SecurityError(
            f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe.")

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        sized = (str, list, tuple)
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, sized) and type(times) is int and len(seq) * times > MAX_TEMPLATE_SIZE:
                    _refuse_size("'*'", len(seq) * times)
            if type(left) is int and type(right) is int and left.bit_length() + right.bit_length() > 65536:
                raise jinja2.exceptions.SecurityError("'*' of numbers this large is refused by the sandbox")
        elif operator == "%":
            _check_format(left)
        elif operator == "+":
            if isinstance(left, sized) and isinstance(right, sized) and \
                    len(left) + len(right) > MAX_TEMPLATE_SIZE:
                _refuse_size("'+'", len(left) + len(right))
        elif operator == "**" and type(right) is int and abs(right) > 1024 and \
                isinstance(left, (int, float)) and abs(left) > 1:
            raise jinja2.exceptions.SecurityError(f"'**' with an exponent of {right:,} is refused "
                                                  "by the sandbox")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _check_args((*args, *kwargs.values()))
        if getattr(__obj, "__name__", None) in ("format", "format_map"):
            method = getattr(__obj, "__wrapped__", __obj)  # jinja wraps str.format for its sandbox
            _check_format(getattr(method, "__self__", None))
        return super().call(__context, __obj, *args, **kwargs)


@lru_cache(maxsize=1)
def _environment() -> ImmutableSandboxedEnvironment:
    env = _Sandbox(
        trim_blocks=True, lstrip_blocks=True, extensions=[_GenerationTag, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = _tojson
    env.filters = {name: _bounded_filter(f) for name, f in env.filters.items()}
    env.globals["range"] = _bounded_range
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    env.globals["dict"] = _TemplateDict()
    env.globals["namespace"] = _TemplateNamespace
    return env


@lru_cache(maxsize=64)
def _compiled(source: str) -> jinja2.Template:
    env = _environment()
    code = env.compile(source, name=None, filename=_TEMPLATE_FILENAME)
    return env.template_class.from_code(env, code, env.make_globals(None), None)


def compile_template(template: ChatTemplate) -> jinja2.Template:
    """The compiled template, or a :class:`ChatTemplateError` pointing at the bad line."""
    try:
        return _compiled(template.source)
    except jinja2.exceptions.TemplateSyntaxError as exc:
        raise ChatTemplateError(f"syntax error: {exc.message}", template=template,
                                template_line=exc.lineno,
                                hint="the chat template is not valid Jinja") from None


def _template_line(tb: Any) -> int | None:
    """The last line of the template on the traceback (Jinja rewrites frames to template lines)."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == _TEMPLATE_FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


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


def _messages(messages: Iterable[Mapping[str, Any]]) -> list[dict]:
    out = []
    for message in messages:
        plain = _plain({k: v for k, v in message.items() if v is not None})
        reasoning = next((plain[k] for k in _REASONING_FIELDS if plain.get(k) is not None), None)
        if reasoning is not None:
            plain = {"thinking": reasoning, **plain, "reasoning_content": reasoning}
        out.append(plain)
    return out


def render(
    template: ChatTemplate,
    messages: Iterable[Mapping[str, Any]],
    *,
    add_generation_prompt: bool = True,
    special_tokens: Mapping[str, str] | None = None,
    kwargs: Mapping[str, Any] | None = None,
) -> str:
    """:func:`workbench.core.chat_template.render_chat_template` (documented there), in the
    module that imports jinja2."""
    chat = _messages(messages)
    if not chat:
        raise ChatTemplateError("Cannot apply chat template to an empty conversation.",
                                template=template, hint="every message of the prompt was empty")
    compiled = compile_template(template)
    tokens = special_tokens if special_tokens is not None else template.default_tokens
    variables: dict[str, Any] = {k: str(v) for k, v in tokens.items() if v is not None}
    variables.update(_plain(dict(kwargs or {})))
    _budget.steps = 0
    try:
        out: list[str] = []
        size = 0
        for chunk in compiled.generate(messages=chat, tools=None, documents=None,
                                       add_generation_prompt=add_generation_prompt, **variables):
            size += len(chunk)
            if size > MAX_TEMPLATE_SIZE:
                _refuse_size("the template's output", size)
            out.append(chunk)
        return "".join(out)
    except _TemplateRaised as exc:
        raise ChatTemplateError(str(exc.message), template=template,
                                template_line=_template_line(sys.exc_info()[2]),
                                hint="the template refuses these messages (raise_exception)") from None
    except jinja2.exceptions.SecurityError as exc:
        raise ChatTemplateError(f"sandbox: {exc}", template=template,
                                template_line=_template_line(sys.exc_info()[2]),
                                hint="chat templates run sandboxed, as transformers runs them") from None
    except jinja2.exceptions.TemplateError as exc:
        raise ChatTemplateError(str(exc), template=template,
                                template_line=_template_line(sys.exc_info()[2])) from None
    except Exception as exc:  # a template can fail in any Python way (TypeError on '+', ...)
        raise ChatTemplateError(f"{type(exc).__name__}: {exc}", template=template,
                                template_line=_template_line(sys.exc_info()[2])) from None


