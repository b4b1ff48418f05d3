"""The layer contract in pyproject.toml (``[tool.importlinter]``), checked by import-linter.

Front ends on top, the pure core at the bottom, and inside the core render above the
inferencers, above models and retrievers, above templates and tokens, above the replicas,
above the shared data types (docs/development.md, "Layers"). A module that imports upwards,
even inside a function, breaks the build here with the import chain that does it.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _lint_imports() -> list[str]:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "importlinter.cli"]


def test_every_layer_contract_is_kept():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    done = subprocess.run([*_lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"Contracts: {len(contracts)} kept, 0 broken." in done.stdout, done.stdout[-2000:]
    for contract in contracts:
        assert f"{contract['name']} KEPT" in done.stdout


def test_the_contract_names_every_package_of_the_workbench():
    """A new top-level package, core subpackage or loading folder must be placed in a layer."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    named = {m.strip() for c in config["contracts"] if c["type"] == "layers"
             for layer in c["layers"] for m in layer.replace(":", "|").split("|")}
    package = ROOT / "workbench"
    top = {f"workbench.{p.stem}" for p in package.iterdir()
           if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    inner = {f"workbench.{folder}.{p.stem}" for folder in ("core", "loading") for p in (package / folder).iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    assert top | inner <= named, sorted((top | inner) - named)


def test_every_module_says_what_it_holds_and_may_import():
    """Every module of the package, front ends and ``__main__`` included, opens with a docstring
    that ends with a "May import:" paragraph; the core's package docstring lists its layers
    bottom up."""
    package = ROOT / "workbench"
    silent = []
    for path in sorted(package.rglob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if path == package / "core" / "__init__.py":
            assert doc and "bottom up" in doc
        elif not doc or "May import:" not in doc.split("\n\n")[-1]:
            silent.append(path.relative_to(package).as_posix())
    assert not silent, silent


def _function_imports(tree: ast.Module) -> list[ast.stmt]:
    """Imports inside functions, not those under ``if TYPE_CHECKING:`` (which never run)."""
    typing_only = {id(node) for branch in ast.walk(tree)
                   if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                   for node in ast.walk(branch)}
    return sorted((node for function in ast.walk(tree)
                   if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
                   for node in ast.walk(function)
                   if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in typing_only),
                  key=lambda node: node.lineno)


def test_every_import_inside_a_function_outside_the_core_says_why_it_is_lazy():
    """An import inside a function hides a dependency; outside the core each block of them is
    headed by a ``# lazy: why`` comment (start-up, an optional extra, a thread, a child process),
    so the next maintainer knows whether it may move to the top. In ``workbench/commands`` the
    reason is the package's rule, said once in its docstring (imported when the command runs,
    so ``--help`` stays quick): only another reason is written there."""
    package = ROOT / "workbench"
    silent = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] in ("core", "commands"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        previous_end = -1
        for node in _function_imports(ast.parse("\n".join(lines))):
            first = node.lineno - 1
            in_block = all(not line.strip() for line in lines[previous_end:first]) and previous_end >= 0
            said = "# lazy:" in lines[first] or lines[first - 1].strip().startswith("# lazy:")
            if not in_block and not said:
                silent.append(f"{path.relative_to(package).as_posix()}:{node.lineno}")
            previous_end = node.end_lineno or node.lineno
    assert not silent, silent
