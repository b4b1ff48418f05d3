"""``workbench [CONFIG...]``: the app, on the configs or the bundled demo.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import COMMANDS, EXIT_USAGE, commands_help
from .common import HelpFormatter, add_inputs, demo_config, lmeval_problem, lmeval_settings, open_pitfalls


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        usage="workbench [CONFIG...] [options]   (the app)\n       workbench COMMAND ...",
        description="See exactly what OpenCompass / AISBench prompt configs send to a model. With no "
        "command, opens the app on the configs (no config: the bundled demo).",
        epilog=commands_help() + "\n\nIn the app, press ? for every key. workbench --version prints the "
        "version. In CI, run snapshot --check and verify with --strict: a warning that the real run "
        "differs from what is shown, or fails, is then an error (docs/ci.md).\n"
        "example: workbench configs/eval_gsm8k.py --data gsm8k=data/gsm8k/test.jsonl",
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
    # lazy: the app's session is imported only when the app opens, so --help stays quick
    from ..tui.session import Inputs

    return Inputs(configs=tuple(args.configs or [str(demo_config())]), data=tuple(args.data),
                  models=tuple(args.models), roots=tuple(args.config_root),
                  chat_template=args.chat_template, timeout=args.timeout,
                  framework_python=args.framework_python, run=args.run,
                  embedding_model=args.embedding_model, judge=args.judge,
                  judge_models=tuple(args.judge_model), lmeval=lmeval_settings(args))


def mistyped_command(word: str) -> str | None:
    """Why the first word is neither a command nor a config (None when it may be a config):
    a word with no folder and no file suffix that names nothing on disk."""
    if os.path.lexists(word) or os.sep in word or "/" in word or Path(word).suffix:
        return None
    import difflib  # lazy: only a mistyped word needs it, so --help does not load it

    close = difflib.get_close_matches(word, list(COMMANDS), n=1, cutoff=0.6)
    if close:
        return f"{word!r} is not a command (did you mean {close[0]!r}?)"
    return f"{word!r} is not a command, and there is no such file (commands: {', '.join(COMMANDS)})"


def unknown_theme(name: str) -> str | None:
    """Why ``--theme NAME`` names no theme, with the ones there are (None when it exists)."""
    # lazy: Textual loads only when a theme is checked or the app opens
    import difflib

    from textual.theme import BUILTIN_THEMES

    from ..core.inert_text import visible
    from ..tui.themes import bundled_themes_dir, load_themes, user_themes_dir

    themes, _ = load_themes([bundled_themes_dir(), user_themes_dir()])
    names = sorted({*themes, *BUILTIN_THEMES})
    if name in names:
        return None
    close = difflib.get_close_matches(name, names, n=1)
    guess = f"did you mean {close[0]!r}? " if close else ""
    return f"--theme {visible(name)!r}: no such theme ({guess}themes: {', '.join(names)})"


def run(argv: Sequence[str], web: bool = False) -> int:
    """The app on this terminal; ``web``: in a browser tab of ``serve`` (pipes, no terminal)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    problem = open_pitfalls(args) or lmeval_problem(args)
    if problem:
        print(f"workbench: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if args.configs:
        problem = mistyped_command(args.configs[0])
        if problem:
            from ..core.inert_text import visible

            print(f"workbench: error: {visible(problem)}", file=sys.stderr)
            return EXIT_USAGE
    if args.theme is not None:
        problem = unknown_theme(args.theme)
        if problem:
            print(f"workbench: error: {problem}", file=sys.stderr)
            return EXIT_USAGE
    if not web and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("workbench: error: the app needs a terminal (stdin and stdout); without one, "
              "use `workbench render CONFIG` (see workbench --help)", file=sys.stderr)
        return EXIT_USAGE
    # lazy: only the app needs these, so --help and a usage error stay quick
    from ..loading.config.worker import prestart_for

    # the config worker boots and runs the first config on the other CPU while this one
    # imports the rest
    prestart_for((args.configs or [str(demo_config())])[0], args.config_root, args.timeout)
    # lazy: as above, imported once the worker has been asked for the first config
    from concurrent.futures import ThreadPoolExecutor

    from ..tui.session import load
    from ..views.options import ViewOptions

    inputs = inputs_of(args)
    # Load while Textual imports and paints its first frame: they take about as long.
    preload = ThreadPoolExecutor(1).submit(load, inputs, 0, ViewOptions(root=inputs.root()), tree=False)
    # lazy: Textual loads only when the app opens
    from ..tui.app import create_app

    app = create_app(inputs, theme=args.theme, watch=not args.no_watch, preload=preload)
    app.run()
    return app.return_code or 0
