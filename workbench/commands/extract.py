"""``workbench extract RUN_DIR``: what OpenCompass's evaluation extracts from each recorded
prediction, the processed gold, and the verdict, per dataset × model × sample; with
``--against CONFIG [--rev REV]``, which verdicts another config's extraction flips.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import EXIT_CONFIG, EXIT_DIFF, EXIT_OK
from .common import HelpFormatter, seconds


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench extract",
        usage="workbench extract RUN_DIR [--config FILE] [--against CONFIG [--rev REV]] [options]\n"
        "       workbench extract CONFIG --self-test [--data ABBR=FILE ...]",
        description="Apply OpenCompass 0.5.4's answer extraction to the predictions an OpenCompass run "
        "recorded (predictions/<model>/<dataset>.json, or its _0, _1, ... parts), in the evaluation "
        "task's order: pred_role, the model's pred_postprocessor, eval_cfg.pred_postprocessor; the "
        "gold through eval_cfg.dataset_postprocessor; the verdict and the score where the evaluator "
        "is a plain one (AccEvaluator, Gsm8kEvaluator, MATHEvaluator, EMEvaluator, BBHEvaluator, ...), else "
        "`correct: null` (the framework scores it). The gold is the predictions' own `gold`. With "
        "--self-test, before any run: the config's own in-context answers and the answer format its "
        "prompt asks for, through its extraction.",
        epilog="exit status: 0 every pair extracted (and with --against: no verdict flips; with "
        "--self-test: every check read), 1 with --against: a verdict flips (with --self-test: the "
        "evaluator cannot read an exemplar or the asked format), 2 usage error, 3 the run or a config "
        "cannot be read, or a pair fails (as the real evaluation would) or has a postprocessor the "
        "workbench does not rewrite\n"
        "example: workbench extract outputs/default/20241124_120000 --against configs/eval.py -f text",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", help="the run's timestamped folder (with --self-test: "
                        "a config)")
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="read the extraction from this config instead of the one the run saved")
    parser.add_argument("--against", metavar="CONFIG", default=None,
                        help="also apply this config's extraction (matched by dataset and model abbr) "
                        "and list the verdicts that flip, with the score delta per pair")
    parser.add_argument("--rev", metavar="REV", default=None,
                        help="with --against: the CONFIG as committed at this git revision")
    parser.add_argument("--format", "-f", choices=("json", "text", "markdown", "html"), default="json",
                        help="json: the prompt-workbench/extract@1 document (default); text, markdown: "
                        "a table per pair; html: the same as one self-contained page")
    parser.add_argument("--wrong", action="store_true",
                        help="text/markdown/html: show only the samples scored wrong (and those that flip)")
    parser.add_argument("--self-test", action="store_true",
                        help="RUN_DIR is a config: check that its evaluator reads its own exemplars' answers "
                        "and the answer format its prompt asks for")
    parser.add_argument("--data", action="append", default=[], metavar="ABBR=FILE",
                        help="with --self-test: the rows of a dataset (as render's --data)")
    parser.add_argument("--config-root", action="append", default=[], metavar="DIR",
                        help="a folder holding the opencompass/ package tree, for read_base imports by "
                        "package in --against or --config; repeatable (also WORKBENCH_CONFIG_ROOT)")
    parser.add_argument("--framework-python", metavar="PY", default=None,
                        help="a Python that can import OpenCompass 0.5.4: postprocessors the workbench "
                        "does not rewrite are applied by the framework there (default: this Python, "
                        "when it can import OpenCompass)")
    parser.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                        help="the most one pair's extraction (or a config's load) may take (default 60)")
    return parser


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.rev and not args.against:
        parser.error("--rev needs --against CONFIG (the config to read at that revision)")
    if args.self_test:
        if args.against or args.config:
            parser.error("--self-test checks a config on its own: no --against or --config")
        if args.format == "html":
            parser.error("--format html is a run's report: --self-test writes json, text or markdown")
        return _self_test(args)
    if args.data:
        parser.error("--data is for --self-test (a run's predictions carry their gold)")
    from ..headless.extract_framework import framework_fallback
    from ..headless.extract_report import report, write_markdown, write_text
    from ..headless.extract_run import DEFAULT_TIMEOUT, extract_run, load_config
    from ..headless.formats.json_encoding import dumps
    from ..headless.revisions import RevisionError, materialize
    from ..loading.rows.framework_load import framework_python
    from .render import usage_error

    run_dir = Path(args.run_dir)
    if not (run_dir / "predictions").is_dir():
        what = "not found" if not run_dir.is_dir() else "has no predictions/ folder (not an OpenCompass run)"
        print(f"{run_dir}: run folder {what} (hint: give the timestamped folder under the work_dir)",
              file=sys.stderr)
        return EXIT_CONFIG
    config = args.config or _saved_config(run_dir)
    if config is None:
        print(f"{run_dir}: the run saved no config (configs/*.py) (hint: give --config FILE)",
              file=sys.stderr)
        return EXIT_CONFIG
    timeout = args.timeout or DEFAULT_TIMEOUT
    tree: Any = None
    try:
        mine = load_config(str(config), timeout, roots=args.config_root)
        against = None
        if args.against:
            if args.rev:
                tree = materialize(args.rev, [args.against], roots=args.config_root)
                roots = [tree.map_folder(r) for r in args.config_root]
                against = load_config(tree.map(args.against), timeout, f"{args.rev}:{args.against}",
                                      display=tree.display, roots=roots)
            else:
                against = load_config(args.against, timeout, roots=args.config_root)
        fallback = framework_fallback(framework_python("opencompass", args.framework_python), timeout)
        document = extract_run(run_dir, mine, timeout, against, fallback)
    except RevisionError as exc:
        return usage_error(parser.prog, str(exc))
    finally:
        if tree is not None:
            tree.cleanup()
    if args.format == "json":
        sys.stdout.write(dumps(document, indent=1) + "\n")
    elif args.format == "html":
        from ..headless.extract_html import write_html

        write_html(document, sys.stdout, args.wrong)
    elif args.format == "markdown":
        write_markdown(document, sys.stdout, args.wrong)
    else:
        write_text(document, sys.stdout, args.wrong)
    report(document, sys.stderr)
    if document["errors"]:
        return EXIT_CONFIG
    if any((p.get("against") or {}).get("flips") for p in document["pairs"]):
        return EXIT_DIFF
    return EXIT_OK


def _self_test(args: argparse.Namespace) -> int:
    from ..headless.extract_report import report, write_self_test
    from ..headless.extract_run import DEFAULT_TIMEOUT
    from ..headless.extract_self_test import run_self_test
    from ..headless.formats.json_encoding import dumps
    from ..loading.workspace import load_workspace

    workspace = load_workspace([args.run_dir], data=args.data, roots=args.config_root, timeout=args.timeout)
    document = run_self_test(workspace, args.run_dir, args.timeout or DEFAULT_TIMEOUT)
    if args.format == "json":
        sys.stdout.write(dumps(document, indent=1) + "\n")
    else:
        write_self_test(document, sys.stdout, args.format == "markdown")
    report(document, sys.stderr)
    if document["errors"]:
        return EXIT_CONFIG
    if any(c["correct"] is False for d in document["datasets"] for c in d["checks"]):
        return EXIT_DIFF
    return EXIT_OK


def _saved_config(run_dir: Path) -> Path | None:
    folder = run_dir / "configs"
    configs = sorted(folder.glob("*.py")) if folder.is_dir() else []
    return configs[-1] if configs else None
