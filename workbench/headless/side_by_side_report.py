"""``workbench compare``'s outputs: the JSON document (``prompt-workbench/compare@1``,
docs/compare.md), markdown made for pasting into a "why don't my numbers match" issue, and text
for the terminal. Each reads one :class:`Comparison`; none renders.

May import: views, loading, bundled and the core; not ``tui`` or the commands.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.inert_text import visible
from ..core.side_by_side import KINDS, Difference, Side, SideRow, align, char_diff, classify
from .formats.json_encoding import dumps

__all__ = ["Comparison", "document", "markdown", "text"]

SCHEMA = "prompt-workbench/compare@1"


@dataclass
class Comparison:
    """The sides of one benchmark for one model, and what stopped a side (located errors)."""

    benchmark: str | None
    subject: str | None
    model: str
    sides: list[Side]
    #: {side, file, line, message, hint}
    errors: list[dict[str, Any]] = field(default_factory=list)
    #: {side, message}
    warnings: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lined_up(self) -> list[tuple[str, list[SideRow | None]]]:
        return align(self.sides)

    def row_differences(self, cells: Sequence[SideRow | None]) -> list[list[Difference] | None]:
        """Per later side, its differences from the first side on this row (None: a side lacks it)."""
        first = cells[0]
        out: list[list[Difference] | None] = []
        for side, cell in zip(self.sides[1:], cells[1:]):
            out.append(None if first is None or cell is None else classify(self.sides[0], side, first, cell))
        return out

    def tally(self) -> tuple[Counter[str], int, int]:
        """(rows each class of difference is found in, rows compared, rows only some sides have)."""
        counts: Counter[str] = Counter()
        compared = unmatched = 0
        for _, cells in self.lined_up():
            if any(c is None for c in cells):
                unmatched += 1
                continue
            compared += 1
            kinds = {d.kind for found in self.row_differences(cells) for d in found or ()}
            counts.update(kinds)
        return counts, compared, unmatched

    def differs(self) -> bool:
        counts, _, unmatched = self.tally()
        return bool(counts or unmatched)


def _side_json(side: Side) -> dict[str, Any]:
    return {"framework": side.framework, "config": side.config, "dataset": side.dataset,
            "request": side.request, "chat_template": side.chat_template,
            "chat_template_kwargs": dict(side.chat_kwargs),
            "generation": {k: list(v) if isinstance(v, tuple) else v for k, v in side.generation.items()},
            "extraction": list(side.extraction), "rows": len(side.rows)}


def _cell_json(cell: SideRow | None) -> dict[str, Any] | None:
    if cell is None:
        return None
    return {"index": cell.index, "final": cell.final,
            "messages": [{"role": r, "content": c} for r, c in cell.messages] if cell.messages is not None
            else None,
            "shots": cell.shots, "shot_source": cell.shot_source, "shot_ids": list(cell.shot_ids),
            "continuations": list(cell.continuations)}


def document(comparison: Comparison, limit: int | None = None) -> dict[str, Any]:
    """The JSON document: the sides, then each aligned row with every side's request, the
    character diff of each later side's final input against the first's, and the classes."""
    counts, compared, unmatched = comparison.tally()
    rows = []
    for key, cells in comparison.lined_up()[:limit]:
        against = []
        for cell, found in zip(cells[1:], comparison.row_differences(cells)):
            first = cells[0]
            against.append(None if found is None or first is None or cell is None else {
                "differences": [{"kind": d.kind, "left": d.left, "right": d.right, "why": d.why}
                                for d in found],
                "diff": [[op, text] for op, text in char_diff(first.final, cell.final)],
            })
        rows.append({"key": key, "sides": [_cell_json(c) for c in cells], "against_first": against})
    return {
        "schema": SCHEMA,
        "benchmark": comparison.benchmark,
        "subject": comparison.subject,
        "model": comparison.model,
        "sides": [_side_json(s) for s in comparison.sides],
        "summary": {"compared": compared, "unmatched": unmatched,
                    "kinds": {k: counts[k] for k in KINDS if counts[k]}},
        "rows": rows,
        "errors": comparison.errors,
        "warnings": comparison.warnings,
        "notes": comparison.notes,
    }


def write_json(doc: dict[str, Any]) -> str:
    """The document as the render JSON is written: characters a terminal would act on as \\u
    escapes, which a reader decodes back to the row's own text."""
    return dumps(doc, indent=1) + "\n"


def _summary_lines(comparison: Comparison) -> list[str]:
    counts, compared, unmatched = comparison.tally()
    lines = [f"{compared} row{'s' * (compared != 1)} compared"
             + (f", {unmatched} only on some sides" if unmatched else "")]
    for kind, words in KINDS.items():
        if counts[kind]:
            lines.append(f"{words}: differs in {counts[kind]} of {compared}")
    if compared and not counts:
        lines.append("no difference: every side sends the same request with the same settings")
    return lines + [f"note: {note}" for note in comparison.notes]


def _shown_rows(comparison: Comparison, shown: int) -> list[tuple[str, list[SideRow | None]]]:
    both = [(k, c) for k, c in comparison.lined_up() if all(x is not None for x in c)]
    return both[:shown]


