"""docs/readers.md agrees with the readers that exist, and the ranking it is built from holds
together (tools/rank_dataset_classes.py made it from the shipped configs)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from workbench.loading.rows.readers import reader_modules, reader_names

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "readers.md"
RANKING = json.loads((ROOT / "docs" / "data" / "dataset_class_ranking.json").read_text(encoding="utf-8"))


def test_doc_is_what_the_script_writes_now() -> None:
    done = subprocess.run([sys.executable, "tools/readers_doc.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_doc_table_marks_exactly_the_classes_with_readers() -> None:
    rows = re.findall(r"^\| \d+ \| `(\w+)` \| \d+ \| [\d.]+% \| (yes|partly|no) \|$", DOC.read_text(), re.M)
    assert len(rows) == 40
    readers = set(reader_names())
    assert {name for name, mark in rows if mark != "no"} == {name for name, _ in rows} & readers
    assert {name for name, mark in rows if mark == "partly"} == {
        name for name, _ in rows if name in readers and reader_modules(name) is not None}
    assert [name for name, _ in rows] == [entry["class"] for entry in RANKING["ranking"][:40]]


def test_ranking_counts_are_the_files_that_use_each_class() -> None:
    counts = Counter(name for names in RANKING["files"].values() for name in names)
    assert RANKING["config_files"] == len(RANKING["files"]) == 1512
    assert {e["class"]: e["configs"] for e in RANKING["ranking"]} == dict(counts)
    configs = [e["configs"] for e in RANKING["ranking"]]
    assert configs == sorted(configs, reverse=True)
    # Checked by hand: the thin wrapper configs count through their read_base() import.
    assert RANKING["files"]["gsm8k/gsm8k_gen.py"] == ["GSM8KDataset"]
    assert RANKING["files"]["mmlu/mmlu_gen.py"] == ["MMLUDataset"]
    assert RANKING["files"]["obqa/obqa_gen.py"] == ["OBQADataset"]
