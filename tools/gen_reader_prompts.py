"""Dev-only: record the prompt texts that NeedleBench's and LiveMathBench's loaders build rows
with, as package data for the native readers.

The prompts are f-strings inside each ``load()`` (one per language and question position), so
they are read from the installed modules' source with ``ast``, never run: each ``prompt = ...``
under ``if language == ...`` / ``if position == ...`` becomes a template whose ``{name}``
fields are the f-string's fields (a tuple of strings, as one branch writes, stays a list).
NeedleBench v2's ATC lists and prompts are module constants, read as they are.

LiveMathBench's ``PROMPT_EN`` / ``PROMPT_CN`` are module constants, read as they are; RULER's
templates are its loaders' ``template`` defaults.

    $FWENV/bin/python tools/gen_reader_prompts.py
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "workbench" / "loading" / "rows" / "readers" / "data"
OUT = DATA / "needlebench_prompts.json"
LIVEMATHBENCH_OUT = DATA / "livemathbench_prompts.json"
RULER_OUT = DATA / "ruler_templates.json"
RULER_CLASSES = ("RulerCweDataset", "RulerFweDataset", "RulerNiahDataset", "RulerQaDataset", "RulerVtDataset")
#: module → the function whose ``prompt = ...`` branches hold the prompt texts
PROMPT_FUNCTIONS = {
    "opencompass.datasets.needlebench.origin": "_generate_prompt",
    "opencompass.datasets.needlebench.multi": "_generate_prompt",
    "opencompass.datasets.needlebench_v2.origin": "_generate_prompt",
    "ais_bench.benchmark.datasets.needlebench_v2.multi": "_generate_prompt",
    "opencompass.datasets.needlebench.atc_choice": "load",
}
CONDITIONS = {"language", "position", "quesiton_position"}
V2_ATC = "opencompass.datasets.needlebench_v2.atc"
V2_ATC_CONSTANTS = (
    "relationship_generation_map_zh", "relationship_generation_map_en",
    "relationship_templates_zh_CN", "relationship_templates_en",
    "relationship_terms_zh_CN", "relationship_terms_en",
    "shuffled_story_with_prompt_zh_CN", "shuffled_story_with_prompt_en",
    "nth_ancestor_prompt_zh_CN", "nth_ancestor_prompt_en",
    "nth_descendant_prompt_zh_CN", "nth_descendant_prompt_en",
    "relationship_distance_prompt_zh_CN", "relationship_distance_prompt_en",
)


def template(node: ast.expr) -> Any:
    """An f-string as a template with ``{name}`` fields; a tuple as a list of them."""
    if isinstance(node, ast.Tuple):
        return [template(item) for item in node.elts]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value)
            elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name):
                parts.append("{" + value.value.id + "}")
            else:
                raise ValueError(f"unexpected f-string field at line {value.lineno}")
        return "".join(parts)
    raise ValueError(f"unexpected prompt expression at line {node.lineno}")


def _condition(test: ast.expr) -> tuple[str, str] | None:
    if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id in CONDITIONS
            and isinstance(test.ops[0], ast.Eq) and isinstance(test.comparators[0], ast.Constant)):
        name = "position" if test.left.id == "quesiton_position" else test.left.id
        return name, test.comparators[0].value
    return None


def branches(body: list[ast.stmt], where: dict[str, str], out: dict[str, Any],
             lists: dict[str, dict[str, Any]]) -> None:
    for stmt in body:
        if isinstance(stmt, ast.If):
            cond = _condition(stmt.test)
            branches(stmt.body, {**where, **dict([cond])} if cond else where, out, lists)
            branches(stmt.orelse, where, out, lists)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            if name == "prompt" and "language" in where and not (
                    isinstance(stmt.value, ast.Constant) and "not supported" in str(stmt.value.value)):
                key = where["language"] + ("/" + where["position"] if "position" in where else "")
                out[key] = template(stmt.value)
            elif name in ("relationship_terms", "relationship_templates") and "language" in where:
                lists.setdefault(name, {})[where["language"]] = ast.literal_eval(stmt.value)
        elif isinstance(stmt, ast.For | ast.While | ast.With | ast.FunctionDef):
            branches(stmt.body, where, out, lists)


def function(tree: ast.AST, name: str) -> ast.FunctionDef:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise LookupError(name)


def main() -> int:
    data: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass"),
                            "ais_bench": importlib.metadata.version("ais_bench_benchmark")}
    for module, name in PROMPT_FUNCTIONS.items():
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        prompts: dict[str, Any] = {}
        lists: dict[str, dict[str, Any]] = {}
        branches(function(tree, name).body, {}, prompts, lists)
        data[module] = {"prompts": prompts, **lists}
    atc = importlib.import_module(V2_ATC)
    data[V2_ATC] = {name: getattr(atc, name) for name in V2_ATC_CONSTANTS}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(data) - 2} modules -> {OUT}", file=sys.stderr)
    from opencompass.datasets.livemathbench import prompts

    livemath = {"opencompass": data["opencompass"], "en": prompts.PROMPT_EN, "cn": prompts.PROMPT_CN}
    LIVEMATHBENCH_OUT.write_text(json.dumps(livemath, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"LiveMathBench prompts -> {LIVEMATHBENCH_OUT}", file=sys.stderr)
    import inspect

    ruler = {"opencompass": data["opencompass"]}
    for name in RULER_CLASSES:
        # opencompass.datasets does not export them: each from its own module
        module = importlib.import_module(f"opencompass.datasets.ruler.ruler_{name[5:-7].lower()}")
        ruler[name] = inspect.signature(getattr(module, name).load).parameters["template"].default
    RULER_OUT.write_text(json.dumps(ruler, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"RULER templates -> {RULER_OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
