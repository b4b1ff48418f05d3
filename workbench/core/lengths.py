"""How long the prompts are: per dataset × model length summaries from token counts.

A sample's length is the token count of what the model gets (``Request.tokens``: exact
where a tokenizer is local, an estimate otherwise), the longest of its requests when it
has several; each PPL label and each multi-turn turn also gets a distribution of its own.
Percentiles are nearest-rank (the smallest length that at least p % of the samples do not
exceed), so a p95 is always a real sample's length. The numbers say how many samples
``max_seq_len`` cuts: those still longer than it, and those OpenCompass's truncation loop
took in-context examples from (:mod:`.truncation`).

Pure: the front ends feed samples in (a worker in the app, the exporters as they write)
and draw what comes out.

May import: render and every core module below it; nothing outside the core (loading, views and
the front ends build on this, not the reverse).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import RenderError
from .render import PairRenderer, RenderOptions
from .result import Request, Sample, Stamp, request_text
from .tokens.counting import Counter, Estimate, length_estimate

EXACT, ESTIMATE = "exact", "estimate"


def percentile(ordered: Sequence[int], p: float) -> int | None:
    """Nearest-rank percentile of ascending ``ordered`` (numpy's ``method="inverted_cdf"``)."""
    if not ordered:
        return None
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass(frozen=True)
class Point:
    """One measured length and where it came from (a sample, and which of its requests)."""

    length: int
    index: int
    request: int = 0


@dataclass(frozen=True)
class SampleLengths:
    """One sample measured: per request (length, exact, method, its label or turn group), and
    the most in-context examples ``max_seq_len`` dropped from any of its requests."""

    index: int
    requests: tuple[tuple[int, bool, str, tuple[str, str] | None], ...]
    dropped: int


@dataclass(frozen=True)
class Stats:
    """A distribution: how many lengths, their p50 / p95 / max, and how many exceed the limit."""

    count: int
    p50: int | None
    p95: int | None
    max: int | None
    over_max_seq_len: int | None  # None: the model sets no max_seq_len
    longest: Point | None

    @classmethod
    def of(cls, points: Sequence[Point], max_seq_len: int | None) -> Stats:
        ordered = sorted(p.length for p in points)
        longest = max(points, key=lambda p: (p.length, -p.index)) if points else None
        over = None if max_seq_len is None else sum(1 for n in ordered if n > max_seq_len)
        return cls(len(ordered), percentile(ordered, 50), percentile(ordered, 95),
                   ordered[-1] if ordered else None, over, longest)


#: A distribution to draw: its points and their stats.
Distribution = tuple[tuple[Point, ...], Stats]


@dataclass(frozen=True)
class Group:
    """The requests of one PPL label or one multi-turn turn, across the samples."""

    kind: str  # "label" or "turn"
    key: str  # the label as text, or the turn number (0-based)
    points: tuple[Point, ...]
    stats: Stats


@dataclass(frozen=True)
class Failure:
    """Samples that could not be measured, one entry per cause."""

    message: str
    indices: tuple[int, ...]


@dataclass(frozen=True)
class Bin:
    """Lengths ``start``..``end`` (inclusive): how many, and the longest of them."""

    start: int
    end: int
    count: int
    longest: Point | None


@dataclass(frozen=True)
class PairLengths:
    """One dataset seen through one model: every sample's length and what max_seq_len does to it."""

    dataset: str
    model: str | None
    total: int  # samples to measure (the dataset's, or the selection's)
    points: tuple[Point, ...]  # one per measured sample: its longest request
    groups: tuple[Group, ...]  # per label (PPL) or per turn (multi-turn); () for one request a sample
    max_seq_len: int | None
    lost_examples: int  # samples OpenCompass's loop took in-context examples from
    examples_dropped: int  # how many examples those samples lost, together
    truncated: int  # samples that lose something: examples, or tokens past max_seq_len
    method: str  # EXACT when every length was counted by a real tokenizer, else ESTIMATE
    methods: tuple[str, ...]  # how the lengths were counted, in words
    failures: tuple[Failure, ...] = ()
    stats: Stats = field(default=Stats(0, None, None, None, None, None))
    handled: int = 0  # samples measured or failed so far

    @property
    def measured(self) -> int:
        return len(self.points)

    @property
    def failed(self) -> int:
        return sum(len(f.indices) for f in self.failures)

    @property
    def done(self) -> bool:
        return self.handled >= self.total

    @property
    def share_truncated(self) -> float:
        return self.truncated / self.measured if self.measured else 0.0

    def group(self, key: tuple[str, str] | None) -> Distribution:
        """The points and stats of one group (``None``: every sample's longest request)."""
        for g in self.groups:
            if key == (g.kind, g.key):
                return g.points, g.stats
        return self.points, self.stats

    def summary(self) -> dict[str, Any]:
        """The ``lengths`` object of the JSON contract (docs/lengths.md)."""
        stats = self.stats
        out: dict[str, Any] = {
            "count": stats.count, "p50": stats.p50, "p95": stats.p95, "max": stats.max,
            "over_max_seq_len": stats.over_max_seq_len, "method": self.method,
            "max_seq_len": self.max_seq_len, "lost_examples": self.lost_examples,
            "examples_dropped": self.examples_dropped, "truncated": self.truncated,
            "counted_with": list(self.methods),
        }
        if self.groups:
            out["groups"] = [{"kind": g.kind, "key": g.key, "count": g.stats.count, "p50": g.stats.p50,
                              "p95": g.stats.p95, "max": g.stats.max,
                              "over_max_seq_len": g.stats.over_max_seq_len} for g in self.groups]
        if self.failures:
            out["failures"] = [{"message": f.message, "samples": list(f.indices)} for f in self.failures]
        return out


def histogram(points: Sequence[Point], bins: int, start: int | None = None,
              end: int | None = None) -> tuple[Bin, ...]:
    """``bins`` bins of equal integer width from ``start`` to ``end`` (default: the points' range)."""
    if not points or bins < 1:
        return ()
    lo = min(p.length for p in points) if start is None else start
    hi = max(p.length for p in points) if end is None else end
    hi = max(hi, lo)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts = [0] * bins
    longest: list[Point | None] = [None] * bins
    for p in points:
        k = min(max((p.length - lo) // width, 0), bins - 1)
        counts[k] += 1
        best = longest[k]
        if best is None or p.length > best.length:
            longest[k] = p
    used = max(1, math.ceil((hi - lo + 1) / width))  # bins past `hi` would only be empty
    return tuple(Bin(lo + k * width, lo + (k + 1) * width - 1, counts[k], longest[k])
                 for k in range(min(used, bins)))


# -- measuring -------------------------------------------------------------------------------


def request_length(request: Request, fallback: Counter) -> tuple[int, bool, str]:
    """(tokens, exact, how counted): the render's own count, else ``fallback`` on the text."""
    tokens = request.tokens
    if tokens is not None:
        return tokens.total, bool(tokens.exact), str(tokens.method)
    return fallback.count(request_text(request)), fallback.exact, fallback.method


def _group_key(request: Request) -> tuple[str, str] | None:
    if request.turn is not None:
        return ("turn", str(request.turn))
    if request.label is not None:
        return ("label", request.label if isinstance(request.label, str) else repr(request.label))
    return None


def _stamp_keys(form: Any) -> tuple[tuple[bool, str, tuple[str, str] | None], ...]:
    """Each request of a stamp's form: (exact, how counted, its label or turn group)."""
    keys = form.length_keys
    if keys is None:
        keys = form.length_keys = tuple((form.exact, r.method, _group_key(r.request)) for r in form.requests)
    return keys


def stamp_lengths(stamp: Stamp) -> SampleLengths:
    """A stamp measured: its form says how each request was counted (a stamp's prompts fit
    max_seq_len, so no example is dropped)."""
    keys = _stamp_keys(stamp.form)
    return SampleLengths(stamp.index, tuple([(total, *key) for total, key in zip(stamp.totals, keys)]), 0)


class LengthTally:
    """Lengths of one pair, sample by sample (samples may come in any order, each once)."""

    def __init__(self, dataset: str, model: str | None, total: int, max_seq_len: int | None,
                 fallback: Counter | None = None) -> None:
        self.dataset = dataset
        self.model = model
        self.total = total
        self.max_seq_len = max_seq_len
        self.fallback = fallback or Estimate("no model, so no tokenizer")
        self._points: dict[int, Point] = {}
        self._groups: dict[tuple[str, str], list[Point]] = {}
        self._dropped: dict[int, int] = {}
        self._methods: dict[str, bool] = {}
        self._failures: dict[str, list[int]] = {}
        self._handled: set[int] = set()

    def add(self, sample: Sample | Stamp, fallback: Counter | None = None) -> None:
        if type(sample) is Stamp and len(sample.totals) == 1:  # the usual stamp, recorded directly
            exact, method, key = _stamp_keys(sample.form)[0]
            self._methods[method] = exact
            index = sample.index
            point = self._points[index] = Point(sample.totals[0], index, 0)
            if key is not None:
                self._groups.setdefault(key, []).append(point)
            self._handled.add(index)
            return
        self.record(self.measure(sample, fallback))

    def measure(self, sample: Sample | Stamp, fallback: Counter | None = None) -> SampleLengths:
        """What ``add`` takes from a sample, as plain data (a ``--jobs`` worker measures the
        samples it renders and hands this back with their text)."""
        if type(sample) is Stamp:
            return stamp_lengths(sample)
        counter = fallback or self.fallback
        requests = []
        dropped = 0
        for request in sample.requests:
            length, exact, method = request_length(request, counter)
            requests.append((length, exact, method, _group_key(request)))
            truncation = request.truncation
            if truncation is not None:
                dropped = max(dropped, len(truncation.dropped))
        return SampleLengths(sample.index, tuple(requests), dropped)

    def record(self, measured: SampleLengths) -> None:
        """One sample's lengths, measured here or in a worker process."""
        index = measured.index
        best: Point | None = None
        for position, (length, exact, method, key) in enumerate(measured.requests):
            self._methods[method] = exact
            point = Point(length, index, position)
            if best is None or length > best.length:
                best = point
            if key is not None:
                self._groups.setdefault(key, []).append(point)
        if best is None:  # a sample with no request (an empty multi-turn conversation)
            best = Point(0, index, 0)
        self._points[index] = best
        self._handled.add(index)
        if measured.dropped:
            self._dropped[index] = measured.dropped

    def fail(self, index: int | None, message: str) -> None:
        """Sample ``index`` could not be measured (None: the pair has no sample to measure at all)."""
        found = self._failures.setdefault(message, [])
        if index is not None:
            found.append(index)
            self._handled.add(index)

    def summary(self) -> PairLengths:
        points = tuple(sorted(self._points.values(), key=lambda p: p.index))
        limit = self.max_seq_len
        over = {p.index for p in points if limit is not None and p.length > limit}
        groups = tuple(Group(kind, key, tuple(ps), Stats.of(ps, limit))
                       for (kind, key), ps in sorted(self._groups.items(), key=_group_order))
        exact = bool(self._methods) and all(self._methods.values())
        return PairLengths(
            dataset=self.dataset, model=self.model, total=self.total, points=points, groups=groups,
            max_seq_len=limit, lost_examples=len(self._dropped),
            examples_dropped=sum(self._dropped.values()), truncated=len(over | set(self._dropped)),
            method=EXACT if exact else ESTIMATE, methods=tuple(self._methods),
            failures=tuple(Failure(m, tuple(sorted(ix))) for m, ix in self._failures.items()),
            stats=Stats.of(points, limit), handled=len(self._handled))


def _group_order(item: tuple[tuple[str, str], list[Point]]) -> tuple:
    (kind, key), _ = item
    return (kind, int(key) if kind == "turn" else 0, "" if kind == "turn" else key)


def max_seq_len_of(pair: Any) -> int | None:
    """The model config's ``max_seq_len`` (an int), else None."""
    spec = getattr(pair, "model_spec", None)
    value = spec.cfg.get("max_seq_len") if spec is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def tally_for(pair: Any, total: int | None = None) -> LengthTally:
    """An empty tally for a rendered pair (a ``PairRenderer``)."""
    return LengthTally(pair.dataset_abbr, pair.model_abbr, len(pair) if total is None else total,
                       max_seq_len_of(pair), _fallback_for(pair))


def _fallback_for(pair: Any) -> Counter:
    return length_estimate(getattr(pair, "model_spec", None) is not None)


def measure_samples(pair: Any, indices: Iterable[int], tally: LengthTally,
                    cancelled: Callable[[], bool] = lambda: False,
                    estimate: Callable[[], Any] | None = None) -> bool:
    """Render and measure ``indices`` of ``pair`` into ``tally``; False when ``cancelled`` stopped it.

    A sample that fails to render or tokenize is listed as a failure; when ``estimate`` gives
    a twin of the pair rendered without token counts (:func:`estimating_twin`), its text is
    still measured, as an estimate.
    """
    for index in indices:
        if cancelled():
            return False
        try:
            tally.add(pair.sample(index))
        except RenderError as exc:
            tally.fail(index, exc.message)
            twin = estimate() if estimate is not None else None
            if twin is not None:
                _estimate_into(twin, index, tally, exc.message)
    return True


def _estimate_into(twin: Any, index: int, tally: LengthTally, why: str) -> None:
    try:
        sample = twin.sample(index)
    except RenderError:
        return
    tally.add(sample, Estimate(f"measuring failed: {_short(why)}"))


def _short(text: str, limit: int = 80) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


def measure_unrendered(twin: Any, message: str, indices: Iterable[int], tally: LengthTally,
                       cancelled: Callable[[], bool] = lambda: False) -> bool:
    """A pair whose render failed outright (``message``): every sample is listed as a failure,
    and measured as an estimate through its ``twin`` where it has one."""
    for index in indices:
        if cancelled():
            return False
        tally.fail(index, message)
        if twin is not None:
            _estimate_into(twin, index, tally, message)
    return True


def estimating_twin(dataset: Any, model: Any, options: Any = None) -> Any:
    """The pair rendered without a tokenizer, chat template or truncation loop (``measure=False``),
    so samples whose measuring fails still have text to estimate; None if even that fails."""
    try:
        return PairRenderer(dataset, model, replace(options or RenderOptions(), measure=False,
                                                    token_sections=False))
    except RenderError:
        return None


def by_share_truncated(items: Iterable[PairLengths]) -> list[PairLengths]:
    """Worst first: the largest share truncated, then the longest p95, then by name."""
    return sorted(items, key=lambda s: (-s.share_truncated, -(s.stats.p95 or 0), s.dataset, s.model or ""))
