"""``render --format json``: the public contract of docs/render-json.md, streamed.

The values are written by :mod:`.json_encoding`, stamped samples from their forms
(:mod:`.stamp_writer`).

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import Any, TextIO

from ...core.errors import RenderError
from ...core.render import error_source
from ...core.result import PairError, PairWarning, RenderResult, Sample
from ...core.warning_groups import WarningGroup, group_warnings
from ...core.warning_kinds import real_run_differs
from ..stream import Chunks, SampleWriter
from .json_encoding import SAMPLE_INDENT, dumps, json_stamps, sample_parts
from .lengths_export import LengthsCollector

SCHEMA = "prompt-workbench/render@1"


def rows_source_json(pair: Any) -> dict[str, Any] | None:
    """Which route gave the pair's dataset its rows (see ``RowsSource``)."""
    source = getattr(pair.dataset, "rows_source", None)
    return source.to_json() if source is not None else None


def judge_json(result: RenderResult, pair: Any) -> dict[str, Any]:
    """A judge pair's own fields (``--judge``): ``role`` and the pair it judges; {} for a model's
    own request, so a render without ``--judge`` is written as before."""
    judged = result.judged.get((pair.dataset_abbr, pair.model_abbr))
    if judged is None:
        return {}
    return {"role": "judge", "judges": {"dataset": judged[0], "model": judged[1]}}


def error_json(error: PairError) -> dict[str, Any]:
    out = {"dataset": error.dataset, "model": error.model, "file": error.file,
           "line": error.line, "message": error.message}
    if error.hint:
        out["hint"] = error.hint
    if error.rule:
        out["id"] = error.rule
    return out


def warning_json(warning: PairWarning | WarningGroup) -> dict[str, Any]:
    """A warning; a group (one message, every place it applies) adds ``count`` and ``applies_to``,
    its ``dataset``/``model`` naming the first place; ``real_run_differs``: --strict makes it an
    error (core/warning_kinds.py)."""
    out: dict[str, Any] = {"dataset": warning.dataset, "model": warning.model, "message": warning.message}
    if warning.rule:  # a finding: its id, where its cause was written, what to do
        out.update(id=warning.rule, file=warning.file, line=warning.line)
        if warning.hint:
            out["hint"] = warning.hint
    if isinstance(warning, WarningGroup):
        out["count"] = warning.count
        out["applies_to"] = [{"dataset": d, "model": m} for d, m in warning.applies_to]
    out["real_run_differs"] = real_run_differs(warning.message)
    return out


class _Chunks(Chunks):
    """The document's pieces joined and written about 64 KB at a time (a write per piece, two
    a sample, cost a call, an encode and a system call each); a sample's pieces added as made."""

    def __init__(self, out: Any) -> None:
        super().__init__(out, raw=True)
        # (a stamp's constant pieces encoded once a form)
        self.samples = SampleWriter(_sample_text, json_stamps(utf8=self.raw))


def _sample_text(sample: Sample) -> str:
    parts: list[str] = []
    sample_parts(sample, SAMPLE_INDENT, parts)
    return "".join(parts)


def _stamps_of(pair: Any) -> Any:
    """Each sample of the pair, as a stamp where it can be one (what ``render`` hands out)."""
    return pair.stamps() if hasattr(pair, "stamps") else pair.samples()


def write_render_json(result: RenderResult, out: TextIO, samples_of: Any = _stamps_of) -> RenderResult:
    """Write the document sample by sample, so memory stays flat on large renders.

    A pair that fails part-way keeps what was written and gains an error entry.
    Returns the result with those late errors and warnings added.
    """
    buffered = _Chunks(out)
    try:
        _write_document(result, buffered, samples_of)
    finally:
        buffered.flush()
    return result


def _write_document(result: RenderResult, out: _Chunks, samples_of: Any) -> None:
    out.write("{\n")
    out.write(f'  "schema": {dumps(SCHEMA)},\n')
    out.write(f'  "config": {dumps(result.config)},\n')
    out.write('  "renders": [')
    late_errors: list[PairError] = []
    lengths = LengthsCollector()
    samples_of = lengths.wrap(samples_of)
    for p, pair in enumerate(result.pairs):
        out.write(",\n    {" if p else "\n    {")
        head = {"dataset": pair.dataset_abbr, "model": pair.model_abbr,
                "model_kind": pair.model_kind, "inferencer": pair.inferencer,
                "rows_source": rows_source_json(pair), **judge_json(result, pair)}
        for key, value in head.items():
            out.write(f"\n      {dumps(key)}: {dumps(value)},")
        out.write('\n      "samples": [')
        try:
            for s, sample in enumerate(samples_of(pair)):
                out.write(",\n        " if s else "\n        ")
                out.write(out.samples.text(sample))
        except RenderError as exc:
            late_errors.append(stopped_error(pair, exc))
        out.write(f'\n      ],\n      "lengths": {dumps(lengths.summary(pair).summary())}\n    }}')
    out.write("\n  ],\n" if result.pairs else "],\n")
    result.errors.extend(late_errors)
    collect_warnings(result)
    _write_list(out, "errors", (error_json(e) for e in result.errors), last=False)
    _write_list(out, "warnings", (warning_json(g) for g in group_warnings(result.warnings)), last=True)
    out.write("}\n")


def stopped_error(pair: Any, exc: RenderError) -> PairError:
    """A pair that failed part-way: its error, pointing at the failure or the dataset."""
    where = error_source(exc, pair.dataset, pair.model_spec)
    return PairError(pair.dataset_abbr, pair.model_abbr, f"{exc.message} (rendering stopped there)",
                     where.file, where.line, exc.hint, exc.rule)


def collect_warnings(result: RenderResult) -> RenderResult:
    """Add the warnings the pairs found while rendering (after the samples were written)."""
    found = [w for pair in result.pairs for w in pair.warnings()]
    result.warnings = _merge_warnings(result.warnings, found)
    return result


def _merge_warnings(first: list[PairWarning], more: Iterable[PairWarning]) -> list[PairWarning]:
    seen = {(w.dataset, w.model, w.message) for w in first}
    merged = list(first)
    for w in more:
        if (w.dataset, w.model, w.message) not in seen:
            seen.add((w.dataset, w.model, w.message))
            merged.append(w)
    return merged


def _write_list(out: _Chunks, key: str, items: Iterable[dict], last: bool) -> None:
    items = [dumps(i) for i in items]
    body = "[\n    " + ",\n    ".join(items) + "\n  ]" if items else "[]"
    out.write(f'  "{key}": {body}')
    out.write("\n" if last else ",\n")


def render_document(result: RenderResult) -> dict[str, Any]:
    """The whole document as a dict (for tests and small renders)."""
    buffer = io.StringIO()
    write_render_json(result, buffer)
    return json.loads(buffer.getvalue())

