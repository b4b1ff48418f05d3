"""The answer side of a sample: what the run's evaluation made of the recorded answer.

``workbench extract`` (core/answers) applies OpenCompass 0.5.4's postprocessors to a run's
predictions; the app hands its answers here (:class:`RunAnswers`, by dataset × model and
sample), and the answers view (``v``) shows, under the raw output, what was extracted, the
gold, the verdict and the rule that matched (its span highlighted in the raw output). Values
keep the type the real function returned (``None`` stays ``None``): they are shown as Python
writes them, inert.

May import: rich, the core and the other view modules; not loading, Textual or a front end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .fragments import faint
from .options import ViewOptions
from .safe import one_line


@dataclass(frozen=True)
class SampleVerdict:
    extracted: Any
    gold: Any
    correct: bool | None  # None: the framework scores it (not a plain evaluator)
    #: The rule that produced ``extracted`` (extract@1's ``match``: stage, function, rule, span in
    #: ``prediction``, matched), and the prediction it was read from; None when there is none.
    match: Mapping[str, Any] | None = None
    prediction: Any = None

    def marks(self, recorded: str | None) -> tuple[tuple[int, int], ...]:
        """The matched span, to highlight in ``recorded`` (the answer the app shows): only when
        that is the very text extract read, so the span falls on the same characters."""
        span = (self.match or {}).get("span")
        if recorded is None or recorded != self.prediction or not isinstance(span, list) or len(span) != 2:
            return ()
        start, end = span
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(recorded)):
            return ()
        return ((start, end),)


@dataclass(frozen=True)
class PairVerdicts:
    """One dataset × model of the run: each sample's verdict by its index in the test split."""

    samples: Mapping[int, SampleVerdict] = field(default_factory=dict)
    accuracy: float | None = None
    metric: str | None = None
    evaluator: str | None = None
    note: str | None = None  # why there are no verdicts (the framework scores it)
    error: str | None = None  # where the real evaluation fails on this pair
    warnings: tuple[str, ...] = ()

    def wrong(self) -> list[int]:
        """The samples scored wrong, in order (what the app's wrong-only filter steps through)."""
        return sorted(i for i, v in self.samples.items() if v.correct is False)


@dataclass(frozen=True)
class RunAnswers:
    """Every pair ``workbench extract`` read from the run; ``problem``: why there are none."""

    pairs: Mapping[tuple[str, str], PairVerdicts] = field(default_factory=dict)
    problem: str | None = None
    #: What extract said of the run as a whole (a predictions file no config pair claims...).
    general: tuple[str, ...] = ()

    def of(self, dataset: str | None, model: str | None) -> PairVerdicts | None:
        if dataset is None or model is None:
            return None
        return self.pairs.get((dataset, model))


def _value(value: Any) -> str:
    return one_line(repr(value), 300)


def _match(found: SampleVerdict, opts: ViewOptions) -> Text:
    """What the evaluator's rule read (highlighted in the answer above), where, and the rule."""
    match = found.match
    if not match:
        return faint("(no rule matched: the step that extracts has no pattern, or none of its patterns "
                     "matched)", opts)
    out = Text()
    out.append(_value(match.get("matched")), style=opts.palette.style("matched"))
    span = match.get("span")
    where = f" at {span[0]}–{span[1]}" if isinstance(span, list) and len(span) == 2 else \
        " (in the text an earlier step rewrote: not placed in the answer)"
    out.append(one_line(f"{where} · {match.get('function')} ({match.get('stage')})", 200),
               style=opts.palette.style("faint"))
    out.append("\n")
    out.append(one_line(str(match.get("rule")), 300))
    return out


def verdict_view(answers: RunAnswers | None, dataset: str | None, model: str | None, index: int,
                 opts: ViewOptions) -> RenderableType | None:
    """Extracted → gold → verdict for one sample (None: no run was given)."""
    if answers is None:
        return None
    if answers.problem is not None:
        return faint(one_line(f"(no extraction: {answers.problem})", 400), opts)
    pair = answers.of(dataset, model)
    if pair is None:
        said = [w for w in answers.general if dataset and f"'{dataset}'" in w]
        return faint(one_line(f"(no extraction for this pair: {said[0]})" if said else
                              "(no extraction: the run recorded no predictions for this pair)", 400), opts)
    warn = opts.palette.style("warning")
    if pair.error is not None:
        return Text("✖ the real evaluation fails here: " + one_line(pair.error, 400), style=warn)
    found = pair.samples.get(index)
    if found is None:
        return faint(f"(no prediction recorded for sample {index})", opts)
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_row(faint("extracted", opts), Text(_value(found.extracted)))
    table.add_row(faint("gold", opts), Text(_value(found.gold)))
    table.add_row(faint("matched", opts), _match(found, opts))
    if found.correct is None:
        verdict = faint(one_line(pair.note or "the framework scores it", 300), opts)
    else:
        verdict = Text("✔ correct", style=opts.palette.style("row")) if found.correct else \
            Text("✘ wrong", style=opts.palette.style("error"))
        score = f"{pair.metric} {pair.accuracy:.2f} · " if pair.accuracy is not None and pair.metric else ""
        by = f" · {pair.evaluator.rsplit('.', 1)[-1]}" if pair.evaluator else ""
        verdict.append(one_line(f"   {score}{len(pair.wrong())} wrong of {len(pair.samples)}{by}", 200),
                       style=opts.palette.style("faint"))
    table.add_row(faint("verdict", opts), verdict)
    said = [Text("⚠ " + one_line(w, 400), style=warn) for w in pair.warnings]
    return Group(table, *said)
