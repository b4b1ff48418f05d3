"""Token counting: a real tokenizer when one is local, an honest labelled estimate otherwise.

``tokenizers`` (from a model folder's ``tokenizer.json``) and ``tiktoken`` (for OpenAI-style
API models, only when its encoding file is already cached) are optional extras
(the ``tokens`` extra); without them every count is an estimate and says so.
The loader reads the files and builds the counters (:mod:`workbench.loading.models.model_assets`).

May import: the core's bottom layer and the other token modules but chat_apply,
chat_sandbox, sandbox_bounds and chat_outline (they load jinja2); nothing above and nothing outside the core.
"""

from __future__ import annotations

import hashlib
import math
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, repeat
from operator import itemgetter, sub
from typing import Any, NamedTuple, Protocol, cast

from ..errors import RenderError
from ..prefix import shared_prefix
from ..provenance import GLUE, ICE, META, ROW, TEMPLATE, spans_of
from ..reference import reference

#: Section names of :class:`TokenCount` (in display order).
SECTIONS = ("meta_template", "in_context_examples", "test_row", "other")


@dataclass(frozen=True)
class TokenCount:
    """How many tokens a request is, how the number was made, and where the tokens come from."""

    total: int
    exact: bool  # a real tokenizer made it (False: an estimate)
    method: str  # e.g. "tokenizer.json (Qwen2.5-7B-Instruct)", "estimate (~4 characters a token)"
    sections: tuple[tuple[str, int], ...] = ()  # (section, tokens) in SECTIONS order; sums to total

    @property
    def label(self) -> str:
        return f"{self.total} tokens" if self.exact else f"≈{self.total} tokens (estimate)"

    def as_dict(self) -> dict[str, int]:
        return dict(self.sections)


class Piece(NamedTuple):
    """One token of a real tokenizer: what the token seams show (core/tokens/seams.py). A named
    tuple: a long text has hundreds of thousands, made at C speed."""

    id: int
    text: str  # the characters it covers (an added token: its own text)
    start: int | None  # where in the encoded text (None: the tokenizer added it, e.g. a BOS)
    end: int | None
    control: bool  # a special (control) token


class Counter(Protocol):
    """Something that turns text into tokens (or pretends to, for an estimate)."""

    exact: bool
    method: str

    def count(self, text: str, add_special_tokens: bool = False) -> int: ...

    def token_starts(self, text: str, add_special_tokens: bool = False) -> list[int | None]:
        """The character each token starts at (``None`` for a token the tokenizer adds)."""
        ...

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None: ...


# -- estimate -----------------------------------------------------------------------------

_PIECES = re.compile(
    r"<\|[^|<>\s]{1,64}\|>|<\uff5c[^<>\s]{1,64}\uff5c>|</?s>|<[a-z_]{2,24}>"  # control tokens: one each
    r"|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"  # CJK: about one token each
    r"| ?[A-Za-z\u00c0-\u024f]+"  # a word with its leading space
    r"| ?\d{1,3}"  # numbers in groups of up to three digits
    r"|\s*\n|\s+(?!\S)|\s+"  # whitespace runs
    r"| ?[^\sA-Za-z\d]+"  # punctuation runs
)


#: Where ``text`` is cut into lines no estimate piece spans: a newline a non-space follows.
#:
#: A piece holding a newline is all whitespace (control tokens, words, numbers and punctuation
#: runs hold none), and ``\s*\n``, tried before the other whitespace forms, ends at the run's
#: last newline. So a text's estimate is the sum of its lines' (``str.isspace`` is the ``\s``
#: of ``re``). Lines repeat: the system prompt and the in-context examples are the same in
#: every request of a dataset. Split at this newline, each part but the last is a line
#: without its final newline (see ``_estimate_line_and_newline``).
_LINE_END = re.compile(r"\n(?=\S)")


#: Each estimate piece's tokens, as pieces are met: read by ``map(dict.__getitem__)``, a third of
#: the cost of a cached function's call a piece (the estimate of a row's lines is mostly this)
_PIECE_TOKENS: dict[str, int] = {}
_MOST_PIECES = 1 << 17


