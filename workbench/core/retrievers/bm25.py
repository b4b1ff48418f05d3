"""OpenCompass' BM25Retriever, reproduced with the standard library only.

OpenCompass 0.5.4 builds, for the index (train) split and the test split alike,
one string per row, ``' '.join(str(entry[c]) for c in input_columns)``, and then::

    index_corpus = [nltk.word_tokenize(text) for text in train_texts]
    bm25 = rank_bm25.BM25Okapi(index_corpus)
    for each test row:
        scores = bm25.get_scores(nltk.word_tokenize(test_text))
        picks = [int(i) for i in np.argsort(scores)[::-1][:ice_num]]

Each stage is mirrored here:

* :func:`word_tokenize` - nltk's ``word_tokenize`` with its default English
  model: Punkt sentence splitting with NLTK's pretrained English parameters
  (embedded in ``_punkt_english``), then ``NLTKWordTokenizer`` on each sentence.
  nltk >= 3.10 compiles those patterns with the third-party ``regex`` engine,
  whose ``\\w``/``\\d``/``\\s`` classes differ from ``re``'s; they are embedded as
  code-point ranges (``_regex_classes``) so matching does not depend on the
  running Python's Unicode tables.  Python's own ``str`` methods (``lower``,
  ``isupper``, ``split``, ``strip``) are used where nltk uses them.  nltk 3.9.x
  tokenises some texts differently; ``flavor="3.9"`` mirrors it instead
  (see :data:`NLTK_FLAVORS`).
* :class:`BM25Okapi` - rank_bm25 0.2.2 with its defaults (k1=1.5, b=0.75,
  epsilon=0.25), the idf floor (a negative idf becomes epsilon times the mean
  idf), and the same floating-point operation order, so scores are bit-equal.
* :func:`numpy_argsort` - numpy 1.x's default ``argsort`` for float64 on a CPU
  without AVX-512 (OpenCompass 0.5.4 pins ``numpy<2``): introsort with
  median-of-three pivots, insertion sort below 17 elements and a heapsort
  fallback, which fixes the (unstable) order of tied scores.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache

from .. import _punkt_english as _pe
from .._regex_classes import DIGIT_RANGES, SPACE_RANGES, WORD_RANGES

__all__ = [
    "NLTK_FLAVORS",
    "BM25Okapi",
    "bm25_picks",
    "input_field_text",
    "numpy_argsort",
    "numpy_argsort_top",
    "sent_tokenize",
    "treebank_tokenize",
    "word_tokenize",
]


# ---------------------------------------------------------------------------
# Character classes of the ``regex`` engine, as stdlib ``re`` class bodies
# ---------------------------------------------------------------------------


def _subtract(
    ranges: Sequence[tuple[int, int]], minus: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in ranges:
        cur = lo
        for mlo, mhi in minus:
            if mhi < cur or mlo > hi:
                continue
            if mlo > cur:
                out.append((cur, mlo - 1))
            cur = max(cur, mhi + 1)
            if cur > hi:
                break
        if cur <= hi:
            out.append((cur, hi))
    return out


def _class_body(ranges: Iterable[tuple[int, int]]) -> str:
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(f"\\U{lo:08x}")
        else:
            parts.append(f"\\U{lo:08x}-\\U{hi:08x}")
    return "".join(parts)


# ---------------------------------------------------------------------------
# Punkt sentence splitting (nltk.tokenize.punkt with the English parameters)
# ---------------------------------------------------------------------------

_ORTHO_BEG_UC = 1 << 1
_ORTHO_MID_UC = 1 << 2
_ORTHO_UNK_UC = 1 << 3
_ORTHO_BEG_LC = 1 << 4
_ORTHO_MID_LC = 1 << 5
_ORTHO_UNK_LC = 1 << 6
_ORTHO_UC = _ORTHO_BEG_UC | _ORTHO_MID_UC | _ORTHO_UNK_UC
_ORTHO_LC = _ORTHO_BEG_LC | _ORTHO_MID_LC | _ORTHO_UNK_LC

_SENT_END_CHARS = (".", "?", "!")
_PUNCT_TOKENS = (";", ":", ",", ".", "!", "?")
_RE_ELLIPSIS = re.compile(r"\.\.+$")

NLTK_FLAVORS = ("3.10", "3.9")
"""nltk releases whose word_tokenize output this module reproduces.

