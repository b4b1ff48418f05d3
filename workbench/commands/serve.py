"""``workbench serve [CONFIG...]``: the app in a browser, through textual-serve.

Each browser tab that connects gets its own app process (``python -m
workbench.commands.serve`` with the app's own arguments), which textual-serve talks to
over pipes. The server gives an app only to the page it served itself, starts at most
``--max-apps`` of them and clamps the terminal size a page asks for (``serve_limits``).
An app ends when its tab goes, however it goes: asked to quit, it is ended by a deadline
if its event loop does not get to it (``serve_driver``); it also watches its parent, so a
server that dies takes its apps with it; and the server ends what is left when it stops.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import socket
import sys
import threading
from collections.abc import Sequence
from typing import Any

from . import EXIT_USAGE
from .common import HelpFormatter, add_inputs, lmeval_problem
from .serve_limits import DEFAULT_MAX_APPS, MAX_COLUMNS, MAX_ROWS, is_local

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8000
#: Options of ``serve`` itself: everything else on its command line goes to each app.
SERVE_OPTIONS = {"--host": True, "--port": True, "--allow-remote": False, "--max-apps": True}
#: The driver each app runs with (read by Textual when it is imported, so named, not imported).
SERVED_DRIVER = "workbench.commands.serve_driver:ServedDriver"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench serve",
        description="Serve the app to a browser: every tab gets its own live app on the configs "
        "(live reload, themes and keys as in the terminal).",
        epilog="Binds to 127.0.0.1 (this machine only) unless --host names another address, which "
        "needs --allow-remote: anyone who can reach the port can read the configs, with no password. "
        "Only the page the server served gets an app (a websocket from another site's page is refused); "
        f"a page's terminal is at most {MAX_COLUMNS}x{MAX_ROWS} cells.\n"
        "exit status: 0 stopped with Ctrl+C, 2 usage error (a port in use, a missing extra)\n"
        "example: workbench serve configs/eval_gsm8k.py --port 8080",
        formatter_class=HelpFormatter,
        allow_abbrev=False,  # serve's own options are taken off the app's command line by name
    )
    add_inputs(parser)
    parser.add_argument("--theme", metavar="NAME", help="the app's theme (as for `workbench`)")
    parser.add_argument("--no-watch", action="store_true", help="do not reload when files change")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT})")
    parser.add_argument("--allow-remote", action="store_true",
                        help="allow a --host other machines can reach (prints a warning)")
    parser.add_argument("--max-apps", type=int, default=DEFAULT_MAX_APPS, metavar="N",
                        help=f"at most N apps at once, one per open tab (default {DEFAULT_MAX_APPS}); "
                        "a tab over the limit gets a page saying so")
    return parser


def app_argv(argv: Sequence[str]) -> list[str]:
    """The command line minus serve's own options: what each app is started with."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name, eq, _ = arg.partition("=")
        if name in SERVE_OPTIONS:
            skip = SERVE_OPTIONS[name] and not eq
            continue
        out.append(arg)
    return out


def port_problem(host: str, port: int) -> str | None:
    """Why the server cannot listen on ``host:port`` (None: it can), found by binding it once."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"--host {host}: not an address of this machine ({exc.strerror})"
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as probe:
            if os.name == "posix":  # as aiohttp binds: a port in TIME_WAIT is free to take
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return f"port {port} on {host} is in use (hint: --port N picks another)"
                if exc.errno in (errno.EACCES, errno.EPERM):
                    return f"port {port} on {host}: permission denied (hint: a port above 1023)"
                return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def usage_error(message: str) -> int:
    print(f"workbench serve: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    problem = lmeval_problem(args)
    if problem:
        return usage_error(problem)
    if not 0 < args.port < 65536:
        return usage_error(f"--port {args.port}: a port is 1 to 65535")
    if args.max_apps < 1:
        return usage_error(f"--max-apps {args.max_apps}: at least one app must be able to run")
    if not is_local(args.host) and not args.allow_remote:
        return usage_error(f"--host {args.host} can be reached from other machines, and anyone who reaches "
                           "the port can read the configs (hint: add --allow-remote to serve it anyway)")
    try:
        from .serve_server import WorkbenchServer  # lazy: the serve extra, imported only to serve
    except ImportError:
        from ..core.extras import install_hint  # lazy: only this message needs it

        return usage_error(f"serving needs the textual-serve package (hint: {install_hint('serve')})")
    problem = port_problem(args.host, args.port)
    if problem is not None:
        return usage_error(problem)
    if not is_local(args.host):
        print(f"workbench serve: warning: listening on {args.host}:{args.port}: anyone who can reach this "
              "port can read the configs (and the files they name); there is no password", file=sys.stderr)
    # `exec`: the app replaces the shell textual-serve starts it with, so the app's parent is
    # the server itself (its watch on the parent then sees the server go)
    command = "exec " + shlex.join([sys.executable, "-m", "workbench.commands.serve", *app_argv(argv)])
    server = WorkbenchServer(command, host=args.host, port=args.port, max_apps=args.max_apps,
                             local_only=is_local(args.host),
                             title="Prompt Workbench · " + (" ".join(args.configs) or "demo"))
    try:
        server.serve()
    except OSError as exc:  # lost the port between the check and the bind
        return usage_error(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    return 0


# -- the app process each browser tab gets ------------------------------------------------


def _watch_parent(parent: int, stop: Any) -> None:
    """End this app when the server that started it is gone (its pipes would never close)."""
    # lazy: only the app's child process needs it, so --help stays quick
    import signal

    from .serve_driver import end_soon

    while not stop.wait(0.5):
        if os.getppid() != parent:
            end_soon()  # ended by the deadline if the quit below is never read
            os.kill(os.getpid(), signal.SIGTERM)  # the driver turns it into a clean quit
            return


def child(argv: Sequence[str]) -> int:
    """One browser tab's app: the ``workbench`` app, watched so that it never outlives the tab."""
    os.environ["TEXTUAL_DRIVER"] = SERVED_DRIVER  # before Textual is imported, which reads it
    # lazy: only the app's child process needs them, so --help stays quick
    from .open import run as run_app
    from .serve_driver import end_soon

    stop = threading.Event()
    threading.Thread(target=_watch_parent, args=(os.getppid(), stop), daemon=True).start()
    try:
        code = run_app(argv, web=True)
    finally:
        stop.set()
    end_soon(code)  # a worker thread still running would keep the process alive
    return code


if __name__ == "__main__":
    sys.exit(child(sys.argv[1:]))
