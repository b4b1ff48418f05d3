"""Write the module table of each framework: which ``opencompass.*`` / ``ais_bench.*`` modules
OpenCompass 0.5.4 and AISBench 3.1.20260630 have, so a config that imports one they lack is
said (it loads, and the run fails where it builds that name; issue 27, item 8).

Reads the installed packages' files (runs none of their code) and writes
``workbench/loading/config/data/framework_modules.json``. The ``configs`` trees are left out:
configs are files the loader reads through ``read_base``, not modules it checks.

Run with ``$FWENV/bin/python tools/gen_framework_modules.py``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

from _shared import REPO, write_json

OUT = REPO / "workbench" / "loading" / "config" / "data" / "framework_modules.json"
PACKAGES = {"opencompass": ("opencompass", "OpenCompass"), "ais_bench": ("ais_bench_benchmark", "AISBench")}


def modules(root: str) -> list[str]:
    spec = importlib.util.find_spec(root)
    assert spec is not None and spec.submodule_search_locations, root
    base = Path(next(iter(spec.submodule_search_locations))).parent
    found = set()
    for path in sorted((base / root).rglob("*.py")):
        parts = path.relative_to(base).with_suffix("").parts
        if "configs" in parts or any(not p.isidentifier() for p in parts):
            continue
        found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return sorted(found)


def main() -> None:
    table = {}
    for root, (dist, name) in PACKAGES.items():
        version = importlib.metadata.version(dist)
        table[root] = {"framework": f"{name} {version}", "modules": modules(root)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    write_json(OUT, table)
    counts = ", ".join(f"{root} {len(entry['modules'])}" for root, entry in table.items())
    print(f"wrote {OUT.relative_to(REPO)}: {counts}")


if __name__ == "__main__":
    main()
