"""Folders the workbench ships: the demo, the themes and the configs ``compare`` ships.

In a wheel they sit inside the package (``workbench/demo_data``, ``workbench/themes``: see
setup.py); in a checkout they are the top-level folders of the same names, their source.

May import: the standard library and the core (it shares loading's layer); not loading, views or a
front end.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def bundled(name: str) -> Path:
    """The shipped folder ``name`` (``demo_data``, ``themes`` or ``shipped_configs``)."""
    inside = Path(str(resources.files("workbench").joinpath(name)))
    if inside.is_dir():
        return inside
    return Path(__file__).resolve().parent.parent / name
