"""Stamped samples written from their form: the form's sample text made once, cut where a row's
values and numbers go, and each stamp written as those pieces with its own in.

A stamp (core/inferencers/sample_form.py) is its form's stand-in requests with the row's values
in place of the stand-ins and its own numbers (sample index, token counts, max_seq_len
measures, tokens by section). The formats that write stamps escape a text character by
character (JSON's escapes; the text format's printable stand-ins for what a terminal would act
on), so the written text of a text made of pieces and values is the pieces' written text with
the values' in, each value escaped once a row however often it is written; and a number is
written as its digits. So a format's own writer, given the form's stand-in sample with marks
for its numbers, writes a text that is cut at the (escaped) stand-ins and the marks, once per
form, into a compiled join (where it cannot be [pieces-uncut]; a row whose values the format
will not write piecewise is written the usual way [value-unescaped]). The first stamp of
every form is also written the usual way (through its requests) and compared, byte for byte:
a form whose pieces disagree (never seen) is written the usual way from then on
[pieces-differ]. (Rule names: :mod:`workbench.core.refusals`.)

May import: the core and the other headless modules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from ...core.inferencers.truncation import Truncation
from ...core.refusals import refuse
from ...core.result import Sample, Stamp
from ...core.tokens.counting import SECTIONS, TokenCount

#: Marks for a sample's numbers, written where they go: digits no config or row has beside them.
_MARK = 7_919_000_000_000_000
_MARKS = re.compile("791900000000(\\d{4})")
_INDEX, _SOURCE, _TOTAL, _MEASURED, _SECTIONS = 1, 2, 1000, 2000, 3000
_MOST_REQUESTS = 100
_NUMBER_OF_SECTIONS = len(SECTIONS)
#: A stand-in's middle, which no format escapes (its number in group 1).
_STAND_IN_MIDDLE = re.compile("\ue000Vv(\\d+)\ue001")


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
        tokens = None if stamp.form.uncounted else TokenCount(
            total=_MARK + _TOTAL + r, exact=stamp.form.exact, method=form.method, sections=sections)
        fit = _MarkedFit(form.fit, _MARK + _MEASURED + r) if form.fit is not None else None
        requests.append(form.request.evolve(tokens=tokens, truncation=fit))
    return Sample(_MARK + _INDEX, _MARK + _SOURCE, stamp.ice_indices, tuple(requests))


class Pieces:
    """A form's text as a format writes it, cut where a row's values and numbers go: a row's
    text is one ``itemgetter`` call on the row's escaped values and numbers followed by the
    constant pieces, and one join (no Python call a piece)."""

    def __init__(self, columns: int, requests: int, picks: list[int], constants: list[str],
                 utf8: bool = False) -> None:
        self.columns = columns
        self.requests = requests
        empty: Any = b"" if utf8 else ""
        self.no_sections = [empty] * (_NUMBER_OF_SECTIONS * requests)  # (a stamp with none counted)
        self.constants: list[Any] = encode_each(constants) if utf8 else constants
        if len(picks) < 2:  # (itemgetter of one index gives the item, not a tuple)
            picks = [*picks, columns + 2 + 6 * requests + len(constants)]
            self.constants = [*self.constants, empty]
        self._get = itemgetter(*picks)
        self._join = empty.join

    def write(self, row: list[Any]) -> Any:
        """The row's text: ``row`` is its escaped values, then its index, source index, each
        request's token count, each one's max_seq_len measure and each one's four section
        counts; all of them str, or all bytes, as the constants are."""
        return self._join(self._get([*row, *self.constants]))


def encode_each(texts: list[str]) -> list[bytes]:
    """Each text's UTF-8, encoded in one call where no text holds a NUL."""
    joined = "\x00".join(texts)
    if joined.count("\x00") == len(texts) - 1:
        return joined.encode().split(b"\x00")
    return [text.encode() for text in texts]


def _mark_at(mark: int, columns: int, requests: int) -> int | None:
    """Where a mark's number is among a row's values and numbers (None: no such mark)."""
    numbers = columns
    if mark == _INDEX:
        return numbers
    if mark == _SOURCE:
        return numbers + 1
    for base, at in ((_TOTAL, 2), (_MEASURED, 2 + requests)):
        if base <= mark < base + requests:
            return numbers + at + mark - base
    if _SECTIONS <= mark < _SECTIONS + _NUMBER_OF_SECTIONS * requests:
        return numbers + 2 + 2 * requests + mark - _SECTIONS
    return None


