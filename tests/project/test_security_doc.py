"""SECURITY.md stays true: every file and test it points at exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "SECURITY.md").read_text(encoding="utf-8")


def _expand(path: str) -> list[str]:
    """``tests/x/{a,b}.py`` → both files."""
    match = re.search(r"\{([^}]*)\}", path)
    if not match:
        return [path]
    return [path[: match.start()] + part + path[match.end():] for part in match.group(1).split(",")]


def test_every_path_it_names_exists():
    paths = re.findall(r"`((?:workbench|tests)/[^`:\s]+)", DOC)
    assert len(paths) > 15
    for path in (p for raw in paths for p in _expand(raw)):
        assert (ROOT / path).exists(), f"SECURITY.md names {path}, which does not exist"


def test_every_test_it_names_exists():
    named = re.findall(r"`(tests/[^`:\s]+\.py)::(\w+)`", DOC)
    named += [(file, test) for file, tests in re.findall(r"`(tests/[^`:\s]+\.py)` \(`([^)]*)`\)", DOC)
              for test in re.findall(r"(test_\w+)", tests)]
    assert named
    for file, test in named:
        tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
        functions = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        assert test in functions, f"SECURITY.md names {file}::{test}, which does not exist"
