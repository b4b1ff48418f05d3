"""``workbench [CONFIG...]``: the app (until it lands, the configs rendered as text)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .common import add_inputs


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="See exactly what OpenCompass / AISBench prompt configs send to a model.",
        epilog="commands: render (headless output; `workbench render --help`)",
    )
    add_inputs(parser)
    return parser


def run(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    render_args = [*args.configs]
    for flag, values in (("--data", args.data), ("--models", args.models),
                         ("--config-root", args.config_root)):
        for value in values:
            render_args += [flag, value]
    from . import render

    return render.run([*render_args, "--format", "text"])
