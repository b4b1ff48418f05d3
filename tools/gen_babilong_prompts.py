"""Dev-only: record OpenCompass 0.5.4's BABILong prompts (per-task instruction, examples and
post-prompt, and the template that joins them to the context and question) as package data
for the native BabiLong reader:

    $FWENV/bin/python tools/gen_babilong_prompts.py
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

OUT = (Path(__file__).resolve().parent.parent / "workbench" / "loading" / "readers" / "data"
       / "babilong_prompts.json")


def main() -> int:
    from opencompass.datasets.babilong import prompts

    data = {"opencompass": importlib.metadata.version("opencompass"),
            "template": prompts.DEFAULT_TEMPLATE,
            "tasks": {task: {key: parts[key] for key in ("instruction", "examples", "post_prompt")}
                      for task, parts in prompts.DEFAULT_PROMPTS.items()}}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(data['tasks'])} tasks -> {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
