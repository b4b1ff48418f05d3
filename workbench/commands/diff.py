"""``workbench diff``: what a config change does to the prompts, request by request.

``workbench diff A.py B.py`` compares two configs; ``workbench diff CONFIG --rev REV``
compares the config at a git revision with the working tree, ``--rev R1 --rev R2`` two
revisions.  The summary line reads "N requests changed, M added, K removed".

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import EXIT_CONFIG, EXIT_DIFF, EXIT_OK
from .common import HelpFormatter, add_inputs, add_strict
from .render import (
    add_run_options,
    check_selection,
    load_and_render,
    parse_run_args,
    recipe_for,
    usage_error,
    utf8_stdout,
)
from .snapshot import add_diff_options, use_color


def build_parser() -> argparse.ArgumentParser:
    from ..headless.render_filter import add_selection_args

    parser = argparse.ArgumentParser(
        prog="workbench diff",
        usage="workbench diff A B [options]\n"
        "       workbench diff CONFIG... --rev REV [--rev REV2] [options]",
        description="Show, per dataset × model × sample, what changed in the final input between "
        "two configs, or between git revisions of a config (--rev REV: that revision against the "
        "working tree; --rev R1 --rev R2: two revisions).",
        epilog="exit status: 0 no differences, 1 differences, 2 usage error, 3 config errors on "
        "either side, or with --strict a warning on either side that the real run differs or fails "
        "(3 outranks 1)\nexample: workbench diff configs/eval.py --rev HEAD~1",
        formatter_class=HelpFormatter,
    )
    add_inputs(parser)
    parser.add_argument("--rev", action="append", default=[], metavar="REV",
                        help="a git revision (commit, branch, tag, HEAD~1); give once or twice")
    add_selection_args(parser)
    add_diff_options(parser)
    add_run_options(parser)
    add_strict(parser)
    return parser


def _with_configs(args: argparse.Namespace, configs: list[str]) -> argparse.Namespace:
    side = copy.copy(args)
    side.configs = configs
    return side


def _data_arg(text: str, tree: Any) -> str:
    if "=" in text and not Path(text).exists():
        abbr, _, path = text.partition("=")
        return f"{abbr}={tree.map(path)}"
    return tree.map(text)


def _at_revision(args: argparse.Namespace, tree: Any) -> argparse.Namespace:
    side = copy.copy(args)
    side.configs = [tree.map(c) for c in args.configs]
    side.data = [_data_arg(d, tree) for d in args.data]
    side.models = [tree.map(m) for m in args.models]
    side.config_root = [tree.map_folder(r) for r in args.config_root]
    return side


def _show_paths(result: Any, tree: Any) -> None:
    """Errors inside a revision's temporary tree point at ``REV:path``."""
    result.errors = [dataclasses.replace(e, file=tree.display(e.file)) for e in result.errors]


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parse_run_args(parser, argv)
    if len(args.rev) > 2:
        parser.error("--rev takes one revision (against the working tree) or two")
    if not args.rev and len(args.configs) != 2:
        parser.error("give two configs (A B), or configs and --rev REV")
    if args.rev and not args.configs:
        parser.error("give the config to compare across revisions")
    from ..headless.revisions import RevisionError, materialize

    trees: list[Any] = []
    try:
        if not args.rev:
            sides = [_with_configs(args, [args.configs[0]]), _with_configs(args, [args.configs[1]])]
            names = (args.configs[0], args.configs[1])
        else:
            here = [Path(c) for c in args.configs if Path(c).is_file()]
            seen: list[Path] = []
            if here:  # what the working tree reads (data files, model folders) is read at REV too
                workspace, _ = load_and_render(_with_configs(args, [str(c) for c in here]))
                seen = list(workspace.files)
            extra: list[Any] = [*seen, *args.models]
            extra += [d.partition("=")[2] if "=" in d and not Path(d).exists() else d for d in args.data]
            for rev in args.rev:
                trees.append(materialize(rev, args.configs, extra, args.config_root))
            sides = [_at_revision(args, t) for t in trees]
            if len(sides) == 1:
                sides.append(args)
            names = (args.rev[0], args.rev[1] if len(args.rev) > 1 else "working tree")
        return _diff(parser, args, sides, names, trees)
    except RevisionError as exc:
        return usage_error(parser.prog, str(exc))
    finally:
        for tree in trees:
            tree.cleanup()


def _diff(parser: argparse.ArgumentParser, args: argparse.Namespace, sides: list[argparse.Namespace],
          names: tuple[str, str], trees: list[Any]) -> int:
    from ..headless.compare import DiffPrinter
    from ..headless.progress import Progress
    from ..headless.render_diff import diff_renders
    from ..headless.render_filter import RenderFilter
    from ..headless.stderr_report import differing, report_problems
    from ..headless.stream import SampleStream, select
    from ..loading.files.atomic import terminate_as_exit

    selection = RenderFilter.from_args(args)
    results, models = [], []
    for side in sides:
        workspace, full = load_and_render(side)
        results.append(full)
        models += [m.abbr for m in workspace.models]
    for tree, result in zip(trees, results):
        _show_paths(result, tree)
    both = copy.copy(results[1])
    both.pairs = [*results[0].pairs, *results[1].pairs]
    both.errors = [*results[0].errors, *results[1].errors]
    failed = check_selection(parser.prog, both, selection, models=models)
    if failed is not None:
        return failed
    (a, a_entries), (b, b_entries) = select(results[0], selection), select(results[1], selection)
    total = sum(len(e.indices) for e in (*a_entries, *b_entries))
    progress = Progress.for_terminal(total, args.quiet)
    utf8_stdout()
    printer = DiffPrinter(sys.stdout, color=use_color(args.color), context=args.context,
                          before_write=progress.close)
    with terminate_as_exit(), \
            SampleStream(a_entries, selection, args.jobs, recipe_for(sides[0]), progress) as a_stream, \
            SampleStream(b_entries, selection, args.jobs, recipe_for(sides[1]), progress) as b_stream:
        outcome = diff_renders(a, b, a_stream, b_stream, selection.describe(), printer, names,
                               max_shown=args.max_diffs)
    from ..core.inert_text import visible

    strict = 0
    for name, result in zip(names, (a, b)):
        if result.errors or differing(result):
            print(visible(f"{name}:"), file=sys.stderr)
            # the other warnings are the render's business; these are said (--strict: as errors)
            strict += report_problems(result, warnings=not args.quiet, strict=args.strict, prog=parser.prog,
                                      others=False)
    print(visible(f"{outcome.tally.summary()} ({names[0]} → {names[1]}, "
                  f"{outcome.compared} dataset × model pairs compared)"))
    if a.errors or b.errors or (args.strict and strict):  # errors outrank differences
        return EXIT_CONFIG
    return EXIT_DIFF if outcome.differs else EXIT_OK
