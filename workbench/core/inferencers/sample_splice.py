"""A pair's requests built once with stand-in row values, and spliced for every row after that.

Within a pair, the requests of every sample whose in-context examples are the same (a FixK or
Zero retriever: all of them) differ only where the test row's values were filled in: the
templates, the examples, the meta template and the parser are the same.  So the requests are
rendered once per (examples, row columns) with a numbered stand-in for each value (a
:class:`Skeleton`, compiled into one Python function), and each later row is one call of
it: what a render costs goes from the ~100 Python calls of the whole pipeline to the objects
a request is made of.

Sound by rule, not by hope; a sample is rendered for real when any of these fails (each
refusal counted under its rule's name in :mod:`workbench.core.refusals`, named in brackets):

- the render fills a row by ``str.replace('{column}', value)`` column after column across the
  whole text, so a value's braces could take part in a later field: rows with a value that
  holds a ``{column}``, a ``{`` with no ``}`` after it or a ``}`` with no ``{`` before it (or
  any brace, where a column's name holds one), or a stand-in mark, or so long the fill's
  size bound might apply, are rendered for real [value-refills, value-too-long]; and so is
  every row of a skeleton where a stand-in sits between a ``{`` and a ``}`` with no brace
  between (a row's value there could complete a later column's
  ``{field}``) [render-looked];
- a stand-in is ``"\\n\\t \\ue000Vvn\\ue001 \\t\\n"``: whitespace, two letters and marks around its
  number, so a render that strips, re-cases, cuts, merges blank lines or reads the value
  leaves a damaged stand-in, which makes the skeleton unusable [render-looked];
- the skeleton is rendered by an engine that refuses what a splice cannot repeat: the test
  row itself (raw and multimodal templates, LLInferencer's ``cont``), recorded model outputs;
  and with warnings of its own (a private model adapter, private notes): a skeleton that
  warned is not used, so every warning is counted as the real render counts it
  [render-looked, render-failed, render-warned];
- OpenCompass's ``max_seq_len`` loop measures each spliced prompt; a prompt that fits gets
  the loop's one-step record, one that does not is rendered for real (which drops examples)
  [prompt-past-max-seq-len];
- only the plans whose requests depend on the row through its filled values alone splice:
  GenInferencer's and PPL/LL's [plan-reads-row];
- every skeleton is checked before it serves: the first row it can splice (the one that
  built it, the first of its example set's rows, where it can) is also rendered for real,
  and the two compared [skeleton-differs]; a set only one row uses gets no skeleton.

May import: :mod:`.plan`, :mod:`.common_plans`, :mod:`.truncation`, the core's bottom layer,
``templates`` and ``models``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..errors import RenderError
from ..models.model_input import ModelAdapter
from ..refusals import refuse
from ..render_notes import Notes
from ..result import Request
from ..templates.aisbench_templates import MMPromptTemplate
from ..templates.prompt_list import MAX_FILLED_CHARS, PromptList
from ..templates.raw_prompt_template import RawPromptTemplate
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
    """A skeleton cannot vouch for its rows: its render looked at the row beyond its filled
    values, changed a stand-in, or made something the compiler does not copy.

    A BaseException so that no ``except Exception`` on the way can swallow it."""


class _RefusingRow(Mapping[str, Any]):
    """The test row, as a skeleton's render gets it: any look at it is refused."""

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
    """What a skeleton's max_seq_len loop was asked (the loop itself runs on each splice)."""

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
    """Writes a skeleton's requests as one Python function of ``ext``: the row's values in
    column order, then the skeleton's constant texts.

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

    def text(self, skeleton: str, filled: bool) -> str | None:
        """The skeleton's constant pieces and stand-ins joined from ``ext`` (None: no stand-in);
        ``filled``: a text the row's fill wrote (a PromptList item)."""
        if OPEN not in skeleton and CLOSE not in skeleton:
            return None
        picks, at = [], 0
        for found in _STAND_IN.finditer(skeleton):
            n = int(found.group(1))
            if n >= self.columns:
                raise Refused("a stand-in number the row does not have")
            if filled:
                self._refuse_enclosed(skeleton, found.start(), found.end())
            picks.append(self._text_index(skeleton[at:found.start()]))
            picks.append(n)
            at = found.end()
        picks.append(self._text_index(skeleton[at:]))
        self.longest = max(self.longest, len(skeleton))
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
        return namespace["build"]  # type: ignore[no-any-return]

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
            raise Refused("a truncation the skeleton's loop did not record")
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
    """Pairs of a suite share their templates' shapes, so most skeletons' sources are alike."""
    return compile(source, "<sample splice>", "exec")


