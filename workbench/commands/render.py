"""``workbench render``: every dataset × model pair, every sample, headless."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import EXIT_CONFIG, EXIT_OK
from .common import add_inputs, demo_config, load, report_errors


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench render",
        description="Render configs headless: every dataset × model pair, every sample.",
        epilog="exit status: 0 ok, 2 usage error, 3 config errors (details on stderr and in "
        "the JSON errors list)",
    )
    add_inputs(parser)
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json: the render-json contract (default); text: the model inputs")
    parser.add_argument("--out", metavar="FILE", help="write here instead of stdout")
    return parser


def run(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    from ..core.render import render_workspace
    from ..core.result import PairError

    workspace = load(args)
    result = render_workspace(workspace.datasets, workspace.models,
                              config=" ".join(args.configs) or str(demo_config()))
    for error in reversed(workspace.errors):
        result.errors.insert(0, PairError(None, None, error.message, error.file, error.line, error.hint))
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    try:
        if args.format == "json":
            from ..export.json_export import write_render_json

            write_render_json(result, out)
        else:
            from ..export.text_export import write_render_text

            write_render_text(result, out)
    finally:
        if args.out:
            out.close()
    report_errors(result.errors)
    return EXIT_CONFIG if result.errors else EXIT_OK
