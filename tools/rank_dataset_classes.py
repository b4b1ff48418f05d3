"""Dev-only: which dataset classes the shipped OpenCompass dataset configs use, most used first.

Counts, over every config file under ``opencompass/configs/datasets`` of the installed
OpenCompass, the distinct dataset classes (subclasses of ``BaseDataset``, or ``HFDataset``)
named in ``type=`` of the file's dicts, and writes the ranking to
``docs/data/dataset_class_ranking.json`` (class, configs using it, share of all configs).
``docs/data.md``'s coverage table is made from it by ``tools/reader_coverage.py``.

    /work/fwenv/bin/python tools/rank_dataset_classes.py
"""

from __future__ import annotations

import ast
import collections
import importlib.metadata
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "docs" / "data" / "dataset_class_ranking.json"


def dataset_classes() -> set[str]:
    import opencompass.datasets as package
    from opencompass.datasets.base import BaseDataset

    names = set()
    for name in dir(package):
        value = getattr(package, name)
        if isinstance(value, type) and issubclass(value, BaseDataset) and value is not BaseDataset:
            names.add(name)
    return names


def types_named(path: Path) -> set[str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "type":
            if isinstance(node.value, ast.Name):
                found.add(node.value.id)
            elif isinstance(node.value, ast.Attribute):
                found.add(node.value.attr)
    return found


def main() -> int:
    import opencompass

    root = Path(opencompass.__file__).parent / "configs" / "datasets"
    files = sorted(p for p in root.rglob("*.py") if p.name != "__init__.py")
    classes = dataset_classes()
    counts: collections.Counter[str] = collections.Counter()
    for path in files:
        counts.update(types_named(path) & classes)
    ranking = [{"class": name, "configs": n, "share": round(n / len(files), 4)}
               for name, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"opencompass": importlib.metadata.version("opencompass"),
                               "config_files": len(files), "classes_used": len(ranking),
                               "ranking": ranking}, indent=1) + "\n", encoding="utf-8")
    print(f"{len(files)} configs, {len(ranking)} classes -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
