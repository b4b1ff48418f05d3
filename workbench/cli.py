"""The ``workbench`` command: the TUI by default, ``render`` for headless output.

Imports stay inside the commands so ``workbench render --help`` starts fast and no
headless path imports Textual.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

EXIT_OK, EXIT_DIFF, EXIT_USAGE, EXIT_CONFIG = 0, 1, 2, 3
COMMANDS = ("render",)


def demo_config() -> Path:
    """The bundled demo: ``demo_data/`` beside the package (a checkout or an install)."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "demo_data" / "eval_demo.py", here / "demo_data" / "eval_demo.py"):
        if candidate.is_file():
            return candidate
    return here.parent / "demo_data" / "eval_demo.py"


def _add_inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("configs", nargs="*", metavar="CONFIG",
                        help="OpenCompass/AISBench config files (default: the bundled demo)")
    parser.add_argument("--data", action="append", default=[], metavar="[ABBR=]FILE",
                        help="sample rows (.jsonl/.json/.csv) for every dataset, or for dataset "
                        "ABBR; repeatable")
    parser.add_argument("--models", action="append", default=[], metavar="FILE",
                        help="a config file whose `models` are rendered too; repeatable")
    parser.add_argument("--config-root", action="append", default=[], metavar="DIR",
                        help="a folder holding the opencompass/ or ais_bench/ package tree, for "
                        "read_base imports by package; repeatable (also WORKBENCH_CONFIG_ROOT)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="See exactly what OpenCompass / AISBench prompt configs send to a model.",
        epilog="commands: render (headless output; `workbench render --help`)",
    )
    _add_inputs(parser)
    return parser


def build_render_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench render",
        description="Render configs headless: every dataset × model pair, every sample.",
        epilog="exit status: 0 ok, 2 usage error, 3 config errors (details on stderr and in "
        "the JSON errors list)",
    )
    _add_inputs(parser)
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json: the render-json contract (default); text: the model inputs")
    parser.add_argument("--out", metavar="FILE", help="write here instead of stdout")
    return parser


def _load(args: argparse.Namespace):
    from .loading.workspace import load_workspace

    configs = args.configs or [str(demo_config())]
    return load_workspace(configs, data=args.data, model_files=args.models, roots=args.config_root)


def _report(workspace, result) -> None:
    for error in workspace.errors:
        line = error.located()
        if error.hint:
            line += f" (hint: {error.hint})"
        print(line, file=sys.stderr)
    for error in result.errors:
        where = error.file or "<config>"
        if error.line:
            where += f":{error.line}"
        pair = f"[{error.dataset} × {error.model or 'no model'}]"
        line = f"{where}: {pair} {error.message}"
        if error.hint:
            line += f" (hint: {error.hint})"
        print(line, file=sys.stderr)


def cmd_render(argv: Sequence[str]) -> int:
    args = build_render_parser().parse_args(argv)
    from .core.render import render_workspace
    from .core.result import PairError

    workspace = _load(args)
    result = render_workspace(workspace.datasets, workspace.models,
                              config=" ".join(args.configs) or str(demo_config()))
    for error in workspace.errors:
        result.errors.insert(0, PairError(None, None, error.message, error.file, error.line, error.hint))
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    try:
        if args.format == "json":
            from .export.json_export import write_render_json

            write_render_json(result, out)
        else:
            from .export.text_export import write_render_text

            write_render_text(result, out)
    finally:
        if args.out:
            out.close()
    workspace.errors = []
    _report(workspace, result)
    return EXIT_CONFIG if result.errors else EXIT_OK


def cmd_open(argv: Sequence[str]) -> int:
    """No command: the app (until it lands, the demo rendered as text)."""
    args = build_parser().parse_args(argv)
    render_args = [*args.configs]
    for flag, values in (("--data", args.data), ("--models", args.models),
                         ("--config-root", args.config_root)):
        for value in values:
            render_args += [flag, value]
    return cmd_render([*render_args, "--format", "text"])


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "render":
            return cmd_render(argv[1:])
        return cmd_open(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
