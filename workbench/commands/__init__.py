"""One module per ``workbench`` command; ``workbench.cli`` only dispatches.

Each module defines ``build_parser()`` and ``run(argv) -> int``. Imports stay inside
``run`` so ``--help`` is fast and headless commands never import Textual.  Nothing
imports this package but ``workbench.cli``, which dispatches through ``COMMANDS``.

The lazy rule, said once for the package: an import inside a function here is imported when
the command runs, so ``--help`` stays quick (tests/project/test_layers.py exempts this package
from the ``# lazy: why`` comment; an import lazy for another reason, an optional extra, a
thread, still says why).

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

EXIT_OK, EXIT_DIFF, EXIT_USAGE, EXIT_CONFIG = 0, 1, 2, 3

# command name -> (module under workbench.commands, what it does in one line, for --help)
COMMANDS = {
    "render": ("render", "render configs headless: JSON, text, markdown, HTML or SVG"),
    "snapshot": ("snapshot", "write prompt snapshots, or --check them in CI"),
    "diff": ("diff", "what a config change (or a git revision) does to the prompts"),
    "compare": ("compare", "one benchmark's rows through OpenCompass/AISBench and lm-eval, side by side"),
    "verify": ("verify", "compare the prompts a finished run recorded with a render"),
    "extract": ("extract", "what the evaluation extracts from a run's predictions, and the verdicts"),
    "lint": ("lint", "find prompt bugs before the run: seams, role tags, few-shot leaks (ruff-like)"),
    "serve": ("serve", "the app in a browser, for a team on a shared machine"),
}


def commands_help() -> str:
    """Every command, one line each (the app's --help ends with it)."""
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    return "commands (workbench COMMAND --help for each):\n" + "\n".join(lines)
