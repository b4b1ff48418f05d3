"""Files shipped inside the package: the built-in chat templates (``tokens/builtin_chat_templates``)
and the replicas' generated tables (``replicas/data``), read with ``importlib.resources``.

The core reads nothing else: everything from a user's disk comes through the loader.
``tests/project/test_core_is_pure.py`` allows file access in this module only.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

from importlib import resources


def package_text(*parts: str) -> str:
    """A text file bundled with ``workbench.core``, by its path parts (``"replicas", "data", name``)."""
    return resources.files(__package__).joinpath(*parts).read_text(encoding="utf-8")