def markdown(comparison: Comparison, shown: int = 1) -> str:
    """A report for an issue thread: what was compared, the classes with their counts, then, per
    row shown, each side's settings, the differences and every side's final input."""
    title = comparison.benchmark or comparison.sides[0].dataset
    if comparison.subject:
        title += f" ({comparison.subject})"
    out = [f"### {title}: the same rows through {len(comparison.sides)} frameworks", "",
           f"Model: `{comparison.model}`. Made with `workbench compare` (prompt-workbench), which renders "
           "each framework's prompts with its own rules.", ""]
    out += ["| | " + " | ".join(s.framework for s in comparison.sides) + " |",
            "|---|" + "---|" * len(comparison.sides)]
    rows = [("config", lambda s: f"`{s.config}`"), ("dataset / task", lambda s: f"`{s.dataset}`"),
            ("request", lambda s: s.request), ("chat template", lambda s: s.chat_template or "none"),
            ("generation", lambda s: _generation_words(s) or "—"),
            ("answer extraction", lambda s: " → ".join(s.extraction) or "—")]
    for name, value in rows:
        out.append(f"| {name} | " + " | ".join(_cell(value(s)) for s in comparison.sides) + " |")
    out += ["", "**What differs**", ""] + [f"- {line}" for line in _summary_lines(comparison)]
    for error in comparison.errors:
        where = f"{error['file']}:{error['line']}" if error.get("line") else error.get("file") or ""
        out.append(f"- error ({error['side']}): {where} {error['message']}".rstrip())
    for key, cells in _shown_rows(comparison, shown):
        first = cells[0]
        assert first is not None
        out += ["", f"#### Row: {_cell(key[:120])}", ""]
        for side, found in zip(comparison.sides[1:], comparison.row_differences(cells)):
            a_name, b_name = comparison.sides[0].framework, side.framework
            out.append(f"{a_name} against {b_name}:")
            out.append("")
            for d in found or ():
                out.append(f"- **{KINDS[d.kind]}**: {_cell(d.why)}. {a_name}: {_cell(d.left)}; "
                           f"{b_name}: {_cell(d.right)}")
            if not found:
                out.append("- the same")
            out.append("")
        for side, cell in zip(comparison.sides, cells):
            assert cell is not None
            out += [f"<details><summary>{side.framework}: the final input ({len(cell.final)} characters)"
                    "</summary>", "", _fence(cell.final), "", "</details>", ""]
    return "\n".join(out).rstrip() + "\n"


def _generation_words(side: Side) -> str:
    parts = []
    for key, value in side.generation.items():
        if key == "max_new_tokens" and value is None:
            parts.append("max_new_tokens: the model's max_out_len")
        elif key == "stop":
            parts.append(f"stop {', '.join(repr(v) for v in value) if value else 'none'} (besides the eos)")
        else:
            parts.append(f"{key} {value}")
    return "; ".join(parts)


def _cell(value: str) -> str:
    """Inert in markdown: a table cell's bars, HTML's angle brackets and newlines escaped."""
    return (visible(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "\\|").replace("\n", "↵"))


def _fence(value: str) -> str:
    """A fenced block longer than any run of backticks opening a line of ``value``."""
    runs = [len(m.group(1)) for m in re.finditer(r"^[ \t]*(`{3,})", value, flags=re.M)]
    ticks = "`" * max(3, max(runs, default=0) + 1)
    return f"{ticks}text\n{visible(value)}\n{ticks}"


def text(comparison: Comparison, shown: int = 1, color: bool = False) -> str:
    """For the terminal: the sides, the classes with their counts, each shown row's differences
    and its character diff (removed ``[-…-]``, added ``{+…+}``, or coloured)."""
    out: list[str] = []
    for i, side in enumerate(comparison.sides):
        out.append(f"{chr(ord('A') + i)}  {side.framework}  {side.dataset}  ({side.config})")
        out.append(f"   request {side.request} · chat template {side.chat_template or 'none'}"
                   + (f" · {_generation_words(side)}" if side.generation else ""))
        out.append(f"   answer: {' → '.join(side.extraction) or '—'}")
    out.append(f"model: {comparison.model}")
    out += ["", *_summary_lines(comparison)]
    for key, cells in _shown_rows(comparison, shown):
        first = cells[0]
        assert first is not None
        out += ["", f"row {first.index}: {key[:100]}"]
        for i, (cell, found) in enumerate(zip(cells[1:], comparison.row_differences(cells)), start=1):
            assert cell is not None
            letter = chr(ord("A") + i)
            out.append(f"A against {letter}:")
            for d in found or ():
                out.append(f"  {KINDS[d.kind]}: {d.why}")
                out.append(f"    A: {d.left}")
                out.append(f"    {letter}: {d.right}")
            for name, shown_cell in (("A", first), (chr(ord("A") + i), cell)):
                if shown_cell.continuations:
                    scored = ", ".join(map(repr, shown_cell.continuations))
                    out.append(f"  {name} scores the continuations {scored}")
            out.append(f"  final input, A against {letter} ([-only A-] {{+only {letter}+}}):")
            out.append(_Marked(_marked(char_diff(first.final, cell.final), color)))
    for error in comparison.errors:
        where = f"{error['file']}:{error['line']}" if error.get("line") else error.get("file") or "<config>"
        out.append(f"error: {error['side']}: {where}: {error['message']}")
    # every line made safe to print, but the diff's, whose pieces already are (and whose colours stay)
    return "\n".join(line if isinstance(line, _Marked) else visible(line) for line in out) + "\n"


class _Marked(str):
    """A line already made visible, with its own colour codes."""


#: How a removed (-) or added (+) run is marked, with colour or without.
_MARKS = {("-", True): ("\x1b[31m", "\x1b[0m"), ("+", True): ("\x1b[32m", "\x1b[0m"),
          ("-", False): ("[-", "-]"), ("+", False): ("{+", "+}")}


def _marked(runs: list[tuple[str, str]], color: bool) -> str:
    parts = []
    for op, piece in runs:
        shown = visible(piece)
        if op == "=":
            parts.append(shown)
        else:
            opening, closing = _MARKS[(op, color)]
            parts.append(opening + shown.replace("\n", "↵\n") + closing)
    return "    " + "".join(parts).replace("\n", "\n    ")