``"3.10"`` (default): nltk >= 3.10, which compiles its patterns with the
``regex`` engine, splits a leading apostrophe off words ("'em" -> "'", "em"),
pads figure/en/em dashes, and lets Punkt treat curly quotes and guillemets as
closing punctuation.  ``"3.9"``: nltk 3.9.x, stdlib ``re`` and none of those.
"""


class _Rules:
    """Compiled patterns of one nltk flavour."""

    def __init__(self, modern: bool) -> None:
        if modern:
            w, s, d = (_class_body(r) for r in (WORD_RANGES, SPACE_RANGES, DIGIT_RANGES))
            alpha = _class_body(_subtract(WORD_RANGES, DIGIT_RANGES))
            is_w, is_s, not_s, is_d, not_d = f"[{w}]", f"[{s}]", f"[^{s}]", f"[{d}]", f"[^{d}]"
            digits = d
            curly = "\u2018\u2019\u201c\u201d\xab\xbb"
        else:  # stdlib re semantics
            alpha = r"^\W\d"
            is_w, is_s, not_s, is_d, not_d = r"\w", r"\s", r"\S", r"\d", r"\D"
            digits = r"\d"
            curly = ""
        self.modern = modern

        # -- Punkt ------------------------------------------------------------
        # Characters that cannot appear inside a Punkt word, plus the
        # non-period sentence ends.
        non_word = f"(?:[)\";}}\\]*:@'({{\\[{curly}?!])"
        multi_char = rf"(?:-{{2,}}|\.{{2,}}|(?:\.{is_s}){{2,}}\.)"
        word_start = r"[^(\"`{\[:;&#*@)}\]\-,]"
        self.punkt_word = re.compile(
            rf"{multi_char}"
            rf"|(?={word_start}){not_s}+?"
            rf"(?={is_s}|$|{non_word}|{multi_char}|,(?=$|{is_s}|{non_word}|{multi_char}))"
            rf"|{not_s}"
        )
        self.period_context = re.compile(
            rf"[.?!](?=(?P<after_tok>{non_word}|{is_s}+(?P<next_tok>{not_s}+)))"
        )
        self.boundary_realign = re.compile(
            rf"[\"')\]}}{curly}]+?(?:{is_s}+|(?=--)|$)", re.MULTILINE
        )
        self.numeric = re.compile(rf"^-?[.,]?{is_d}[{digits},.\-]*\.?$")
        self.initial = re.compile(rf"[{alpha}]\.$")

        # -- NLTKWordTokenizer ------------------------------------------------
        if modern:
            apostrophe = (
                re.compile(rf"(?<!{is_w})(')(?!(?i:re|ve|ll|m|t|s|d|n)(?!{is_w}))(?={is_w})"),
                r"\1 ",
            )
        else:
            apostrophe = (re.compile(r"(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b"), r"\1 \2")
        self.starting_quotes = [
            (re.compile("([«“‘„]|[`]+)"), r" \1 "),
            (re.compile(r"^\""), r"``"),
            (re.compile(r"(``)"), r" \1 "),
            (re.compile(r"([ (\[{<])(\"|'{2})"), r"\1 `` "),
            apostrophe,
        ]
        self.punctuation = [
            (re.compile(rf"([^.])(\.)([\])}}>\"'»”’ ]*+){is_s}*$"), r"\1 \2 \3 "),
            (re.compile(rf"([:,])({not_d})"), r" \1 \2"),
            (re.compile(r"([:,])$"), r" \1 "),
            (re.compile(r"\.{2,}"), r" \g<0> "),
            (re.compile(r"[;@#$%&]"), r" \g<0> "),
        ]
        if modern:
            self.punctuation.append((re.compile("[\u2012-\u2015]"), r" \g<0> "))
        self.punctuation += [
            (re.compile(rf"([^.])(\.)([\])}}>\"']*){is_s}*$"), r"\1 \2\3 "),
            (re.compile(r"[?!]"), r" \g<0> "),
            (re.compile(r"([^'])' "), r"\1 ' "),
            (re.compile(r"[*]"), r" \g<0> "),
        ]
        self.ending_quotes = [
            (re.compile("([»”’])"), r" \1 "),
            (re.compile(r"''"), " '' "),
            (re.compile(r'"'), " '' "),
            (re.compile(rf"{is_s}+"), " "),
            (re.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') "), r"\1 \2 "),
            (re.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1 \2 "),
        ]


@cache
def _rules(flavor: str) -> _Rules:
    if flavor not in NLTK_FLAVORS:
        raise ValueError(f"unknown nltk flavor {flavor!r}; expected one of {NLTK_FLAVORS}")
    return _Rules(flavor == "3.10")


@lru_cache(maxsize=1)
def _ortho_context() -> dict[str, int]:
    table: dict[str, int] = {}
    for line in _pe.ORTHO_CONTEXT_TSV.split("\n"):
        if line:
            word, _, flags = line.rpartition("\t")
            table[word] = int(flags)
    if len(table) != _pe.ORTHO_CONTEXT_COUNT:  # pragma: no cover - corrupt table
        raise RuntimeError("embedded Punkt orthographic table is incomplete")
    return table


class _PunktToken:
    __slots__ = ("abbr", "ellipsis", "period_final", "sentbreak", "tok", "type")

    def __init__(self, tok: str, rules: _Rules) -> None:
        self.tok = tok
        self.type = rules.numeric.sub("##number##", tok.lower())
        self.period_final = tok.endswith(".")
        self.sentbreak = False
        self.abbr = False
        self.ellipsis = False

    @property
    def type_no_period(self) -> str:
        typ = self.type
        if len(typ) > 1 and typ[-1] == ".":
            return typ[:-1]
        return typ

    @property
    def type_no_sentperiod(self) -> str:
        return self.type_no_period if self.sentbreak else self.type


def _punkt_words(text: str, rules: _Rules) -> list[_PunktToken]:
    tokens = []
    for line in text.split("\n"):
        if line.strip():
            tokens.extend(_PunktToken(m.group(), rules) for m in rules.punkt_word.finditer(line))
    return tokens


def _first_pass(tok: _PunktToken) -> None:
    text = tok.tok
    if text in _SENT_END_CHARS:
        tok.sentbreak = True
    elif _RE_ELLIPSIS.match(text):
        tok.ellipsis = True
    elif tok.period_final and not text.endswith(".."):
        stem = text[:-1].lower()
        if stem in _pe.ABBREV_TYPES or stem.split("-")[-1] in _pe.ABBREV_TYPES:
            tok.abbr = True
        else:
            tok.sentbreak = True


def _ortho_heuristic(tok: _PunktToken) -> bool | str:
    if tok.tok in _PUNCT_TOKENS:
        return False
    context = _ortho_context().get(tok.type_no_sentperiod, 0)
    first = tok.tok[0]
    if first.isupper() and (context & _ORTHO_LC) and not (context & _ORTHO_MID_UC):
        return True
    if first.islower() and ((context & _ORTHO_UC) or not (context & _ORTHO_BEG_LC)):
        return False
    return "unknown"


def _second_pass(tok1: _PunktToken, tok2: _PunktToken, rules: _Rules) -> None:
    if not tok1.period_final:
        return
    typ = tok1.type_no_period
    next_typ = tok2.type_no_sentperiod
    is_initial = rules.initial.match(tok1.tok) is not None

    if (typ, next_typ) in _pe.COLLOCATIONS:
        tok1.sentbreak = False
        tok1.abbr = True
        return

    if (tok1.abbr or tok1.ellipsis) and not is_initial:
        starter = _ortho_heuristic(tok2)
        if starter is True:
            tok1.sentbreak = True
            return
        if tok2.tok[0].isupper() and next_typ in _pe.SENT_STARTERS:
            tok1.sentbreak = True
            return

    if is_initial or typ == "##number##":
        starter = _ortho_heuristic(tok2)
        if starter is False:
            tok1.sentbreak = False
            tok1.abbr = True
            return
        if (
            starter == "unknown"
            and is_initial
            and tok2.tok[0].isupper()
            and not (_ortho_context().get(next_typ, 0) & _ORTHO_LC)
        ):
            tok1.sentbreak = False
            tok1.abbr = True


def _contains_sentbreak(context: str, rules: _Rules) -> bool:
    """True when a token other than the last of ``context`` ends a sentence."""
    tokens = _punkt_words(context, rules)
    for tok in tokens:
        _first_pass(tok)
    last = len(tokens) - 1
    for i in range(last):
        _second_pass(tokens[i], tokens[i + 1], rules)
        if tokens[i].sentbreak:
            return True
    return False


def _last_whitespace_index(text: str) -> int:
    for i in range(len(text) - 1, -1, -1):
        if text[i] in string.whitespace:
            return i
    return 0


def _end_contexts(text: str, rules: _Rules) -> Iterator[tuple[re.Match[str], str]]:
    """Candidate sentence ends with the text Punkt decides each one on."""
    prev_start = prev_stop = 0
    prev_match: re.Match[str] | None = None
    for match in rules.period_context.finditer(text):
        before = text[prev_stop : match.start()]
        idx = _last_whitespace_index(before)
        start = idx + prev_stop + 1 if idx else prev_start
        if prev_match is not None and prev_stop <= start:
            yield prev_match, (
                text[prev_start:prev_stop] + prev_match.group() + prev_match.group("after_tok")
            )
        prev_match = match
        prev_start, prev_stop = start, match.start()
    if prev_match is not None:
        yield prev_match, (
            text[prev_start:prev_stop] + prev_match.group() + prev_match.group("after_tok")
        )


def _sentence_spans(text: str, rules: _Rules) -> list[tuple[int, int]]:
    slices: list[tuple[int, int]] = []
    last_break = 0
    for match, context in _end_contexts(text, rules):
        if _contains_sentbreak(context, rules):
            slices.append((last_break, match.end()))
            # The next sentence starts at the next token, or right after the
            # end character when punctuation follows it directly.
            last_break = match.start("next_tok") if match.group("next_tok") else match.end()
    slices.append((last_break, len(text.rstrip())))

    spans: list[tuple[int, int]] = []
    realign = 0
    for i, (start, stop) in enumerate(slices):
        start += realign
        if i + 1 == len(slices):
            if text[start:stop]:
                spans.append((start, stop))
            continue
        next_start, next_stop = slices[i + 1]
        m = rules.boundary_realign.match(text[next_start:next_stop])
        if m:
            spans.append((start, next_start + len(m.group(0).rstrip())))
            realign = m.end()
        else:
            realign = 0
            if text[start:stop]:
                spans.append((start, stop))
    return spans


def sent_tokenize(text: str, flavor: str = "3.10") -> list[str]:
    """``nltk.sent_tokenize(text)`` with the default English Punkt model."""
    return [text[s:e] for s, e in _sentence_spans(text, _rules(flavor))]


# ---------------------------------------------------------------------------
# NLTKWordTokenizer (the "improved Treebank" tokenizer word_tokenize uses)
# ---------------------------------------------------------------------------

_PARENS_BRACKETS = re.compile(r"[\]\[(){}<>]")
_DOUBLE_DASHES = re.compile(r"--")

# nltk compiles these two lists with the standard ``re`` module in every release.
_CONTRACTIONS2 = [
    re.compile(p)
    for p in (
        r"(?i)\b(can)(not)\b",
        r"(?i)\b(d)('ye)\b",
        r"(?i)\b(gim)(me)\b",
        r"(?i)\b(gon)(na)\b",
        r"(?i)\b(got)(ta)\b",
        r"(?i)\b(lem)(me)\b",
        r"(?i)\b(more)('n)\b",
        r"(?i)\b(wan)(na)(?=\s)",
    )
]
_CONTRACTIONS3 = [re.compile(r"(?i) ('t)(is)\b"), re.compile(r"(?i) ('t)(was)\b")]


def treebank_tokenize(text: str, flavor: str = "3.10") -> list[str]:
    """``NLTKWordTokenizer().tokenize(text)`` (one sentence, no PTB brackets)."""
    rules = _rules(flavor)
    for regexp, repl in rules.starting_quotes:
        text = regexp.sub(repl, text)
    for regexp, repl in rules.punctuation:
        text = regexp.sub(repl, text)
    text = _PARENS_BRACKETS.sub(r" \g<0> ", text)
    text = _DOUBLE_DASHES.sub(r" -- ", text)
    text = " " + text + " "
    for regexp, repl in rules.ending_quotes:
        text = regexp.sub(repl, text)
    for regexp in _CONTRACTIONS2:
        text = regexp.sub(r" \1 \2 ", text)
    for regexp in _CONTRACTIONS3:
        text = regexp.sub(r" \1 \2 ", text)
    return text.split()


def word_tokenize(text: str, flavor: str = "3.10") -> list[str]:
    """``nltk.word_tokenize(text)`` (language="english", preserve_line=False).

    ``flavor`` picks the nltk release line to mirror; see :data:`NLTK_FLAVORS`.
    """
    rules = _rules(flavor)
    return [
        tok for start, stop in _sentence_spans(text, rules)
        for tok in treebank_tokenize(text[start:stop], flavor)
    ]


def input_field_text(entry: Mapping[str, object], input_columns: Sequence[str]) -> str:
    """The corpus string DatasetReader builds for a row when no input template is set."""
    return " ".join(str(entry[column]) for column in input_columns)


# ---------------------------------------------------------------------------
# rank_bm25.BM25Okapi
# ---------------------------------------------------------------------------


class BM25Okapi:
    """rank_bm25 0.2.2's ``BM25Okapi`` over pre-tokenised documents."""

    def __init__(
        self,
        corpus: Sequence[Sequence[str]],
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
    ) -> None:
        self.k1 = k1
        self.b = b
        self.epsilon = epsilon
        self.corpus_size = 0
        self.doc_len: list[int] = []
        self.doc_freqs: list[dict[str, int]] = []
        self.idf: dict[str, float] = {}

        nd: dict[str, int] = {}  # word -> number of documents containing it
        num_doc = 0
        for document in corpus:
            self.doc_len.append(len(document))
            num_doc += len(document)
            frequencies: dict[str, int] = {}
            for word in document:
                frequencies[word] = frequencies.get(word, 0) + 1
            self.doc_freqs.append(frequencies)
            for word in frequencies:
                nd[word] = nd.get(word, 0) + 1
            self.corpus_size += 1
        # ZeroDivisionError for an empty corpus, as rank_bm25 raises.
        self.avgdl = num_doc / self.corpus_size

        idf_sum = 0.0
        negative: list[str] = []
        for word, freq in nd.items():
            idf = math.log(self.corpus_size - freq + 0.5) - math.log(freq + 0.5)
            self.idf[word] = idf
            idf_sum += idf
            if idf < 0:
                negative.append(word)
        # ZeroDivisionError when every document is empty, as in rank_bm25.
        self.average_idf = idf_sum / len(self.idf)
        eps = self.epsilon * self.average_idf
        for word in negative:
            self.idf[word] = eps

        # Per-document length normalisation, in numpy's operation order:
        # k1 * (1 - b + b * doc_len / avgdl).
        one_minus_b = 1 - b
        self._norm = [k1 * (one_minus_b + b * dl / self.avgdl) for dl in self.doc_len]
        # With a positive, finite normaliser a document lacking the term adds
        # exactly +-0.0, so only documents containing it need visiting.
        self._sparse = all(n > 0 and n != math.inf for n in self._norm)
        # Per-word (document, score term) lists, filled on first use.
        self._terms: dict[str, list[tuple[int, float]]] = {}
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for i, frequencies in enumerate(self.doc_freqs):
            for word, freq in frequencies.items():
                self._postings.setdefault(word, []).append((i, freq))

    def get_scores(self, query: Sequence[str]) -> list[float]:
        """Score of every document for ``query`` (a token list)."""
        scores = [0.0] * self.corpus_size
        k1p1 = self.k1 + 1
        norm = self._norm
        for q in query:
            idf = self.idf.get(q) or 0
            if self._sparse:
                if idf == 0:
                    continue
                terms = self._terms.get(q)
                if terms is None:
                    terms = self._terms[q] = [
                        (i, idf * (freq * k1p1 / (freq + norm[i])))
                        for i, freq in self._postings.get(q, ())
                    ]
                for i, term in terms:
                    scores[i] += term
            else:
                for i, frequencies in enumerate(self.doc_freqs):
                    freq = frequencies.get(q) or 0
                    try:
                        part = freq * k1p1 / (freq + norm[i])
                    except ZeroDivisionError:
                        part = math.nan if freq == 0 else math.copysign(math.inf, freq * k1p1)
                    scores[i] += idf * part
        return scores