def _piece_tokens(pieces: list[str]) -> Iterator[int]:
    """Each piece's tokens (``_estimate_piece``), learned where not known yet."""
    known = _PIECE_TOKENS
    missing = [p for p in pieces if p not in known]
    if len(known) + len(missing) > _MOST_PIECES:
        known.clear()
        missing = pieces
    for piece in missing:
        known[piece] = _estimate_piece(piece)
    return map(known.__getitem__, pieces)


def _pieces_estimate(text: str) -> int:
    pieces = _PIECES.findall(text)
    try:
        return sum(map(_PIECE_TOKENS.__getitem__, pieces))
    except KeyError:
        return sum(_piece_tokens(pieces))


#: The estimate of ``" " + word`` for the words of lines met (see ``_estimate_line``), and of
#: ``word`` less that for words that start a line: a line of known words is one ``split`` and
#: one ``map`` at C speed, a third of the cost of finding its pieces.
_SPACED: dict[str, int] = {}
_FIRST: dict[str, int] = {}
_LONGEST_WORD = 40  # (longer: a CJK sentence, a URL; counted, not kept)


@lru_cache(maxsize=1 << 14)
def _estimate_line(line: str) -> int:
    """A line's estimate. Where its only whitespace is single ASCII spaces (``isprintable``
    refuses every other character ``str.isspace`` and ``re``'s ``\\s`` accept), no piece holds a
    space but at its start, and a piece's end is decided by the next character alone, the same
    for a space as for the end of the text: so the line's pieces are its words', each word
    taken with the space before it (the first without), and its estimate their sum."""
    if "  " in line or not line.isprintable() or (len(line) > _LONGEST_WORD and " " not in line):
        return _pieces_estimate(line)  # (the last: one word never kept, a line of Chinese)
    words = line.split(" ")
    try:
        return sum(map(_SPACED.__getitem__, words)) + _FIRST[words[0]]
    except KeyError:
        return _learn_words(line, words)


def _learn_words(line: str, words: list[str]) -> int:
    """``_estimate_line`` of a line with a word not known yet: counted whole, the short words learned."""
    if len(_SPACED) > _MOST_PIECES:
        _SPACED.clear()
        _FIRST.clear()
    for word in words:
        if word not in _SPACED and len(word) <= _LONGEST_WORD:
            _SPACED[word] = _pieces_estimate(" " + word)
    first = words[0]
    if first not in _FIRST and first in _SPACED:
        _FIRST[first] = _pieces_estimate(first) - _SPACED[first]
    return _pieces_estimate(line)


@lru_cache(maxsize=1 << 14)
def _estimate_line_and_newline(line: str) -> int:
    """``line + "\\n"`` where a non-space follows: the newline joins a trailing space run
    (which, when the line holds a newline itself, may reach back past it: then counted whole)."""
    if "\n" in line:
        return _estimate_line(line + "\n")
    return _estimate_line(line) + (0 if line and line[-1].isspace() else 1)


def _estimate_text(text: str) -> int:
    parts = _LINE_END.split(text)
    return sum(map(_estimate_line_and_newline, parts[:-1])) + _estimate_line(parts[-1])


def _estimate_cut_lines(text: str) -> int:
    """The estimate of ``text`` where a line cut (a newline, then a non-space) follows it."""
    return sum(map(_estimate_line_and_newline, _LINE_END.split(text)))


#: A part of a text made from a template: a constant piece (str) or the index of a value (int).
Part = str | int


class _Stretches:
    """Stretches of texts made of constant pieces and values, each joined by one ``itemgetter``
    over the stretches' constants followed by a text's values (C speed, no call a piece)."""

    def __init__(self) -> None:
        self.constants: list[str] = [""]  # (the first: joined to a lone value, so a getter gives a tuple)
        self._picks: list[list[int | tuple[int]]] = []

    def add(self, parts: Sequence[Part]) -> None:
        picks: list[int | tuple[int]] = []
        for part in parts:
            if type(part) is int:
                picks.append((part,))  # a value: placed once the constants are all known
            else:
                picks.append(len(self.constants))
                self.constants.append(part)  # type: ignore[arg-type]
        self._picks.append(picks if len(picks) > 1 else [*picks, 0])

    def getters(self) -> list[Callable[[list[str]], Any]]:
        """For each stretch added, a function of ``[*constants, *values]``."""
        base = len(self.constants)
        return [itemgetter(*[base + p[0] if type(p) is tuple else p for p in picks])
                for picks in self._picks]


