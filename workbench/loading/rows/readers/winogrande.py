"""WinoGrande: JSONL files in the folder ``path``; a ``sentence`` with a ``_`` blank and two options.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import ReaderCall, ReadResult, Row, native_reader
from ._files import mapped_jsonl


def _rows(path: Path, answer: Callable[[Any], Any]) -> list[Row]:
    """The sentence, each option alone and filled in, and ``cont``: the text after the blank
    (before any second ``_``)."""
    def build(item: dict) -> Row:
        prompt = item["sentence"]
        cont = prompt.split("_")[1]
        return {"prompt": prompt, "only_option1": item["option1"], "only_option2": item["option2"],
                "opt1": prompt.replace("_", item["option1"]), "opt2": prompt.replace("_", item["option2"]),
                "answer": answer(item["answer"]), "cont": cont}

    return mapped_jsonl(path, build)


@native_reader("WinograndeDataset")
def read_winogrande(call: ReaderCall) -> ReadResult:
    return _rows(call.path() / "dev.jsonl", lambda answer: answer)


@native_reader("WinograndeDatasetV2")
def read_winogrande_v2(call: ReaderCall) -> ReadResult:
    """The answer ``"1"``/``"2"`` becomes A/B; an empty one (the test set) NULL."""
    return _rows(call.path() / "dev.jsonl", _letter)


@native_reader("WinograndeDatasetV3")
def read_winogrande_v3(call: ReaderCall) -> ReadResult:
    """V2's rows for the extra-small train set and dev, as splits ``train_xs`` and ``dev``."""
    folder = call.path()
    return {split: _rows(folder / f"{split}.jsonl", _letter) for split in ("train_xs", "dev")}


def _letter(answer: Any) -> str:
    return " AB"[int(answer)] if answer != "" else "NULL"
