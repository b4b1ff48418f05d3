"""A chat template's output per message *shape*, recorded once and spliced for every request.

Within a pair every request sends messages of the same shape (roles, count, the same other
fields and variables) and differs only in the message contents; a template usually copies a
content into its output and never looks at it.  So the template is run once per shape with
each content replaced by a stand-in (:class:`Text`): the output comes out as constant pieces
and content slots (a :class:`ChatOutline`), and each later request of the shape is one join.

Sound by construction, not by hope: a stand-in refuses every way of *looking* at it (its
truth, length, comparisons, hashing, iteration, indexing, every method and operator but the
ones below, text conversion, formatting), and the sandbox's hooks refuse it as an argument to
anything but a macro.  Refusing raises :class:`Inspected`; the shape is then rendered for real
from then on.  What a stand-in lets through is exactly what copies it verbatim: ``+`` with
text, ``~``, ``join``, the output and the joins of macro and block output, plus ``trim`` /
``strip`` / ``lstrip`` / ``rstrip`` of a content on its own, recorded as a transform of its
slot.  Type tests (``is string``, ``is defined`` ...) answer as for any string.

The sandbox's bounds depend on the contents' lengths, so a recording also keeps, for every
charge a stand-in took part in, its constant part and how many contents it copies; a request
whose longest content could take any bound past its limit is rendered for real, which fails
exactly as it always did.  Steps do not depend on contents (looking at one is refused).

May import: :mod:`.sandbox_bounds` (whose ``jinja2.exceptions`` import loads the whole jinja2
package; this module uses nothing of jinja2 itself: the hooks that use it live in
:mod:`.chat_sandbox`, and :mod:`.chat_apply` keeps the outlines: the two modules that import this).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn, Union, cast

from . import sandbox_bounds as bounds


class Inspected(BaseException):
    """A template looked at a content beyond copying it: the shape is rendered for real.

    A BaseException so that no ``except Exception`` in Jinja or a filter can swallow it; the
    recording also keeps a flag, in case anything catches it anyway."""


def inspected(what: str) -> NoReturn:
    work = bounds.current()
    if isinstance(work, TracedWork):
        work.inspected = what
    raise Inspected(what)


#: A slot: the index of a content, and the transforms applied to it (``("strip", chars)``).
Slot = tuple[int, tuple[tuple[str, "str | None"], ...]]
Piece = Union[str, Slot]  # noqa: UP007 (a runtime alias: `str | tuple[...]` is not a type on 3.11)

#: ``str`` methods a stand-in for one whole content may take, as a transform of its slot.
TRANSFORMS = frozenset({"strip", "lstrip", "rstrip"})


class Stand:
    """What the template holds instead of a content: every way of looking at it is refused."""

    __slots__ = ()


def _refusal(name: str) -> Callable[..., NoReturn]:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
        inspected(name)

    refuse.__name__ = name
    return refuse


for _name in (
    "__bool__", "__len__", "__iter__", "__reversed__", "__contains__", "__getitem__", "__hash__",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__str__", "__repr__", "__format__",
    "__bytes__", "__int__", "__float__", "__complex__", "__index__", "__round__", "__trunc__",
    "__floor__", "__ceil__", "__length_hint__", "__fspath__", "__getattr__",
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__matmul__", "__rmatmul__",
    "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__",
    "__divmod__", "__rdivmod__", "__pow__", "__rpow__", "__lshift__", "__rlshift__", "__rshift__",
    "__rrshift__", "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__",
    "__neg__", "__pos__", "__abs__", "__invert__",
):
    setattr(Stand, _name, _refusal(_name))


class Text(Stand):
    """Text made of constant pieces and content slots (at least one slot)."""

    __slots__ = ("const", "pieces", "refs")

    def __init__(self, pieces: tuple[Piece, ...], const: int, refs: int) -> None:
        self.pieces = pieces
        self.const = const  # characters in the constant pieces
        self.refs = refs  # slots: contents copied

    @staticmethod
    def slot(index: int) -> Text:
        return Text(((index, ()),), 0, 1)

    def transformed(self, name: str, chars: str | None) -> Text:
        """``strip`` and its kin on one whole content; anything else looked at it."""
        if len(self.pieces) != 1 or type(self.pieces[0]) is str:
            inspected(f"{name}() of a content joined to other text")
        index, done = cast(Slot, self.pieces[0])
        return Text(((index, (*done, (name, chars))),), 0, 1)


def joined(parts: Iterable[Any]) -> str | Text:
    """The join of text and stand-ins (a stand-in among them makes a :class:`Text`); anything
    else is looked at (``str.join`` would refuse it)."""
    pieces: list[Piece] = []
    const = refs = 0
    tail = ""
    for part in parts:
        if isinstance(part, str):
            tail += str.__str__(part)
        elif type(part) is Text:
            first = part.pieces[0]
            if type(first) is str:
                tail += first
                rest = part.pieces[1:]
            else:
                rest = part.pieces
            if tail:
                pieces.append(tail)
                const += len(tail)
                tail = ""
            if rest and type(rest[-1]) is str:
                pieces.extend(rest[:-1])
                tail = rest[-1]
            else:
                pieces.extend(rest)
            refs += part.refs
        else:
            inspected(f"a {type(part).__name__} joined to a content")
    if not refs:
        return tail
    if tail:
        pieces.append(tail)
        const += len(tail)
    return Text(tuple(pieces), const, refs)


def join_with(separator: str, items: Sequence[Any]) -> str | Text:
    """``separator.join(items)`` with stand-ins among the items."""
    parts: list[Any] = [separator] * max(2 * len(items) - 1, 0)
    parts[::2] = items
    return joined(parts)


#: Marks a stand-in in output chunks and block buffers (Jinja writes ``str(finalize(x))``):
#: random per process, so no template can write one.
NONCE = secrets.token_hex(8)


class TracedWork(bounds.Work):
    """A recording's budget: what plain values use, counted as always, and for the values a
    stand-in took part in, their constant part and how many contents they copy."""

    __slots__ = ("clock_reads", "inspected", "made_c", "made_k", "scan_c", "scan_k", "sentinels",
                 "size_c", "size_k")

    def __init__(self) -> None:
        super().__init__()
        self.scan_c = self.scan_k = 0
        self.made_c = self.made_k = 0
        self.size_c = self.size_k = 0
        self.inspected: str | None = None
        self.sentinels: dict[str, Text] = {}
        self.clock_reads: list[tuple[str, str]] = []

    def scan(self, value: Any) -> None:
        if type(value) is Text:
            self.scan_c += value.const
            self.scan_k += value.refs
        else:
            super().scan(value)

    def made_value(self, value: Any) -> Any:
        if type(value) is Text:
            self.sized(value)
            self.made_c += 80 + 4 * value.const  # sys.getsizeof of a str is at most 76 + 4 per character
            self.made_k += 4 * value.refs
            return value
        return super().made_value(value)

    def sized(self, value: Text) -> None:
        self.size_c = max(self.size_c, value.const)
        self.size_k = max(self.size_k, value.refs)

    def sentinel(self, value: Text) -> str:
        """The output text standing for ``value`` (Jinja turns every output into ``str``)."""
        mark = f"\ue000{NONCE}:{len(self.sentinels)}\ue001"
        self.sentinels[mark] = value
        return mark

    def unmarked(self, part: Any) -> Any:
        return self.sentinels.get(part, part) if type(part) is str else part


@dataclass(frozen=True, slots=True)
class ChatOutline:
    """One shape's output: the pieces, where the contents go, and what the bounds need."""

    pieces: tuple[str, ...]  # the output, with "" where a content goes
    slots: tuple[tuple[int, int], ...]  # (position in pieces, content index), no transform
    transformed: tuple[tuple[int, int, tuple[tuple[str, str | None], ...]], ...]
    scanned: int
    scan_k: int
    made: int
    made_k: int
    size_c: int
    size_k: int
    clock_reads: tuple[tuple[str, str], ...]

    @staticmethod
    def of(output: str | Text, work: TracedWork) -> ChatOutline:
        parts = output.pieces if isinstance(output, Text) else (output,)
        pieces: list[str] = []
        slots: list[tuple[int, int]] = []
        transformed: list[tuple[int, int, tuple[tuple[str, str | None], ...]]] = []
        for piece in parts:
            if type(piece) is str:
                pieces.append(piece)
                continue
            index, done = cast(Slot, piece)
            if done:
                transformed.append((len(pieces), index, done))
            else:
                slots.append((len(pieces), index))
            pieces.append("")
        if isinstance(output, Text):
            work.sized(output)  # the output's own bound
        else:
            work.size_c = max(work.size_c, len(output))
        return ChatOutline(tuple(pieces), tuple(slots), tuple(transformed), work.scanned + work.scan_c,
                        work.scan_k, work.made + work.made_c, work.made_k, work.size_c, work.size_k,
                        tuple(work.clock_reads))

    def fits(self, longest: int) -> bool:
        """Whether no bound can be reached when every content is at most ``longest`` long."""
        return (self.size_c + self.size_k * longest <= bounds.MAX_TEMPLATE_SIZE
                and self.scanned + self.scan_k * longest <= bounds.MAX_SCANNED
                and self.made + self.made_k * longest <= bounds.MAX_MADE)

    def same_clock(self, clock: Callable[[], datetime] | None) -> bool:
        """Whether the dates the recording read read the same now."""
        if not self.clock_reads:
            return True
        if clock is None:
            return False
        return all(clock().strftime(fmt) == text for fmt, text in self.clock_reads)

    def splice(self, contents: Sequence[str]) -> str:
        out = list(self.pieces)
        for at, index in self.slots:
            out[at] = contents[index]
        for at, index, done in self.transformed:
            text = contents[index]
            for name, chars in done:
                text = getattr(text, name)(chars)
            out[at] = text
        return "".join(out)