def cut_pieces(text: str, written: Callable[[int], str], columns: int, requests: int,
               utf8: bool = False) -> Pieces | None:
    """``text`` (a marked stand-in sample as a format writes it) cut into :class:`Pieces` (in
    UTF-8 with ``utf8``); ``written(n)`` is stand-in ``n`` as the format writes it. None:
    something where none should be (a stand-in of no column or changed, a mark of no number)."""
    cuts: list[tuple[int, int, int]] = []  # (start, end, where it is among the row's values and numbers)
    for found in _STAND_IN_MIDDLE.finditer(text):
        column = int(found.group(1))
        if column >= columns:
            return None
        stand_in = written(column)
        start = found.start() - stand_in.index("\ue000")
        if start < 0 or not text.startswith(stand_in, start):
            return None
        cuts.append((start, start + len(stand_in), column))
    for found in _MARKS.finditer(text):
        start, end = found.span()
        if (start and text[start - 1].isdigit()) or (end < len(text) and text[end].isdigit()):
            continue  # (part of a longer number: no mark)
        at = _mark_at(int(found.group(1)), columns, requests)
        if at is None:
            return None
        cuts.append((start, end, at))
    cuts.sort()
    picks: list[int] = []
    constants: list[str] = []
    base = columns + 2 + 6 * requests
    at = 0
    for start, end, pick in cuts:
        if start < at:
            return None  # (overlapping cuts)
        if start > at:
            picks.append(base + len(constants))
            constants.append(text[at:start])
        picks.append(pick)
        at = end
    if at < len(text):
        picks.append(base + len(constants))
        constants.append(text[at:])
    if any("\ue000" in c for c in constants):
        return None  # a stand-in the format wrote otherwise
    return Pieces(columns, requests, picks, constants, utf8)


class StampWriter:
    """A format's stamps by their forms' pieces, each form checked on its first stamp.

    ``write_usual(stamp)``: the format's text of a sample, through its requests (a stamp renders
    them when asked); ``escape(values)``: the values as the format writes them inside a text, or
    None where one must not be written piecewise (then the stamp is written the usual way);
    ``written(n)``: stand-in ``n`` as the format writes it; ``utf8``: each stamp written as the
    UTF-8 of that text (its form's constant pieces encoded once).
    """

    def __init__(self, write_usual: Callable[[Any], str], escape: Callable[[list[str]], list[str] | None],
                 written: Callable[[int], str], utf8: bool = False) -> None:
        self._usual = write_usual
        self._escape = escape
        self._written = written
        self.utf8 = utf8  # ``text`` gives the UTF-8 of the format's text
        self._writes: dict[Any, list] = {}  # form -> [its pieces (None: written the usual way), checked]
        self.written = 0  # stamps written from their form's pieces (for tests and benchmarks)

    def text(self, stamp: Stamp) -> Any:
        """The stamp as the format writes it: str, or its UTF-8 bytes where ``utf8``."""
        form = stamp.form
        entry = self._writes.get(form)
        if entry is None:
            entry = self._writes[form] = [self._compile(stamp), False]
            if entry[0] is None:
                refuse("pieces-uncut")
        write, checked = entry
        made = self._write(write, stamp) if write is not None else None
        if made is None:
            return self._usual_text(stamp)
        if not checked:
            usual = self._usual_text(stamp)
            if made != usual:
                refuse("pieces-differ")
                entry[0] = None
                return usual
            entry[1] = True
        self.written += 1
        return made

    def _usual_text(self, stamp: Stamp) -> Any:
        usual = self._usual(stamp)
        return usual.encode() if self.utf8 else usual

    def _write(self, pieces: Pieces, stamp: Stamp) -> Any:
        escaped = self._escape(stamp.values)
        if escaped is None:
            refuse("value-unescaped")
            return None
        measured = stamp.measured
        shown = ["" if n is None else str(n) for n in measured] if None in measured else map(str, measured)
        row = [*escaped, str(stamp.index), str(stamp.source_index), *map(str, stamp.totals), *shown]
        if stamp.sections is not None:
            row += [str(n) for s in stamp.sections for n in s]
        if self.utf8:
            row = encode_each(row)
        if stamp.sections is None:
            row += pieces.no_sections
        return pieces.write(row)

    def _compile(self, stamp: Stamp) -> Pieces | None:
        if len(stamp.form.requests) >= _MOST_REQUESTS:
            return None
        requests = len(stamp.form.requests)
        return cut_pieces(self._usual(marked(stamp)), self._written, len(stamp.values), requests, self.utf8)
