"""CustomDataset: one ``.jsonl`` (a JSON object a line) or ``.csv`` (a header line, then rows)
file, read as UTF-8 with a byte-order mark allowed; any other suffix is refused.

AISBench's class also moves each row's ``max_tokens`` to a last ``max_out_len`` column, and
samples rows by a ``<file>.meta.json`` (or ``meta_path``): that sampling is not reproduced,
so such a dataset is refused here and goes by the framework route.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import os
from pathlib import Path

from ....core.errors import ConfigError
from ....core.spec import AISBENCH
from . import ReaderCall, ReadResult, native_reader
from ._files import csv_records, from_list, jsonl_values


@native_reader("CustomDataset")
def read_custom(call: ReaderCall) -> ReadResult:
    path = str(call.path())
    if call.kwargs.get("file_name") is not None:
        path = os.path.join(path, str(call.kwargs["file_name"]))
    file = Path(path)
    if path.endswith(".jsonl"):
        rows = jsonl_values(file, strip=False, encoding="utf-8-sig")
    elif path.endswith(".csv"):
        records = csv_records(file, encoding="utf-8-sig")
        first = next(records, None)
        if first is None:
            raise ConfigError("the CSV file is empty: CustomDataset reads its first line as the header",
                              file=path, hint="put the column names on the first line")
        header = first[1]
        rows = [dict(zip(header, cells, strict=False)) for _, cells in records]
    else:
        raise ConfigError(f"CustomDataset reads .jsonl or .csv files, not {file.name}", file=path,
                          hint="save the rows as .jsonl (a JSON object a line) or .csv with a header")
    if call.framework == AISBENCH:
        meta = str(call.kwargs.get("meta_path") or "") or path + ".meta.json"
        if os.path.exists(meta) or call.kwargs.get("meta_path"):
            raise ConfigError(f"AISBench's CustomDataset samples rows by {meta}, which the workbench "
                              "does not reproduce", file=meta,
                              hint="--framework-python PATH runs the real load()")
        for row in rows:
            if isinstance(row, dict) and (value := row.pop("max_tokens", None)) is not None:
                row["max_out_len"] = value
    return from_list(rows, file)