class PiecesEstimate:
    """The estimate of every text made of the same constant pieces around changing values.

    A text's estimate is its lines' (see ``_LINE_END``), and a line cut inside one constant
    piece (a newline and a non-space, both in that piece) cuts every text made from the pieces,
    whatever the values. So the text is cut there into stretches: a stretch with no value is
    counted once, here; one with values is joined and counted for each text, its lines alone.
    Always equal to ``Estimate().count`` of the joined text.
    """

    def __init__(self, parts: list[Part]) -> None:
        stretches: list[list[Part]] = [[]]
        for part in parts:
            if type(part) is int:
                stretches[-1].append(part)
                continue
            assert isinstance(part, str)
            first, *lines = _LINE_END.split(part)  # (each cut's newline dropped)
            stretches[-1].append(first)
            stretches.extend([line] for line in lines)
        last = len(stretches) - 1
        #: the count of the stretches that hold no value
        self.constant = 0
        changing = _Stretches()
        cuts = []
        for n, stretch in enumerate(stretches):
            cut = n < last
            kept = [p for p in stretch if p != ""]
            if all(type(p) is str for p in kept):
                text = "".join(kept)  # type: ignore[arg-type]
                self.constant += _estimate_cut_lines(text) if cut else _estimate_text(text)
            else:
                changing.add(kept)
                cuts.append(cut)
        self._constants = changing.constants
        #: the stretches that hold values: how each is joined, and whether a line cut follows
        self.changing = list(zip(changing.getters(), cuts))

    def count(self, values: list[str]) -> int:
        """The estimate of the text these pieces make with ``values``."""
        n = self.constant
        ext = [*self._constants, *values]
        for join, cut in self.changing:
            text = "".join(join(ext))
            if "\n" not in text:  # one line (the usual stretch: a value and the text around it)
                n += _estimate_line(text)
                if cut and not (text and text[-1].isspace()):  # (_estimate_line_and_newline)
                    n += 1
            else:
                n += _estimate_cut_lines(text) if cut else _estimate_text(text)
        return n


class PiecesSections:
    """``Estimate.count_sections`` of every text made of the same constant pieces around the
    test row's values (coded ``t``), as :class:`PiecesEstimate` counts them: by the stretches
    of whole lines between the line cuts inside constant pieces (each stretch with the newline
    that cuts it: the line it ends is counted with it), the constant stretches once."""

    def __init__(self, parts: list[Part], codes: list[str]) -> None:
        """``codes``: each constant piece's section codes, in order."""
        stretches: list[list[tuple[Part, str]]] = [[]]
        pieces = iter(codes)
        for part in parts:
            if type(part) is int:
                stretches[-1].append((part, ""))
                continue
            assert isinstance(part, str)
            coded = next(pieces)
            first, *lines = _LINE_END.split(part)
            if not lines:
                stretches[-1].append((part, coded))
                continue
            # each stretch keeps the newline that cuts it (the line it ends is counted with it)
            at = len(first) + 1
            stretches[-1].append((part[:at], coded[:at]))
            for line in lines[:-1]:
                end = at + len(line) + 1
                stretches.append([(part[at:end], coded[at:end])])
                at = end
            stretches.append([(part[at:], coded[at:])])
        self.constant = (0,) * len(SECTIONS)
        texts, codings = _Stretches(), _Stretches()
        for stretch in stretches:
            kept = [(p, c) for p, c in stretch if p != ""]
            if all(type(p) is str for p, _ in kept):
                text = "".join([p for p, _ in kept])  # type: ignore[misc]
                if text:
                    counted = _by_lines(text, "".join([c for _, c in kept]))
                    self.constant = tuple(map(sum, zip(self.constant, counted)))
            else:
                texts.add([p for p, _ in kept])
                codings.add([p if type(p) is int else c for p, c in kept])
        self._texts, self._codes = texts.constants, codings.constants
        #: the stretches that hold values: how each one's text and codes are joined
        self.changing = list(zip(texts.getters(), codings.getters()))

    def count(self, values: list[str]) -> tuple[int, ...]:
        """Each section's tokens (``SECTIONS`` order) of the text these pieces make with ``values``."""
        got = [self.constant]
        texts = [*self._texts, *values]
        codes = [*self._codes, *[_ROW_CODE * len(v) for v in values]]
        for join_text, join_codes in self.changing:
            text = "".join(join_text(texts))
            coded = "".join(join_codes(codes))
            newline = text.find("\n")
            if newline < 0 or newline == len(text) - 1:  # one line, and the newline that cuts it
                got.append(_line_sections(text, coded))
            else:
                got.append(_by_lines(text, coded))
        return tuple(map(sum, zip(*got)))


