"""Stamped samples written from their form: the form's sample text made once, cut where a row's
values and numbers go, and each stamp written as those pieces with its own in.

A stamp (core/inferencers/sample_stamp.py) is its form's stand-in requests with the row's values
in place of the stand-ins and its own numbers (sample index, token counts, max_seq_len
measures, tokens by section). The formats that write stamps escape a text character by
character (JSON's escapes; the text format's printable stand-ins for what a terminal would act
on), so the written text of a text made of pieces and values is the pieces' written text with
the values' in, each value escaped once a row however often it is written; and a number is
written as its digits. So a format's own writer, given the form's stand-in sample with marks
for its numbers, writes a text that is cut at the (escaped) stand-ins and the marks, once per
form, into a compiled join. The first stamp of every form is also written the usual way
(through its requests) and compared, byte for byte: a form whose pieces disagree (never seen)
is written the usual way from then on.

May import: the core and the other headless modules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...core.inferencers.sample_splice import compiled
from ...core.inferencers.truncation import Truncation
from ...core.result import Sample, Stamp
from ...core.tokens.counting import SECTIONS, TokenCount

#: Marks for a sample's numbers, written where they go: digits no config or row has beside them.
_MARK = 7_919_000_000_000_000
_MARKS = re.compile("(?<!\\d)791900000000(\\d{4})(?!\\d)")
_INDEX, _SOURCE, _TOTAL, _MEASURED, _SECTIONS = 1, 2, 1000, 2000, 3000
_MOST_REQUESTS = 100
_NUMBER_OF_SECTIONS = len(SECTIONS)

# (escaped values, index, source index, totals, measures, sections) -> the sample's text
Write = Callable[[list[str], str, str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], str]


class _MarkedFit:
    """A stamp's truncation record (every example kept: the prompt fits) with a mark for its
    measure, as the formats read it: the mark must not make it overflow, as a real record would."""

    def __init__(self, fit: Truncation, mark: int) -> None:
        self.max_seq_len, self.exact, self.method = fit.max_seq_len, fit.exact, fit.method
        self.retrieved, self.kept, self.inherited = fit.retrieved, fit.kept, fit.inherited
        self.dropped: tuple[int, ...] = ()
        self.overflow = False
        self.steps = ((len(fit.kept), mark),)
        self._why = fit.describe()  # a fit's says nothing of its measure

    @property
    def measured(self) -> int:
        return self.steps[-1][1]

    def describe(self) -> str:
        return self._why


def marked(stamp: Stamp) -> Sample:
    """The form's stand-in sample, its numbers marked."""
    requests = []
    for r, form in enumerate(stamp.form.requests):
        sections: tuple[tuple[str, int], ...] = ()
        if stamp.sections is not None:
            sections = tuple((name, _MARK + _SECTIONS + _NUMBER_OF_SECTIONS * r + k)
                             for k, name in enumerate(SECTIONS))
        tokens = TokenCount(total=_MARK + _TOTAL + r, exact=stamp.form.exact, method=form.method,
                            sections=sections)
        fit = _MarkedFit(form.fit, _MARK + _MEASURED + r) if form.fit is not None else None
        requests.append(form.request.evolve(tokens=tokens, truncation=fit))
    return Sample(_MARK + _INDEX, _MARK + _SOURCE, stamp.ice_indices, tuple(requests))


def _mark_source(mark: int, requests: int) -> str | None:
    """Where a mark's number comes from in the compiled join (None: no such mark)."""
    if mark == _INDEX:
        return "i"
    if mark == _SOURCE:
        return "s"
    for base, name in ((_TOTAL, "t"), (_MEASURED, "n")):
        if base <= mark < base + requests:
            return f"{name}[{mark - base}]"
    if _SECTIONS <= mark < _SECTIONS + _NUMBER_OF_SECTIONS * requests:
        return f"c[{mark - _SECTIONS}]"
    return None


def compile_pieces(text: str, stand_ins: re.Pattern[str], columns: int, requests: int) -> Write | None:
    """The join that writes ``text`` (a marked stand-in sample as a format writes it) with a row's
    values and numbers in; ``stand_ins`` finds the format's written stand-ins (group 1: the
    column). None: something where none should be (a stand-in of no column, a mark of no number,
    a stand-in mark left over)."""
    found = re.compile(f"{stand_ins.pattern}|{_MARKS.pattern}")
    namespace: dict[str, Any] = {"J": "".join}
    picks: list[str] = []
    at = 0
    for cut in found.finditer(text):
        if cut.start() > at:
            name = f"k{len(namespace)}"
            namespace[name] = text[at:cut.start()]
            picks.append(name)
        at = cut.end()
        column, mark = cut.group(1), cut.group(2)
        if column is not None:
            if int(column) >= columns:
                return None
            picks.append(f"e[{column}]")
            continue
        source = _mark_source(int(mark), requests)
        if source is None:
            return None
        picks.append(source)
    tail = text[at:]
    if "\ue000" in tail or any("\ue000" in namespace[p] for p in picks if p.startswith("k")):
        return None
    namespace["tail"] = tail
    picks.append("tail")
    source_code = f"def write(e, i, s, t, n, c):\n    return J(({', '.join(picks)},))\n"
    exec(compiled(source_code), namespace)
    return namespace["write"]  # type: ignore[no-any-return]


class StampWriter:
    """A format's stamps by their forms' compiled pieces, each form checked on its first stamp.

    ``write_usual(stamp)``: the format's text of a sample, through its requests (a stamp renders
    them when asked); ``escape(values)``: the values as the format writes them inside a text, or
    None where one must not be written piecewise (then the stamp is written the usual way);
    ``stand_ins``: the pattern of a stand-in as the format writes it (group 1: its column).
    """

    def __init__(self, write_usual: Callable[[Any], str], escape: Callable[[list[str]], list[str] | None],
                 stand_ins: re.Pattern[str]) -> None:
        self._usual = write_usual
        self._escape = escape
        self._stand_ins = stand_ins
        self._writes: dict[Any, list] = {}  # form -> [its write (None: written the usual way), checked]
        self.written = 0  # stamps written from their form's pieces (for tests and benchmarks)

    def text(self, stamp: Stamp) -> str:
        form = stamp.form
        entry = self._writes.get(form)
        if entry is None:
            entry = self._writes[form] = [self._compile(stamp), False]
        write, checked = entry
        made = self._write(write, stamp) if write is not None else None
        if made is None:
            return self._usual(stamp)
        if not checked:
            usual = self._usual(stamp)
            if made != usual:
                entry[0] = None
                return usual
            entry[1] = True
        self.written += 1
        return made

    def _write(self, write: Write, stamp: Stamp) -> str | None:
        escaped = self._escape(stamp.values)
        if escaped is None:
            return None
        measured = tuple(["" if n is None else str(n) for n in stamp.measured])
        sections = () if stamp.sections is None else tuple(map(str, [n for s in stamp.sections for n in s]))
        return write(escaped, str(stamp.index), str(stamp.source_index), tuple(map(str, stamp.totals)),
                     measured, sections)

    def _compile(self, stamp: Stamp) -> Write | None:
        if len(stamp.form.requests) >= _MOST_REQUESTS:
            return None
        return compile_pieces(self._usual(marked(stamp)), self._stand_ins, len(stamp.values),
                              len(stamp.form.requests))