# ---------------------------------------------------------------------------
# numpy.argsort (numpy 1.x introsort, float64)
# ---------------------------------------------------------------------------

_SMALL_QUICKSORT = 15


def _sort_keys(values: Sequence[float]) -> list:
    vals = [float(v) for v in values]
    if any(v != v for v in vals):
        # numpy orders NaN after every number and NaNs as equal to each other;
        # (is_nan, value) tuples compare exactly that way.
        return [(1, 0.0) if v != v else (0, v) for v in vals]
    return vals


def _heapsort(keys: list, idx: list[int], lo: int, n: int) -> None:
    """numpy's ``aheapsort`` on ``idx[lo:lo + n]`` (1-based heap arithmetic)."""
    base = lo - 1

    def sift(i: int, tmp: int, size: int) -> None:
        j = i << 1
        while j <= size:
            if j < size and keys[idx[base + j]] < keys[idx[base + j + 1]]:
                j += 1
            if keys[tmp] < keys[idx[base + j]]:
                idx[base + i] = idx[base + j]
                i = j
                j += j
            else:
                break
        idx[base + i] = tmp

    for i in range(n >> 1, 0, -1):
        sift(i, idx[base + i], n)
    while n > 1:
        tmp = idx[base + n]
        idx[base + n] = idx[base + 1]
        n -= 1
        sift(1, tmp, n)


