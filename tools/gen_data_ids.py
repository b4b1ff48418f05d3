"""Dev-only: record OpenCompass's dataset-id table as package data.

OpenCompass 0.5.4 maps data ids such as ``opencompass/gsm8k`` to a folder under
``$COMPASS_DATA_CACHE`` (``DATASETS_MAPPING`` in ``opencompass/utils/datasets_info.py``).
The workbench resolves ids the same way without the framework, from the table this script
writes to ``workbench/loading/rows/data/opencompass_data_ids.json`` (id → local path, as written).
AISBench has no id table: its ``get_data_path`` joins a relative path to a cache folder
(``workbench/loading/rows/data_paths.py`` says how), so there is nothing to record for it.

Run it in the framework venv (tools/setup_fwenv.sh):

    $FWENV/bin/python tools/gen_data_ids.py
"""

from __future__ import annotations

import importlib.metadata
import sys

from _shared import REPO, write_json

OUT = REPO / "workbench" / "loading" / "rows" / "data" / "opencompass_data_ids.json"


def main() -> int:
    from opencompass.utils.datasets_info import DATASETS_MAPPING

    table = {data_id: entry["local"] for data_id, entry in sorted(DATASETS_MAPPING.items())
             if isinstance(entry, dict) and isinstance(entry.get("local"), str)}
    document = {"opencompass": importlib.metadata.version("opencompass"), "local": table}
    write_json(OUT, document)
    print(f"{len(table)} ids -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
