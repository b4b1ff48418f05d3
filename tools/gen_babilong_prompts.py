"""Dev-only: record OpenCompass 0.5.4's BABILong prompts (per-task instruction, examples and
post-prompt, and the template that joins them to the context and question) as package data
for the native BabiLong reader, from the framework's ``opencompass.datasets.babilong.prompts``,
into ``workbench/loading/rows/readers/data/babilong_prompts.json``:

    $FWENV/bin/python tools/gen_babilong_prompts.py
"""

from __future__ import annotations

import importlib.metadata
import sys

from _shared import REPO, write_json

OUT = REPO / "workbench" / "loading" / "rows" / "readers" / "data" / "babilong_prompts.json"


def main() -> int:
    from opencompass.datasets.babilong import prompts

    data = {"opencompass": importlib.metadata.version("opencompass"),
            "template": prompts.DEFAULT_TEMPLATE,
            "tasks": {task: {key: parts[key] for key in ("instruction", "examples", "post_prompt")}
                      for task, parts in prompts.DEFAULT_PROMPTS.items()}}
    write_json(OUT, data)
    print(f"{len(data['tasks'])} tasks -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
