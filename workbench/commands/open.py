"""``workbench [CONFIG...]``: the app, on the configs or the bundled demo."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .common import HelpFormatter, add_inputs, demo_config


def build_parser() -> argparse.ArgumentParser:
    from ..cli import commands_help

    parser = argparse.ArgumentParser(
        prog="workbench",
        usage="workbench [CONFIG...] [options]   (the app)\n       workbench COMMAND ...",
        description="See exactly what OpenCompass / AISBench prompt configs send to a model. With no "
        "command, opens the app on the configs (no config: the bundled demo).",
        epilog=commands_help() + "\n\nIn the app, press ? for every key. workbench --version prints the "
        "version.\nexample: workbench configs/eval_gsm8k.py --data gsm8k=data/gsm8k/test.jsonl",
        formatter_class=HelpFormatter,
    )
    add_inputs(parser)
    parser.add_argument("--theme", metavar="NAME",
                        help="workbench-dark (default), workbench-light, workbench-high-contrast, "
                        "a Textual theme, or one from ~/.config/prompt-workbench/themes")
    parser.add_argument("--no-watch", action="store_true", help="do not reload when files change")
    return parser


def inputs_of(args: argparse.Namespace):
    """The app's inputs from the command line (every load of the session uses all of them)."""
    from ..tui.session import Inputs

    return Inputs(configs=tuple(args.configs or [str(demo_config())]), data=tuple(args.data),
                  models=tuple(args.models), roots=tuple(args.config_root),
                  chat_template=args.chat_template, timeout=args.timeout,
                  framework_python=args.framework_python, run=args.run,
                  embedding_model=args.embedding_model)


def run(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    from concurrent.futures import ThreadPoolExecutor

    from ..tui.session import load
    from ..views.options import ViewOptions

    inputs = inputs_of(args)
    # Load while Textual imports and paints its first frame: they take about as long.
    preload = ThreadPoolExecutor(1).submit(load, inputs, 0, ViewOptions(root=inputs.root()))
    from ..tui.app import create_app

    app = create_app(inputs, theme=args.theme, watch=not args.no_watch, preload=preload)
    app.run()
    return app.return_code or 0
