"""A spliced sample as its skeleton's finished form and the row's values: what an export writes
without making the sample's requests.

A checked skeleton (:mod:`.sample_splice`) makes every row's requests from the same constant
pieces around the row's values. What the model's side then does to them is, for most models,
the same cut again: a chat template whose output is its message shape's skeleton copies the
contents in as they are, a token estimate is its lines' (``PiecesEstimate``), OpenCompass's
``max_seq_len`` loop measures the text the model gets. So the skeleton's stand-in requests,
finished as a row's are, are the sample's *form*, and a row's *stamp* is the form, the row's
values and its token counts: one count per request instead of the objects a request is made
of. An export that knows forms writes a stamp as the form's own text with the values in
(its pieces cut once per form); anything else asks the stamp for its requests, which renders
the sample the usual way.

Sound by rule; a form is not made, and its rows are rendered the usual way, unless (each
refusal counted under its rule's name in :mod:`workbench.core.refusals`, named in brackets):

- every request's chat template output is its message shape's outline (the template neither
  looks at a content, nor transforms one, nor reads the clock) and the model class does not
  warn about the request [model-text-unlaid];
- no value starts within the characters a BOS check reads, and that check says nothing
  [value-in-bos-check];
- a request's max_seq_len loop measures a text made of the same pieces (a chat template's
  render of the prompt as one message is not: those keep the usual way) [model-text-unlaid];
- where token sections are counted, the stand-in requests render with provenance (a stand-in
  the test row's, as the row's values are) and the chat template copies each content in once,
  in order (found where it is put) [sections-unknown];

a row is stamped only where its values splice (:meth:`Skeleton.values_of`), its prompts fit
max_seq_len [prompt-past-max-seq-len] and its longest content the chat template's bounds
[chat-bounds], and, for sections, where each content with a value is found in the chat
template's text where it was put (the search that finds it looks for its first copy from the
end of the one before) [content-misplaced]; and the first stamp of every form is compared
with that row's usual render (texts, token counts and sections, truncation record)
[form-differs]. A pair no model counts (no model, or measuring off) has forms too: its
requests as they are, a row's totals its lengths as the lengths view measures them. A pair
with an API model's wire or recorded outputs stamps nothing [pair-not-stamped].

May import: :mod:`.sample_splice`, :mod:`.truncation` and the core's
bottom layer (``models``, ``tokens``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..models.model_text import ModelText, TextLayout
from ..refusals import refuse
from ..result import Request, request_text
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
from .sample_splice import Skeleton, split_stand_ins, stand_in
from .truncation import Limiter, Truncation

Count = Callable[[list[str]], int]
Sections = Callable[[list[str]], tuple[int, ...]]
#: A skeleton's stand-in requests rendered with provenance (None: not known)
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
        if type(part) is int:
            n = len(stand_in(part))
            if codes[at:at + n] != "t" * n:
                return None
            at += n
        else:
            out.append(codes[at:at + len(part)])  # type: ignore[arg-type]
            at += len(part)  # type: ignore[arg-type]
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
        #: skeleton to hold (None: no chat template); a content is at most its constant
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


class SampleForm:
    """A checked skeleton's requests, finished with the stand-ins in: a row's numbers from its values."""

    def __init__(self, requests: Sequence[RequestForm], max_seq_len: int | None, exact: bool) -> None:
        self.requests = tuple(requests)
        rooms = [r.room for r in requests if r.room is not None]
        #: the most characters a row's values may have in all (None: no bound)
        self.room = min(rooms) if rooms else None
        self.max_seq_len = max_seq_len
        self.exact = exact  # the token counts come from a real tokenizer
        self.checked = False  # its first stamp was compared with the usual render
        #: what measures a request no model counted (None: the requests carry their tokens;
        #: else a row's totals are its lengths, as the lengths view measures them)
        self.uncounted: Estimate | None = None
        self.length_keys: Any = None  # each request's (exact, method, group) for lengths.py

    def numbers(self, values: list[str]) -> Numbers | None:
        """A row's numbers; None where the row is rendered the usual way (a prompt past
        max_seq_len, a content past the chat template's bounds or found elsewhere)."""
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
                refuse("prompt-past-max-seq-len")
                return None  # the loop drops examples: the real render does
            measured.append(n)
        return tuple(totals), tuple(measured), None if sections is None else tuple(sections)

    def finished(self, requests: Sequence[Request], values: list[str], numbers: Numbers) -> list[Request]:
        """A row's requests (as its skeleton splices them) finished as its stamp says: each
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
        """Whether a row's stamp says what its usual render made."""
        if len(real) != len(self.requests):
            return False
        totals, measured, sections = numbers
        for r, (form, request, total, n) in enumerate(zip(self.requests, real, totals, measured)):
            tokens = request.tokens
            if self.uncounted is not None:  # the length the lengths view measures
                if tokens is not None or self.uncounted.count(request_text(request)) != total:
                    return False
                continue
            said = (total, self.exact, form.method)
            if tokens is None or (tokens.total, tokens.exact, tokens.method) != said:
                return False
            if sections is not None and tokens.sections != tuple(zip(SECTIONS, sections[r])):
                return False
            text = joined(form.model_text, values) if form.model_text is not None else None
            if request.model_text != text:
                return False
            if request.truncation != (form.truncation(n) if n is not None else None):
                return False
        return True


def make_form(skeleton: Skeleton, model_text: ModelText | None, limiter: Limiter | None,
              trace: Trace | None = None, uncounted: Estimate | None = None) -> SampleForm | None:
    """The skeleton's form, with token sections when ``trace`` is given (the stand-in
    requests rendered with provenance, or None), or None where a rule above says its rows keep
    the usual way. With no ``model_text`` (no model, or measuring off) the requests are the
    form's as they are, a row's totals its lengths by ``uncounted``."""
    requests = skeleton.stand_ins()
    if requests is None or len(requests) != len(skeleton.fits):
        return None  # (refused by stand_ins)
    if model_text is None:
        assert uncounted is not None
        return _uncounted(requests, uncounted)
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
    for request, fit, traced in zip(requests, skeleton.fits, traces):
        layout = model_text.layout(request, traced)
        if layout is None:
            refuse("model-text-unlaid")
            return None
        sent = split_stand_ins(layout.sent)
        first = sent[0]
        if layout.guarded and (len(sent) > 1 and len(first) < layout.guarded):  # type: ignore[arg-type]
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
            measured = model_text.oc_measured(request.prompt_list, fit.mode) if limiter is not None else None
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
    exact = bool(getattr(counter, "exact", False))
    return SampleForm(made, limiter.max_seq_len if limiter is not None else None, exact)


def _uncounted(requests: Sequence[Request], estimate: Estimate) -> SampleForm:
    """The form of requests no model counts: each as it is, its length ``estimate``'s."""
    made = []
    for request in requests:
        layout = TextLayout(model_text=None, sent=request_text(request), add_special=False,
                            method=estimate.method, fits=None, guarded=0)
        count = PiecesEstimate(split_stand_ins(layout.sent)).count
        made.append(RequestForm(request, layout, count, None, None, 0))
    form = SampleForm(made, None, False)
    form.uncounted = estimate
    return form


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
        most = max(most, sum(len(p) for p in split_stand_ins(content) if type(p) is str))  # type: ignore[misc]
    return most
