"""Rows typed as the real ``datasets`` types them: goldens from tools/gen_arrow_goldens.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workbench.core.dataset_reader import normalize_rows
from workbench.core.replicas.arrow_rows import ArrowTypeError, dataset_rows

GOLDENS = json.loads((Path(__file__).parent / "data" / "arrow_goldens.json").read_text(encoding="utf-8"))
CASES = GOLDENS["cases"]

#: Where the workbench's own rows files differ from ``load_dataset('json')`` on purpose (listed
#: in docs/differences.md): a column of text beside numbers, or nested deeper than Arrow holds,
#: is kept as written rather than refused, and pyarrow's JSON reader drops and reorders nulls
#: inside lists of numbers.
JSON_READER_DIFFERENCES = {"text beside a number (refused)", "a bool beside an int (refused)",
                           "nested none in lists", "a list nested 63 deep (refused)"}


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)  # 1 vs 1.0 and key order count


@pytest.mark.parametrize("name", sorted(CASES))
def test_from_list_typing(name: str) -> None:
    case = CASES[name]
    if "error" in case["from_list"]:
        with pytest.raises(ArrowTypeError):
            dataset_rows(case["input"])
        return
    assert _text(dataset_rows(case["input"])) == _text(case["from_list"]["rows"])


@pytest.mark.parametrize("name", sorted(set(CASES) - JSON_READER_DIFFERENCES))
def test_json_reader_typing(name: str) -> None:
    case = CASES[name]
    assert _text(normalize_rows(case["input"])) == _text(case["json_reader"]["rows"])


def test_the_differences_are_real() -> None:
    # if the json reader ever agrees, the exception list must shrink
    for name in JSON_READER_DIFFERENCES:
        case = CASES[name]
        assert "error" in case["json_reader"] or _text(normalize_rows(case["input"])) != _text(
            case["json_reader"]["rows"])
