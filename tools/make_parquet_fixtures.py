"""Dev-only: write the .parquet fixture files of the reader cases from the readable rows beside
them: a case's ``parquet_rows.json`` maps each file's path in the case folder to its rows,
so the binary files can be remade and reviewed as text (it sits outside the data folder, which
``load_dataset`` would otherwise read too). Run in a venv with pyarrow, before tools/gen_reader_goldens.py:

    $FWENV/bin/python tools/make_parquet_fixtures.py
"""

from __future__ import annotations

import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq
from _shared import REPO

CASES = REPO / "tests" / "loading" / "readers" / "cases"


def main() -> int:
    for source in sorted(CASES.glob("*/parquet_rows.json")):
        for relative, rows in json.loads(source.read_text(encoding="utf-8")).items():
            target = source.parent / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(pa.Table.from_pylist(rows), target)
            print(f"{target.relative_to(CASES)}: {len(rows)} rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