def _introsort(keys: list, idx: list[int], want_lo: int, want_hi: int) -> None:
    """numpy's ``aquicksort``, skipping sub-ranges entirely outside [want_lo, want_hi].

    Partitions never move elements across sub-range boundaries, so the final
    contents of the wanted positions are exactly those of a full sort.
    """
    num = len(idx)
    if num < 2:
        return
    stack: list[tuple[int, int, int]] = []
    pl, pr = 0, num - 1
    cdepth = (num.bit_length() - 1) * 2
    while True:
        if cdepth < 0:
            _heapsort(keys, idx, pl, pr - pl + 1)
        else:
            while pr - pl > _SMALL_QUICKSORT:
                pm = pl + ((pr - pl) >> 1)
                if keys[idx[pm]] < keys[idx[pl]]:
                    idx[pm], idx[pl] = idx[pl], idx[pm]
                if keys[idx[pr]] < keys[idx[pm]]:
                    idx[pr], idx[pm] = idx[pm], idx[pr]
                if keys[idx[pm]] < keys[idx[pl]]:
                    idx[pm], idx[pl] = idx[pl], idx[pm]
                vp = keys[idx[pm]]
                pi = pl
                pj = pr - 1
                idx[pm], idx[pj] = idx[pj], idx[pm]
                while True:
                    pi += 1
                    while keys[idx[pi]] < vp:
                        pi += 1
                    pj -= 1
                    while vp < keys[idx[pj]]:
                        pj -= 1
                    if pi >= pj:
                        break
                    idx[pi], idx[pj] = idx[pj], idx[pi]
                pk = pr - 1
                idx[pi], idx[pk] = idx[pk], idx[pi]
                cdepth -= 1
                # numpy pushes the larger side and loops on the smaller one.
                if pi - pl < pr - pi:
                    big, small = (pi + 1, pr), (pl, pi - 1)
                else:
                    big, small = (pl, pi - 1), (pi + 1, pr)
                if big[0] <= want_hi and big[1] >= want_lo:
                    stack.append((big[0], big[1], cdepth))
                if small[0] <= want_hi and small[1] >= want_lo:
                    pl, pr = small
                else:
                    pl, pr = 0, -1  # nothing wanted here
            for i in range(pl + 1, pr + 1):
                vi = idx[i]
                key = keys[vi]
                j = i
                while j > pl and key < keys[idx[j - 1]]:
                    idx[j] = idx[j - 1]
                    j -= 1
                idx[j] = vi
        if not stack:
            break
        pl, pr, cdepth = stack.pop()