def _row_end(codes: str, start: int) -> int:
    """Where the run of test-row codes that starts at ``start`` ends."""
    found = _NOT_ROW.search(codes, start)
    return found.start() if found is not None else len(codes)


def _cut_before(text: str, at: int) -> int:
    """The last line cut (see ``_LINE_END``) at or before ``at``: 0 if none."""
    found = text.rfind("\n", 0, at)
    while found >= 0 and not _LINE_END.match(text, found):
        found = text.rfind("\n", 0, found)
    return found + 1


def _cut_after(text: str, at: int) -> int:
    """The first line cut after ``at - 1`` (so at or after ``at``): the text's end if none."""
    found = text.find("\n", at - 1)
    while found >= 0 and not _LINE_END.match(text, found):
        found = text.find("\n", found + 1)
    return found + 1 if found >= 0 else len(text)


def _by_lines(text: str, codes: str) -> tuple[int, ...]:
    """``text``'s tokens by section, its lines' summed (each line's looked up by its text and
    codes, both sliced in C: a line repeats, and may change section from one request to the next)."""
    parts = _LINE_END.split(text)
    lines = list(map(str.__add__, parts[:-1], repeat("\n")))
    lines.append(parts[-1])
    ends = list(accumulate(map(len, lines)))
    line_codes = map(codes.__getitem__, map(slice, [0, *ends], ends))
    return tuple(map(sum, zip(*map(_line_sections, lines, line_codes))))


@lru_cache(maxsize=256)
def _stretch_sections(text: str, codes: str) -> tuple[int, ...]:
    """``_by_lines`` of whole lines that repeat in every request of a pair (a pair's few
    stretches: 256 are kept)."""
    return _by_lines(text, codes)


@lru_cache(maxsize=1 << 15)
def _line_sections(line: str, codes: str) -> tuple[int, ...]:
    """The estimated tokens of ``line`` by section (``SECTIONS`` order), ``codes`` its
    characters' section codes: a piece worth n tokens gives them to its first character's."""
    out = [0] * len(SECTIONS)
    if not codes or codes.count(codes[0]) == len(codes):  # one section: the line's count
        out[_CODE_SLOTS[codes[0]] if codes else -1] = _estimate_line(line)
        return tuple(out)
    pieces = _PIECES.findall(line)
    try:
        tokens = list(map(_PIECE_TOKENS.__getitem__, pieces))
    except KeyError:
        tokens = list(_piece_tokens(pieces))
    runs = _CODE_RUNS.findall(codes)
    if len(runs) > 3:
        # the pieces' starts and the tokens before each, summed in C: a run of one code has
        # the tokens that start before its end less those that start before its start
        starts = list(accumulate(map(len, pieces), initial=0))
        before = list(accumulate(tokens, initial=0))
        last = len(pieces)
        counted = end = 0
        for run in runs:
            end += len(run)
            upto = before[bisect_left(starts, end, 0, last)]
            out[_CODE_SLOTS[run[0]]] += upto - counted
            counted = upto
        return tuple(out)
    # a row's line has a few runs (the template's text, a value, the text after it): the
    # pieces that start before each cut are found from the nearer end of the line
    size, last = len(line), len(pieces)
    at = end = 0
    for run in runs[:-1]:
        end += len(run)
        if end <= size - end:
            i = pos = 0
            while pos < end:
                pos += len(pieces[i])
                i += 1
        else:
            i, pos = last, size
            while pos > end:
                i -= 1
                pos -= len(pieces[i])
            if pos < end:
                i += 1
        out[_CODE_SLOTS[run[0]]] += sum(tokens[at:i])
        at = i
    out[_CODE_SLOTS[runs[-1][0]]] += sum(tokens[at:])
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _estimate_piece(piece: str) -> int:
    if piece.startswith("<") and piece.endswith(">") and len(piece) > 2:
        return 1
    core = piece.strip()
    if not core:
        return 1
    if core[0].isalpha() and core.isascii():
        return max(1, math.ceil(len(core) / 4))
    if core.isdigit() or len(core) == 1:
        return 1
    return max(1, math.ceil(len(core) / 2))


