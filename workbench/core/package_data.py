"""Files shipped inside the package (the built-in chat templates).

The core reads nothing else: everything from a user's disk comes through the loader.
``tests/project/test_core_is_pure.py`` allows file access in this module only.
"""

from __future__ import annotations

from importlib import resources


def package_text(*parts: str) -> str:
    """A text file bundled with ``workbench.core`` (e.g. ``builtin_chat_templates/chatml.jinja``)."""
    return resources.files(__package__).joinpath(*parts).read_text(encoding="utf-8")
