"""``workbench snapshot``: write golden prompt files, or ``--check`` a fresh render against them.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import EXIT_CONFIG, EXIT_DIFF, EXIT_OK
from .common import HelpFormatter, add_inputs, add_lint, add_strict, counted
from .render import add_run_options, parse_run_args, recipe_for, render_selected, usage_error, utf8_stdout


def build_parser() -> argparse.ArgumentParser:
    from ..headless.render_filter import add_selection_args

    parser = argparse.ArgumentParser(
        prog="workbench snapshot",
        description="Write one snapshot file per dataset × model (DIR/<dataset>/<model>.snap): "
        "every request's final input, whitespace made visible, for review in diffs. "
        "With --check, render again and compare instead of writing.",
        epilog="exit status: 0 written / all match, 1 differences (or missing / extra "
        "snapshot files) with --check, 2 usage error, 3 config errors, or with --strict a warning "
        "that the real run differs or fails, or with --lint a lint finding (3 outranks 1)\n"
        "example: workbench snapshot configs/eval.py --dir tests/prompt_snapshots --check --strict",
        formatter_class=HelpFormatter,
    )
    add_inputs(parser)
    parser.add_argument("--dir", "-d", required=True, metavar="DIR",
                        help="the snapshot folder (created when missing)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files instead of writing them; print a diff and "
                        "exit 1 on any difference")
    add_selection_args(parser)
    add_diff_options(parser)
    add_run_options(parser)
    add_strict(parser)
    add_lint(parser)
    return parser


def add_diff_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("diff output")
    group.add_argument("--context", type=counted(0), default=3, metavar="N",
                       help="unchanged lines shown around each change (default 3)")
    group.add_argument("--max-diffs", type=counted(0), default=20, metavar="N",
                       help="show the lines of the first N changed requests per dataset × model, "
                       "then only name the others (default 20; 0 = show all)")
    group.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the diff (auto: when stdout is a terminal and NO_COLOR is unset)")


def use_color(choice: str) -> bool:
    if choice != "auto":
        return choice == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parse_run_args(parser, argv, first_config=True)
    from ..headless.compare import DiffPrinter
    from ..headless.formats.json_export import collect_warnings
    from ..headless.lint_report import LintGate
    from ..headless.progress import Progress
    from ..headless.snapshots import check_snapshots, write_snapshots
    from ..headless.stderr_report import report_problems
    from ..headless.stream import SampleStream
    from ..loading.files.atomic import terminate_as_exit

    root = Path(args.dir)
    if root.exists() and not root.is_dir():
        return usage_error(parser.prog, f"--dir {args.dir}: not a folder")
    selected = render_selected(parser.prog, args)
    if isinstance(selected, int):
        return selected
    selection, result, entries = selected
    if entries and not any(e.indices for e in entries) and not args.check:
        # a snapshot of no sample would pin nothing and pass every check
        return usage_error(parser.prog, "the selection has no samples: nothing to snapshot "
                           "(check --sample, --limit and the datasets' rows)")
    utf8_stdout()
    from ..core.inert_text import visible

    def show(text: str) -> None:
        print(visible(text), flush=True)

    say = (lambda text: None) if args.quiet else show
    progress = Progress.for_terminal(sum(len(e.indices) for e in entries), args.quiet)
    try:
        with terminate_as_exit(), SampleStream(entries, selection, args.jobs, recipe_for(args),
                                               progress) as stream:
            if args.check:
                printer = DiffPrinter(sys.stdout, color=use_color(args.color), context=args.context,
                                      before_write=progress.close)
                outcome = check_snapshots(result, stream, root, selection, printer,
                                          max_shown=args.max_diffs)
            else:
                root.mkdir(parents=True, exist_ok=True)
                outcome = write_snapshots(result, stream, root, selection)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        where = f" {exc.filename}" if exc.filename else ""
        return usage_error(parser.prog, f"cannot {'read' if args.check else 'write'}{where}: "
                           f"{exc.strerror or exc}")
    # the other warnings are in the snapshot files; these are said (under --strict, as errors)
    collect_warnings(result)
    linted = LintGate(result).report(sys.stderr) if args.lint else 0
    strict = report_problems(result, warnings=not args.quiet, strict=args.strict,
                             prog=parser.prog, others=False)
    failed = bool(result.errors) or (args.strict and strict > 0) or linted > 0
    if args.check:
        for path in outcome.missing:
            show(f"missing: {path} (no snapshot yet: run `workbench snapshot` without --check)")
        for path in outcome.extra:
            show(f"extra: {path} (its dataset × model is no longer rendered)")
        for path in outcome.kept:
            show(f"not checked: {path} (its dataset × model failed to render)")
        checked = len(outcome.differ) + len(outcome.matched)
        if outcome.failed_check:
            show(f"snapshot check failed: {len(outcome.differ)} of {checked} snapshots differ "
                  f"({outcome.tally.summary()}), {len(outcome.missing)} missing, "
                  f"{len(outcome.extra)} extra")
        elif result.errors:
            # never "passed" when something could not be checked
            show(f"snapshot check failed: {len(result.errors)} config error(s); {checked} snapshots "
                 f"checked and matching, {len(outcome.kept)} not checked")
        elif linted:
            show(f"snapshot check failed (--lint): {linted} lint finding(s); {checked} snapshots match")
        elif failed:
            show(f"snapshot check failed (--strict): {strict} warning(s) say the real run differs from "
                 f"what the snapshots show, or fails; {checked} snapshots match")
        elif checked == 0:
            show("snapshot check failed: no snapshot was checked (nothing selected renders)")
            return EXIT_DIFF
        else:
            say(f"snapshot check passed: {checked} snapshots match")
        if outcome.stale_inputs:
            say(f"note: {len(outcome.stale_inputs)} matching snapshots were made from other inputs "
                "(same prompts); `workbench snapshot` refreshes their inputs hash")
        if failed:  # errors outrank differences
            return EXIT_CONFIG
        return EXIT_DIFF if outcome.failed_check else EXIT_OK
    for label, paths in (("created", outcome.created), ("updated", outcome.updated),
                         ("removed", outcome.removed)):
        for path in paths:
            say(f"{label} {path}")
    for path in outcome.kept:
        say(f"kept {path} (its dataset × model failed to render)")
    say(f"snapshot: {len(outcome.created)} created, {len(outcome.updated)} updated, "
        f"{len(outcome.unchanged)} unchanged, {len(outcome.removed)} removed")
    return EXIT_CONFIG if failed else EXIT_OK