class Estimate:
    """About four characters of English a token, one per CJK character: labelled, never exact."""

    exact = False
    method = "estimate (no local tokenizer; ~4 characters of English a token)"

    def __init__(self, reason: str | None = None) -> None:
        if reason:
            self.method = f"estimate ({reason}; ~4 characters of English a token)"

    def token_starts(self, text: str, add_special_tokens: bool = False) -> list[int | None]:
        starts: list[int | None] = []
        for m in _PIECES.finditer(text):
            starts += [m.start()] * _estimate_piece(m.group())
        return starts

    #: the last text counted and its count: the max_seq_len loop measures a prompt and the
    #: request's token count then counts the same text again (compared, not hashed: equal
    #: texts of other lengths differ at once)
    _last: tuple[str, int] | None = None
    #: whole lines the texts counted lately start with, and their count (see ``count``)
    _head: tuple[str, int] = ("", 0)
    #: the shortest head worth keeping (shorter, the split it saves costs less than finding it)
    LEAST_HEAD = 256

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        """The estimate of ``text``.

        A text's estimate is its lines' (see ``_LINE_END``), so a text that starts with whole
        lines counted before counts as their count plus the rest's. A pair's requests start
        alike (the instructions, the in-context examples, then the row): the lines two texts
        in a row share are kept as the *head*, and a text starting with it (one comparison at
        C speed) has only its rest split and looked up.
        """
        # where the characters came from does not change the count: a provenance-carrying
        # string is counted as plain text (its split would slice every run, and the line
        # cache would keep it alive)
        plain = text if type(text) is str else str.__str__(text)
        if reference():  # counted whole (core/reference.py)
            return estimate_whole(plain)
        last = self._last
        if last is not None and last[0] == plain:
            return last[1]
        head, head_count = self._head
        cut = len(head)
        if cut and plain.startswith(head) and len(plain) > cut and not plain[cut].isspace():
            n = head_count + _estimate_text(plain[cut:])
        else:
            n = self._count_learning(plain, last[0] if last is not None else "")
        self._last = (plain, n)
        return n

    def _count_learning(self, plain: str, before: str) -> int:
        """``plain``'s estimate, keeping as the head the whole lines it shares with ``before``
        when they are long enough to pay (counted in two parts: no more work than one)."""
        shared = shared_prefix(before, plain)
        # the last cut whose following character both texts have: a text starting with the
        # head cuts there too when its next character is not a space
        cut = _cut_before(plain, shared - 1) if shared > self.LEAST_HEAD else 0
        if cut < self.LEAST_HEAD:
            return _estimate_text(plain)
        head = plain[:cut]
        head_count = _estimate_text(head)
        self._head = (head, head_count)
        return head_count + _estimate_text(plain[cut:])

    def count_sections(self, text: str, codes: str) -> tuple[int, ...]:
        """Each section's tokens, in ``SECTIONS`` order (their sum is the count of ``text``),
        given the section code of each character of ``text``.

        A text's tokens are its lines' (see ``_LINE_END``), so any stretch of whole lines
        counts on its own. The test row's values are what changes from one request of a pair
        to the next: the lines around each stretch of them are counted line by line, and the
        whole lines between (the system prompt, the in-context examples, the meta template's
        text: the same in every request) are one stretch, counted once and looked up by its
        text and codes after that.
        """
        plain = text if type(text) is str else str.__str__(text)
        got = []
        pos = 0
        start = codes.find("t")
        while start >= 0:  # (str.find, not a regex: the codes are as long as the text)
            cut = max(_cut_before(plain, start), pos)
            stop = _cut_after(plain, _row_end(codes, start))
            start = codes.find("t", stop)
            while start >= 0 and _cut_before(plain, start) <= stop:  # the next value's line follows
                stop = _cut_after(plain, _row_end(codes, start))
                start = codes.find("t", stop)
            if cut > pos:
                got.append(_stretch_sections(plain[pos:cut], codes[pos:cut]))
            got.append(_by_lines(plain[cut:stop], codes[cut:stop]))
            pos = stop
        if pos < len(plain) or not got:
            got.append(_stretch_sections(plain[pos:], codes[pos:]))
        return tuple(map(sum, zip(*got)))

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None:
        return None


