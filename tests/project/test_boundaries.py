"""Layering rules from DESIGN.md, enforced: the core and headless paths never import the UI."""

from __future__ import annotations

import subprocess
import sys

UI_MODULES = ("textual", "rich", "watchfiles")


def imported_after(statement: str) -> set[str]:
    code = (
        f"import sys\n{statement}\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_core_imports_no_ui():
    loaded = imported_after(  # every module of the core, subpackages included
        "import importlib, pkgutil, workbench.core as core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'workbench.core.'): importlib.import_module(m.name)"
    )
    assert not loaded & set(UI_MODULES), loaded & set(UI_MODULES)


def test_headless_render_imports_no_textual():
    loaded = imported_after(
        "import workbench.cli, workbench.loading.workspace, workbench.headless.formats.json_export"
    )
    assert "textual" not in loaded and "watchfiles" not in loaded


def test_the_core_does_no_io_imports():
    loaded = imported_after("import workbench.core.render")
    assert not loaded & {"subprocess", "socket", "multiprocessing"}, loaded
