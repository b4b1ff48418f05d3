"""The core computes from data: it reads no files and no environment (DESIGN.md, layer 1).

Everything from a user's disk (model folders, chat template files, tokenizers, caches, the
working directory, environment variables) comes through ``workbench/loading``.  This scans
every core module's syntax tree for the calls that would reach past it.  The one exception
is ``core/package_data.py``, which reads files bundled with the package (the built-in chat
templates) through ``importlib.resources``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "workbench" / "core"

#: Methods and functions that touch the file system or the process environment.
FORBIDDEN_ATTRIBUTES = {
    "read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "glob", "rglob", "is_file",
    "is_dir", "exists", "isfile", "isdir", "stat", "lstat", "listdir", "scandir", "environ",
    "getenv", "getcwd", "getcwdb", "cwd", "home", "expanduser", "from_file",
}
#: Names too common to forbid on any object: forbidden on ``os`` only.
FORBIDDEN_OS_ATTRIBUTES = {"walk"}
FORBIDDEN_CALLS = {"open", "getcwd", "getenv"}
FORBIDDEN_IMPORTS = {("os", "environ"), ("os", "getcwd"), ("os", "getenv"), ("io", "open")}
#: module -> the forbidden names it may use, and why
ALLOWED = {
    "package_data.py": {"read_text"},  # files inside the package, through importlib.resources
}


def core_modules() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


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
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (node.module, alias.name) in FORBIDDEN_IMPORTS:
                    found.append((node.lineno, alias.name))
    allowed = ALLOWED.get(path.name, set())
    return [f"{path.name}:{line}: {name}" for line, name in sorted(found) if name not in allowed]


def test_the_scan_sees_every_core_module():
    names = {p.name for p in core_modules()}
    assert {"render.py", "model_text.py", "counting.py", "model_assets.py", "package_data.py", "bm25.py"} <= names


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: p.name)
def test_core_module_reads_no_files_and_no_environment(path):
    uses = forbidden_uses(path)
    assert not uses, "file or environment access in the core (move it to workbench/loading):\n" + \
        "\n".join(uses)


def test_the_scan_catches_what_it_should(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nfrom os import environ\nfrom pathlib import Path\n"
        "open('x')\nPath('x').read_text()\nPath('x').is_file()\nos.environ.get('HOME')\n"
        "os.getcwd()\nPath('x').stat()\nlist(Path('.').iterdir())\nPath('x').exists()\n"
        "self.walk()\nos.walk('.')\n",
        encoding="utf-8")
    names = [use.rsplit(": ", 1)[1] for use in forbidden_uses(sample)]
    assert names == ["environ", "open", "read_text", "is_file", "environ", "getcwd", "stat", "iterdir",
                     "exists", "walk"]
