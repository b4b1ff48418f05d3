"""The extract@1 document as text or markdown, and its errors and warnings on stderr.

Model output is untrusted: every value is shown through ``core.inert_text.visible`` (escapes and
controls as visible stand-ins) on one line, cut at ``PREVIEW`` characters in the tables (the
JSON keeps it whole). A sample's ``match`` (the rule that produced ``extracted``) is a line under
it in text, a column in markdown.

May import: the core and the other headless modules; not views, tui, commands or ``cli``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TextIO

from ..core.inert_text import visible

PREVIEW = 60
MARK = {True: "✓", False: "✗", None: "·"}


def shown(value: Any, limit: int | None = PREVIEW) -> str:
    """A value as its JSON spelling (so a string is quoted and None is null), inert, one line."""
    text = visible(json.dumps(value, ensure_ascii=False)).replace("\n", "↵")
    if limit is not None and len(text) > limit:
        text = text[:limit - 1] + "…"
    return text


def match_text(match: Mapping[str, Any] | None, limit: int = 60) -> str:
    """What the rule matched, where, and the rule: ``"ANSWER: C" at 30–39, first_option_postprocess:
    (?i)ANSWER…`` (the place in the recorded prediction, or "in the text the step read" when that
    text was rewritten before it)."""
    if not match:
        return ""
    rule = visible(match["rule"]).replace("\n", "↵")
    if len(rule) > limit:
        rule = rule[:limit - 1] + "…"
    span = match.get("span")
    where = f"at {span[0]}–{span[1]}" if span else "in the text the step read"
    return f"{shown(match['matched'], 30)} {where}, {visible(match['function'])}: {rule}"


def _score(pair: Mapping[str, Any]) -> str:
    if pair.get("accuracy") is None:
        return f"not scored ({pair.get('note') or 'the framework scores it'})"
    return f"{pair['metric']} {pair['accuracy']:.2f} ({pair.get('evaluator') or ''})"


def against_line(pair: Mapping[str, Any]) -> str | None:
    """The ``--against`` summary of a pair (its score, the delta, the flips), None without one."""
    other = pair.get("against")
    if other is None:
        return None
    if other["accuracy"] is None or other["delta"] is None:
        return f"  against: not scored ({other.get('note') or 'the framework scores it'}); " \
               f"{other['extracted_changed']} extractions change"
    return (f"  against: {other['metric']} {other['accuracy']:.2f} ({other['delta']:+.2f}), "
            f"{len(other['flips'])} verdicts flip, {other['extracted_changed']} extractions change")


def flips_of(pair: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The pair's ``--against`` flips by sample index (none without ``--against``)."""
    return {f["index"]: f for f in (pair.get("against") or {}).get("flips", [])}


def summary(document: Mapping[str, Any]) -> str:
    pairs = [p for p in document["pairs"] if not p.get("error")]
    samples = sum(len(p["samples"]) for p in pairs)
    errors = len(document["errors"])
    return (f"{len(pairs)} pair{'s' * (len(pairs) != 1)} extracted ({samples} sample{'s' * (samples != 1)}), "
            f"{errors} error{'s' * (errors != 1)}")


def write_text(document: Mapping[str, Any], out: TextIO, wrong_only: bool = False) -> None:
    out.write(f"run {visible(document['run'])} · config {visible(document['config'])}\n")
    for pair in document["pairs"]:
        if pair.get("error"):
            out.write(f"\n{visible(pair['dataset'])} × {visible(pair['model'])}: fails: "
                      f"{error_text(pair['error'])}\n")
            continue
        out.write(f"\n{visible(pair['dataset'])} × {visible(pair['model'])}: {len(pair['samples'])} samples, "
                  f"{visible(_score(pair))}\n")
        line = against_line(pair)
        if line:
            out.write(line + "\n")
        flips = flips_of(pair)
        for sample in pair["samples"]:
            if wrong_only and sample["correct"] is not False and sample["index"] not in flips:
                continue
            flip = flips.get(sample["index"])
            tail = f"  → {_flip(flip, 24)}" if flip else ""
            out.write(f"  {MARK[sample['correct']]} {visible(sample['index']):>5}  extracted "
                      f"{shown(sample['extracted'], 24):<24}  gold {shown(sample['gold'], 24):<24}  "
                      f"{shown(sample['prediction'])}{tail}\n")
            if sample.get("match"):
                out.write(f"          ↳ {match_text(sample['match'])}\n")
    out.write(f"\n{summary(document)}\n")