class Skeleton:
    """One (examples, columns) set's requests, compiled: a row's values in, its requests out."""

    def __init__(self, requests: Sequence[Request], compiler: _Compiler, limiter: Limiter | None) -> None:
        made = [compiler.request(r, limiter is not None) for r in requests]
        compiler.namespace["limiter"] = limiter
        #: the row's values and then ``consts`` in, its requests out (raises Unfit where a
        #: prompt is longer than max_seq_len)
        self.build = compiler.function(f"({', '.join(made)},)")  # a tuple, as a Sample holds them
        self.consts = compiler.consts
        self.columns = compiler.columns
        #: what each request's max_seq_len loop was asked (None: no loop), and the finished
        #: form a stamp is made of (sample_stamp.py), made on first use (False: none)
        self.fits: tuple[_Fit | None, ...] = tuple(compiler.fits)
        self.form: Any = None
        self.checked = False  # its first splice compared with the real render
        self.not_str: tuple[int, ...] = ()  # the columns its rows hold as numbers (made str)
        # a row whose values could take a fill past its size bound is filled for real (and fails)
        token = max((len(n) + 2 for n in compiler.names), default=2)
        self.most = (MAX_FILLED_CHARS - compiler.longest) // max(compiler.slots, 1) - token
        #: the fields a fill replaces (see ``_inert``); a name holding a brace makes every
        #: brace in a value suspect
        self.fields = tuple(f"{{{n}}}" for n in compiler.names)
        self.braced_names = any("{" in n or "}" in n for n in compiler.names)

    def values_of(self, row: Mapping[str, Any]) -> list[str] | None:
        """The row's values as this skeleton fills them (None: the row must be rendered for
        real: a value the fill could fill again, a stand-in mark in a value, or too long)."""
        # a number (say the row's idx) is filled as its str, as the render's pairs are: the
        # columns the skeleton's row had as other types made str, and any other found by join
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
            refuse("value-refills")
            return None
        if len(joined) > self.most:
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
        """The row's values as this skeleton fills them, and its requests (None: the row must be
        rendered for real: see ``values_of``, or a prompt past max_seq_len)."""
        values = self.values_of(row)
        if values is None:
            return None
        try:
            return values, self.build(values + self.consts)
        except Unfit:
            refuse("prompt-past-max-seq-len")
            return None

    def stand_ins(self) -> Sequence[Request] | None:
        """The requests with a stand-in for each value (None: a stand-in prompt is past
        max_seq_len)."""
        try:
            return self.build([stand_in(n) for n in range(self.columns)] + self.consts)
        except Unfit:
            refuse("prompt-past-max-seq-len")
            return None


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


class SampleSplicer:
    """The skeletons of one pair: built on the first row of an example set more than one row
    uses, checked on their first use."""

    MAX_SKELETONS = 64

    def __init__(self, plan: Plan, engine: Engine, rows: Sequence[Mapping[str, Any]], model_spec: Any,
                 limiter: Limiter | None, pair_notes: Notes, repeated: Set[tuple]) -> None:
        self._plan = plan
        self._engine = engine
        self._rows = rows  # the test rows, as the engine's pairs are made from them
        self._model_spec = model_spec
        self._limiter = limiter
        self._pair_notes = pair_notes
        self._repeated = repeated  # the example sets more than one row uses
        self._skeletons: dict[tuple, Skeleton | None] = {}
        self._lock = threading.Lock()
        self.spliced = 0  # samples built by splicing (for tests and benchmarks)
        # a skeleton is keyed by its example set alone: every row of a split has the same
        # columns in the same order (normalize_rows, then idx and subdivision alike), which
        # is the order its values fill in
        # the last example set spliced with a checked skeleton, and that skeleton (one tuple:
        # the app's threads read it while another may write it)
        self._last: tuple[Any, Skeleton | None] = (None, None)

    def checked(self, ice_idx: Sequence[int]) -> Skeleton | None:
        """The checked skeleton of this example set (None: none yet, or none serves)."""
        last_ice, skeleton = self._last
        if last_ice is ice_idx and skeleton is not None:
            return skeleton
        skeleton = self._skeletons.get(tuple(ice_idx))
        return skeleton if skeleton is not None and skeleton.checked else None

    def splice(self, index: int, ice_idx: Sequence[int],
               render: Callable[[int, Sequence[int]], Sequence[Request]]
               ) -> tuple[Sequence[Request], list[str] | None]:
        """The sample's requests, spliced when a checked skeleton serves, else
        ``render(index, ice_idx)`` (the real render; a bound method, not a closure made per
        sample); and the row's values where they were spliced (else None)."""
        last_ice, skeleton = self._last
        key = None
        if last_ice is not ice_idx or skeleton is None:
            key = tuple(ice_idx)
            skeleton = self._skeletons.get(key)
            if skeleton is None:
                with self._lock:
                    skeleton = self._learn(key, index)
                if skeleton is None:
                    return render(index, ice_idx), None
            if skeleton.checked:
                self._last = (ice_idx, skeleton)
        made = skeleton.splice(self._rows[index])
        if made is None:
            return render(index, ice_idx), None
        spliced = made[1]
        if not skeleton.checked:  # its first splice is checked by this row's real render
            assert key is not None  # (never from self._last: it holds checked skeletons only)
            real = render(index, ice_idx)
            if _same(spliced, real):
                skeleton.checked = True
            else:
                refuse("skeleton-differs")
                self._skeletons[key] = None
            return real, None
        self.spliced += 1
        return spliced, made[0]

    def _learn(self, key: tuple, index: int) -> Skeleton | None:
        """The key's skeleton, built on its first row where another row uses it too."""
        if key in self._skeletons:
            return self._skeletons[key]
        if key not in self._repeated:
            return None
        if len(self._skeletons) >= self.MAX_SKELETONS:
            refuse("too-many-skeletons")
            return None
        skeleton = self._skeletons[key] = self._build(key, self._engine.test_pairs(index))
        if skeleton is not None:
            skeleton.not_str = tuple(at for at, value in enumerate(self._rows[index].values())
                                     if type(value) is not str)
        return skeleton

    def _build(self, ice_idx: Sequence[int], pairs: Sequence[tuple[str, str]]) -> Skeleton | None:
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
            skeleton = Skeleton(requests, _Compiler(len(pairs), names), self._limiter)
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
        return skeleton


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
