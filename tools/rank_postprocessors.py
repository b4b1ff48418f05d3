"""Dev-only: rank the answer postprocessors and evaluators by how many shipped OpenCompass dataset
configs use them (what ``workbench extract`` must implement natively first).

A config "uses" a postprocessor when one of its dicts under a ``pred_postprocessor`` or
``dataset_postprocessor`` key names it in ``type=`` (a function, a dotted string or a
``TEXT_POSTPROCESSORS`` key), directly or in a file it imports in ``read_base()``, as
tools/rank_dataset_classes.py counts dataset classes; an ``evaluator`` dict's ``type`` the same.
Files are read with ``ast``, never run. Writes ``docs/data/postprocessor_ranking.json`` (the
figures in docs/answers.md):

    $FWENV/bin/python tools/rank_postprocessors.py [CONFIGS_DIR]
"""

from __future__ import annotations

import ast
import importlib.metadata
import sys
from collections import Counter
from functools import cache
from pathlib import Path

from _shared import REPO, write_json
from rank_dataset_classes import _dict_items, _imported_files, _type_name, default_configs

sys.path.insert(0, str(REPO))

from workbench.core.answers.catalog import NATIVE, SEGMENTED, registry_keys

OUT = REPO / "docs" / "data" / "postprocessor_ranking.json"
KINDS = ("pred_postprocessor", "dataset_postprocessor", "evaluator")


def make_ranker(root: Path):
    @cache
    def used(path: Path) -> frozenset[tuple[str, str]]:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names: set[tuple[str, str]] = set()
        for node in ast.walk(tree):
            items = _dict_items(node)
            for kind in KINDS:
                inner = _dict_items(items[kind]) if items and kind in items else None
                if inner and "type" in inner:
                    name = _type_name(inner["type"])
                    if name:
                        names.add((kind, name))
        for imported in _imported_files(tree, path, root):
            if imported != path:
                names |= used(imported)
        return frozenset(names)

    return used


def rewritten(name: str) -> bool:
    """Whether ``extract`` has a native rewrite of the function a config's ``type`` names."""
    path = registry_keys().get(name, name)
    return any(p.rsplit(".", 1)[-1] == path.rsplit(".", 1)[-1] for p in [*NATIVE, *SEGMENTED])


def rank(root: Path) -> dict:
    files = sorted(p for p in root.rglob("*.py") if p.name != "__init__.py")
    used = make_ranker(root.resolve())
    per_file = {str(p.relative_to(root)): sorted(used(p.resolve())) for p in files}
    document: dict = {"opencompass": importlib.metadata.version("opencompass"), "config_files": len(files)}
    for kind in KINDS:
        counts = Counter(name for names in per_file.values() for k, name in names if k == kind)
        document[kind] = [{"name": name, "configs": count, "rewritten": rewritten(name) if kind != "evaluator"
                           else None}
                          for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
        document[f"files_with_{kind}"] = sum(1 for names in per_file.values()
                                             if any(k == kind for k, _ in names))
    with_any = [names for names in per_file.values() if any(k != "evaluator" for k, _ in names)]
    document["files_with_a_postprocessor"] = len(with_any)
    document["files_every_postprocessor_rewritten"] = sum(
        1 for names in with_any if all(rewritten(n) for k, n in names if k != "evaluator"))
    return document


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else default_configs()
    data = rank(root)
    write_json(OUT, data)
    print(f"{data['config_files']} files -> {OUT.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
