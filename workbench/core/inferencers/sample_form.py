"""A pair's requests rendered once per example set with a stand-in for each row value (a
:class:`Form`), and every later row of that set made from it: its requests spliced, and its
model text, token counts and max_seq_len record (its *stamp*) computed from the form's pieces.

Within a pair, the requests of every sample whose in-context examples are the same (a FixK or
Zero retriever: all of them) differ only where the test row's values were filled in. So the
requests are rendered once with a numbered stand-in ``"\\n\\t \\ue000Vvn\\ue001 \\t\\n"`` for each
value (whitespace, two letters and marks: a render that strips, re-cases, cuts or reads a
value damages it), compiled into one Python function of the row's values, and finished as the
model's side finishes a row (a chat template whose output is its message shape's outline
copies contents in as they are; an estimate counts by lines; the ``max_seq_len`` loop
measures the text the model gets). A row is then one call of the function, or one count per
request for an export that writes stamps from the form's pieces (headless/formats/stamp_writer.py).

Sound by rule, not by hope: where a rule fails, the row (or the whole form, or the pair) is
rendered by the interpreter, and the refusal counted under the rule's name. The rules, each
named once with what it guards against, are :data:`workbench.core.refusals.RULES`; the
differential harness reports how often each applied. Every form is checked before it serves:
it is built when a second row of an example set is rendered (a set one row uses gets none, nor
a pair only one row of is shown), and its splice of the set's first row, rendered for real
then, is compared with that render (or of the next row the form can splice, rendered for real
too) [splice-differs]; its stamp (texts, token counts and sections, truncation record) is
compared with the next row's usual finish [form-differs].

A pair no model counts (no model, or measuring off) has forms too: its requests as they are, a
row's totals its lengths as the lengths view measures them. A refused row is counted once,
however many of the paths looked at it (a stamp falls back to a splice, which counts).

May import: :mod:`.plan`, :mod:`.common_plans`, :mod:`.truncation`, the core's bottom layer,
``templates``, ``models`` and ``tokens``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any

from ..errors import RenderError
from ..models.model_input import ModelAdapter
from ..models.model_text import ModelText, TextLayout
from ..refusals import refuse
from ..render_notes import Notes
from ..result import Request, request_text
from ..templates.aisbench_templates import MMPromptTemplate
from ..templates.prompt_list import MAX_FILLED_CHARS, PromptList
from ..templates.raw_prompt_template import RawPromptTemplate
from ..tokens.counting import (
    SECTIONS,
    Counter,
    Estimate,
    Part,
    PiecesEstimate,
    PiecesSections,
    TokenCount,
    count_tokens,
)
from .common_plans import GenPlan, LabelPlan
from .plan import Engine, Plan
from .truncation import Limiter, Truncation

OPEN, CLOSE = "\ue000", "\ue001"
_STAND_IN = re.compile("\n\t \ue000Vv(\\d+)\ue001 \t\n")


def stand_in(n: int) -> str:
    return f"\n\t {OPEN}Vv{n}{CLOSE} \t\n"


def split_stand_ins(text: str) -> list[str | int]:
    """``text`` cut at its stand-ins: its constant pieces (str, empty ones kept) around the
    stand-ins' numbers (int)."""
    parts: list[str | int] = []
    at = 0
    for found in _STAND_IN.finditer(text):
        parts += (text[at:found.start()], int(found.group(1)))
        at = found.end()
    parts.append(text[at:])
    return parts


class Refused(BaseException):
    """A form cannot vouch for its rows: its render looked at the row beyond its filled
    values, changed a stand-in, or made something the compiler does not copy.

    A BaseException so that no ``except Exception`` on the way can swallow it."""


class _RefusingRow(Mapping[str, Any]):
    """The test row, as a form's render gets it: any look at it is refused."""

    def __getitem__(self, key: str) -> Any:
        raise Refused(f"row[{key!r}]")

    def __iter__(self) -> Iterator[str]:
        raise Refused("iterating the row")

    def __len__(self) -> int:
        raise Refused("len(row)")


class Unfit(Exception):
    """A spliced prompt is longer than max_seq_len: the real render drops examples."""


@dataclass(frozen=True)
class _Fit:
    """What a form's max_seq_len loop was asked (the loop itself runs on each splice)."""

    retrieved: tuple[int, ...]
    kept: tuple[int, ...]
    mode: str


class _RecordingLimiter:
    """Keeps every example and records the loop's question, for the splice to answer."""

    def fit(self, retrieved: Sequence[int], build: Callable[[Sequence[int]], Any], mode: str,
            start: Sequence[int] | None = None) -> tuple[Any, _Fit]:
        kept = list(retrieved if start is None else start)
        return build(kept), _Fit(tuple(retrieved), tuple(kept), mode)

    def fit_clp(self, *args: Any) -> Any:
        raise Refused("CLPInferencer's loop")


