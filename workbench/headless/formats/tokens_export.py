"""``render --format tokens``: the token pieces and ids around every seam of every request.

For each selected pair: the tokenizer it is shown with (``--tokenizer``'s, else the model's own:
its folder's ``tokenizer.json``, an OpenAI model's tiktoken encoding), each request's seams
(:mod:`workbench.views.token_seams` draws them), then one summary line per problem met over the
pair's selected rows ("42 of 4 labels × 1,319 rows: context/continuation: a token merges across
the seam"). A pair with no real tokenizer, or whose tokenizer fails, says so once (in the output
and as a warning) and the other pairs go on; nothing is downloaded.

Samples render with provenance here, in this process (``--jobs`` does not apply).
docs/tokens.md is the map.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

from ...core.errors import RenderError
from ...core.inert_text import visible
from ...core.result import PairWarning, RenderResult
from ...core.seam_report import TOKENIZER_FAILURES, pair_tokenizer, sample_seams, tokenizer_failed
from ...core.tokens.seams import PieceSource, SeamTally
from ...views.token_seams import pair_heading, request_heading, request_lines
from ..render_filter import RenderFilter, label_text
from .json_export import collect_warnings, stopped_error


def write_render_tokens(result: RenderResult, out: TextIO, entries: Iterable[Any], selection: RenderFilter,
                        tokenizer: PieceSource | None = None, progress: Any = None) -> RenderResult:
    """Every selected request's token seams, pair by pair, each pair ending with its summary."""
    out.write(f"Token seams of {visible(result.config)}\n")
    said: set[str] = set()
    for entry in entries:
        pair = entry.pair
        chosen = pair_tokenizer(pair, tokenizer)
        out.write(f"\n== {pair_heading(pair, chosen.source.method if chosen.source else None)}\n")
        if chosen.source is None:
            out.write(f"  {visible(chosen.why_not or '')}\n")
            _say_once(result, said, pair.model_abbr, chosen.why_not or "")
            if progress is not None:
                progress.advance(len(entry.indices), pair.dataset_abbr)
            continue
        tally = SeamTally()
        for index in entry.indices:
            try:
                sample = pair.sample(index, provenance=True)
            except RenderError as exc:
                result.errors.append(stopped_error(pair, exc))
                break
            if progress is not None:
                progress.advance(1, pair.dataset_abbr)
            try:
                found = sample_seams(pair, sample, chosen.source)
            except TOKENIZER_FAILURES as exc:
                failed = tokenizer_failed(chosen.source.method, f"sample {index}", exc)
                out.write(f"  {visible(failed)}\n")
                _say_once(result, said, pair.model_abbr, failed, pair.dataset_abbr)
                break
            tally.add_row(found)
            for request, seams in zip(sample.requests, found):
                if selection.labels and (request.label is None
                                         or label_text(request.label) not in selection.labels):
                    continue
                out.writelines(line + "\n" for line in request_lines(request_heading(sample, request), seams))
        out.writelines(f"summary: {visible(line)}\n" for line in tally.lines())
    return collect_warnings(result)


def _say_once(result: RenderResult, said: set[str], model: str | None, message: str,
              dataset: str | None = None) -> None:
    """A tokenizer problem as one warning (a model's missing tokenizer: once for all its pairs)."""
    if message in said:
        return
    said.add(message)
    result.warnings.append(PairWarning(dataset, model, message))
