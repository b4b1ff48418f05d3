"""The command that opens a file at a line in the user's editor.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

# editors that want FILE:LINE after a flag instead of +LINE FILE
_GOTO_FLAG = {"code": "-g", "code-insiders": "-g", "codium": "-g", "cursor": "-g", "subl": "", "zed": ""}


def editor_command(file: str | Path, line: int | None, editor: str | None = None) -> list[str]:
    """``$VISUAL``/``$EDITOR`` (else ``vi``) with the file and line in the form it understands."""
    editor = editor or os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    argv = shlex.split(editor)
    name = Path(argv[0]).name if argv else "vi"
    if name in _GOTO_FLAG:
        flag = _GOTO_FLAG[name]
        target = f"{file}:{line}" if line else str(file)
        return [*argv, *([flag] if flag else []), target]
    return [*argv, *([f"+{line}"] if line else []), str(file)]
