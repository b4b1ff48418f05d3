"""The budget of one chat-template render: steps taken, characters scanned, bytes made, sizes.

A chat template comes with a model folder nobody here wrote.  transformers' sandbox keeps
it from Python's internals but not from the memory or the clock: ``'a' * 10**10``, a string
doubled forty times with ``~``, ``indent(10**7)``, a ``replace`` chained ten times, loops
over strings nested in each other, a macro that calls itself twice.  Every unit of work a
template can ask for passes through one of the sandbox's hooks (lookups, calls, filters,
tests, operators, comparisons, loop steps, output, joins of text; see
:mod:`workbench.core.tokens.chat_sandbox`), and each hook charges it to the render's :class:`Work`:

* **steps**: lookups, calls, loop iterations, outputs (``MAX_STEPS``);
* **scanned**: characters or items an operation reads, a comparison included (``MAX_SCANNED``);
* **made**: bytes of every new value, transient ones included (``MAX_MADE``), so what is
  alive at once can never be more;
* **size**: no single value, and not the output, may exceed ``MAX_TEMPLATE_SIZE``
  characters or items; operations that could multiply their input (``*``, ``join``,
  ``format``, ``replace``, ``indent``, ``tojson``, padding, ``expandtabs``, ``sum`` of lists,
  the text of a container) are checked *before* they run, by an estimate that is never
  below what they would make.

The bounds are counted, never timed: a template passes or fails the same way on every
machine, the core reads no clock, and a render that exceeds one ends at once with one
error, so no thread is left spinning.  They are far above what real templates use.

May import: ``jinja2.exceptions`` (its SecurityError: this module is loaded only with
chat_sandbox), the core's bottom layer and the other token modules; nothing above and nothing
else outside the core.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from jinja2.exceptions import SecurityError

#: The most characters (or items) a template may build in one value, or write in all.
MAX_TEMPLATE_SIZE = 16 * 1024 * 1024
#: The most steps (lookups, calls, loop iterations, outputs) one render may take.
MAX_STEPS = 500_000
#: The most characters or items one render's operations may scan, all together.
MAX_SCANNED = 256 * 1024 * 1024
#: The most bytes one render may allocate for new values, all together.
MAX_MADE = 512 * 1024 * 1024
#: The most bits a number '*' or '**' makes may have (its time grows with the square of them).
MAX_NUMBER_BITS = 65536

_SIZED = (str, bytes, list, tuple, dict)
_UNSIZED = frozenset({int, float, bool})
_SCANNED = (str, bytes, list, tuple)


def refuse_size(what: str, size: int, up_to: bool = False) -> SecurityError:
    """The refusal of a value too large; ``up_to`` when ``size`` is an estimate (never below
    what the operation would make, possibly above)."""
    return SecurityError(f"{what} would make {'up to ' if up_to else ''}{size:,} characters or items; "
                         f"the sandbox allows {MAX_TEMPLATE_SIZE:,}")


class Work:
    """What one render has used so far."""

    __slots__ = ("made", "scanned", "steps")

    def __init__(self) -> None:
        self.steps = 0
        self.scanned = 0
        self.made = 0

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > MAX_STEPS:
            raise SecurityError(f"the template takes more than {MAX_STEPS:,} steps "
                                "(lookups, calls, loop iterations)")

    def scan(self, value: Any) -> None:
        """Charge the size of a value an operation reads (a list's items cost more to scan
        than a string's characters)."""
        kind = type(value)
        if kind is str or kind is bytes:
            self.scanned += len(value)
        elif kind is list or kind is tuple:
            self.scanned += 8 * len(value)
        elif isinstance(value, _SCANNED):
            self.scanned += len(value) * (1 if isinstance(value, (str, bytes)) else 8)
        else:
            return
        if self.scanned > MAX_SCANNED:
            raise SecurityError(f"the template's operations read more than {MAX_SCANNED:,} "
                                "characters or items")

    def scan_all(self, values: Iterable[Any]) -> None:
        for value in values:
            self.scan(value)

    def scan_count(self, count: int) -> None:
        self.scanned += count
        self.scan(None)
        if self.scanned > MAX_SCANNED:
            raise SecurityError(f"the template's operations read more than {MAX_SCANNED:,} "
                                "characters or items")

    def charge(self, size: int) -> None:
        """Charge bytes about to be made (an estimate checked before the operation)."""
        if self.made + size > MAX_MADE:
            raise SecurityError(f"the template would allocate more than {MAX_MADE // 1024**2:,} MiB")

    def made_value(self, value: Any) -> Any:
        """Check and charge a value an operation made; returns it."""
        if value is None or type(value) in _UNSIZED:
            return value
        if isinstance(value, _SIZED):
            size = len(value)
            if size > MAX_TEMPLATE_SIZE:
                raise refuse_size("a value", size)
            self.made += sys.getsizeof(value)
            if self.made > MAX_MADE:
                raise SecurityError(f"the template would allocate more than {MAX_MADE // 1024**2:,} MiB")
        return value


class _Current(threading.local):
    """Each thread's running render (outside one, a throwaway budget: constant folding at
    compile time calls filters too)."""

    def __init__(self) -> None:
        self.work = Work()


_current = _Current()


def current() -> Work:
    """The running render's work."""
    return _current.work


def begin(work: Work | None = None) -> Work:
    """Start a render's budget (``work``: a subclass that records more, for a recording)."""
    _current.work = work = work if work is not None else Work()
    return work


def end() -> None:
    _current.work = Work()


def tick() -> Work:
    """One step of the running render (the hot path: lookups and comparisons)."""
    work = _current.work
    work.steps += 1
    if work.steps > MAX_STEPS:
        work.step(0)
    return work


# -- estimates: never below what an operation would make ---------------------------------

_EXACT_REPR = 1 << 16  # strings up to this long are measured exactly


def _leaf_text(value: Any, nested: bool, as_json: bool) -> int | None:
    """The text size of a value that is not a container (None for a container)."""
    if isinstance(value, str):
        if not nested:
            return len(value)
        if len(value) <= _EXACT_REPR:
            return len(json.dumps(value, ensure_ascii=False) if as_json else repr(value))
        return len(value) * (6 if as_json else 10) + 2  # \u0000 / \U000e0001 at worst
    if isinstance(value, bool) or value is None:
        return 5
    if isinstance(value, int):
        return value.bit_length() * 30103 // 100000 + 2
    if isinstance(value, float):
        return 24
    if isinstance(value, bytes):
        return len(value) * 4 + 3
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return None
    if type(value).__name__ == "Namespace":
        return None
    if type(value).__name__ in ("dict_keys", "dict_values", "dict_items"):
        return None
    return 256  # a macro, a loop, a cycler, an undefined value: a short fixed repr


def _children(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield item
    elif type(value).__name__ == "Namespace":
        yield from _children(getattr(value, "_Namespace__attrs", {}))
    else:
        yield from value


def text_size(value: Any, as_json: bool = False, indent: int = 0) -> int:
    """An upper bound of ``len(str(value))`` (``as_json``: of its JSON with ``indent``), computed
    by walking containers, each item charged as a step."""
    work = current()
    total = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    on_path: set[int] = set()
    while stack:
        item, depth = stack.pop()
        leaf = _leaf_text(item, depth > 0, as_json)
        if leaf is not None:
            total += leaf + 2 + indent * depth  # a separator, and the line's indent
        elif id(item) in on_path:  # repr writes a container inside itself as [...]
            total += 5
        else:
            on_path.add(id(item))
            items = list(_children(item))
            work.step(len(items) + 1)
            total += 16 + indent * depth
            stack.extend((child, depth + 1) for child in items)
    return total


def check_text(value: Any, what: str) -> None:
    """Refuse turning a container into text that would be too long."""
    if not isinstance(value, (str, int, float, bool)) and value is not None:
        size = text_size(value)
        if size > MAX_TEMPLATE_SIZE:
            raise refuse_size(what, size, up_to=True)


def check_sum(parts: Iterable[int], what: str, extra: int = 0, up_to: bool = False) -> None:
    total = extra + sum(parts)
    if total > MAX_TEMPLATE_SIZE:
        raise refuse_size(what, total, up_to)


_LONG_NUMBER = re.compile(r"\d{8,}")


def check_format(fmt: Any) -> None:
    """A width or precision in a format string ('%1000000000s', '{:>1000000000}') is a size too."""
    if isinstance(fmt, str):
        for digits in _LONG_NUMBER.findall(fmt):
            size = int(digits[:19])  # at least as large as the number, whatever its length
            if size > MAX_TEMPLATE_SIZE:
                raise refuse_size(f"the format width {digits[:19]}", size)


def check_args(args: Iterable[Any]) -> None:
    for arg in args:
        if type(arg) is int and abs(arg) > MAX_TEMPLATE_SIZE:
            raise refuse_size(f"an argument of {arg:,}", abs(arg))


_FIELD = re.compile(r"\{[^{}]*\}")
_NUMBER = re.compile(r"\d+")


def check_formatting(fmt: Any, args: Iterable[Any], what: str, reuses: bool = True) -> None:
    """``fmt % args``, ``fmt.format(*args)``: the text of the arguments plus the widths the
    format asks for (written in it, or taken from the arguments by ``*`` and nested fields);
    when a field can name an argument twice (``{0}{0}``, ``%(x)s``), each field may copy the
    largest argument."""
    check_format(fmt)
    if not isinstance(fmt, str):
        return
    args = list(args)
    sizes = [text_size(a) for a in args]
    if not sizes:
        return
    fields = _FIELD.findall(fmt)
    widths = sum(int(n[:19]) for n in _NUMBER.findall(fmt))
    if "*" in fmt or fmt.count("{") > len(fields):
        widths += sum(abs(a) for a in args if type(a) is int)
    if reuses and ("%(" in fmt or any(f != "{}" and not f.startswith("{:") for f in fields)):
        copied = (fmt.count("%") + fmt.count("{")) * max(sizes)
    else:
        copied = sum(sizes)
    check_sum((copied, widths), what, len(fmt), up_to=True)


def check_replace(text: Any, old: Any, new: Any, count: Any = None) -> None:
    kind = type(text) if isinstance(text, (str, bytes)) else None
    if kind is None or not isinstance(old, kind) or not isinstance(new, kind) or len(new) <= len(old):
        return  # the replace itself refuses mixed kinds
    hits = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and 0 <= count < hits:
        hits = count
    check_sum((hits * (len(new) - len(old)),), "replace()", len(text), up_to=count is not None)


def check_join(items: list[Any], separator: Any) -> None:
    exact = isinstance(separator, (str, bytes)) and all(isinstance(i, (str, bytes)) for i in items)
    sep = len(separator) if isinstance(separator, (str, bytes)) else text_size(separator)
    check_sum((len(i) if isinstance(i, (str, bytes)) else text_size(i) for i in items),
              "join()", sep * max(len(items) - 1, 0), up_to=not exact)


def check_lines(text: Any, per_line: int, what: str) -> None:
    """Something added to each line (``indent``, ``expandtabs``' tab stops)."""
    if isinstance(text, str) and per_line > 0:
        check_sum((text.count("\n") * per_line + per_line,), what, len(text), up_to=True)


def check_json(value: Any, indent: Any) -> None:
    width = indent if type(indent) is int and indent > 0 else (len(indent) if isinstance(indent, str) else 0)
    size = text_size(value, as_json=True, indent=width)
    if size > MAX_TEMPLATE_SIZE:
        raise refuse_size("tojson", size, up_to=True)


def check_sum_of(items: list[Any], start: Any) -> None:
    """``sum`` of lists or strings copies the running total at each step: quadratic."""
    if not isinstance(start, _SCANNED) and not any(isinstance(i, _SCANNED) for i in items[:1]):
        return
    total = len(start) if isinstance(start, _SCANNED) else 0
    copied = 0
    for item in items:
        total += len(item) if isinstance(item, _SCANNED) else 1
        copied += total
        if total > MAX_TEMPLATE_SIZE:
            raise refuse_size("sum()", total)
    work = current()
    work.charge(copied * 8)
    work.scan_count(copied)


class Counted(Iterator[Any]):
    """A loop's iterable, one step charged per item (its length kept, for ``loop.length``)."""

    __slots__ = ("_items", "_source", "_work")

    def __init__(self, source: Any) -> None:
        self._source = source
        self._items = iter(source)
        self._work = current()

    def __iter__(self) -> Counted:
        return self

    def __next__(self) -> Any:
        item = next(self._items)
        self._work.step()
        return item

    def __len__(self) -> int:
        return len(self._source)


def joined(values: Iterable[Any]) -> str:
    """``a ~ b ~ c``: the text of each, checked before they are joined."""
    parts = []
    for value in values:
        check_text(value, "'~'")
        parts.append(str(value))
    check_sum(map(len, parts), "'~'")
    return current().made_value("".join(parts))


def concatenated(parts: Iterable[str]) -> str:
    """A macro's or block's output joined (``environment.concat``), checked first."""
    parts = parts if isinstance(parts, list) else list(parts)
    check_sum(map(len, parts), "a macro's or block's output")
    return current().made_value("".join(parts))


def lorem_size(n: Any = 5, html: Any = True, min: Any = 20, max: Any = 100) -> int:
    """An upper bound of ``lipsum(n, html, min, max)``'s length."""
    paragraphs = n if type(n) is int else 5
    words = max if type(max) is int else 100
    return abs(paragraphs) * (abs(words) + 1) * 16

