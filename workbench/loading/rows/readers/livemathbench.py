"""LiveMathBench (the local branch): ``<version>/<split>_<language>.jsonl`` in the data folder for
each split and language, in that order; every row gets its subdivision, its index in its file
and the prompt (recorded from OpenCompass by tools/gen_reader_prompts.py) around its question.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from itertools import product
from typing import Any

from ....core.errors import ConfigError
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, jsonl_values, row_at

_DEFAULT_SPLITS = ["CNMO", "CCEE", "AMC", "WLPMC"]


@cache
def _prompts() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", "livemathbench_prompts.json").read_text("utf-8")
    return json.loads(text)


def _prompt(language: str, cot: bool) -> str:
    prompt = _prompts()["en" if language == "en" else "cn"]
    if cot:
        return prompt
    if language == "cn":
        return prompt.replace("，请逐步推理", "")
    return prompt.replace(", please reasoning step by step", "")


@native_reader("LiveMathBenchDataset")
def read_livemathbench(call: ReaderCall) -> ReadResult:
    kwargs = call.kwargs
    version = kwargs.get("version", "202412")
    folder = call.path()
    rows: list[Row] = []
    for split, language in product(kwargs.get("dataset_splits", _DEFAULT_SPLITS),
                                   kwargs.get("dataset_languages", ["cn", "en"])):
        path = folder / str(version) / f"{split}_{language}.jsonl"
        if not path.exists():
            raise ConfigError(f"File {path} does not exist, please check the path and try again.",
                              file=str(path), hint="LiveMathBench reads <version>/<split>_<language>.jsonl")
        # jsonlines: a byte-order mark allowed, a null line refused
        for index, example in enumerate(jsonl_values(path, strip=False, encoding="utf-8-sig")):
            with row_at(path, index + 1):
                if example is None:
                    raise ValueError("line contains null value")
                example.update({"subdivision": f"livemathbench_{version}_{split}_{language}",
                                "idx": str(index),
                                "prompt": _prompt(language, bool(kwargs.get("cot", True))).format(
                                    question=example["question"])})
            rows.append(example)
    return from_list(rows, folder)
