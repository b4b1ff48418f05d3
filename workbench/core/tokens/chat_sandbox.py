"""The Jinja side of chat templates: transformers' sandboxed environment, written anew: its
hooks, bounds and compiled templates. Applying one to a request's messages is
:mod:`.chat_apply`'s.

Split from :mod:`workbench.core.tokens.chat_template` so that jinja2 is imported only when a
chat template is actually rendered (most renders never need one): the OpenCompass/AISBench
side imports :mod:`.chat_apply` inside the functions that run a chat template
(:mod:`workbench.core.models.model_text`); lm-eval's chat path (:mod:`workbench.core.lmeval.chat`)
at its top, loaded only for an lm-eval task.
May import: jinja2, :mod:`.chat_template`, :mod:`.chat_outline`, :mod:`.sandbox_bounds`, the top
of ``workbench.core``.
"""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import lru_cache, wraps
from typing import Any, ClassVar, cast

import jinja2
import jinja2.compiler
import jinja2.ext
import jinja2.nodes
import jinja2.sandbox
import jinja2.utils
from jinja2.sandbox import ImmutableSandboxedEnvironment

from . import sandbox_bounds as bounds
from .chat_outline import (
    TRANSFORMS,
    Stand,
    Text,
    TracedWork,
    inspected,
    join_with,
    joined,
)
from .chat_template import ChatTemplate, ChatTemplateError

#: The file name compiled template code carries, so an error finds its template line.
TEMPLATE_FILENAME = "<chat template>"

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


class TemplateRaised(jinja2.exceptions.TemplateError):
    """What ``raise_exception`` raises (transformers raises a plain TemplateError)."""


def _raise_exception(message: Any) -> None:
    raise TemplateRaised(message)


def _tojson(x: Any, ensure_ascii: bool = False, indent: Any = None, separators: Any = None,
            sort_keys: bool = False) -> str:
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                      sort_keys=sort_keys)


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
# Every unit of work a template asks for passes through one of the hooks below and is charged
# to the render's budget (see sandbox_bounds): lookups (getattr/getitem), calls, filters, tests,
# operators, comparisons, loop steps (the code generator wraps every loop's iterable), output
# (finalize), ``~`` (the code generator's Concat) and the joins of macro and block output
# (environment.concat).

MAX_TEMPLATE_SIZE = bounds.MAX_TEMPLATE_SIZE


def _lipsum(*args: Any, **kwargs: Any) -> str:
    if type(bounds.current()) is TracedWork:
        inspected("lipsum()")  # random text: a recording would freeze it
    size = bounds.lorem_size(*args, **kwargs)
    if size > MAX_TEMPLATE_SIZE:
        raise bounds.refuse_size("lipsum()", size, up_to=True)
    return jinja2.utils.generate_lorem_ipsum(*args, **kwargs)


#: The clock of the render running on this thread (the core reads none of its own: the caller
#: passes one, the loader's model assets carry ``datetime.now``).
render_clock = threading.local()


def _strftime_now(fmt: str) -> str:
    bounds.check_format(fmt)
    clock: Callable[[], datetime] | None = getattr(render_clock, "clock", None)
    if clock is None:
        raise TemplateRaised("strftime_now: this render was given no clock (today's date is unknown)")
    text = clock().strftime(fmt)
    work = bounds.current()
    if type(work) is TracedWork:
        work.clock_reads.append((fmt, text))  # a recording is reused only while these read the same
    return text


#: Filters that turn their value into text: a container given to one is measured first.
_TEXT_FILTERS = frozenset({
    "capitalize", "center", "e", "escape", "forceescape", "format", "indent", "lower", "pprint",
    "replace", "safe", "string", "striptags", "title", "trim", "truncate", "upper", "urlencode",
    "urlize", "wordcount", "wordwrap", "xmlattr",
})


