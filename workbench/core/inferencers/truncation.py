"""``max_seq_len``: in-context examples dropped from the end while the prompt is too long.

OpenCompass 0.5.4 sets every inferencer's ``max_seq_len`` from the model config
(``OpenICLInferTask``: ``inferencer_cfg['max_seq_len'] = model_cfg.get('max_seq_len')``) and then:

- GenInferencer (and GLMChoiceInferencer): while examples remain and
  ``get_token_len_from_template(prompt, mode='gen') > max_seq_len``, drop the last example;
- PPLInferencer / LLInferencer: the same per label with ``mode='ppl'``, but the shortened example
  list is written back into ``ice_idx_list[idx]``, so a later label starts from what an earlier
  label kept;
- CLPInferencer: ``get_token_len(parsed prompt) + 1 > max_seq_len`` (room for the next token).

AISBench's inferencers never drop examples.  Each request records what happened in a
:class:`Truncation`; :class:`TruncationTally` sums it up for the dataset.

May import: the core's bottom layer, templates, models, retrievers and the other inferencer
modules (in the order plan → common/likelihood/generation plans → registry); not render, and
nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Inferencers whose OpenCompass implementation runs a max_seq_len loop.
TRUNCATING = {"GenInferencer", "GLMChoiceInferencer", "PPLInferencer", "LLInferencer", "CLPInferencer",
              # the same loop, copied into each (measured in gen mode)
              "SCInferencer", "ToTInferencer", "AttackInferencer", "PPLOnlyInferencer",
              "MinKPercentInferencer"}


@dataclass(frozen=True)
class Truncation:
    """What the max_seq_len loop did to one request."""

    max_seq_len: int
    retrieved: tuple[int, ...]  # the examples the retriever chose
    kept: tuple[int, ...]  # the examples in the request
    #: (examples, measured length) for every try, first to last, as OpenCompass's prompt viewer
    #: prints them ("Truncating ice 3 -> 2 Number of tokens: 900 -> 610").
    steps: tuple[tuple[int, int], ...]
    exact: bool  # measured with the model's real tokenizer (or OpenCompass's own API word count)
    method: str
    margin: int = 0  # CLPInferencer keeps one token free
    inherited: int = 0  # PPL/LL: examples an earlier label already dropped

    @property
    def dropped(self) -> tuple[int, ...]:
        return self.retrieved[len(self.kept):]

    @property
    def measured(self) -> int:
        return self.steps[-1][1]

    @property
    def overflow(self) -> bool:
        """Still too long with every example dropped."""
        return self.measured + self.margin > self.max_seq_len

    def describe(self) -> str:
        """One line for a pane or a warning."""
        limit = f"max_seq_len {self.max_seq_len}" + (" (minus 1 for CLP's next token)" if self.margin else "")
        approx = "" if self.exact else " (approximate: token counts are estimates)"
        parts = []
        if self.dropped:
            first, last = self.steps[0][1], self.measured
            mine = len(self.dropped) - self.inherited
            parts.append(f"dropped in-context examples {list(self.dropped)} from the end "
                         f"({first} → {last} tokens, {limit})")
            if self.inherited:
                parts.append(f"{self.inherited} of them already by an earlier label"
                             + ("" if mine else ", none by this one"))
        if self.overflow:
            parts.append(f"still {self.measured} tokens > {limit} with "
                         + ("no examples left" if not self.kept else f"{len(self.kept)} examples"))
        return "; ".join(parts) + approx if parts else f"fits {limit}{approx}"


def fit(retrieved: Sequence[int], start: Sequence[int], build: Callable[[Sequence[int]], Any],
        measure: Callable[[Any], int], max_seq_len: int, *, margin: int = 0, exact: bool = True,
        method: str = "") -> tuple[Any, Truncation]:
    """OpenCompass's loop: build, measure, drop the last example while too long."""
    ice = list(start)
    prompt = build(ice)
    n = measure(prompt)
    steps = [(len(ice), n)]
    while ice and n + margin > max_seq_len:
        ice = ice[:-1]
        prompt = build(ice)
        n = measure(prompt)
        steps.append((len(ice), n))
    return prompt, Truncation(max_seq_len=max_seq_len, retrieved=tuple(retrieved), kept=tuple(ice),
                              steps=tuple(steps), exact=exact, method=method, margin=margin,
                              inherited=len(retrieved) - len(start))