def _flip(flip: Mapping[str, Any], limit: int) -> str:
    return f"{shown(flip['against_extracted'], limit)} {MARK[flip['against_correct']]}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def write_markdown(document: Mapping[str, Any], out: TextIO, wrong_only: bool = False) -> None:
    out.write(f"# extract · `{_cell(visible(document['run']))}`\n\n"
              f"config `{_cell(visible(document['config']))}` · {summary(document)}\n")
    for pair in document["pairs"]:
        if pair.get("error"):
            continue  # listed under Errors
        out.write(f"\n## {_cell(visible(pair['dataset']))} × {_cell(visible(pair['model']))}\n\n"
                  f"{_cell(visible(_score(pair)))}\n")
        line = against_line(pair)
        if line:
            out.write(f"\n{line.strip()}\n")
        flips = flips_of(pair)
        out.write("\n| index | verdict | extracted | gold | prediction | matched |"
                  + (" against |" if flips else "") + "\n|---|---|---|---|---|---|"
                  + ("---|" if flips else "") + "\n")
        for sample in pair["samples"]:
            if wrong_only and sample["correct"] is not False and sample["index"] not in flips:
                continue
            flip = flips.get(sample["index"])
            cells = [visible(sample["index"]), MARK[sample["correct"]], shown(sample["extracted"], 40),
                     shown(sample["gold"], 40), shown(sample["prediction"]), match_text(sample.get("match"))]
            if flips:
                cells.append(_flip(flip, 40) if flip else "")
            out.write("| " + " | ".join(_cell(c) for c in cells) + " |\n")
    if document["errors"]:
        out.write("\n## Errors\n\n" + "".join(f"- {_cell(error_text(e))}\n" for e in document["errors"]))


def write_self_test(document: Mapping[str, Any], out: TextIO, markdown: bool = False) -> None:
    """The self-test's checks, a line (or a table row) each."""
    out.write(f"{'# ' if markdown else ''}self-test · {visible(document['config'])}\n")
    for dataset in document["datasets"]:
        out.write(f"\n{'## ' if markdown else ''}{visible(dataset['dataset'])}\n")
        if markdown:
            out.write("\n| check | verdict | answer | extracted | gold |\n|---|---|---|---|---|\n")
        for check in dataset["checks"]:
            cells = [visible(check["source"]), MARK[check["correct"]], shown(check["text"]),
                     shown(check["extracted"], 40), shown(check["gold"], 40)]
            out.write("| " + " | ".join(_cell(c) for c in cells) + " |\n" if markdown else
                      f"  {cells[1]} {cells[0]:<11} {cells[2]}  extracted {cells[3]}  gold {cells[4]}\n")
        if not dataset["checks"]:
            out.write("  (no exemplar and no answer format found to check)\n")


def error_text(error: Mapping[str, Any]) -> str:
    """``file:line: [dataset × model] sample N: message (hint: ...)``, inert, one line."""
    where = error.get("file") or "<run>"
    if error.get("line"):
        where += f":{error['line']}"
    # a self-test's error is a dataset's (its document names no model for it)
    model = f" × {error['model']}" if error.get("model") else ""
    pair = f"[{error['dataset']}{model}] " if error.get("dataset") else ""
    sample = f"sample {error['sample']}: " if error.get("sample") is not None else ""
    text = f"{where}: {pair}{sample}{error['message']}"
    if error.get("hint"):
        text += f" (hint: {error['hint']})"
    return visible(text).replace("\n", " ")


def report(document: Mapping[str, Any], stream: TextIO) -> None:
    for error in document["errors"]:
        print(error_text(error), file=stream)
    for warning in dict.fromkeys(document["warnings"]):
        print(visible(f"warning: {warning}").replace("\n", " "), file=stream)
