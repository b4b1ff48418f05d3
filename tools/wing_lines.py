"""Count the lines of the fast render wing, so issue 30's "before/after" is reproducible.

The wing is what docs/architecture.md calls the fast paths: four modules whole, and named
definitions (functions, classes, methods) of seven more, counted from the source with ``ast``
(a definition's lines from its first decorator to its last line, blank lines and docstrings
included, as a reader meets them). Run from anywhere with any Python 3.11:

    python tools/wing_lines.py              # a table, then the total
    python tools/wing_lines.py --total      # the total alone
    python tools/wing_lines.py --at REV     # the same, of a git revision (``git show``)

A rebuild that renames or removes a definition listed below edits the list in the same change
(a module or name not found is reported, and the script exits 1, so a stale list never counts
silently). The list is this checkout's: count a revision from before a rename with the copy
in a worktree of that revision, which names what it had.
Reads the checkout's sources; writes nothing.
"""

from __future__ import annotations

import ast
import subprocess
import sys

from _shared import REPO

PACKAGE = REPO / "workbench"

#: Modules that are fast paths and nothing else.
WHOLE = [
    "core/inferencers/sample_form.py",
    "core/tokens/chat_outline.py",
    "headless/formats/stamp_writer.py",
    "core/refusals.py",
]

#: The fast-path definitions of modules that also hold the interpreter or the writers.
PARTS = {
    "core/render.py": [
        "PairRenderer.stamp", "PairRenderer.stamps", "PairRenderer._rendered",
        "PairRenderer._stand_ins_traced", "PairRenderer._cached_ice", "_interned",
    ],
    "core/models/meta_template.py": [
        "_SectionWalker._compiled", "_SectionWalker._compile", "_Layout", "_symbolic", "_split_slots",
        "_MessagesLayout", "LMParser._compile", "APIParser._compile",
    ],
    "core/tokens/counting.py": [
        "_piece_tokens", "_pieces_estimate", "_estimate_line", "_learn_words", "_estimate_line_and_newline",
        "_estimate_text", "_estimate_cut_lines", "_Stretches", "PiecesEstimate", "PiecesSections", "_row_end",
        "_cut_before", "_cut_after", "_by_lines", "_stretch_sections", "_line_sections", "Estimate.count",
        "Estimate._count_learning", "Estimate.count_sections",
    ],
    "core/tokens/chat_sandbox.py": [
        "_stands", "_traced_filter", "_traced_join", "_Deferred", "_concat", "_joined", "_traced_call",
    ],
    "core/tokens/chat_apply.py": [
        "ChatLayout", "chat_layout", "_shape", "_spliced", "_outline_of", "_witnessed", "_recorded",
    ],
    "headless/formats/json_encoding.py": [
        "prompt_list_text", "escaped_values", "json_stamps", "JsonSample",
    ],
    "headless/stream.py": [],  # (the stamp hand-out: a few lines inside SampleStream and _render_chunk)
}


def _definitions(tree: ast.Module) -> dict[str, int]:
    """Every top-level definition and method, by qualified name, with its line count."""
    found: dict[str, int] = {}

    def size(node: ast.AST) -> int:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])  # type: ignore[attr-defined]
        return node.end_lineno - first + 1  # type: ignore[attr-defined]

    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            found[node.name] = size(node)
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    found[f"{node.name}.{member.name}"] = size(member)
    return found


def _source(module: str, rev: str | None) -> str | None:
    """The module's text (None: no such module in the working tree, or at ``rev``)."""
    if rev is None:
        path = PACKAGE / module
        return path.read_text(encoding="utf-8") if path.exists() else None
    shown = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:workbench/{module}"], capture_output=True,
                           text=True, check=False, encoding="utf-8")
    return shown.stdout if shown.returncode == 0 else None


def count(rev: str | None = None) -> tuple[list[tuple[str, int, int]], list[str]]:
    """Rows of (module, wing lines, module lines), and the names not found (of ``rev``, else
    of the working tree)."""
    rows = []
    missing = []
    for module in WHOLE:
        text = _source(module, rev)
        if text is None:
            missing.append(module)
        lines = len((text or "").splitlines())
        rows.append((module, lines, lines))
    for module, names in PARTS.items():
        text = _source(module, rev)
        if text is None:
            missing.append(module)
            text = ""
        found = _definitions(ast.parse(text))
        missing += [f"{module}: {n}" for n in names if n not in found]
        rows.append((module, sum(found.get(n, 0) for n in names), len(text.splitlines())))
    return rows, missing


def main(argv: list[str]) -> int:
    rev = argv[argv.index("--at") + 1] if "--at" in argv[:-1] else None
    rows, missing = count(rev)
    total = sum(r[1] for r in rows)
    if "--total" in argv:
        print(total)
    else:
        width = max(len(r[0]) for r in rows)
        print(f"{'module (workbench/)':<{width}}  {'wing':>5}  {'of':>5}")
        for module, wing, whole in rows:
            print(f"{module:<{width}}  {wing:>5}  {whole:>5}")
        print(f"{'total':<{width}}  {total:>5}")
    for name in missing:
        print(f"not found (update tools/wing_lines.py): {name}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
