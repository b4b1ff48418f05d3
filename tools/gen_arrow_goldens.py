"""Dev-only: how the real ``datasets`` types rows, for ``workbench/core/replicas/arrow_rows.py``.

For each case (a list of rows, in ``CASES`` below), records what
``Dataset.from_list(rows).to_list()`` returns and what ``load_dataset('json')`` returns for
the same rows written as JSONL (or the error each raises), into
``tests/core/data/arrow_goldens.json``.

    $FWENV/bin/python tools/gen_arrow_goldens.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from _shared import REPO, write_json

OUT = REPO / "tests" / "core" / "data" / "arrow_goldens.json"

def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


CASES: dict[str, list[dict[str, Any]]] = {
    "history with a name key in one message": [
        {"history": [{"role": "user", "content": "a"}], "q": "x"},
        {"history": [{"role": "user", "name": "bob", "content": "b"}, {"content": "c", "role": "assistant"}],
         "q": "y"}],
    "ints beside floats": [{"a": 1, "b": 2}, {"a": 2.5, "b": 3}],
    "ints beside floats inside lists": [{"a": [1, 2]}, {"a": [0.5]}, {"a": []}],
    "none beside a dict": [{"m": None}, {"m": {"z": 1, "b": "two"}}],
    "dicts with different keys": [{"m": {"k": [1]}}, {"m": {"j": "s"}}],
    "a later row's extra column": [{"a": "x"}, {"a": "y", "extra": 1}],
    "a column missing from the first row only": [{"a": "x"}, {"b": 1}],
    "lists of lists": [{"grid": [[1, 2], [3]]}, {"grid": [[0.5], []]}],
    "multimodal content parts": [
        {"content": [{"type": "text", "text": "hi"}, {"type": "image_url", "image_url": {"url": "u"}}]},
        {"content": [{"type": "text", "text": "yo"}]}],
    "label dicts": [{"label": {"A": "x", "B": "y"}}, {"label": {"B": "z", "C": "w"}}],
    "text beside a number (refused)": [{"a": 1}, {"a": "x"}],
    "a bool beside an int (refused)": [{"a": True}, {"a": 1}],
    "bools": [{"a": True}, {"a": None}, {"a": False}],
    "unicode and empty strings": [{"a": "é\u2028"}, {"a": ""}],
    "nested none in lists": [{"a": [None, 1]}, {"a": [2.0, None]}],
    "an integer past a float's range beside a float": [{"a": 1.5}, {"a": 10**400}],
    "an integer past 64 bits beside an int in a list": [{"a": [1, 2**64]}],
    "a list nested 40 deep": [{"a": _nested(40)}],
    "a list nested 63 deep (refused)": [{"a": _nested(63)}],
}


def _error(exc: Exception) -> dict[str, str]:
    return {"error": type(exc).__name__}


def from_list(rows: list[dict[str, Any]]) -> Any:
    from datasets import Dataset

    try:
        return {"rows": Dataset.from_list(rows).to_list()}
    except Exception as exc:
        return _error(exc)


def json_reader(rows: list[dict[str, Any]]) -> Any:
    from datasets import load_dataset

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rows.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        try:
            data = load_dataset("json", data_files=str(path), split="train",
                                cache_dir=str(Path(folder) / "cache"))
            return {"rows": data.to_list()}
        except Exception as exc:
            return _error(exc)


def main() -> int:
    import datasets

    datasets.disable_progress_bars()
    document = {name: {"input": rows, "from_list": from_list(rows), "json_reader": json_reader(rows)}
                for name, rows in CASES.items()}
    write_json(OUT, {"datasets": datasets.__version__, "cases": document})
    print(f"{len(document)} cases -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
