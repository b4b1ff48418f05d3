"""Every import the code makes is a declared dependency: nothing comes in by accident.

``workbench/`` imports at module level only what ``dependencies`` lists; what it imports inside a
function (an optional feature) is in an extra, and so is what a module imports that the package
only ever loads on demand (from inside a function, after checking the extra is there).  The tests and the benchmarks import what the
``test`` extra (or the package) brings; inside a function, an extra's package (the tests that
need it skip without it).  ``tools/`` is dev-only and runs in the frameworks' own venv.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
# Folders of configs and rows the tests load as data (their imports are the frameworks', which the
# loader stands in for; an lm-eval task's utilities, run in the config worker), not code the tests run.
DATA_FOLDERS = ("tests/parity/cases", "tests/parity/data/judge_configs", "tests/loading/broken",
                "tests/tui/fixtures", "tests/verify/fixture", "benchmarks/suite", "tests/parity/lmeval/tasks",
                "tests/parity/lmeval/shipped")
# Modules the tests put on sys.path themselves.
LOCAL_MODULES = {"tokenizer_fixture"}
FIRST_PARTY = {"workbench", "tests", "benchmarks", "__future__"}


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names(requirements: list[str]) -> set[str]:
    return {normalized(re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0]) for r in requirements}


CORE = requirement_names(PROJECT["dependencies"])
EXTRAS = {name: requirement_names(reqs) for name, reqs in PROJECT["optional-dependencies"].items()}
ANY_EXTRA = set().union(*EXTRAS.values())
DISTRIBUTIONS = packages_distributions()


def distributions_of(module: str) -> set[str]:
    """The distributions that provide a top-level module (its own name, when not installed)."""
    return {normalized(d) for d in DISTRIBUTIONS.get(module, [])} or {normalized(module)}


def third_party_imports(path: Path) -> Iterator[tuple[str, bool, int]]:
    """(top-level module, imported inside a function, line) for each absolute import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lazy: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lazy.update(id(inner) for inner in ast.walk(node) if inner is not node)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or top in FIRST_PARTY or top in LOCAL_MODULES:
                continue
            yield top, id(node) in lazy, node.lineno


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py")
                  if not any(p.relative_to(ROOT).as_posix().startswith(d + "/") for d in DATA_FOLDERS))


def undeclared(paths: list[Path], eager: set[str], lazy: set[str]) -> list[str]:
    found = []
    for path in paths:
        for module, inside_function, line in third_party_imports(path):
            allowed = lazy if inside_function else eager
            if not distributions_of(module) & allowed:
                found.append(f"{path.relative_to(ROOT)}:{line}: {module}")
    return found


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def eagerly_imported(paths: list[Path]) -> set[str]:
    """The package's modules some other module imports at module level (package __init__s are
    loaded with any of their modules, so they count as eager)."""
    found = {module_of(p) for p in paths if p.name == "__init__.py"}
    for path in paths:
        package = module_of(path).split(".")
        if path.name != "__init__.py":
            package = package[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lazy = {id(inner) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                for inner in ast.walk(node) if inner is not node}
        for node in ast.walk(tree):
            if id(node) in lazy:
                continue
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join([*base, *(node.module.split(".") if node.module else [])])
                found |= {module, *(f"{module}.{alias.name}" for alias in node.names)}
    return found


def test_the_package_imports_only_declared_dependencies():
    paths = sources("workbench")
    assert len(paths) > 100
    eager = eagerly_imported(paths)
    always = [p for p in paths if module_of(p) in eager]
    on_demand = [p for p in paths if module_of(p) not in eager]
    assert undeclared(always, CORE, CORE | ANY_EXTRA) == []
    assert undeclared(on_demand, CORE | ANY_EXTRA, CORE | ANY_EXTRA) == []


def test_tests_and_benchmarks_import_only_what_the_test_extra_brings():
    paths = sources("tests", "benchmarks")
    assert len(paths) > 50
    assert undeclared(paths, CORE | EXTRAS["test"], CORE | ANY_EXTRA) == []


def test_pytest_plugins_the_tests_use_are_in_the_test_extra():
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources("tests"))
    assert "pytest.mark.anyio" in text and "anyio" in EXTRAS["test"]
    assert "snap_compare" in text and "pytest-textual-snapshot" in EXTRAS["test"]
    assert "from hypothesis" in text and "hypothesis" in EXTRAS["test"]


def test_the_scan_sees_what_it_should():
    """The scan itself: a lazy import of an extra's package and an eager one are told apart."""
    imports = list(third_party_imports(ROOT / "workbench" / "loading" / "models" / "embeddings.py"))
    assert ("sentence_transformers", True) in [(m, lazy) for m, lazy, _ in imports]
    assert undeclared([ROOT / "workbench" / "loading" / "models" / "embeddings.py"], CORE, CORE) != []
    app = list(third_party_imports(ROOT / "workbench" / "tui" / "app.py"))
    assert ("textual", False) in [(m, lazy) for m, lazy, _ in app]
    eager = eagerly_imported(sources("workbench"))
    assert {"workbench.core.render", "workbench.tui.widgets.main.footer", "workbench.commands"} <= eager
    assert "workbench.commands.verify" not in eager  # cli.py loads each command on demand