def _check_filter(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The checks of the filters that can make more than their input; returns the arguments
    to call with (an iterable to join is made a list first, so it is measured once)."""
    value = next(iter(params.values()), None)
    if name in _TEXT_FILTERS:
        bounds.check_text(value, f"the {name} filter")
    if name == "join":
        items = list(value) if isinstance(value, Iterable) and not isinstance(value, (str, bytes)) \
            else [value]
        attribute = params.get("attribute")
        if attribute is None:
            bounds.check_join(items, params.get("d", ""))
        params = {**params, "value": items}
    elif name == "format":  # value % (kwargs or args)
        kwargs = params.get("kwargs") or {}
        bounds.check_formatting(value, kwargs.values() if kwargs else params.get("args", ()),
                                "the format filter", reuses=bool(kwargs))
    elif name == "replace":
        bounds.check_replace(params.get("s"), params.get("old"), params.get("new"), params.get("count"))
    elif name == "indent":
        width = params.get("width", 4)
        bounds.check_lines(params.get("s"), width if type(width) is int else len(str(width)), "indent()")
    elif name == "wordwrap":
        wrap = params.get("wrapstring") or "\n"
        text = params.get("s")
        if isinstance(text, str) and isinstance(wrap, str):
            bounds.check_sum((len(text) * len(wrap),), "wordwrap()", len(text), up_to=True)
    elif name == "tojson":
        bounds.check_json(value, params.get("indent"))
    elif name == "slice":
        slices = params.get("slices")
        if type(slices) is int:
            bounds.current().charge(abs(slices) * 64)
    elif name == "sum":
        items = list(params.get("iterable") or ())
        bounds.check_sum_of(items, params.get("start", 0))
        params = {**params, "iterable": items}
    return params


def _bounded_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    signature = inspect.signature(function) if name in _CHECKED_FILTERS else None
    # jinja passes a context or environment first to some filters; the signature shows it
    # unless the filter is an async variant wrapping a function that takes none
    lead = 1 if jinja2.utils._PassArg.from_obj(function) is not None else 0
    shown = lead and jinja2.utils._PassArg.from_obj(inspect.unwrap(function)) is not None

    @wraps(function)  # keeps jinja's pass_context/pass_environment marks
    def call(*args: Any, **kwargs: Any) -> Any:
        work = bounds.current()
        work.step()
        bounds.check_args((*args, *kwargs.values()))
        work.scan_all(args[lead:])
        work.scan_all(kwargs.values())
        if type(work) is TracedWork:
            stripped = _traced_filter(name, args[lead:], kwargs)
            if stripped is not None:
                return work.made_value(stripped)
        if signature is not None:
            head = args[:lead]
            bound = signature.bind(*(args if shown else args[lead:]), **kwargs)
            bound.apply_defaults()
            params = dict(bound.arguments)
            if shown:
                params.pop(next(iter(params)))
            bound.arguments.update(_check_filter(name, params))
            args = bound.args if shown else (*head, *bound.args)
            kwargs = bound.kwargs
            if name == "join" and type(work) is TracedWork:
                return work.made_value(_traced_join(args[0], bound.arguments))
        return work.made_value(function(*args, **kwargs))

    return call


def _stands(values: Iterable[Any]) -> bool:
    return any(isinstance(v, Stand) for v in values)


#: Filters that may be given a stand-in as they are: ``default`` only asks whether its value
#: is undefined (``isinstance``) and, with ``boolean``, its truth, which the stand-in refuses.
_PASSING_FILTERS = frozenset({"default", "d"})


def _traced_filter(name: str, args: tuple, kwargs: dict[str, Any]) -> Text | None:
    """A filter in a recording: ``trim`` of a content is a transform of its slot; any other
    filter given a stand-in, and ``random``, are refused (None: go on as always)."""
    if name == "random":
        inspected("the random filter")  # a recording would freeze its choice
    if name in _PASSING_FILTERS or (not _stands(args) and not _stands(kwargs.values())):
        return None
    if name == "trim" and type(args[0]) is Text and not _stands(args[1:]) and not _stands(kwargs.values()):
        chars = args[1] if len(args) > 1 else kwargs.get("chars")
        takes = len(args) + len(kwargs) <= 2 and set(kwargs) <= {"chars"}  # do_trim(value, chars=None)
        if takes and (chars is None or type(chars) is str):
            return args[0].transformed("strip", chars)  # do_trim: soft_str(value).strip(chars)
    inspected(f"the {name} filter")


def _traced_join(eval_ctx: Any, params: dict[str, Any]) -> Any:
    """``join`` in a recording (jinja's sync_do_join when not autoescaping): items mapped by
    ``attribute`` once, as it maps them, each made text with ``str``, stand-ins kept."""
    items, separator, attribute = params["value"], params.get("d", ""), params.get("attribute")
    if attribute is not None:
        items = list(map(jinja2.filters.make_attrgetter(eval_ctx.environment, attribute), items))
    if eval_ctx.autoescape and _stands(items):
        inspected("join while autoescaping")
    if not eval_ctx.autoescape:
        return join_with(str(separator), [i if type(i) is Text else str(i) for i in items])
    return jinja2.filters.sync_do_join(eval_ctx, items, separator)


_CHECKED_FILTERS = _TEXT_FILTERS | {"join", "tojson", "slice", "sum"}


#: Tests whose answer for any string is known without looking at it.
_STRING_TESTS = {
    "string": True, "defined": True, "undefined": False, "none": False, "mapping": False,
    "number": False, "integer": False, "float": False, "boolean": False, "true": False,
    "false": False, "callable": False, "iterable": True, "sequence": True, "escaped": False,
}


def _bounded_test(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(function)
    def test(*args: Any, **kwargs: Any) -> Any:
        work = bounds.current()
        work.step()
        work.scan_all(args)
        work.scan_all(kwargs.values())
        if type(work) is TracedWork and (_stands(args) or _stands(kwargs.values())):
            if len(args) == 1 and not kwargs and type(args[0]) is Text and name in _STRING_TESTS:
                return _STRING_TESTS[name]
            inspected(f"the {name} test")
        return function(*args, **kwargs)

    return test


def _check_method(method: Any, args: tuple, kwargs: dict) -> tuple:
    """Checks of the str/bytes methods that can make more than their input (the others
    make at most a few times their input, measured after); returns the arguments to use."""
    target = getattr(method, "__self__", None)
    name = getattr(method, "__name__", None)
    if name in ("format", "format_map"):
        method = getattr(method, "__wrapped__", method)  # jinja wraps str.format for its sandbox
        target = getattr(method, "__self__", target)
        values = (*args, *kwargs.values()) if name == "format" else tuple(
            v for a in args if isinstance(a, Mapping) for v in a.values())
        bounds.check_formatting(target, values, f"{name}()")
    if not isinstance(target, (str, bytes)):
        return args
    if name == "join" and args:
        items = list(args[0])
        bounds.check_join(items, target)
        return (items, *args[1:])
    if name == "replace" and len(args) >= 2:
        bounds.check_replace(target, args[0], args[1], args[2] if len(args) > 2 else kwargs.get("count"))
    elif name == "expandtabs" and isinstance(target, str):
        size = args[0] if args and type(args[0]) is int else kwargs.get("tabsize", 8)
        if type(size) is int and size > 0:
            bounds.check_sum((target.count("\t") * size,), "expandtabs()", len(target), up_to=True)
    elif name == "translate" and args and isinstance(args[0], Mapping):
        longest = max((len(v) for v in args[0].values() if isinstance(v, (str, bytes))), default=1)
        bounds.check_sum((len(target) * longest,), "translate()", up_to=True)
    return args


def _finalize(value: Any) -> Any:
    """Every ``{{ ... }}`` output: a container's text is measured before it is made; in a
    recording, a stand-in is written as its mark."""
    work = bounds.tick()
    if type(value) is not str:
        if type(value) is Text and type(work) is TracedWork:
            return work.sentinel(value)
        bounds.check_text(value, "the output of a container")
    return value


class _Deferred(Stand):
    """``content.strip`` in a recording: called, a transform of the content's slot."""

    __slots__ = ("__self__", "name")

    def __init__(self, text: Text, name: str) -> None:
        self.__self__ = text
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Text:
        chars = args[0] if args else None
        if kwargs or len(args) > 1 or not (chars is None or type(chars) is str):
            inspected(f"{self.name}() with these arguments")
        return self.__self__.transformed(self.name, chars)


def _concat(parts: Iterable[Any]) -> Any:
    """``environment.concat`` (macro and block output): in a recording, output that holds a
    stand-in's mark is a :class:`Text` again, so looking at it is refused too."""
    work = bounds.current()
    if type(work) is TracedWork:
        parts = [work.unmarked(p) for p in parts]
        if Text in map(type, parts):
            return work.made_value(joined(parts))
    return bounds.concatenated(parts)


def _joined(values: Iterable[Any]) -> Any:
    """``a ~ b``: a stand-in is copied as it is; everything else as always."""
    if Text not in map(type, values):
        return bounds.joined(values)
    parts = []
    for value in values:
        if type(value) is not Text:
            bounds.check_text(value, "'~'")
            value = str(value)
        parts.append(value)
    return bounds.current().made_value(joined(parts))


#: What Jinja's generated code passes to every call inside a loop or block (Context.call drops them).
_FRAME_KWARGS = frozenset({"_loop_vars", "_block_vars"})


def _traced_call(obj: Any, args: tuple, kwargs: dict[str, Any]) -> tuple[tuple, Text | None]:
    """A call in a recording: stand-ins may go to macros, ``namespace`` and ``dict`` (which
    keep them) and to ``str.join`` (which copies them); anything else given one looks at it.
    Returns the arguments to go on with, or the ``join`` of stand-ins made."""
    if _stands(args) or _stands(kwargs.values()):
        if not (isinstance(obj, (jinja2.runtime.Macro, _TemplateDict)) or obj is _TemplateNamespace):
            inspected(f"a call of {getattr(obj, '__name__', type(obj).__name__)}")
        return args, None
    target = getattr(obj, "__self__", None)
    if type(target) is str and getattr(obj, "__name__", None) == "join" and len(args) == 1 and not kwargs:
        items = list(args[0])  # a generator is read once: go on with the list
        if Text in map(type, items):
            if not all(type(i) is Text or isinstance(i, str) for i in items):
                inspected("str.join of a content and a non-string")  # str.join raises TypeError
            return args, cast(Text, join_with(target, items))
        return (items,), None
    return args, None


class _CodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja's code generator with the three constructs the sandbox has no hook for routed
    through the environment: ``~``, comparisons, and each loop's iterable."""

    @jinja2.compiler.optimizeconst
    def visit_Concat(self, node: jinja2.nodes.Concat, frame: Any) -> None:
        self.write("environment.wb_joined((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    @jinja2.compiler.optimizeconst
    def visit_Compare(self, node: jinja2.nodes.Compare, frame: Any) -> None:
        self.write("(environment.wb_scanned(")
        self.visit(node.expr, frame)
        self.write(")")
        for op in node.ops:
            self.visit(op, frame)
        self.write(")")

    def visit_Operand(self, node: jinja2.nodes.Operand, frame: Any) -> None:
        self.write(f" {jinja2.compiler.operators[node.op]} environment.wb_scanned(")
        self.visit(node.expr, frame)
        self.write(")")

    def visit_For(self, node: jinja2.nodes.For, frame: Any) -> None:
        if not _is_counted(node.iter):
            node.iter = jinja2.nodes.Call(jinja2.nodes.EnvironmentAttribute("wb_counted"), [node.iter],
                                          [], None, None, lineno=node.iter.lineno)
        super().visit_For(node, frame)

    def write(self, x: str) -> None:
        # a recursive loop iterates ``reciter``, the argument of each loop(...) call
        super().write("environment.wb_counted(reciter)" if x == "reciter" else x)


def _is_counted(node: jinja2.nodes.Node) -> bool:
    return isinstance(node, jinja2.nodes.Call) and isinstance(node.node, jinja2.nodes.EnvironmentAttribute) \
        and node.node.name == "wb_counted"


class _Sandbox(ImmutableSandboxedEnvironment):
    """transformers' sandbox, with every unit of work counted and sizes bounded, and unsafe
    attributes refused at once."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = _CodeGenerator

    def __init__(self, **options: Any) -> None:
        super().__init__(finalize=_finalize, **options)
        self.concat = _concat  # type: ignore[method-assign]
        self.wb_joined = _joined
        self.wb_counted = bounds.Counted
        self.wb_scanned = self._scanned

    @staticmethod
    def _scanned(value: Any) -> Any:
        if isinstance(value, Stand):
            inspected("a comparison")
        bounds.tick().scan(value)
        return value

    def unsafe_undefined(self, obj: Any, attribute: str) -> Any:
        # jinja returns an Undefined that prints as '' and fails only when used further:
        # `{{ cycler.__init__ }}` would render empty; say what was refused instead.
        raise jinja2.exceptions.SecurityError(
            f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe.")

    def getattr(self, obj: Any, attribute: str) -> Any:
        bounds.tick()
        if isinstance(obj, Stand):
            if type(obj) is Text and attribute in TRANSFORMS:
                return _Deferred(obj, attribute)
            inspected(f"'.{attribute}'")
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        work = bounds.tick()
        if isinstance(obj, Stand) or isinstance(argument, Stand):
            inspected("an index")
        value = super().getitem(obj, argument)
        return work.made_value(value) if isinstance(argument, slice) else value

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        work = bounds.tick()
        if operator == "+" and type(left) is str and type(right) is str:  # the common case, fast
            if len(left) + len(right) > MAX_TEMPLATE_SIZE:
                raise bounds.refuse_size("'+'", len(left) + len(right))
            work.scan(left)
            return work.made_value(left + right)
        if isinstance(left, Stand) or isinstance(right, Stand):
            if operator == "+" and type(left) in (str, Text) and type(right) in (str, Text):
                work.scan(left)
                return work.made_value(joined((left, right)))
            inspected(f"'{operator}'")
        sized = (str, list, tuple)
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, sized) and type(times) is int and len(seq) * times > MAX_TEMPLATE_SIZE:
                    raise bounds.refuse_size("'*'", len(seq) * times)
            if type(left) is int and type(right) is int and \
                    left.bit_length() + right.bit_length() > bounds.MAX_NUMBER_BITS:
                raise jinja2.exceptions.SecurityError("'*' of numbers this large is refused by the sandbox")
        elif operator == "%":
            if isinstance(left, str):
                mapping = isinstance(right, Mapping)
                values = right.values() if mapping else right if isinstance(right, tuple) else (right,)
                bounds.check_formatting(left, values, "'%'", reuses=mapping)
        elif operator == "+":
            if isinstance(left, sized) and isinstance(right, sized) and \
                    len(left) + len(right) > MAX_TEMPLATE_SIZE:
                raise bounds.refuse_size("'+'", len(left) + len(right))
        elif operator == "**" and type(right) is int and isinstance(left, (int, float)) and abs(left) > 1:
            if abs(right) > 1024:
                raise jinja2.exceptions.SecurityError(f"'**' with an exponent of {right:,} is refused "
                                                      "by the sandbox")
            # the result's size before it is made: a small exponent of a huge number is as slow
            bits = abs(int(left)).bit_length() * right
            if type(left) is int and bits > bounds.MAX_NUMBER_BITS:
                raise jinja2.exceptions.SecurityError(f"'**' would make a number of about {bits:,} bits; "
                                                      f"the sandbox allows {bounds.MAX_NUMBER_BITS:,}")
        work.scan(left)
        work.scan(right)
        return work.made_value(super().call_binop(context, operator, left, right))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        work = bounds.current()
        work.step()
        bounds.check_args((*args, *kwargs.values()))
        work.scan(getattr(__obj, "__self__", None))
        work.scan_all(args)
        work.scan_all(kwargs.values())
        if type(work) is TracedWork:
            given = {k: v for k, v in kwargs.items() if k not in _FRAME_KWARGS}
            if type(__obj) is _Deferred:
                return work.made_value(__obj(*args, **given))
            args, text = _traced_call(__obj, args, given)
            if text is not None:
                return work.made_value(text)
        args = _check_method(__obj, args, kwargs)
        return work.made_value(super().call(__context, __obj, *args, **kwargs))


@lru_cache(maxsize=1)
def _environment() -> ImmutableSandboxedEnvironment:
    env = _Sandbox(
        trim_blocks=True, lstrip_blocks=True, extensions=[_GenerationTag, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = _tojson
    env.filters = {name: _bounded_filter(name, f) for name, f in env.filters.items()}
    env.tests = {name: _bounded_test(name, cast(Callable[..., Any], f)) for name, f in env.tests.items()}
    env.globals["range"] = jinja2.sandbox.safe_range  # at most 100,000 steps; each counted as any loop's
    env.globals["lipsum"] = _lipsum
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    env.globals["dict"] = _TemplateDict()
    env.globals["namespace"] = _TemplateNamespace
    return env


@lru_cache(maxsize=64)
def _compiled(source: str) -> jinja2.Template:
    env = _environment()
    code = env.compile(source, name=None, filename=TEMPLATE_FILENAME)
    return env.template_class.from_code(env, code, env.make_globals(None), None)


def compile_template(template: ChatTemplate) -> jinja2.Template:
    """The compiled template, or a :class:`ChatTemplateError` pointing at the bad line."""
    try:
        return _compiled(template.source)
    except jinja2.exceptions.TemplateSyntaxError as exc:
        raise ChatTemplateError(f"syntax error: {exc.message}", template=template,
                                template_line=exc.lineno,
                                hint="the chat template is not valid Jinja") from None


def template_line(tb: Any) -> int | None:
    """The last line of the template on the traceback (Jinja rewrites frames to template lines)."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == TEMPLATE_FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