class _Compiler:
    """Writes a form's requests as one Python function of ``ext``: the row's values in
    column order, then the form's constant texts.

    The function's source holds only names (``ext[3]``, ``k7``), never a text of the config or
    the rows: every constant is passed in its namespace. One call then builds a sample's
    requests with no other Python call but the objects' own constructors: the closures of a
    build per object cost as much again.
    """

    def __init__(self, columns: int, names: frozenset[str]) -> None:
        self.columns = columns
        self.names = names  # the columns a fill replaces (see _refuse_enclosed)
        self.consts: list[str] = []  # constant texts, ext[columns + k]
        self.namespace: dict[str, Any] = {"J": "".join, "PL": PromptList, "R": Request, "T": Truncation,
                                          "Unfit": Unfit, "NEW": object.__new__, "SET": object.__setattr__}
        self.lines: list[str] = []
        self.longest = 0  # the most characters and stand-ins of one text (the fill's size bound)
        self.slots = 0
        self.fits: list[_Fit | None] = []  # each request's max_seq_len question, in order
        self._temps = 0

    def constant(self, value: Any) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def temp(self) -> str:
        self._temps += 1
        return f"t{self._temps}"

    def _text_index(self, text: str, keep_empty: bool = False) -> int | None:
        """A constant piece's place in ``ext`` (None: empty, unless kept)."""
        if OPEN in text or CLOSE in text:
            raise Refused("a damaged stand-in: the render changed a value")
        if not text and not keep_empty:
            return None
        self.consts.append(text)
        return self.columns + len(self.consts) - 1

    def text(self, source: str, filled: bool) -> str | None:
        """``source``'s constant pieces and stand-ins joined from ``ext`` (None: no stand-in);
        ``filled``: a text the row's fill wrote (a PromptList item)."""
        if OPEN not in source and CLOSE not in source:
            return None
        picks, at = [], 0
        for found in _STAND_IN.finditer(source):
            n = int(found.group(1))
            if n >= self.columns:
                raise Refused("a stand-in number the row does not have")
            if filled:
                self._refuse_enclosed(source, found.start(), found.end())
            picks.append(self._text_index(source[at:found.start()]))
            picks.append(n)
            at = found.end()
        picks.append(self._text_index(source[at:]))
        self.longest = max(self.longest, len(source))
        self.slots = max(self.slots, len(picks) // 2)
        parts = [f"ext[{i}]" for i in picks if i is not None]
        return parts[0] if len(parts) == 1 else f"J(({', '.join(parts)},))"

    def _refuse_enclosed(self, text: str, start: int, end: int) -> None:
        """A value between a ``{`` and a ``}`` with no brace between could complete a
        ``{column}`` that a later column's replace fills: refused where it could."""
        left = max(text.rfind("{", 0, start), text.rfind("}", 0, start))
        if left < 0 or text[left] != "{":
            return
        ahead = [p for p in (text.find("{", end), text.find("}", end)) if p >= 0]
        if not ahead or text[min(ahead)] != "}":
            return
        before, after = text[left + 1:start], text[end:min(ahead)]
        if OPEN in before or OPEN in after:
            raise Refused("two values inside one pair of braces")
        for name in self.names:
            if len(name) >= len(before) + len(after) and name.startswith(before) and name.endswith(after):
                raise Refused(f"a value could complete {{{name}}}")

    def expression(self, obj: Any, filled: bool = False) -> str:
        """Source for ``obj`` with the row's values in place of its stand-ins."""
        made = self._changing(obj, filled)
        return self.constant(obj) if made is None else made

    def _changing(self, obj: Any, filled: bool) -> str | None:
        """Source for ``obj`` where it holds a stand-in (None: it has none, and is shared)."""
        kind = type(obj)
        if kind is str:
            return self.text(obj, filled)
        if kind in CONSTANT_TYPES:
            return None
        if kind is dict:
            changing = [(k, e) for k, e in ((k, self._changing(v, filled)) for k, v in obj.items())
                        if e is not None]
            if not changing:
                return None
            # a display keeps the key order: a key given again keeps its place
            given = ", ".join(f"{self.constant(k)}: {e}" for k, e in changing)
            return f"{{**{self.constant(obj)}, {given}}}"
        if kind is PromptList:
            return self._prompt_list(obj)
        if kind is list or kind is tuple:
            items = [self._changing(x, filled) for x in obj]
            if all(e is None for e in items):
                return None
            inner = ", ".join(self.constant(x) if e is None else e for e, x in zip(items, obj))
            return f"[{inner}]" if kind is list else f"({inner},)"
        raise Refused(f"a {kind.__name__} in a request")

    def _prompt_list(self, obj: PromptList) -> str | None:
        """A filled PromptList: the template's copy with the filled items in place, and its
        attributes (what it was filled from)."""
        made = ((i, self._changing(x, True)) for i, x in enumerate(obj))
        changing = [(i, e) for i, e in made if e is not None]
        if not changing:
            return None
        out = self.temp()
        self.lines.append(f"{out} = PL({self.constant(obj)})")
        self.lines.extend(f"{out}[{i}] = {e}" for i, e in changing)
        if obj.__dict__:  # its attributes set at once, as a new dict
            self.lines.append(f"SET({out}, '__dict__', {self.constant(dict(obj.__dict__))}.copy())")
        return out

    def function(self, result: str) -> Callable[[list[str]], Any]:
        """The lines so far and ``result`` as ``lambda ext: result``."""
        body = "\n".join(f"    {line}" for line in [*self.lines, f"return {result}"])
        code = compiled(f"def build(ext):\n{body}\n")
        namespace = dict(self.namespace)
        exec(code, namespace)
        return namespace["build"]

    def request(self, request: Request, measure: bool) -> str:
        """Source for one request (its max_seq_len record measured when ``measure``)."""
        for name in ("model_text", "tokens", "turn", "depends_on"):
            if getattr(request, name) not in (None, ()):
                raise Refused(f"a request's {name} before the model's text")
        label = request.label
        if type(label) not in (str, *CONSTANT_TYPES) or self._changing(label, False) is not None:
            raise Refused("a label the splice cannot vouch for")
        fit = request.truncation
        if fit is not None and (type(fit) is not _Fit or not measure):
            raise Refused("a truncation the form's loop did not record")
        self.fits.append(fit)
        prompt, given = self.temp(), request.prompt_list
        self.lines.append(f"{prompt} = {self.expression(given, type(given) is str)}")
        cut = "None"
        if fit is not None:
            cut, n = self.temp(), self.temp()
            self.lines += [
                f"{n} = limiter.measure({prompt}, {self.constant(fit.mode)})",
                f"if {n} > limiter.max_seq_len: raise Unfit",
                f"{cut} = T(max_seq_len=limiter.max_seq_len, retrieved={self.constant(fit.retrieved)}, "
                f"kept={self.constant(fit.kept)}, steps=((len({self.constant(fit.kept)}), {n}),), "
                f"exact=limiter.exact, method=limiter.method, "
                f"inherited={len(fit.retrieved) - len(fit.kept)})",
            ]
        # a Request made as Request.evolve makes one (its __init__ costs as much as the rest):
        # its fields a copy of the constant ones (the fields checked above to hold their
        # defaults keep them), then those that change set in place (the fields' order kept)
        changing = {"prompt_list": prompt, "model_input": self._changing(request.model_input, False),
                    "extra": self._changing(request.extra, False), "truncation": None if fit is None else cut}
        fixed = {name: getattr(request, name) if name in ("model_input", "extra", "label") else field.default
                 for name, field in Request.__dataclass_fields__.items()}
        fields, made = self.temp(), self.temp()
        self.lines.append(f"{fields} = {self.constant(fixed)}.copy()")
        self.lines += [f"{fields}[{name!r}] = {source}" for name, source in changing.items()
                       if source is not None]
        self.lines += [f"{made} = NEW(R)", f"SET({made}, '__dict__', {fields})"]
        return made


CONSTANT_TYPES = (type(None), bool, int, float)


@lru_cache(maxsize=512)
def compiled(source: str) -> Any:
    """Pairs of a suite share their templates' shapes, so most forms' sources are alike."""
    return compile(source, "<sample splice>", "exec")


Count = Callable[[list[str]], int]
Sections = Callable[[list[str]], tuple[int, ...]]
#: A form's stand-in requests rendered with provenance (None: not known)
Trace = Callable[[Sequence[Request]], "Sequence[Request] | None"]
#: A stamp's numbers: each request's token count, max_seq_len measure (None: no loop) and
#: tokens by section (None: not counted)
Numbers = tuple[tuple[int, ...], tuple["int | None", ...], "tuple[tuple[int, ...], ...] | None"]


def joined(parts: Sequence[Part], values: Sequence[str]) -> str:
    """The text ``parts`` make with ``values``."""
    return "".join([values[p] if type(p) is int else p for p in parts])  # type: ignore[misc]


def _counting(counter: Counter, parts: list[Part], add_special: bool) -> Count:
    """A function of the row's values: the tokens of the text ``parts`` make with them."""
    if isinstance(counter, Estimate):  # adds no tokens of its own: counted by stretches of lines
        return PiecesEstimate(parts).count
    return lambda values: counter.count(joined(parts, values), add_special)


def _sectioning(counter: Counter, parts: list[Part], codes: list[str], add_special: bool) -> Sections:
    """A function of the row's values: the tokens by section (``SECTIONS`` order) of the text
    ``parts`` make with them, ``codes`` the constant pieces' section codes (a value's are t)."""
    if isinstance(counter, Estimate):
        return PiecesSections(parts, codes).count

    def sections(values: list[str]) -> tuple[int, ...]:
        pieces = iter(codes)
        coded = "".join(["t" * len(values[p]) if type(p) is int else next(pieces) for p in parts])
        counted = dict(count_tokens(counter, joined(parts, values), coded, add_special).sections)
        return tuple(counted[name] for name in SECTIONS)

    return sections


def _piece_codes(parts: list[Part], codes: str) -> list[str] | None:
    """Each constant piece's codes, cut from the whole text's (None: a value not coded t)."""
    out, at = [], 0
    for part in parts:
        if isinstance(part, int):
            n = len(stand_in(part))
            if codes[at:at + n] != "t" * n:
                return None
            at += n
        else:
            out.append(codes[at:at + len(part)])
            at += len(part)
    return out if at == len(codes) else None


class RequestForm:
    """One request of a form: the finished stand-in request and how a row's numbers are made."""

    def __init__(self, request: Request, layout: TextLayout, count: Count | None, measure: Count | None,
                 fit: Truncation | None, constant: int, sections: Sections | None = None,
                 found: Sequence[tuple[str, tuple[Part, ...]]] = ()) -> None:
        #: the request as a row's is finished, its texts holding the values' stand-ins, its tokens
        #: and truncation those of the stand-ins (an export writes a row's own in their place)
        self.request = request
        self.method = layout.method
        self.model_text = split_stand_ins(layout.model_text) if layout.model_text is not None else None
        self.count = count  # the row's token count (None: the sections' sum)
        #: tokens by section (None: not counted)
        self.sections = sections
        #: the max_seq_len measure, where it is not the count itself (None: no loop, or the same)
        self.measure = measure
        #: the truncation record with the stand-ins' measure (None: no loop)
        self.fit = fit
        #: how many characters the row's values may have in all for the chat template's
        #: outline to hold (None: no chat template); a content is at most its constant
        #: characters and all the values, and the bounds grow with the longest content
        self.room = None if layout.fits is None else _room(layout.fits, constant)
        #: the contents with values and the template text before each (from the end of the
        #: content before): a content must be found first where it was put
        self.found = tuple(found)

    def truncation(self, measured: int) -> Truncation | None:
        """The row's truncation record, given its measure."""
        fit = self.fit
        if fit is None:
            return None
        return Truncation(max_seq_len=fit.max_seq_len, retrieved=fit.retrieved, kept=fit.kept,
                          steps=((len(fit.kept), measured),), exact=fit.exact, method=fit.method,
                          inherited=fit.inherited)

    def found_in_place(self, values: list[str]) -> bool:
        """Whether each content with a value is found (by the search section codes make of a
        chat template's text) where the template put it."""
        for before, parts in self.found:
            content = joined(parts, values)
            if not content or (before + content).find(content) != len(before):
                return False
        return True


class Form:
    """One example set's requests with a stand-in for each value: compiled (a row's values in,
    its requests out) and, once :meth:`finish` has made the rest, finished as the model's side
    finishes a row: a row's numbers (its stamp) from its values."""

    def __init__(self, requests: Sequence[Request], compiler: _Compiler, limiter: Limiter | None) -> None:
        made = [compiler.request(r, limiter is not None) for r in requests]
        compiler.namespace["limiter"] = limiter
        #: the row's values and then ``consts`` in, its requests out (raises Unfit where a
        #: prompt is longer than max_seq_len)
        self.build = compiler.function(f"({', '.join(made)},)")  # a tuple, as a Sample holds them
        self.consts = compiler.consts
        self.columns = compiler.columns
        #: what each request's max_seq_len loop was asked (None: no loop)
        self.fits: tuple[_Fit | None, ...] = tuple(compiler.fits)
        self.checked = False  # its first splice compared with the real render
        self.not_str: tuple[int, ...] = ()  # the columns its rows hold as numbers (made str)
        # a row whose values could take a fill past its size bound is filled for real (and fails)
        token = max((len(n) + 2 for n in compiler.names), default=2)
        self.most = (MAX_FILLED_CHARS - compiler.longest) // max(compiler.slots, 1) - token
        #: the fields a fill replaces (see ``_inert``); a name holding a brace makes every
        #: brace in a value suspect
        self.fields = tuple(f"{{{n}}}" for n in compiler.names)
        self.braced_names = any("{" in n or "}" in n for n in compiler.names)
        # -- the finished form (see finish) --
        self.stamping: bool | None = None  # None: not finished yet; False: it never stamps
        self.stamps = False  # finished, and its first stamp compared with that row's usual render
        self.requests: tuple[RequestForm, ...] = ()  # each request finished
        self.room: int | None = None  # the most characters a row's values may have in all
        self.max_seq_len: int | None = None
        self.exact = False  # the token counts come from a real tokenizer
        #: what measures a request no model counted (None: the requests carry their tokens;
        #: else a row's totals are its lengths, as the lengths view measures them)
        self.uncounted: Estimate | None = None
        self.length_keys: Any = None  # each request's (exact, method, group) for lengths.py

    def values_of(self, row: Mapping[str, Any], count: bool = True) -> list[str] | None:
        """The row's values as this form fills them (None: the row must be rendered for
        real: a value the fill could fill again, a stand-in mark in a value, or too long;
        ``count``: the refusal counted, where no splice of the row will count it)."""
        # a number (say the row's idx) is filled as its str, as the render's pairs are: the
        # columns the form's row had as other types made str, and any other found by join
        values = [*row.values()]
        for at in self.not_str:
            values[at] = str(values[at])
        try:
            joined = "".join(values)
        except TypeError:
            values = list(map(str, values))
            joined = "".join(values)
        if OPEN in joined or CLOSE in joined or (("{" in joined or "}" in joined)
                                                   and not self._inert(values)):
            if count:
                refuse("value-refills")
            return None
        if len(joined) > self.most:
            if count:
                refuse("value-too-long")
            return None
        return values

    def _inert(self, values: list[str]) -> bool:
        """Whether no value's braces can take part in a field the fill replaces after it: the
        fill replaces ``{column}`` column after column across the whole text, so a value could
        be filled again where it holds a ``{column}`` itself, a ``{`` with no ``}`` after it
        (a field that would end past it) or a ``}`` with no ``{`` before it (one that began
        before it). LaTeX's ``\\frac{1}{2}`` and JSON's ``{"a": 1}`` hold none of these."""
        if self.braced_names:
            return False
        for value in values:
            if "{" not in value and "}" not in value:
                continue
            first_close = value.find("}")
            if value.rfind("{") > value.rfind("}"):
                return False
            if first_close >= 0 and not 0 <= value.find("{") < first_close:
                return False
            if any(field in value for field in self.fields):
                return False
        return True

    def splice(self, row: Mapping[str, Any]) -> tuple[list[str], Sequence[Request]] | None:
        """The row's values as this form fills them, and its requests (None: the row must be
        rendered for real: see ``values_of``, or a prompt past max_seq_len)."""
        values = self.values_of(row)
        if values is None:
            return None
        try:
            return values, self.build(values + self.consts)
        except Unfit:
            refuse("prompt-past-max-seq-len")
            return None

    def finish(self, model_text: ModelText | None, limiter: Limiter | None, trace: Trace | None,
               uncounted: Estimate) -> bool:
        """Finish the stand-in requests as a row's are, with token sections when ``trace`` is
        given (the stand-in requests rendered with provenance, or None); with no ``model_text``
        (no model, or measuring off) the requests as they are, a row's totals its lengths by
        ``uncounted``. Whether the form stamps (a rule above may say its rows keep the usual way)."""
        made = self._finished(model_text, limiter, trace, uncounted)
        self.stamping = made is not None
        if made is not None:
            self.requests = tuple(made)
            rooms = [r.room for r in made if r.room is not None]
            self.room = min(rooms) if rooms else None
            if model_text is None:
                self.uncounted = uncounted
            else:
                self.max_seq_len = limiter.max_seq_len if limiter is not None else None
                self.exact = bool(getattr(model_text.counter, "exact", False))
        return self.stamping

    def _finished(self, model_text: ModelText | None, limiter: Limiter | None, trace: Trace | None,
                  uncounted: Estimate) -> list[RequestForm] | None:
        try:
            requests = self.build([stand_in(n) for n in range(self.columns)] + self.consts)
        except Unfit:
            refuse("prompt-past-max-seq-len")
            return None
        if model_text is None:
            return [_uncounted(request, uncounted) for request in requests]
        traces: Sequence[Request | None] = [None] * len(requests)
        sections = trace is not None
        if trace is not None:
            coded = trace(requests)
            if coded is None or len(coded) != len(requests):
                refuse("sections-unknown")
                return None
            traces = coded
        counter = model_text.counter
        made = []
        for request, fit, traced in zip(requests, self.fits, traces):
            layout = model_text.layout(request, traced)
            if layout is None:
                refuse("model-text-unlaid")
                return None
            sent = split_stand_ins(layout.sent)
            first = sent[0]
            if layout.guarded and len(sent) > 1 and isinstance(first, str) and len(first) < layout.guarded:
                refuse("value-in-bos-check")
                return None
            count, sectioned, found = None, None, []
            if not sections:
                count = _counting(counter, sent, layout.add_special)
            else:  # the count is the sections' sum
                codes = _piece_codes(sent, layout.codes) if layout.codes is not None else None
                placed = _placed(layout, request.model_input)
                if codes is None or placed is None:
                    refuse("sections-unknown")
                    return None
                sectioned, found = _sectioning(counter, sent, codes, layout.add_special), placed
            measure, record = None, None
            if fit is not None:
                measured = None if limiter is None else model_text.oc_measured(request.prompt_list, fit.mode)
                if limiter is None or measured is None:
                    refuse("model-text-unlaid")
                    return None
                text, add_special = measured
                same = text == layout.sent and add_special == layout.add_special
                if not same or model_text.measure is not counter:
                    measure = _counting(model_text.measure, split_stand_ins(text), add_special)
                record = Truncation(max_seq_len=limiter.max_seq_len, retrieved=fit.retrieved, kept=fit.kept,
                                    steps=((len(fit.kept), 0),), exact=limiter.exact, method=limiter.method,
                                    inherited=len(fit.retrieved) - len(fit.kept))
            constant = _longest_constant(request.model_input) if layout.fits is not None else 0
            if constant is None:
                refuse("model-text-unlaid")
                return None
            finished = request.evolve(model_text=layout.model_text, truncation=record)
            made.append(RequestForm(finished, layout, count, measure, record, constant, sectioned, found))
        return made

    def numbers(self, values: list[str], count: bool = True) -> Numbers | None:
        """A row's numbers; None where the row is rendered the usual way (a prompt past
        max_seq_len, a content past the chat template's bounds or found elsewhere; ``count``:
        a prompt past max_seq_len counted, where no splice of the row will count it)."""
        if self.room is not None and sum(map(len, values)) > self.room:
            refuse("chat-bounds")
            return None  # the chat template's bounds might be reached: the real render says so
        totals = []
        measured: list[int | None] = []
        sections: list[tuple[int, ...]] | None = [] if self.requests and self.requests[0].sections else None
        limit = self.max_seq_len
        for form in self.requests:
            if form.sections is not None and sections is not None:
                if form.found and not form.found_in_place(values):
                    refuse("content-misplaced")
                    return None
                counted = form.sections(values)
                sections.append(counted)
                total = sum(counted)
            else:
                assert form.count is not None
                total = form.count(values)
            totals.append(total)
            if form.fit is None:
                measured.append(None)
                continue
            n = total if form.measure is None else form.measure(values)
            if limit is not None and n > limit:
                if count:
                    refuse("prompt-past-max-seq-len")
                return None  # the loop drops examples: the real render does
            measured.append(n)
        return tuple(totals), tuple(measured), None if sections is None else tuple(sections)

    def finished(self, requests: Sequence[Request], values: list[str], numbers: Numbers) -> list[Request]:
        """A row's requests (as its form splices them) finished as its stamp says: each
        one's model text, token count (and sections) and max_seq_len record, what
        :meth:`agrees` holds equal to the usual render's."""
        totals, measured, sections = numbers
        out = []
        for r, (form, request, total, n) in enumerate(zip(self.requests, requests, totals, measured)):
            tokens = None
            if self.uncounted is None:
                counted = tuple(zip(SECTIONS, sections[r])) if sections is not None else ()
                tokens = TokenCount(total=total, exact=self.exact, method=form.method, sections=counted)
            out.append(request.evolve(
                model_text=joined(form.model_text, values) if form.model_text is not None else None,
                tokens=tokens, truncation=form.truncation(n) if n is not None else None))
        return out

    def agrees(self, values: list[str], numbers: Numbers, real: Sequence[Request]) -> bool:
        """Whether a row's stamp says what its usual render made: its requests as
        :meth:`finished` makes them (and, with no model, its totals the lengths the lengths
        view measures)."""
        if len(real) != len(self.requests):
            return False
        estimate = self.uncounted
        if estimate is not None and any(estimate.count(request_text(r)) != total
                                        for r, total in zip(real, numbers[0])):
            return False
        return all((a.model_text, a.tokens, a.truncation) == (b.model_text, b.tokens, b.truncation)
                   for a, b in zip(self.finished(real, values, numbers), real))


def _uncounted(request: Request, estimate: Estimate) -> RequestForm:
    """The form of a request no model counts: as it is, its length ``estimate``'s."""
    layout = TextLayout(model_text=None, sent=request_text(request), add_special=False,
                        method=estimate.method, fits=None, guarded=0)
    return RequestForm(request, layout, PiecesEstimate(split_stand_ins(layout.sent)).count, None, None, 0)


def _placed(layout: TextLayout, messages: Any) -> list[tuple[str, tuple[Part, ...]]] | None:
    """The contents with values and the text before each that a row's must be checked against
    (see ``RequestForm.found``): with no chat template, none; None where the search the
    section codes make would not find the stand-ins' contents where the template put them."""
    if layout.model_text is None:
        return []
    text, places = layout.model_text, layout.places
    if places is None or not isinstance(messages, list) or len(places) != len(messages):
        return None
    out: list[tuple[str, tuple[Part, ...]]] = []
    pos = 0
    for message, at in zip(messages, places):
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            return None
        parts = split_stand_ins(content)
        if len(parts) == 1:  # no value: found the same way in every row
            if content and text.find(content, pos) != at:
                return None
            if content:
                pos = at + len(content)
            continue
        if text.find(content, pos) != at:
            return None
        out.append((text[pos:at], tuple(parts)))
        pos = at + len(content)
    return out


def _room(fits: Callable[[int], bool], constant: int) -> int:
    """The most characters of values a content of ``constant`` other characters may hold while
    ``fits`` (which holds for short contents and fails from some length on) still holds."""
    if not fits(constant):
        return -1
    low, high = 0, 1
    while fits(constant + high):
        low, high = high, high * 2
        if high > 1 << 40:
            return low
    while high - low > 1:
        middle = (low + high) // 2
        if fits(constant + middle):
            low = middle
        else:
            high = middle
    return low


def _longest_constant(messages: Any) -> int | None:
    """The most characters of a message content that are not values (None: not a list of
    messages with text contents)."""
    if not isinstance(messages, list):
        return None
    most = 0
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            return None
        most = max(most, sum(len(p) for p in split_stand_ins(content) if isinstance(p, str)))
    return most


def splices(plan: Plan, engine: Engine) -> bool:
    """Whether this pair's requests depend on the test row through its filled values alone."""
    if type(plan) is GenPlan:
        if plan.cfg.get("multiround"):
            return False
    elif type(plan) is not LabelPlan or plan.name == "LLInferencer":
        return False
    prompter = engine.prompter
    if prompter is None or prompter.raw or isinstance(prompter.main, (MMPromptTemplate, RawPromptTemplate)):
        return False
    return engine.predictions is None


class Forms:
    """The forms of one pair: built on the second row of an example set that is rendered, their
    splices checked on the set's first row, their stamps on the next row finished the usual
    way (finished then, as ``model_text`` finishes a row; ``trace``: the stand-in
    requests rendered with provenance, given a row of the set, where token sections are
    counted; ``uncounted``: the lengths of a pair no model counts)."""

    MAX_FORMS = 64

    def __init__(self, plan: Plan, engine: Engine, rows: Sequence[Mapping[str, Any]], model_spec: Any,
                 limiter: Limiter | None, pair_notes: Notes, repeated: Set[tuple],
                 model_text: ModelText | None,
                 trace: Callable[[int, Sequence[Request]], Sequence[Request] | None] | None,
                 uncounted: Estimate) -> None:
        self._plan = plan
        self._engine = engine
        self._rows = rows  # the test rows, as the engine's pairs are made from them
        self._model_spec = model_spec
        self._limiter = limiter
        self._pair_notes = pair_notes
        self._repeated = repeated  # the example sets more than one row uses
        self._model_text, self._trace, self._uncounted = model_text, trace, uncounted
        self._forms: dict[tuple, Form | None] = {}
        #: a set's first row, its real render and (once finished) its usual finish, until a
        #: second row of the set builds its form and checks it on them: a pair only one row of
        #: is shown (an HTML report, ``--limit 1``, the app's first look) builds no form; at most
        #: MAX_FORMS sets wait (a set past them builds its form on the first row that asks)
        self._pending: dict[tuple, tuple[int, Sequence[Request], Sequence[Request] | None]] = {}
        self._lock = threading.Lock()
        self.spliced = 0  # samples built by splicing (for tests and benchmarks)
        # a form is keyed by its example set alone: every row of a split has the same
        # columns in the same order (normalize_rows, then idx and subdivision alike), which
        # is the order its values fill in
        # the last example set spliced with a checked form, and that form (one tuple: the
        # app's threads read it while another may write it)
        self._last: tuple[Any, Form | None] = (None, None)

    def checked(self, ice_idx: Sequence[int]) -> Form | None:
        """The checked form of this example set (None: none yet, or none serves)."""
        last_ice, form = self._last
        if last_ice is ice_idx and form is not None:
            return form
        form = self._forms.get(tuple(ice_idx))
        return form if form is not None and form.checked else None

    def splice(self, index: int, ice_idx: Sequence[int],
               render: Callable[[int, Sequence[int]], Sequence[Request]]
               ) -> tuple[Sequence[Request], list[str] | None]:
        """The sample's requests, spliced when a checked form serves, else
        ``render(index, ice_idx)`` (the real render; a bound method, not a closure made per
        sample); and the row's values where they were spliced (else None)."""
        last_ice, form = self._last
        key = None
        if last_ice is not ice_idx or form is None:
            key = tuple(ice_idx)
            form = self._forms.get(key)
            if form is None:
                # the set's first row: rendered for real and kept for its form's check (_ready)
                if key not in self._forms and key in self._repeated and key not in self._pending \
                        and len(self._pending) < self.MAX_FORMS:
                    real = render(index, ice_idx)
                    with self._lock:
                        self._pending.setdefault(key, (index, real, None))
                    return real, None
                form = self._ready(key, index)
                if form is None:
                    return render(index, ice_idx), None
            if form.checked:
                self._last = (ice_idx, form)
        made = form.splice(self._rows[index])
        if made is None:
            return render(index, ice_idx), None
        spliced = made[1]
        if not form.checked:  # its first splice is checked by this row's real render
            assert key is not None  # (never from self._last: it holds checked forms only)
            real = render(index, ice_idx)
            self._agrees(key, form, spliced, real)
            return real, None
        self.spliced += 1
        return spliced, made[0]

    def _ready(self, key: tuple, index: int) -> Form | None:
        """The set's form, built now (row ``index`` is not its first) and checked on the set's
        pending first row where there is one: its splice against that row's real render, then
        its stamp against that row's usual finish. None: no form serves the set."""
        with self._lock:
            form = self._learn(key, index)
            pending = self._pending.pop(key, None)
        if form is None or pending is None or pending[0] == index:
            return form
        first, real, finished = pending
        made = form.splice(self._rows[first])  # (None: the next row the form splices checks it)
        if made is not None and self._agrees(key, form, made[1], real) and finished is not None:
            self.check(first, key, finished)
        return self._forms[key]

    def _agrees(self, key: tuple, form: Form, spliced: Sequence[Request], real: Sequence[Request]) -> bool:
        """Check a form's first splice against the real render of its row: a form that differs
        is not used."""
        form.checked = _same(spliced, real)
        if not form.checked:
            refuse("splice-differs")
            self._forms[key] = None
        return form.checked

    def stamped(self, index: int, ice_idx: Sequence[int], values: list[str] | None = None
                ) -> tuple[Form, list[str], Numbers] | None:
        """Row ``index``'s checked form, values (``values``: as spliced already) and numbers
        (None: its form does not stamp yet, or not this row). A row ``values`` is not given
        for is spliced next (:meth:`PairRenderer.stamp`): that splice counts the refusals the
        two share, once."""
        form = self.checked(ice_idx)
        if form is None and values is None:  # a row after its set's first: build and check the form
            key = tuple(ice_idx)
            pending = self._pending.get(key)
            if pending is not None and pending[0] != index:
                self._ready(key, index)
                form = self.checked(ice_idx)
        if form is None or not form.stamps:
            return None
        spliced = values is not None
        if values is None:
            values = form.values_of(self._rows[index], count=False)
        numbers = form.numbers(values, count=spliced) if values is not None else None
        return (form, values, numbers) if values is not None and numbers is not None else None

    def check(self, index: int, ice_idx: Sequence[int], real: Sequence[Request]) -> None:
        """Check the stamp of row ``index``'s form (finished now if new) against the row's usual
        render ``real``, once the form's splice is checked: a form that cannot be finished, or
        says something else, never stamps; one this row cannot check waits for the next row
        rendered the usual way."""
        form = self.checked(ice_idx)
        if form is None:  # the set's first row: its finish is kept for the form a later row builds
            key = tuple(ice_idx)
            with self._lock:
                pending = self._pending.get(key)
                if pending is not None and pending[0] == index:
                    self._pending[key] = (index, pending[1], real)
            return
        if form.stamping is False or form.stamps:
            return
        if form.stamping is None:
            trace = partial(self._trace, index) if self._trace is not None else None
            if not form.finish(self._model_text, self._limiter, trace, self._uncounted):
                return
        values = form.values_of(self._rows[index], count=False)  # (counted by the row's splice)
        numbers = form.numbers(values) if values is not None else None
        if values is None or numbers is None:
            return
        if not form.agrees(values, numbers, real):
            refuse("form-differs")
            form.stamping = False
            return
        form.stamps = True

    def _learn(self, key: tuple, index: int) -> Form | None:
        """The key's form, built on a row of its set where another row uses it too."""
        if key in self._forms:
            return self._forms[key]
        if key not in self._repeated:
            return None
        if len(self._forms) >= self.MAX_FORMS:
            refuse("too-many-forms")
            return None
        form = self._forms[key] = self._build(key, self._engine.test_pairs(index))
        if form is not None:
            form.not_str = tuple(at for at, value in enumerate(self._rows[index].values())
                                 if type(value) is not str)
        return form

    def _build(self, ice_idx: Sequence[int], pairs: Sequence[tuple[str, str]]) -> Form | None:
        output = self._engine.output_column  # mask_output fills it last, even when the row lacks it
        names = frozenset([t[1:-1] for t, _ in pairs] + ([str(output)] if output is not None else []))
        if any(OPEN in t or CLOSE in t for t, _ in pairs):
            refuse("marked-column")
            return None
        stand_ins = [(t, stand_in(n)) for n, (t, _) in enumerate(pairs)]
        notes = Notes()
        # the recording limiter answers fit and fit_clp, all that a plan asks of a limiter
        recording: Any = _RecordingLimiter() if self._limiter is not None else None
        engine = replace(self._engine, notes=notes, model=ModelAdapter(self._model_spec, notes, False),
                         test_pairs=lambda index: stand_ins, test_row=lambda index: _RefusingRow(),
                         limiter=recording)
        engine.ice = self._engine.ice  # type: ignore[method-assign]  # the pair's cached examples
        before = [(m, self._pair_notes.count(m)) for m in self._pair_notes.messages]
        try:
            requests = self._plan.requests(engine, 0, ice_idx)
            form = Form(requests, _Compiler(len(pairs), names), self._limiter)
        except Refused:
            refuse("render-looked")
            return None
        except (RenderError, LookupError, TypeError, ValueError, AttributeError):
            refuse("render-failed")
            return None
        after = [(m, self._pair_notes.count(m)) for m in self._pair_notes.messages]
        # a render that warned is rendered for real: the real one counts each warning
        if notes.messages or before != after:
            refuse("render-warned")
            return None
        return form




def _same(spliced: Sequence[Request], real: Sequence[Request]) -> bool:
    """The splice and the real render agree on everything a request carries."""
    if len(spliced) != len(real):
        return False
    for a, b in zip(spliced, real):
        if (a.prompt_list, a.model_input, a.label, a.extra, a.truncation) != \
                (b.prompt_list, b.model_input, b.label, b.extra, b.truncation):
            return False
        if type(a.prompt_list) is not type(b.prompt_list) or type(a.model_input) is not type(b.model_input):
            return False
        if isinstance(a.prompt_list, PromptList) and a.prompt_list.filled_from != b.prompt_list.filled_from:
            return False
    return True
