"""The token seams' marks as findings (PW214-PW216), and OpenCompass's loglikelihood mask (PW217).

The seams are ``core/seam_report.py``'s: each request of the first samples, rendered with
provenance, through the pair's real tokenizer (the model folder's ``tokenizer.json``, an
OpenAI model's encoding). Without one, or where it fails, the rules say once per pair that they
did not look (``LintContext.not_checked``), and the other rules go on.

May import: ``context``, ``markers``, ``core.seam_report`` and the core modules they import.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..findings import Finding
from ..inferencers.lmeval_plan import is_task_plan
from ..seam_report import TOKENIZER_FAILURES, pair_tokenizer, sample_seams, tokenizer_failed
from ..spec import OPENCOMPASS, type_name
from ..tokens.seams import RequestSeams
from .context import SEAM_SAMPLES, LintContext, plural
from .markers import SPECIAL

_TOKENS_HINT = "`workbench render --format tokens` shows the tokens at every seam"


@dataclass
class Seen:
    """What the first samples' seams hold, per sample index."""

    samples: list[tuple[int, list[RequestSeams]]] = field(default_factory=list)
    why_not: str | None = None  # no tokenizer, or it failed: said once per pair

    def requests(self) -> Iterator[tuple[int, Any, RequestSeams]]:
        for index, found in self.samples:
            for one in found:
                yield index, one.split, one


def _seen(ctx: LintContext) -> Seen:
    """The first samples' seams, once per pair (three rules read them)."""
    cached = ctx.cache.get("token_seams")
    if isinstance(cached, Seen):
        return cached
    seen = Seen()
    chosen = pair_tokenizer(ctx.pair, ctx.tokenizer)
    if chosen.source is None:
        seen.why_not = chosen.why_not
    else:
        for index in range(min(SEAM_SAMPLES, len(ctx.pair))):
            try:
                seen.samples.append((index, sample_seams(ctx.pair, ctx.pair.sample(index, provenance=True),
                                                         chosen.source)))
            except TOKENIZER_FAILURES as exc:  # said once; the other samples go on
                seen.why_not = seen.why_not or tokenizer_failed(chosen.source.method, f"sample {index}", exc)
    ctx.cache["token_seams"] = seen
    return seen


def _scores_continuations(ctx: LintContext) -> bool:
    """Whether the context is encoded apart from what is scored after it: ``LLInferencer``,
    lm-eval's loglikelihood and multiple-choice tasks (the task plan), ``PPLInferencer`` with
    ``normalizing_str`` (its ``mask_length`` is the context's own count). A plain PPL scores each
    label's whole text: where its labels part does not change what is scored."""
    inferencer = ctx.infer_cfg.get("inferencer")
    if not isinstance(inferencer, Mapping):
        return False
    name = type_name(inferencer.get("type"))
    if is_task_plan(name, inferencer):
        return name in ("loglikelihood", "multiple_choice")  # a rolling request has no context
    normalized = name == "PPLInferencer" and inferencer.get("normalizing_str") is not None
    return name == "LLInferencer" or normalized


def _rows_hold_specials(ctx: LintContext) -> bool:
    return any(isinstance(v, str) and SPECIAL.search(v) for row in ctx.pair.splits.test[:SEAM_SAMPLES]
               if isinstance(row, Mapping) for v in row.values())


def _said(ctx: LintContext, seen: Seen, rule_id: str, applies: bool) -> bool:
    """Whether the seams can be read; if not (and the rule applies here), why, once."""
    if seen.why_not is not None and applies:
        ctx.not_checked.append((rule_id, seen.why_not))
    return not seen.samples


def _continuation_marks(ctx: LintContext, mark: str, spaces: bool = False) -> tuple[int, int, Any]:
    """(continuations with ``mark``, continuations, (sample, split) of the first); ``spaces``:
    only where both sides' whitespace is a space or tab (two newlines are a blank line)."""
    total, hits, first = 0, 0, None
    for index, split, _ in _seen(ctx).requests():
        if split is None:
            continue
        total += 1
        if mark in split.seam.marks and (not spaces or (split.context[-1:] in " \t"
                                                        and split.continuation[:1] in " \t")):
            hits += 1
            first = first or (index, split)
    return hits, total, first


