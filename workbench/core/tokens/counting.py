"""Token counting: a real tokenizer when one is local, an honest labelled estimate otherwise.

``tokenizers`` (from a model folder's ``tokenizer.json``) and ``tiktoken`` (for OpenAI-style
API models, only when its encoding file is already cached) are optional extras
(``pip install prompt-workbench[tokens]``); without them every count is an estimate and says so.
The loader reads the files and builds the counters (:mod:`workbench.loading.models.model_assets`).

May import: the core's bottom layer and the other token modules (jinja2 in chat_sandbox alone);
nothing above and nothing outside the core.
"""

from __future__ import annotations

import hashlib
import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, Protocol

from ..errors import RenderError
from ..provenance import GLUE, ICE, META, ROW, TEMPLATE, Span

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


@lru_cache(maxsize=1 << 14)
def _estimate_line(line: str) -> int:
    return sum(map(_estimate_piece, _PIECES.findall(line)))


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


@lru_cache(maxsize=1 << 12)
def _line_tokens(line: str) -> tuple[list[int], list[int]]:
    """Where each estimate piece of ``line`` starts, and the tokens of the pieces before each.

    The pieces tile the line (every character alone is a piece, so a piece starts wherever the
    last one ended): each starts where the ones before it end, all found and summed in C.
    Cached: a row's line holds several section boundaries, and every model renders the row.
    """
    pieces = _PIECES.findall(line)
    return (list(accumulate(map(len, pieces), initial=0)),
            list(accumulate(map(_estimate_piece, pieces), initial=0)))


def _tokens_before(line: str, offset: int) -> int:
    """How many estimated tokens of ``line`` start before ``offset`` (a piece worth n tokens
    starts n of them)."""
    starts, tokens = _line_tokens(line)
    return tokens[bisect_left(starts, offset, 0, len(starts) - 1)]


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

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        # where the characters came from does not change the count: a provenance-carrying
        # string is counted as plain text (its split would slice every run, and the line
        # cache would keep it alive)
        plain = text if type(text) is str else str.__str__(text)
        last = self._last
        if last is not None and last[0] == plain:
            return last[1]
        n = _estimate_text(plain)
        self._last = (plain, n)
        return n

    def count_sections(self, text: str, section_map: SectionMap, sections: dict[str, int]) -> int:
        """Add each section's tokens to ``sections``; the total, as ``len(token_starts(text))``.

        A section's count is the tokens starting before its run's end less those starting
        before its start. The tokens before a position are those of the whole lines before
        the line holding it (lines are counted on their own, see ``_LINE_END``, and cached:
        the examples and the system prompt repeat in every request), summed once, plus that
        line's tokens starting before it. So a text costs what its plain count does,
        plus a lookup at each section boundary.
        """
        plain = text if type(text) is str else str.__str__(text)
        parts = _LINE_END.split(plain)
        lines = [part + "\n" for part in parts]
        lines[-1] = parts[-1]
        before_line = list(accumulate(map(_estimate_line, lines), initial=0))
        line_at = list(accumulate(map(len, lines), initial=0))
        bounds, names = section_map.runs()
        before = 0  # tokens starting before the last boundary
        for k in range(1, len(bounds)):
            at = min(bounds[k], len(plain))
            i = bisect_right(line_at, at) - 1
            upto = before_line[i]
            if at > line_at[i]:
                upto += _tokens_before(lines[i], at - line_at[i])
            sections[names[k - 1]] += upto - before
            before = upto
        total = before_line[-1]
        sections[names[-1]] += total - before
        return total

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None:
        return None


def estimate_whole(text: str) -> int:
    """The estimate of ``text`` in one pass (what ``Estimate.count`` must always equal)."""
    return sum(map(_estimate_piece, _PIECES.findall(text)))