def length_estimate(has_model: bool) -> Estimate:
    """How a request no model counted is measured for its length (the lengths view, a form's
    stamps of such a pair)."""
    return Estimate("the render counted no tokens" if has_model else "no model, so no tokenizer")


def estimate_whole(text: str) -> int:
    """The estimate of ``text`` in one pass (what ``Estimate.count`` must always equal)."""
    return sum(map(_estimate_piece, _PIECES.findall(text)))


_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_CHINESE_CHARACTER = re.compile(r"[\u4e00-\u9FFF]")


class WordCount:
    """OpenCompass ``BaseAPIModel.get_token_len``: English words plus Chinese characters.

    Exact for truncation (it is what OpenCompass measures), an estimate as a token count.
    """

    exact = False
    method = "OpenCompass BaseAPIModel.get_token_len (English words + Chinese characters)"

    def _matches(self, text: str) -> Iterator[re.Match[str]]:
        return re.finditer(r"[A-Za-z0-9]+|[\u4e00-\u9FFF]+", text)

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        # the two kinds of run share no character, so they are counted apart, in C
        return _ASCII_WORD.subn("", text)[1] + _CHINESE_CHARACTER.subn("", text)[1]

    def token_starts(self, text: str, add_special_tokens: bool = False) -> list[int | None]:
        out: list[int | None] = []
        for m in self._matches(text):
            out += [m.start()] if m.group()[0].isascii() else list(range(m.start(), m.end()))
        return out

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None:
        return None


# -- real tokenizers ----------------------------------------------------------------------


def tokenizers_available() -> bool:
    try:
        import tokenizers  # noqa: F401
    except ImportError:
        return False
    return True


#: Texts longer than this (characters) are not kept among a tokenizer's 2048 recent encodings.
_LONG_TEXT = 1 << 20


def _encoding_error(method: str, text: str, exc: Exception) -> RenderError:
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:  # (transformers' fast tokenizers refuse it the same way)
        return RenderError(f"{method} cannot encode the text: it holds a lone surrogate "
                           f"({surrogate.group().encode('unicode_escape').decode()} at character "
                           f"{surrogate.start():,}), which has no UTF-8 form",
                           hint="the framework's tokenizer fails on it too; fix the row or template "
                           "that holds it")
    return RenderError(f"{method} cannot encode the text: {exc}",
                       hint="the model folder's tokenizer.json is broken; the frameworks would fail on it "
                       "too")