@dataclass
class Limiter:
    """The max_seq_len loop for one pair: the limit and OpenCompass's length measure."""

    max_seq_len: int
    measure: Callable[[Any, str], int]  # (prompt, mode) -> get_token_len_from_template
    get_token_len: Callable[[Any], int]  # parsed prompt -> get_token_len (CLP)
    exact: bool
    method: str

    def fit(self, retrieved: Sequence[int], build: Callable[[Sequence[int]], Any], mode: str,
            start: Sequence[int] | None = None) -> tuple[Any, Truncation]:
        return fit(retrieved, retrieved if start is None else start, build,
                   lambda p: self.measure(p, mode), self.max_seq_len, exact=self.exact, method=self.method)

    def fit_clp(self, retrieved: Sequence[int], build: Callable[[Sequence[int]], Any],
                parse: Callable[[Any], Any]) -> tuple[Any, Truncation]:
        return fit(retrieved, retrieved, build, lambda p: self.get_token_len(parse(p)), self.max_seq_len,
                   margin=1, exact=self.exact, method=self.method)


def fit_examples(limiter: Limiter | None, retrieved: Sequence[int], build: Callable[[Sequence[int]], Any],
                 mode: str, start: Sequence[int] | None = None) -> tuple[Any, Truncation | None]:
    """``build(examples)`` after the loop, or at once when there is no limit."""
    if limiter is None:
        return build(list(retrieved if start is None else start)), None
    return limiter.fit(retrieved, build, mode, start)


@dataclass
class TruncationTally:
    """Dataset-wide: which samples lost examples, which still overflow."""

    max_seq_len: int
    exact: bool
    method: str
    shortened: dict[int, int] = field(default_factory=dict)  # sample index -> examples dropped (most)
    overflowing: dict[int, int] = field(default_factory=dict)  # sample index -> measured length
    seen: set[int] = field(default_factory=set)

    def add(self, index: int, truncations: Sequence[Truncation]) -> None:
        self.seen.add(index)
        if not truncations:
            return
        most = max(len(t.dropped) for t in truncations)
        if most:
            self.shortened[index] = most
        over = [t.measured for t in truncations if t.overflow]
        if over:
            self.overflowing[index] = max(over)

    def messages(self, total: int) -> list[str]:
        how = f"measured with {self.method}" if self.exact else \
            f"APPROXIMATE: measured with an {self.method}, so the real framework may drop other examples"
        out = []
        if self.shortened:
            names = _some(sorted(self.shortened))
            out.append(f"max_seq_len {self.max_seq_len}: {len(self.shortened)} of {total} samples lose "
                       f"in-context examples (samples {names}); {how}")
        if self.overflowing:
            names = _some(sorted(self.overflowing))
            out.append(f"max_seq_len {self.max_seq_len}: {len(self.overflowing)} of {total} samples are "
                       f"still too long after dropping examples (samples {names}); the model wrapper "
                       f"then truncates tokens itself; {how}")
        return out


def _some(indices: Sequence[int], limit: int = 8) -> str:
    shown = ", ".join(str(i) for i in indices[:limit])
    return shown + (f", … {len(indices) - limit} more" if len(indices) > limit else "")


class Replay:
    """A limiter that repeats decisions already made (the provenance twin of a rendered sample)."""

    def __init__(self, decisions: Sequence[Truncation | None]) -> None:
        self._decisions = [d for d in decisions if d is not None]

    def _next(self) -> Truncation:
        return self._decisions.pop(0)

    def fit(self, retrieved: Sequence[int], build: Callable[[Sequence[int]], Any], mode: str,
            start: Sequence[int] | None = None) -> tuple[Any, Truncation]:
        cut = self._next()
        return build(list(cut.kept)), cut

    def fit_clp(self, retrieved: Sequence[int], build: Callable[[Sequence[int]], Any],
                parse: Callable[[Any], Any]) -> tuple[Any, Truncation]:
        cut = self._next()
        return build(list(cut.kept)), cut