class WordCount:
    """OpenCompass ``BaseAPIModel.get_token_len``: English words plus Chinese characters.

    Exact for truncation (it is what OpenCompass measures), an estimate as a token count.
    """

    exact = False
    method = "OpenCompass BaseAPIModel.get_token_len (English words + Chinese characters)"

    def _matches(self, text: str) -> Iterator[re.Match[str]]:
        return re.finditer(r"[A-Za-z0-9]+|[\u4e00-\u9FFF]+", text)

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        n = 0
        for m in self._matches(text):
            n += 1 if m.group()[0].isascii() else len(m.group())
        return n

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

    def _encode(self, text: str, add_special_tokens: bool) -> Any:
        key = (text, add_special_tokens)
        enc = self._cache.get(key)
        if enc is None:
            if len(self._cache) > 2048:
                self._cache.clear()
            try:
                enc = self._tok.encode(text, add_special_tokens=add_special_tokens)
            except Exception as exc:  # a tokenizer.json that loads but cannot encode (no unk token...)
                raise RenderError(f"{self.method} cannot encode the text: {exc}",
                                  hint="the model folder's tokenizer.json is broken; the frameworks "
                                  "would fail on it too") from None
            self._cache[key] = enc
        return enc

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        return len(self._encode(text, add_special_tokens).ids)  # type: ignore[attr-defined]

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None:
        return list(self._encode(text, add_special_tokens).ids)  # type: ignore[attr-defined]

    def token_starts(self, text: str, add_special_tokens: bool = False) -> list[int | None]:
        enc = self._encode(text, add_special_tokens)
        out: list[int | None] = []
        for (start, end), special in zip(enc.offsets, enc.special_tokens_mask):  # type: ignore[attr-defined]
            # Tokens the post-processor adds have no characters of their own.
            out.append(None if special and start == end else start)
        return out

    def token_id(self, token: str) -> int | None:
        return self._tok.token_to_id(token)


class Tiktoken:
    """An OpenAI-style API model's tokenizer (the loader builds it only when the encoding is cached)."""

    exact = True

    def __init__(self, encoding) -> None:  # type: ignore[no-untyped-def]
        self._enc = encoding
        self.method = f"tiktoken {encoding.name}"

    def count(self, text: str, add_special_tokens: bool = False) -> int:
        return len(self._enc.encode(text, disallowed_special=()))

    def ids(self, text: str, add_special_tokens: bool = False) -> list[int] | None:
        return list(self._enc.encode(text, disallowed_special=()))

    def token_starts(self, text: str, add_special_tokens: bool = False) -> list[int | None]:
        tokens = self._enc.encode(text, disallowed_special=())
        out: list[int | None] = []
        pos = 0
        data = text.encode("utf-8")
        for tok in tokens:
            out.append(len(data[:pos].decode("utf-8", errors="ignore")))
            pos += len(self._enc.decode_single_token_bytes(tok))
        return out


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


class SectionMap:
    """Which section each character of a text belongs to, as runs (start offset, section)."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._names: list[str] = []

    def mark(self, start: int, name: str) -> None:
        """From ``start`` on (at or after the last mark), characters belong to ``name``."""
        if self._starts and self._starts[-1] == start:
            self._names[-1] = name
            if len(self._names) > 1 and self._names[-2] == name:
                self._starts.pop()
                self._names.pop()
            return
        if self._names and self._names[-1] == name:
            return
        self._starts.append(start)
        self._names.append(name)

    def mark_spans(self, offset: int, spans: Sequence[Span]) -> int:
        """Mark provenance runs laid out from ``offset``; returns where they end."""
        pos = offset
        for length, origin in spans:
            if length > 0:
                self.mark(pos, section_of(origin.kind, origin.detail))
                pos += length
        return pos

    def runs(self) -> tuple[list[int], list[str]]:
        """The runs' start offsets and names, from offset 0 on (text before the first mark is "other")."""
        if self._starts and self._starts[0] == 0:
            return self._starts, self._names
        return [0, *self._starts], ["other", *self._names]

    def at(self, pos: int) -> str:
        i = bisect_right(self._starts, pos) - 1
        return self._names[i] if i >= 0 else "other"

    @classmethod
    def of(cls, spans: Sequence[Span]) -> SectionMap:
        out = cls()
        out.mark_spans(0, spans)
        return out


def count_tokens(counter: Counter, text: str, section_map: SectionMap | None,
                 add_special_tokens: bool, added_section: str = "meta_template") -> TokenCount:
    """The count of ``text`` and, with per-character sections, how many tokens each section has.

    A token belongs to the section of its first character; tokens the tokenizer adds
    (BOS/EOS) belong to ``added_section``.
    """
    if section_map is None:
        return TokenCount(total=counter.count(text, add_special_tokens), exact=counter.exact,
                          method=counter.method, sections=())
    sections = dict.fromkeys(SECTIONS, 0)
    if isinstance(counter, Estimate):  # adds no tokens of its own: counted line by line
        total = counter.count_sections(text, section_map, sections)
        return TokenCount(total=total, exact=False, method=counter.method, sections=tuple(sections.items()))
    starts = counter.token_starts(text, add_special_tokens)
    for start in starts:
        if start is None:
            sections[added_section] += 1
        elif section_map is not None:
            sections[section_map.at(start)] += 1
        else:
            sections["other"] += 1
    total = len(starts)
    kept = tuple(sections.items()) if section_map is not None else ()
    return TokenCount(total=total, exact=counter.exact, method=counter.method, sections=kept)