def _of(hits: int, total: int, ctx: LintContext, index: int, split: Any) -> str:
    """"3 of 80 scored continuations (20 rows read; first: row 4, 'A:' + ' C'" (left open)."""
    rows = len(_seen(ctx).samples)  # (a sample the tokenizer failed on is not read)
    return (f"{hits:,} of {total:,} scored continuations ({plural(rows, 'row')} read; first: row {index}, "
            f"{split.context[-12:]!r} + {split.continuation[:12]!r}")


def merge_across_seam(ctx: LintContext) -> Iterator[Finding]:
    """PW214: a token holds the end of the context and the start of the continuation (": C")."""
    if not _scores_continuations(ctx):
        return
    if _said(ctx, _seen(ctx), "PW214", True):
        return
    hits, total, first = _continuation_marks(ctx, "merge")
    if first is not None:
        index, split = first
        yield Finding("PW214", "a token merges across the context/continuation seam in "
                      f"{_of(hits, total, ctx, index, split)}: the token {split.seam.across.text!r}): the "
                      "tokens scored are not the continuation's own "
                      "(OpenCompass counts the context's tokens alone; lm-eval splits the whole text)",
                      hint="a separator the tokenizer does not merge with the continuation (often a space "
                      f"that starts it, or a newline); {_TOKENS_HINT}",
                      key_path=("infer_cfg", "prompt_template", "template"))


def space_before_continuation(ctx: LintContext) -> Iterator[Finding]:
    """PW215: the context ends with a space and the continuation starts with one."""
    if not _scores_continuations(ctx):
        return
    if _said(ctx, _seen(ctx), "PW215", True):
        return
    hits, total, first = _continuation_marks(ctx, "space-space", spaces=True)
    if first is not None:
        index, split = first
        yield Finding("PW215", "the continuation starts with a space after a context that ends with one in "
                      f"{_of(hits, total, ctx, index, split)}): the model is scored on a double space it "
                      "rarely saw in training",
                      hint=f"drop the space that ends the template before the label, or the one that "
                      f"starts the label or `cont`; {_TOKENS_HINT}",
                      key_path=("infer_cfg", "prompt_template", "template"))


def control_token_in_data(ctx: LintContext) -> Iterator[Finding]:
    """PW216: a row's (or an example's) text that the tokenizer reads as a control token."""
    seen = _seen(ctx)
    if _said(ctx, seen, "PW216", _rows_hold_specials(ctx)):
        return
    rows, first = set(), None
    for index, _, one in seen.requests():
        if one.controls:
            rows.add(index)
            first = first or (index, *one.controls[0])
    if first is not None:
        index, piece, where = first
        yield Finding("PW216", f"{plural(len(rows), 'row')} of {len(seen.samples):,} read put text in the "
                      "prompt that tokenizes as a control token (first: row "
                      f"{index}, {piece.text!r}, id {piece.id}, from {where}): the model reads it as "
                      "markup, not as the row's words",
                      hint=f"escape or strip the special strings in the rows; {_TOKENS_HINT}",
                      key_path=("reader_cfg",))


def loglikelihood_mask(ctx: LintContext) -> Iterator[Finding]:
    """PW217: OpenCompass's ``HuggingFaceBaseModel.get_loglikelihood`` scores nearly the whole text."""
    spec = ctx.pair.model_spec
    inferencer = ctx.infer_cfg.get("inferencer")
    if spec is None or spec.framework != OPENCOMPASS or not isinstance(inferencer, Mapping) \
            or type_name(spec.cfg.get("type")) != "HuggingFaceBaseModel" \
            or type_name(inferencer.get("type")) != "LLInferencer":
        return
    counted = ""
    for index, split, _ in _seen(ctx).requests():
        if split is not None:
            n, total = len(split.apart_continuation), len(split.whole)
            counted = (f" (row {index}: the continuation {split.continuation[:16]!r} is "
                       f"{plural(n, 'token')}, so {plural(max(total - n, 0), 'token')} of the text's "
                       f"{total:,} are scored, from token {n} (counting from 0) to the end)")
            break
    file, line = ctx.model_at("type")
    yield Finding("PW217", "HuggingFaceBaseModel.get_loglikelihood (OpenCompass 0.5.4) passes the "
                  "continuation's token count N to get_ppl as mask_length, which masks the first N - 1 "
                  "positions, not the context: each score averages the text from its N-th token "
                  f"on{counted}, so the choices are compared by nearly whole-text perplexity",
                  hint="score with HuggingFaceCausalLM (its get_loglikelihood scores the continuation), or "
                  "read these scores as whole-text perplexities (docs/differences.md)",
                  file=file, line=line)