def numpy_argsort(values: Sequence[float]) -> list[int]:
    """``np.argsort(np.asarray(values, dtype=float64)).tolist()`` under numpy 1.x."""
    keys = _sort_keys(values)
    idx = list(range(len(keys)))
    _introsort(keys, idx, 0, len(idx) - 1)
    return idx


def numpy_argsort_top(values: Sequence[float], k: int) -> list[int]:
    """``list(np.argsort(values)[::-1][:k])`` as ints, sorting only what is needed."""
    n = len(values)
    wanted = range(n - 1, -1, -1)[:k]
    if not wanted:
        return []
    keys = _sort_keys(values)
    idx = list(range(n))
    _introsort(keys, idx, wanted[-1], wanted[0])
    return [idx[p] for p in wanted]


# ---------------------------------------------------------------------------
# BM25Retriever
# ---------------------------------------------------------------------------


def bm25_picks(
    train_texts: Sequence[str],
    test_texts: Sequence[str],
    ice_num: int,
    flavor: str = "3.10",
) -> list[list[int]]:
    """The index lists ``BM25Retriever(ice_num=ice_num).retrieve()`` returns.

    ``flavor`` is the nltk release line whose word_tokenize to mirror. Cached by the texts:
    a dataset rendered through several models (or reloaded unchanged) is indexed once.
    """
    picks = _picks(tuple(train_texts), tuple(test_texts), ice_num, flavor)
    return [list(p) for p in picks]


@lru_cache(maxsize=8)
def _picks(train_texts: tuple[str, ...], test_texts: tuple[str, ...], ice_num: int,
           flavor: str) -> tuple[tuple[int, ...], ...]:
    bm25 = BM25Okapi([word_tokenize(text, flavor) for text in train_texts])
    return tuple(
        tuple(numpy_argsort_top(bm25.get_scores(word_tokenize(text, flavor)), ice_num))
        for text in test_texts
    )
