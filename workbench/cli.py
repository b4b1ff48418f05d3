"""The ``workbench`` command: dispatch to ``workbench.commands.<name>``.

No argument (or configs only) opens the app; ``render`` and the other commands are
headless. Each command module imports what it needs inside ``run`` so start-up stays
fast and headless paths never import Textual.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

# command name -> (module under workbench.commands, what it does in one line, for --help)
COMMANDS = {
    "render": ("render", "render configs headless: JSON, text, markdown, HTML or SVG"),
    "snapshot": ("snapshot", "write prompt snapshots, or --check them in CI"),
    "diff": ("diff", "what a config change (or a git revision) does to the prompts"),
    "verify": ("verify", "compare the prompts a finished run recorded with a render"),
    "serve": ("serve", "the app in a browser, for a team on a shared machine"),
}


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("prompt-workbench")
    except PackageNotFoundError:
        return "unknown (not installed)"


def commands_help() -> str:
    """Every command, one line each (the app's --help ends with it)."""
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    return "commands (workbench COMMAND --help for each):\n" + "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["--version"], ["-V"]):
        print(f"prompt-workbench {version()}")
        return 0
    name = argv[0] if argv and argv[0] in COMMANDS else None
    module = importlib.import_module(f"workbench.commands.{COMMANDS[name][0] if name else 'open'}")
    try:
        return module.run(argv[1:] if name else argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