#: A shape seen to need a real render.
REAL = None


class TemplateMemo:
    """The outlines of one template, by shape; ``REAL`` for a shape the template looks into."""

    #: Shapes kept per template (a template whose shapes never repeat would otherwise grow
    #: without end; past it, recordings are still used once, as renders).
    MAX_SHAPES = 4096
    #: Recordings refused in a row, with none kept, before the template is rendered for real
    #: without trying: it looks at contents whatever the shape.
    GIVE_UP = 16

    __slots__ = ("kept", "refused", "shapes")

    def __init__(self) -> None:
        self.shapes: dict[str, ChatOutline | None] = {}
        self.kept = 0
        self.refused = 0

    @property
    def hopeless(self) -> bool:
        return self.kept == 0 and self.refused >= self.GIVE_UP

    def remember(self, key: str, outline: ChatOutline | None) -> None:
        if outline is None:
            self.refused += 1
        else:
            self.kept += 1
        if len(self.shapes) < self.MAX_SHAPES or key in self.shapes:
            self.shapes[key] = outline


_memos: dict[str, TemplateMemo] = {}
MAX_TEMPLATES = 64


def memo_of(source: str) -> TemplateMemo:
    memo = _memos.get(source)
    if memo is None:
        if len(_memos) >= MAX_TEMPLATES:
            _memos.pop(next(iter(_memos), ""), None)  # the oldest (another thread may have taken it)
        memo = _memos[source] = TemplateMemo()
    return memo


def forget() -> None:
    """Drop every recording (tests; a long session that edits templates keeps at most 64)."""
    _memos.clear()
