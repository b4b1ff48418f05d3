"""Dev-only: hold the workbench to lm-eval 0.4.13 on shipped tasks no parity case has.

Two steps, two venvs (nothing is written under ``tests/``; DIR is a scratch folder):

    $LMEVAL_VENV/bin/python tools/sweep_lmeval.py make DIR [--count N] [--seed S]
    .venv/bin/python tools/sweep_lmeval.py check DIR

``make`` picks N task YAMLs at random (seeded) among those lm-eval 0.4.13 ships (a top-level
``task:`` that is a name, not a group), copies each one's folder into ``DIR/<case>/task/``
(its includes and ``utils.py`` come along), writes synthetic docs for every split the task
names, and records what lm-eval builds for them (``golden.json``: every Instance's arguments,
or the exception lm-eval raises), with ``tools/gen_lmeval_goldens.py``'s ``golden``. The docs
hold the columns the task reads: the names its Jinja templates use (typed by how they are
used: ``x.text`` makes ``x`` a dict of lists, ``x[0]`` or ``for c in x`` a list), and the
``doc["name"]`` its Python functions read; their text is edge cases (line breaks, trailing
blanks, braces, non-ASCII). Every third case applies the parity cases' ChatML template, every
other one asks for 2 shots.

``check`` renders each case as ``tests/parity/test_lmeval_parity.py`` does (through the
config worker) and compares every request byte for byte, printing a line per case and the
first difference; exit 1 on any. A case where lm-eval raises must be an error here too. A
difference found this way becomes a parity case (``tests/parity/lmeval/cases.py``) with the fix.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _shared import check_step

ROOT = Path(__file__).resolve().parent.parent
LMEVAL_CASES = ROOT / "tests" / "parity" / "lmeval"
CHAT = LMEVAL_CASES / "chat" / "chatml"

#: The fields whose templates read a doc.
TEMPLATED = ("doc_to_text", "doc_to_target", "doc_to_choice", "gen_prefix", "description")
SPLITS = ("test_split", "validation_split", "training_split", "fewshot_split")


def _shipped_tasks() -> list[Path]:
    import lm_eval

    root = Path(lm_eval.__file__).parent / "tasks"
    found = []
    for path in sorted(root.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8", errors="replace")
        named = re.search(r"^task:\s*['\"]?[\w.-]+['\"]?\s*$", text, re.M)
        if named and not re.search(r"^group:", text, re.M):
            found.append(path)
    return found


def _uses(template: str) -> dict[str, set[str]]:
    """How a Jinja template uses each doc column: ``attr:NAME``, ``index``, ``key:NAME``,
    ``list`` (iterated, filtered as a sequence) or ``text``."""
    import jinja2
    from jinja2 import nodes

    uses: dict[str, set[str]] = {}
    try:
        tree = jinja2.Environment().parse(template)
    except jinja2.TemplateSyntaxError:
        return uses
    declared = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
    kinds = (nodes.Getattr, nodes.Getitem, nodes.Call, nodes.For, nodes.Filter, nodes.Name)
    for node in tree.find_all(kinds):
        if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name):
            if node.attr not in ("split", "strip", "replace", "lower", "upper", "startswith", "endswith",
                                 "format", "lstrip", "rstrip", "index", "find", "count", "join", "title"):
                uses.setdefault(node.node.name, set()).add(f"attr:{node.attr}")
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Name):
            uses.setdefault(node.arg.name, set()).add("position")  # choices[label]: a position
            if isinstance(node.node, nodes.Name):
                uses.setdefault(node.node.name, set()).add("index")
        elif isinstance(node, nodes.Getitem) and isinstance(node.node, nodes.Name):
            arg = node.arg
            if isinstance(arg, nodes.Const) and isinstance(arg.value, str):
                uses.setdefault(node.node.name, set()).add(f"key:{arg.value}")
            elif not isinstance(arg, nodes.Slice):
                uses.setdefault(node.node.name, set()).add("index")
        elif isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr) and \
                node.node.attr == "index" and node.args and _name_of(node.args[0]):
            # LIST.index(answerKey): the value is one of LIST's (a constant list, or x.attr)
            receiver = node.node.node
            if isinstance(receiver, nodes.List | nodes.Tuple) and \
                    all(isinstance(item, nodes.Const) for item in receiver.items):
                member = "member=" + json.dumps([item.value for item in receiver.items])
            elif isinstance(receiver, nodes.Getattr) and isinstance(receiver.node, nodes.Name):
                member = f"member:{receiver.node.name}.{receiver.attr}"
            else:
                continue
            uses.setdefault(_name_of(node.args[0]), set()).add(member)  # type: ignore[arg-type]
        elif isinstance(node, nodes.For) and isinstance(node.iter, nodes.Name):
            uses.setdefault(node.iter.name, set()).add("list")
        elif isinstance(node, nodes.Filter) and isinstance(node.node, nodes.Name) and \
                node.name in ("join", "length", "list", "first", "last", "count"):
            uses.setdefault(node.node.name, set()).add("list")
        elif isinstance(node, nodes.Name) and node.ctx == "load":
            uses.setdefault(node.name, set())
    for name in declared | {"loop", "range", "true", "false", "none", "True", "False", "None",
                            "namespace", "lipsum", "dict", "cycler", "joiner"}:
        uses.pop(name, None)
    return uses


def _name_of(node: Any) -> str | None:
    """The column a Jinja expression is (``answerKey``, ``answerKey.lstrip()``), else None."""
    from jinja2 import nodes

    while isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr):
        node = node.node.node
    return node.name if isinstance(node, nodes.Name) else None


_DOC = r"\b(?:doc|example|x|d|sample|item)"


def _python_columns(folder: Path) -> dict[str, set[str]]:
    """The ``doc["name"]`` and ``doc.get("name")`` a task folder's Python reads, typed by how
    it reads them as :func:`_uses` types a template's: ``doc["x"]["k"]`` a dict, ``doc["x"][0]``
    or ``len(doc["x"])`` a list, ``int(doc["x"])`` or ``doc["x"] - 1`` a position."""
    found: dict[str, set[str]] = {}
    column = _DOC + r"\[\s*['\"]([\w -]+)['\"]\s*\]"
    typed = [  # (pattern, use): the pattern's first group the column, a second one a key
        (column + r"\[\s*['\"]([\w -]+)['\"]\s*\]", "key:"),
        (column + r"(?:\[\s*-?\d|\.keys|\.values|\.items)", "index"),
        (r"(?:len|sorted|enumerate|zip|list)\(\s*" + column, "list"),
        (r"int\(\s*" + column + r"\s*\)", "digits"),
        (column + r"\s*[-+]\s*\d", "position"),
    ]
    for path in folder.glob("*.py"):
        source = path.read_text(encoding="utf-8", errors="replace")
        for name in re.findall(column, source) + re.findall(_DOC + r"\.get\(\s*['\"]([\w -]+)['\"]", source):
            found.setdefault(name, set())
        for pattern, use in typed:
            for match in re.finditer(pattern, source):
                found[match.group(1)].add(use + match.group(2) if use == "key:" else use)
    return found


EDGES = [
    lambda col, r: f"{col} {r}",
    lambda col, r: f"{col} {r} line one\nline two\n",
    lambda col, r: f"{col} {r} trailing blanks   ",
    lambda col, r: f"{col} {r} {{braces}} {{{{ jinja }}}} }}{{",
    lambda col, r: f"{col} {r} café – “quotes” 数学",
    lambda col, r: f"\t{col} {r} indented\n  second",
    lambda col, r: f" {col} {r} leading blank",
]


def _value(col: str, uses: set[str], r: int, target: bool, doc: dict) -> Any:
    for use in uses:
        if use.startswith("member="):
            members = json.loads(use[7:])
            return members[r % len(members)]
        if use.startswith("member:"):
            name, attr = use[7:].split(".", 1)
            members = doc.get(name, {}).get(attr) if isinstance(doc.get(name), dict) else None
            if members:
                return members[r % len(members)]
    if "position" in uses:
        return r % 4
    if "digits" in uses:
        return str(r % 4)
    attrs = sorted(u[5:] for u in uses if u.startswith("attr:"))
    keys = sorted(u[4:] for u in uses if u.startswith("key:"))
    if attrs or keys:
        listed = ("text", "label", "choices", "options")
        return {name: [EDGES[(r + i) % len(EDGES)](f"{col}.{name}", i) for i in range(4)] if name in listed
                else EDGES[r % len(EDGES)](f"{col}.{name}", r) for name in attrs + keys}
    if "index" in uses or "list" in uses or col in ("choices", "options", "endings", "answers"):
        return [EDGES[(r + i) % len(EDGES)](f"{col} {i}", r) for i in range(4)]
    if target:
        return r % 4
    return EDGES[(r + len(col)) % len(EDGES)](col, r)


def _docs(config: dict, folder: Path) -> tuple[dict[str, list[dict]], dict[str, set[str]]]:
    """Docs for every split the task names, and the columns they hold."""
    uses: dict[str, set[str]] = {}
    fewshot = config.get("fewshot_config") if isinstance(config.get("fewshot_config"), dict) else {}
    sources = [config, fewshot]
    targets: set[str] = set()
    for source in sources:
        for field in TEMPLATED:
            value = source.get(field)
            if isinstance(value, str):
                if "{{" in value or "{%" in value:
                    for name, how in _uses(value).items():
                        uses.setdefault(name, set()).update(how)
                elif field != "description" and re.fullmatch(r"\w+", value) and not value.isdigit():
                    uses.setdefault(value, set())
                    if field == "doc_to_target":
                        targets.add(value)
    for name, how in _python_columns(folder).items():
        uses.setdefault(name, set()).update(how)
    if config.get("output_type") == "multiple_choice":
        target = config.get("doc_to_target")
        if isinstance(target, str) and re.fullmatch(r"\{\{\s*(\w+)\s*\}\}", target):
            targets.add(re.fullmatch(r"\{\{\s*(\w+)\s*\}\}", target).group(1))  # type: ignore[union-attr]
    else:
        targets.clear()
    splits = {config[k] for k in SPLITS if isinstance(config.get(k), str)}
    if isinstance(fewshot.get("split"), str):
        splits.add(fewshot["split"])
    if not splits:
        splits = {"test"}
    test = config.get("test_split") or config.get("validation_split")
    # members last: they are picked from the lists the doc holds
    order = sorted(uses.items(), key=lambda item: (any(u.startswith("member:") for u in item[1]), item[0]))
    docs = {}
    for split in sorted(splits):
        docs[split] = []
        for r in range(3 if split == test else 6):
            doc: dict[str, Any] = {}
            for col, how in order:
                doc[col] = _value(col, how, r, col in targets, doc)
            docs[split].append({col: doc[col] for col in sorted(doc)})
    _filtered(docs, config, folder)
    return docs, uses


def _filtered(docs: dict[str, list[dict]], config: dict, folder: Path) -> None:
    """Where a task's ``process_docs`` keeps the docs whose column equals a name
    (``process_formal_logic`` keeps ``subject == "formal_logic"``), two docs in three hold it."""
    function = str(config.get("process_docs") or "")
    source = "".join(p.read_text(encoding="utf-8", errors="replace") for p in folder.glob("*.py"))
    compared = set(re.findall(r"\[\s*['\"](\w+)['\"]\s*\]\s*==", source))
    literals = [w for w in set(re.findall(r"['\"](\w+)['\"]", source)) if len(w) > 2 and w in function]
    if not compared or not literals:
        return
    value = max(literals, key=len)
    for rows in docs.values():
        for r, doc in enumerate(rows):
            for col in compared:
                if r % 3 != 2:
                    doc[col] = value


def make(out: Path, count: int, seed: int) -> int:
    import yaml
    from lm_eval.tasks._yaml_loader import load_yaml

    sys.path.insert(0, str(ROOT / "tools"))
    from gen_lmeval_goldens import golden

    tasks = _shipped_tasks()
    random.Random(seed).shuffle(tasks)
    print(f"{len(tasks)} shipped task YAMLs; making up to {count} cases", flush=True)
    made = errors = 0
    for path in tasks:
        if made >= count:
            break
        name = f"{path.parent.name}__{path.stem}"[:90]
        target = out / name
        if target.exists():
            continue
        try:
            config = load_yaml(path, resolve_func=False)
        except (OSError, ValueError, yaml.YAMLError) as exc:
            print(f"skip {name}: {type(exc).__name__}: {str(exc)[:120]}")
            continue
        if not isinstance(config.get("task"), str) or "task_list" in config or "group" in config:
            continue
        shutil.copytree(path.parent, target / "task", ignore=shutil.ignore_patterns("*.md", "__pycache__"))
        docs, _ = _docs(config, path.parent)
        data = {}
        for split, rows in docs.items():
            file = target / f"{split}.jsonl"
            lines = [json.dumps(row, ensure_ascii=False) + "\n" for row in rows]
            file.write_text("".join(lines), encoding="utf-8")
            data[split] = str(file)
        case = {"name": name, "task": str(target / "task" / path.name), "data": data,
                "num_fewshot": 2 if made % 2 else None, "chat": str(CHAT) if made % 3 == 0 else None,
                "multiturn": None, "system": None}
        with tempfile.TemporaryDirectory() as cache:
            try:
                result = golden(case, cache)
            except SystemExit as exc:  # a task's code that exits (a tool it wants is missing)
                result = {"case": case, "error": "SystemExit", "message": str(exc)[:300]}
        errors += "error" in result
        (target / "golden.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n",
                                            encoding="utf-8")
        made += 1
        print(f"made {name}: {result.get('error') or len(result['requests'])}", flush=True)
    print(f"made {made} cases in {out} ({errors} where lm-eval raises)")
    return 0


def check(folder: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from tests.parity.test_lmeval_parity import _flat, _render
    from workbench.loading.config.worker import ConfigWorker

    worker = ConfigWorker()
    agree = differ = both_raise = missing = 0
    try:
        for golden_file in sorted(folder.glob("*/golden.json")):
            golden = json.loads(golden_file.read_text(encoding="utf-8"))
            case = golden["case"]
            if golden.get("error") in ("ModuleNotFoundError", "ImportError", "SystemExit") or \
                    "Couldn't find a module script" in golden.get("message", ""):
                # a package the task's metrics or code want is not in the lm-eval venv: no prompt to compare
                missing += 1
                print(f"skip {case['name']}: lm-eval raises {golden['error']}: {golden['message'][:120]}")
                continue
            try:
                tasks = _render(case, worker)
                problem = _compare(tasks, golden, _flat)
            except Exception as exc:  # what the render raised
                problem = f"raised {type(exc).__name__}: {exc}"
            if problem and "ModuleNotFoundError" in problem and "the workbench fails" in problem:
                # the task's code imports a package this venv lacks (lm-eval's has it)
                missing += 1
                print(f"skip {case['name']}: {problem[:160]}")
                continue
            if problem is None:
                agree += 1
                both_raise += "error" in golden
                print(f"ok   {case['name']}: {golden.get('error') or len(golden['requests'])}")
            else:
                differ += 1
                print(f"FAIL {case['name']}: {problem.splitlines()[0][:600]}")
    finally:
        worker.close()
    print(f"{agree} cases agree with lm-eval ({both_raise} where both raise), {differ} do not, "
          f"{missing} not compared (a package lm-eval wants is missing)")
    return 1 if differ else 0


def _compare(tasks: list, golden: dict, flat: Any) -> str | None:
    if "error" in golden:
        [task] = tasks
        if task.error is None:
            return f"lm-eval raises {golden['error']}: {golden['message'][:200]}; the workbench rendered"
        return None
    for task in tasks:
        if task.error is not None:
            return f"the workbench fails: {task.error.message[:300]}"
    got = [request for task in tasks for request in flat(task)]
    if any("doc_to_image" in w or "doc_to_audio" in w for task in tasks for w in task.warnings):
        # the media lm-eval hands the model beside the context (the golden keeps a dict's until
        # only: None); the workbench renders the context and says it leaves the media out
        golden = {**golden, "requests": [{**r, "arguments": r["arguments"][:2]} for r in golden["requests"]]}
    if len(got) != len(golden["requests"]):
        return f"{len(got)} requests, lm-eval {len(golden['requests'])}"
    for mine, theirs in zip(got, golden["requests"]):
        if mine != theirs:
            where = f"doc {theirs['doc_id']} #{theirs['idx']}"
            return f"{where}: {json.dumps(mine)[:280]} != {json.dumps(theirs)[:280]}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    made = sub.add_parser("make", help="cases from random shipped tasks, into DIR (lm-eval venv)")
    made.add_argument("dir", type=Path)
    made.add_argument("--count", type=int, default=200)
    made.add_argument("--seed", type=int, default=0)
    checked = sub.add_parser("check", help="hold the workbench to DIR's goldens (project venv)")
    checked.add_argument("dir", type=Path)
    args = parser.parse_args(argv)
    if args.step == "make":
        args.dir.mkdir(parents=True, exist_ok=True)
        return make(args.dir, args.count, args.seed)
    return check_step(args.dir, check)


if __name__ == "__main__":
    sys.exit(main())
