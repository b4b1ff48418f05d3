"""The ``workbench`` command: dispatch to ``workbench.commands.<name>``.

No argument (or configs only) opens the app; ``render`` and the other commands are
headless. Each command module imports what it needs inside ``run`` so start-up stays
fast and headless paths never import Textual.

May import: :mod:`workbench.commands` and every layer below it; it imports only the command table
and the one command it dispatches to. Not ``__main__``.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from collections.abc import Sequence

from .commands import COMMANDS


def version() -> str:
    # lazy: only --version reads the installed metadata; every other command skips it
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("prompt-workbench")
    except PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = dispatch(argv)
        sys.stdout.flush()  # here, where a failure is told in one line, not at exit
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader left (`| head`): nothing more to say
        _mute_stdout()
        return 0
    except OSError as exc:
        if exc.errno not in _OUTPUT_ERRORS:
            raise
        _mute_stdout()  # what is still buffered would fail again at exit, with a traceback
        print(f"workbench: cannot write the output: {exc.strerror}", file=sys.stderr)
        return 2
    except Exception as exc:  # a problem a lower layer words for the user, with its status
        status = getattr(exc, "exit_status", None)
        if not isinstance(status, int):
            raise
        print(f"workbench: error: {exc}", file=sys.stderr)
        return status


def dispatch(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["--version"], ["-V"]):
        print(f"prompt-workbench {version()}")
        return 0
    name = argv[0] if argv and argv[0] in COMMANDS else None
    _set_numpy_sort()
    module = importlib.import_module(f"workbench.commands.{COMMANDS[name][0] if name else 'open'}")
    return module.run(argv[1:] if name else argv)


def _set_numpy_sort() -> None:
    """Tied retriever scores ordered as the evaluation machine's numpy orders them."""
    # lazy: start-up (`--version` reads neither the CPU nor the core)
    from .core.replicas.numpy_argsort import set_numpy_sort
    from .loading.cpu import machine_sort

    sort, problem = machine_sort()
    set_numpy_sort(sort)
    if problem:
        print(f"workbench: warning: {problem}", file=sys.stderr)


#: Errors of writing the output (a full disk, /dev/full, a quota): told in one line, status 2.
_OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _mute_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
