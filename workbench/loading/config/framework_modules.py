"""The modules each framework has, to say when a config imports one it lacks.

A config is run with framework imports stood in (nothing of the frameworks is imported), so an
import of a module the framework does not have would load silently; the framework's own load
(mmengine, lazy imports) succeeds too, and the run fails where it builds the name
(ModuleNotFoundError). AISBench 3.1.20260630's own ``mmlu_gen_5_shot_chat_prompt.py`` imports
``ais_bench.benchmark.utils.text_postprocessors``, which that version does not have. The table,
``data/framework_modules.json``, is written by ``tools/gen_framework_modules.py`` from the
installed frameworks; their ``configs`` trees are not in it (configs are files, read through
``read_base``).

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the views or the front ends.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


@cache
def _table() -> dict[str, tuple[str, frozenset[str]]]:
    text = resources.files(__package__).joinpath("data", "framework_modules.json").read_text("utf-8")
    table = json.loads(text)
    return {root: (entry["framework"], frozenset(entry["modules"])) for root, entry in table.items()}


def warm() -> None:
    """Read the table now (the config worker does, so that no forked load reads it again)."""
    _table()


def missing_module(name: str) -> str | None:
    """The framework (name and version) whose package ``name`` is under and which has no such
    module; None when it has one, or when ``name`` is not a framework module the table covers."""
    root = name.split(".", 1)[0]
    found = _table().get(root)
    if found is None or ".configs" in f".{name}":
        return None
    framework, modules = found
    return None if name in modules else framework