class HFTokenizer:
    """A ``tokenizer.json`` through the ``tokenizers`` library (what a fast HF tokenizer runs).

    Built from the file's text, which the loader reads (:mod:`workbench.loading.models.model_assets`).
    """

    exact = True

    def __init__(self, json_text: str, label: str) -> None:
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_str(json_text)
        self.method = f"tokenizer.json ({label})"
        #: What the tokenizer is, for snapshot hashes (the same file gives the same digest).
        self.digest = hashlib.sha256(json_text.encode("utf-8", "surrogatepass")).hexdigest()
        self._cache: dict[tuple[str, bool], object] = {}
        #: the last long text encoded: its encoding is about 60 bytes a character, kept once
        self._long: tuple[tuple[str, bool] | None, object] = (None, None)
        self._control: frozenset[int] | None = None  # the special tokens' ids (pieces)

    def _encode(self, text: str, add_special_tokens: bool) -> Any:
        key = (text, add_special_tokens)
        enc = self._cache.get(key)
        if enc is None and self._long[0] == key:
            enc = self._long[1]
        if enc is None:
            try:
                enc = self._tok.encode(text, add_special_tokens=add_special_tokens)
            except Exception as exc:  # a tokenizer.json that loads but cannot encode (no unk token...)
                raise _encoding_error(self.method, text, exc) from None
            if len(text) > _LONG_TEXT:
                self._long = (key, enc)
                return enc
            if len(self._cache) > 2048:
                self._cache.clear()
            self._cache[key] = enc
        return enc

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        return len(self._encode(text, add_special_tokens).ids)

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None:
        return list(self._encode(text, add_special_tokens).ids)

    def token_starts(self, text: str, add_special_tokens: bool = False) -> list[int | None]:
        enc = self._encode(text, add_special_tokens)
        out: list[int | None] = []
        for (start, end), special in zip(enc.offsets, enc.special_tokens_mask):
            # Tokens the post-processor adds have no characters of their own.
            out.append(None if special and start == end else start)
        return out

    def pieces(self, text: str, add_special_tokens: bool = False) -> list[Piece]:
        """Every token of ``text``: its id, its characters (``start``/``end``: None for a token
        the post-processor adds) and whether it is a control (special) token."""
        enc = self._encode(text, add_special_tokens)
        if self._control is None:  # (the special tokens found in a text are not in its special mask)
            self._control = frozenset(i for i, t in self._tok.get_added_tokens_decoder().items() if t.special)
        out = []
        for token_id, token, (start, end), added in zip(enc.ids, enc.tokens, enc.offsets,
                                                        enc.special_tokens_mask):
            if added and start == end:
                out.append(Piece(token_id, token, None, None, True))
            else:
                out.append(Piece(token_id, text[start:end], start, end, token_id in self._control))
        return out


class Tiktoken:
    """An OpenAI-style API model's tokenizer (the loader builds it only when the encoding is cached)."""

    exact = True

    def __init__(self, encoding) -> None:  # type: ignore[no-untyped-def]
        self._enc = encoding
        self.method = f"tiktoken {encoding.name}"
        #: each token met: the characters its bytes start, and whether it starts inside one
        self._chars: dict[int, int] = {}
        self._inside: dict[int, int] = {}
        self._texts: dict[int, str] = {}  # each token met, as text (pieces)
        #: the last text encoded and its tokens: a request's text is counted for its wire
        #: message and again for its sections (compared, not hashed: texts of other lengths
        #: differ at once)
        self._last: tuple[str, Sequence[int]] = ("", array("I"))

    def _encode(self, text: str) -> Sequence[int]:
        last, tokens = self._last
        if text != last or not last:
            # kept as 4 bytes a token, not a list's 36 (no provenance kept either)
            tokens = array("I", self._enc.encode(text, disallowed_special=()))
            self._last = (text if type(text) is str else str.__str__(text), tokens)
        return tokens

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        return len(self._encode(text))

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None:
        return list(self._encode(text))

    def token_starts(self, text: str, add_special_tokens: bool = False) -> list[int | None]:
        """Each token's start: the characters its bytes' predecessors hold whole (a token that
        starts inside a character's UTF-8 bytes starts at that character), summed token by token
        in one pass from what each distinct token's bytes are, learned once."""
        tokens = self._encode(text)
        chars, inside = self._chars, self._inside
        distinct = set(tokens)
        for token in distinct.difference(chars):
            data = self._enc.decode_single_token_bytes(token)
            inside[token] = 1 if data[:1] and data[0] in _UTF8_CONTINUATION else 0
            chars[token] = len(data.translate(None, _UTF8_CONTINUATION))  # (last: known once here)
        ends = accumulate(map(chars.__getitem__, tokens), initial=0)
        if not any(map(inside.__getitem__, distinct)):
            starts: list[int | None] = list(ends)
            starts.pop()  # (the end of the last token)
        else:  # (map stops at the shorter: the last end has no token to pair with)
            starts = list(map(sub, ends, map(inside.__getitem__, tokens)))
            if starts and starts[0] == -1:  # (a first token inside a character: never, from str)
                starts[0] = 0
        return _surrogates_placed(text, starts)

    def pieces(self, text: str, add_special_tokens: bool = False) -> list[Piece]:
        """Every token of ``text`` (OpenCompass encodes with ``disallowed_special=()``, so a
        special string in the text is plain text here: never a control token)."""
        ids = self.ids(text) or []
        starts = self.token_starts(text)
        ends = [*starts[1:], len(text)]
        texts = self._texts
        for token_id in set(ids).difference(texts):  # (each distinct token decoded once)
            texts[token_id] = self._enc.decode_single_token_bytes(token_id).decode("utf-8", "replace")
        return [Piece(token_id, texts[token_id], start, max(start or 0, end or 0), False)
                for token_id, start, end in zip(ids, starts, ends)]


