"""Where ``read_base`` looks for framework packages: --config-root folders, then
``WORKBENCH_CONFIG_ROOT``. A module of its own, light to import, because the app asks the
config worker for its first config before the rest of the loader has been imported.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def config_roots(explicit: Iterable[str | os.PathLike] = ()) -> list[Path]:
    """--config-root folders first, then WORKBENCH_CONFIG_ROOT (os.pathsep-separated)."""
    roots = [Path(r) for r in explicit]
    env = os.environ.get("WORKBENCH_CONFIG_ROOT", "")
    roots += [Path(p) for p in env.split(os.pathsep) if p]
    return [Path(os.path.abspath(r)) for r in roots]
