"""``workbench lint``: the findings of every dataset × model pair, as ruff lists a code's.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from . import EXIT_CONFIG, EXIT_DIFF, EXIT_OK, EXIT_USAGE
from .common import HelpFormatter, add_inputs, data_file_problem, lmeval_problem, open_pitfalls

SEVERITY_CHOICES = ("error", "warning", "info")


def _codes(text: str) -> list[str]:
    return [c for c in text.split(",") if c.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench lint",
        description="Check configs for prompt bugs before the run: whitespace at the seams, role "
        "tags typed into templates, SYSTEM prompts a model class drops, unfilled fields, few-shot "
        "leaks... each finding with its id, severity, file:line, why and a fix (docs/lint.md).",
        epilog="exit status: 0 no finding at or above --fail-on, 1 findings at or above it, 2 usage "
        "error, 3 config errors (a pair that does not render)\n"
        "example: workbench lint configs/eval.py --ignore PW205,PW303 --fail-on warning",
        formatter_class=HelpFormatter,
    )
    add_inputs(parser, run=False)
    parser.add_argument("--dataset", action="append", default=[], metavar="GLOB",
                        help="only datasets whose abbr matches (fnmatch glob); repeatable")
    parser.add_argument("--model", action="append", default=[], metavar="GLOB",
                        help="only models whose abbr matches (fnmatch glob); repeatable")
    parser.add_argument("--select", type=_codes, action="extend", default=[], metavar="CODES",
                        help="only these rules: ids, id prefixes (PW2) or names, comma-separated; repeatable")
    parser.add_argument("--ignore", type=_codes, action="extend", default=[], metavar="CODES",
                        help="leave these rules out (ids, prefixes or names, comma-separated; repeatable)")
    parser.add_argument("--fail-on", choices=SEVERITY_CHOICES, default="warning",
                        help="exit 1 when a finding of this severity or above is found (default: warning)")
    parser.add_argument("--format", "-f", choices=("text", "json"), default="text",
                        help="text: one located line per finding (default); json: a list of findings")
    parser.add_argument("--tokenizer", metavar="PATH", default=None,
                        help="read the token seams (PW214-PW217) with this tokenizer (a tokenizer.json, a "
                        "model folder, or cl100k_base) instead of each model's own; nothing is downloaded")
    parser.add_argument("--overlap", metavar="FILE", default=None,
                        help="a test set (.jsonl/.json/.csv) checked for near-duplicates of the "
                        "example pool of every dataset (PW305)")
    return parser


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    problem = open_pitfalls(args) or lmeval_problem(args) or data_file_problem(args.data)
    if problem:
        parser.error(problem)
    from ..core.lint.run import Selection

    selection = Selection(args.select, args.ignore)
    unknown = selection.unknown()
    if unknown:
        parser.error(f"--select/--ignore: no rule is named {unknown[0]!r} (see docs/lint.md)")
    overlap = _overlap_rows(args.overlap) if args.overlap else None
    if isinstance(overlap, str):
        print(f"workbench lint: --overlap {args.overlap}: {overlap}", file=sys.stderr)
        return EXIT_USAGE
    tokenizer = None
    if args.tokenizer is not None:
        # lazy: imported when the command runs, so --help stays quick
        from ..loading.models.model_assets import tokenizer_at

        tokenizer, problem = tokenizer_at(args.tokenizer)
        if problem is not None:
            print(f"workbench lint: {problem}", file=sys.stderr)
            return EXIT_USAGE
    return lint(args, selection, overlap, tokenizer)


def _overlap_rows(path: str) -> list[Any] | str:
    """The rows of ``--overlap FILE`` (every split of a file that has several), or what is wrong."""
    from ..core.errors import WorkbenchError
    from ..loading.rows.data_files import read_rows

    try:
        rows = read_rows(path)
    except (OSError, WorkbenchError) as exc:
        return str(getattr(exc, "message", None) or getattr(exc, "strerror", None) or exc)
    return [r for split in rows.values() for r in split] if isinstance(rows, dict) else list(rows)


def lint(args: argparse.Namespace, selection: Any, overlap: list[Any] | None, tokenizer: Any = None) -> int:
    from ..core.lint.listing import lint_result
    from ..headless.render_filter import RenderFilter
    from .render import load_and_render

    workspace, result = load_and_render(args)
    wanted = RenderFilter(datasets=tuple(args.dataset), models=tuple(args.model))
    if wanted.datasets or wanted.models:
        result.pairs = [p for p in result.pairs if wanted.wants_pair(p.dataset_abbr, p.model_abbr)]
        result.errors = [e for e in result.errors
                         if e.dataset is None or wanted.wants_pair(e.dataset, e.model)]
    skipped: list[tuple[str, str, str]] = []
    if selection.wants("PW213"):  # the self-test runs each dataset in a bounded child: forked here
        from ..headless.extract_self_test import answer_format_warnings

        found, skipped = answer_format_warnings(result.pairs)
        result.warnings.extend(found)
    listed = lint_result(result, workspace.datasets, workspace.models, selection, overlap, tokenizer)
    for dataset, _, why in skipped:
        listed.skipped(["PW213"], dataset, None, why)
    if args.format == "json":
        print(json.dumps(listed.as_json(args.fail_on), indent=2, ensure_ascii=False))
    else:
        from ..headless.lint_report import report

        report(listed, args.fail_on, sys.stdout, sys.stderr)
    if listed.errors:
        return EXIT_CONFIG
    return EXIT_DIFF if listed.failing(args.fail_on) else EXIT_OK
