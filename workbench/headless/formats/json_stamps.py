"""The JSON of stamped samples: each form's sample text made once, cut where a row's values and
numbers go, and a stamp written as those pieces with its own in.

A stamp (core/inferencers/sample_stamp.py) is its form's stand-in requests with the row's values
in place of the stand-ins and its own token counts. JSON escapes a string character by
character, so the JSON of a text made of pieces and values is the pieces' JSON with the values'
JSON in (each value escaped once a row, however often it is written); and a number is written
as its digits. So the sample text :func:`sample_parts` writes for the form's stand-in requests,
with marks for the numbers, is cut at the escaped stand-ins and the marks, once per form. The
first stamp of every form is also written the usual way and compared, byte for byte: a form
whose pieces disagree (never seen) is written the usual way from then on.

May import: the core and the other headless modules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

from ...core.inferencers.sample_splice import compiled
from ...core.inferencers.truncation import Truncation
from ...core.result import Sample, Stamp
from ...core.tokens.counting import TokenCount
from .json_encoding import SAMPLE_INDENT, dumps, sample_parts

#: Marks for a sample's numbers, written where they go: digits no config or row has beside them.
_MARK = 7_919_000_000_000_000
_INDEX, _SOURCE, _TOTAL, _MEASURED = 1, 2, 100, 200
_CUT = re.compile("\\\\n\\\\t \ue000Vv(\\d+)\ue001 \\\\t\\\\n|(?<!\\d)7919000000000(\\d\\d\\d)(?!\\d)")

# (escaped values, index, source index, totals, measures) -> the sample's text
Write = Callable[[list[str], str, str, tuple[str, ...], tuple[str, ...]], str]


class _MarkedFit:
    """A stamp's truncation record (every example kept: the prompt fits) with a mark for its
    measure, as the JSON reads it: the mark must not make it overflow, as a real record would."""

    def __init__(self, fit: Truncation, mark: int) -> None:
        self.max_seq_len, self.exact, self.method = fit.max_seq_len, fit.exact, fit.method
        self.retrieved, self.kept, self.inherited = fit.retrieved, fit.kept, fit.inherited
        self.dropped: tuple[int, ...] = ()
        self.overflow = False
        self.steps = ((len(fit.kept), mark),)
        self._why = fit.describe()  # a fit's says nothing of its measure

    def describe(self) -> str:
        return self._why


def _marked(stamp: Stamp) -> Sample:
    """The form's stand-in sample, its numbers marked."""
    requests = []
    for r, form in enumerate(stamp.form.requests):
        request = form.request
        tokens = TokenCount(total=_MARK + _TOTAL + r, exact=stamp.form.exact, method=form.method, sections=())
        fit = _MarkedFit(form.fit, _MARK + _MEASURED + r) if form.fit is not None else None
        requests.append(request.evolve(tokens=tokens, truncation=fit))
    return Sample(_MARK + _INDEX, _MARK + _SOURCE, stamp.ice_indices, tuple(requests))


def compile_form(stamp: Stamp) -> Write | None:
    """The function that writes the stamps of ``stamp``'s form (None: its text cannot be cut:
    a mark or stand-in where none should be)."""
    parts: list[str] = []
    sample_parts(_marked(stamp), SAMPLE_INDENT, parts)
    text = "".join(parts)
    namespace: dict[str, Any] = {"J": "".join}
    picks: list[str] = []
    at = 0
    columns = len(stamp.values)
    requests = len(stamp.form.requests)
    marks: list[int] = []
    for found in _CUT.finditer(text):
        if found.start() > at:
            name = f"k{len(namespace)}"
            namespace[name] = text[at:found.start()]
            picks.append(name)
        at = found.end()
        if found.group(1) is not None:
            column = int(found.group(1))
            if column >= columns:
                return None
            picks.append(f"e[{column}]")
            continue
        mark = int(found.group(2))
        marks.append(mark)
        if mark == _INDEX:
            picks.append("i")
        elif mark == _SOURCE:
            picks.append("s")
        elif _TOTAL <= mark < _TOTAL + requests:
            picks.append(f"t[{mark - _TOTAL}]")
        elif _MEASURED <= mark < _MEASURED + requests:
            picks.append(f"n[{mark - _MEASURED}]")
        else:
            return None
    if "\ue000" in text[at:] or sorted(marks) != sorted(set(marks)) or _INDEX not in marks:
        return None
    namespace["tail"] = text[at:]
    picks.append("tail")
    source = f"def write(e, i, s, t, n):\n    return J(({', '.join(picks)},))\n"
    exec(compiled(source), namespace)
    return namespace["write"]  # type: ignore[no-any-return]


class StampWriter:
    """Stamps' JSON by their forms' compiled pieces, each form checked on its first stamp."""

    def __init__(self) -> None:
        self._writes: dict[Any, Write | None] = {}

    def text(self, stamp: Stamp) -> str:
        form = stamp.form
        write = self._writes.get(form, False)
        if write is False:
            write = self._writes[form] = self._checked(stamp)
        if write is None:
            parts: list[str] = []
            sample_parts(stamp, SAMPLE_INDENT, parts)  # its requests, rendered the usual way
            return "".join(parts)
        return self._write(write, stamp)

    @staticmethod
    def _write(write: Write, stamp: Stamp) -> str:
        values = stamp.values
        escaped = list(map(encode_basestring, values))
        joined = "".join(escaped)
        if not ((joined.isascii() and "\x7f" not in joined) or joined.isprintable()):
            escaped = list(map(dumps, values))  # characters a terminal would act on: dumps escapes them
        escaped = [e[1:-1] for e in escaped]
        totals = tuple(map(str, stamp.totals))
        measured = tuple(["" if n is None else str(n) for n in stamp.measured])
        return write(escaped, str(stamp.index), str(stamp.source_index), totals, measured)

    def _checked(self, stamp: Stamp) -> Write | None:
        write = compile_form(stamp)
        if write is None:
            return None
        parts: list[str] = []
        sample_parts(stamp, SAMPLE_INDENT, parts)
        return write if self._write(write, stamp) == "".join(parts) else None
