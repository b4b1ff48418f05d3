"""Dev-only: rank the dataset classes by how many shipped OpenCompass dataset configs use them.

A config "uses" a class when one of its dataset dicts (a ``dict(...)`` or ``{...}`` with a
``reader_cfg`` key, or an ``abbr``/``path`` and a ``type`` named ``...Dataset...``) names it in
``type=``, or when a file it imports in ``read_base()`` does
(so ``gsm8k_gen.py``, which only imports ``gsm8k_gen_1d7fe4``, uses ``GSM8KDataset``). Files
are read with ``ast``, never run. Writes ``docs/data/dataset_class_ranking.json``
(read by tools/readers_doc.py, which writes docs/readers.md):

    $FWENV/bin/python tools/rank_dataset_classes.py [CONFIGS_DIR]
"""

from __future__ import annotations

import ast
import importlib.metadata
import sys
from collections import Counter
from functools import cache
from pathlib import Path

from _shared import REPO, write_json

OUT = REPO / "docs" / "data" / "dataset_class_ranking.json"


def default_configs() -> Path:
    import opencompass  # only the location of its shipped configs

    return Path(opencompass.__file__).parent / "configs" / "datasets"


def _type_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rsplit(".", 1)[-1]
    return None


def _dict_items(node: ast.AST) -> dict[str, ast.expr] | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return {kw.arg: kw.value for kw in node.keywords if kw.arg}
    if isinstance(node, ast.Dict):
        return {k.value: v for k, v in zip(node.keys, node.values)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return None


def _is_dataset_dict(items: dict[str, ast.expr], name: str) -> bool:
    """A dataset dict has a ``reader_cfg``, or is named for a dataset class and has an ``abbr``
    or ``path`` (some configs add ``reader_cfg`` later, by item assignment)."""
    if name.endswith("Evaluator"):
        return False
    return "reader_cfg" in items or ("Dataset" in name and bool({"abbr", "path"} & set(items)))


def _imported_files(tree: ast.Module, path: Path, root: Path) -> list[Path]:
    """The config files a ``with read_base():`` block imports (relative or ``opencompass.configs``)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.With):
            continue
        for stmt in ast.walk(node):
            if not isinstance(stmt, ast.ImportFrom) or not stmt.module:
                continue
            if stmt.level:
                base = path.parent
                for _ in range(stmt.level - 1):
                    base = base.parent
                target = base.joinpath(*stmt.module.split("."))
            elif stmt.module.startswith("opencompass.configs.datasets."):
                target = root.joinpath(*stmt.module.split(".")[3:])
            else:
                continue
            if target.with_suffix(".py").is_file():
                found.append(target.with_suffix(".py").resolve())
    return found


def make_ranker(root: Path):
    @cache
    def classes(path: Path) -> frozenset[str]:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names: set[str] = set()
        for node in ast.walk(tree):
            items = _dict_items(node)
            if items and "type" in items:
                name = _type_name(items["type"])
                if name and _is_dataset_dict(items, name):
                    names.add(name)
        for imported in _imported_files(tree, path, root):
            if imported != path:
                names |= classes(imported)
        return frozenset(names)

    return classes


def rank(root: Path) -> dict:
    files = sorted(p for p in root.rglob("*.py") if p.name != "__init__.py")
    classes = make_ranker(root.resolve())
    per_file = {str(p.relative_to(root)): sorted(classes(p.resolve())) for p in files}
    counts = Counter(name for names in per_file.values() for name in names)
    ranking = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return {
        "opencompass": importlib.metadata.version("opencompass"),
        "config_files": len(files),
        "classes_used": len(ranking),
        "files_without_dataset_class": sum(1 for names in per_file.values() if not names),
        "ranking": [{"class": name, "configs": count, "share": round(count / len(files), 4)}
                    for name, count in ranking],
        "files": per_file,
    }


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else default_configs()
    data = rank(root)
    write_json(OUT, data)
    print(f"{data['config_files']} files, {data['classes_used']} classes -> {OUT.relative_to(REPO)}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
