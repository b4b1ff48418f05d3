"""The core computes from data: no file system, clock, environment or process (DESIGN.md, layer 1).

Everything from a user's disk (model folders, chat template files, tokenizers, caches, the
working directory, environment variables) and everything from the machine (today's date, the
real ``realpath``) comes through ``workbench/loading``, which passes it in.  This scans the
syntax tree of every module under ``workbench/core`` (subpackages included) for the imports,
calls and attributes that would reach past it.  The one exception is
``core/package_data.py``, which reads files bundled with the package (the built-in chat
templates, the replicas' generated tables) through ``importlib.resources``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "workbench" / "core"

#: Modules whose only purpose is I/O, the clock or the process: not imported at all.
FORBIDDEN_MODULES = {
    "os", "pathlib", "io", "subprocess", "shutil", "tempfile", "glob", "fileinput", "socket",
    "urllib.request", "http.client", "http.server", "time", "platform", "getpass", "multiprocessing", "resource", "signal",
    "importlib", "mmap", "sqlite3", "fcntl", "select", "ctypes", "webbrowser",
}
#: Methods and attributes that touch the file system, the clock, the process or its environment.
FORBIDDEN_ATTRIBUTES = {
    "read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "glob", "rglob", "is_file",
    "is_dir", "exists", "isfile", "isdir", "stat", "lstat", "listdir", "scandir", "environ",
    "getenv", "getcwd", "getcwdb", "cwd", "home", "expanduser", "from_file", "realpath",
    "now", "utcnow", "today", "argv", "stdin", "stdout", "stderr", "getpid", "popen", "system",
}
#: Names too common to forbid on any object: forbidden on ``os`` only.
FORBIDDEN_OS_ATTRIBUTES = {"walk"}
FORBIDDEN_CALLS = {"open", "input", "print", "breakpoint", "__import__", "getcwd", "getenv"}
FORBIDDEN_IMPORTS = {("os", "environ"), ("os", "getcwd"), ("os", "getenv"), ("io", "open"),
                     ("datetime", "date")}
#: module (path under core/) -> the forbidden names it may use, and why
ALLOWED = {
    # files inside the package, through importlib.resources
    "package_data.py": {"importlib", "read_text"},
}


def core_modules() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(CORE).as_posix() if path.is_relative_to(CORE) else path.name


def _forbidden_module(name: str) -> str | None:
    return next((m for m in FORBIDDEN_MODULES if name == m or name.startswith(m + ".")), None)


def forbidden_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (
                node.attr in FORBIDDEN_ATTRIBUTES
                or (node.attr in FORBIDDEN_OS_ATTRIBUTES and isinstance(node.value, ast.Name)
                    and node.value.id == "os")):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            found.append((node.lineno, node.func.id))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, m) for alias in node.names if (m := _forbidden_module(alias.name))]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if m := _forbidden_module(node.module):
                found.append((node.lineno, m))
            found += [(node.lineno, alias.name) for alias in node.names
                      if (node.module, alias.name) in FORBIDDEN_IMPORTS]
    allowed = ALLOWED.get(_name(path), set())
    return [f"{_name(path)}:{line}: {name}" for line, name in sorted(found) if name not in allowed]


def test_the_scan_sees_every_core_module():
    names = {_name(p) for p in core_modules()}
    assert {"render.py", "package_data.py", "abbr.py", "models/model_text.py", "models/model_assets.py",
            "tokens/counting.py", "tokens/chat_sandbox.py", "retrievers/bm25.py", "models/wire/request.py",
            "replicas/nltk_tokenize.py"} <= names
    assert len(names) >= 50


@pytest.mark.parametrize("path", core_modules(), ids=_name)
def test_core_module_reaches_no_files_clock_or_environment(path):
    uses = forbidden_uses(path)
    assert not uses, "file, clock, process or environment access in the core (move it to " \
        "workbench/loading and pass the value in):\n" + "\n".join(uses)


def test_the_scan_catches_what_it_should(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nfrom os import environ\nfrom pathlib import Path\n"
        "open('x')\nPath('x').read_text()\nPath('x').is_file()\nos.environ.get('HOME')\n"
        "os.getcwd()\nPath('x').stat()\nlist(Path('.').iterdir())\nPath('x').exists()\n"
        "self.walk()\nos.walk('.')\n"
        "import time, subprocess\nfrom datetime import datetime, date\ndatetime.now()\n"
        "os.path.realpath('x')\nimport os.path\nprint('x')\nsys.argv\nfrom importlib import resources\n"
        "from . import os\nfrom .time import now_ish\nimport urllib.parse, urllib.request\n",
        encoding="utf-8")
    names = [use.rsplit(": ", 1)[1] for use in forbidden_uses(sample)]
    assert names == ["os", "environ", "os", "pathlib", "open", "read_text", "is_file", "environ", "getcwd",
                     "stat", "iterdir", "exists", "walk", "subprocess", "time", "date", "now", "realpath",
                     "os", "print", "argv", "importlib", "urllib.request"]