#: The bytes that continue a UTF-8 character (the others start one).
_UTF8_CONTINUATION = bytes(range(0x80, 0xC0))
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")


def _surrogates_placed(text: str, starts: list[int | None]) -> list[int | None]:
    """``starts`` (counted in the text tiktoken encodes) as places in ``text``. tiktoken encodes
    a text holding surrogates as its UTF-16 round trip: a lone surrogate becomes one U+FFFD (the
    same places), a surrogate pair one character (each later place one further in ``text``)."""
    if _SURROGATE.search(text) is None:
        return starts
    joined = [found.start() - n for n, found in enumerate(_SURROGATE_PAIR.finditer(text))]
    if not joined:
        return starts
    return [None if s is None else s + bisect_right(joined, s - 1) for s in starts]


# -- sections -----------------------------------------------------------------------------


def section_of(origin_kind: str, detail: str | None) -> str:
    if origin_kind == META:
        return "meta_template"
    if origin_kind == ICE:
        return "in_context_examples"
    if origin_kind == TEMPLATE and (detail or "").startswith("ice_template"):
        return "in_context_examples"
    if origin_kind == GLUE and detail in ("ice_separator", "ice_eos_token"):
        return "in_context_examples"
    if origin_kind == ROW:
        return "test_row"
    return "other"


#: One code character per section.
SECTION_CODES = {"meta_template": "m", "in_context_examples": "i", "test_row": "t", "other": "o"}
_CODE_NAMES = {code: name for name, code in SECTION_CODES.items()}
_CODE_SLOTS = {code: SECTIONS.index(name) for name, code in SECTION_CODES.items()}
_CODE_RUNS = re.compile("m+|i+|t+|o+")
_ROW_CODE = SECTION_CODES["test_row"]
_NOT_ROW = re.compile("[^t]")


def codes_of(text: str) -> str:
    """One section code per character of ``text`` (a plain string is all "other")."""
    return "".join([SECTION_CODES[section_of(origin.kind, origin.detail)] * length
                    for length, origin in spans_of(text)])


def count_tokens(counter: Counter, text: str, codes: str | None,
                 add_special_tokens: bool, added_section: str = "meta_template") -> TokenCount:
    """The count of ``text`` and, given each character's section code (see ``SECTION_CODES``),
    how many tokens each section has.

    A token belongs to the section of its first character; tokens the tokenizer adds
    (BOS/EOS) belong to ``added_section``.
    """
    if codes is None:
        return TokenCount(total=counter.count(text, add_special_tokens), exact=counter.exact,
                          method=counter.method, sections=())
    if len(codes) != len(text):  # (never, when the codes were made for the text: then the last goes on)
        codes = codes[:len(text)] + (codes[-1:] or "o") * (len(text) - len(codes))
    if isinstance(counter, Estimate) and not reference():  # adds no tokens: counted line by line
        counts = counter.count_sections(text, codes)
        return TokenCount(total=sum(counts), exact=False, method=counter.method,
                          sections=tuple(zip(SECTIONS, counts)))
    sections = dict.fromkeys(SECTIONS, 0)
    starts = counter.token_starts(text, add_special_tokens)
    added = starts.count(None)
    sections[added_section] += added
    # each section's tokens: those starting in its runs of codes, found by bisection in the
    # starts in order (a tokenizer gives them in order, as a rule: sorted in one pass), a
    # start past the codes' end counted with the last run
    placed = cast("list[int]", [s for s in starts if s is not None] if added else starts)
    placed.sort()  # (in place, and one pass when in order)
    at = 0
    for run in _CODE_RUNS.finditer(codes):
        end = bisect_left(placed, run.end(), at) if run.end() < len(codes) else len(placed)
        sections[_CODE_NAMES[codes[run.start()]]] += end - at
        at = end
    sections["other"] += len(placed) - at  # (no codes: an empty text's tokens)
    return TokenCount(total=len(starts), exact=counter.exact, method=counter.method,
                      sections=tuple(sections.items()))
