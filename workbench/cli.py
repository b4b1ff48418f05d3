"""The ``workbench`` command: dispatch to ``workbench.commands.<name>``.

No argument (or configs only) opens the app; ``render`` and the other commands are
headless. Each command module imports what it needs inside ``run`` so start-up stays
fast and headless paths never import Textual.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

# command name -> module under workbench.commands
COMMANDS = {"render": "render", "snapshot": "snapshot", "diff": "diff", "verify": "verify"}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    name = argv[0] if argv and argv[0] in COMMANDS else None
    module = importlib.import_module(f"workbench.commands.{COMMANDS[name] if name else 'open'}")
    try:
        return module.run(argv[1:] if name else argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
