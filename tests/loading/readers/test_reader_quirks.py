"""What the goldens cannot show: where the framework's result is not fixed, or where the
workbench deliberately does less than the framework (it never runs data as code)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from workbench.core.errors import ConfigError
from workbench.loading.readers import ReaderCall, find_reader


def _read(class_name: str, **kwargs: object) -> object:
    reader = find_reader(class_name)
    assert reader is not None
    return reader(ReaderCall(kwargs=kwargs))


def test_squad_style_answers_are_distinct_in_first_seen_order(tmp_path: Path) -> None:
    # The loader's list(set(...)) gives these in an order that changes between runs.
    answers = [{"text": text} for text in ("b", "a", "b", "c", "a")]
    data = {"data": [{"paragraphs": [{"context": "c", "qas": [{"question": "q", "answers": answers}]}]}]}
    (tmp_path / "dev.json").write_text(json.dumps(data), encoding="utf-8")
    for name in ("CMRCDataset", "DRCDDataset"):
        assert _read(name, path=str(tmp_path / "dev.json")) == [
            {"context": "c", "question": "q", "answers": ["b", "a", "c"]}]


def test_triviaqa_answers_cell_that_is_code_is_refused_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    cell = f"__import__('pathlib').Path({str(marker)!r}).touch() or ['x']"
    for split in ("dev", "test"):
        (tmp_path / f"trivia-{split}.qa.csv").write_text(f"q?\t{cell}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        _read("TriviaQADataset", path=str(tmp_path))
    assert not marker.exists()
    assert caught.value.line == 1 and "literal" in caught.value.message


def test_parquet_without_pyarrow_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    case = Path(__file__).parent / "cases" / "mmlu_pro"
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)  # import now fails
    with pytest.raises(ConfigError) as caught:
        _read("MMLUProDataset", path=str(case / "mmlu_pro"), category="math")
    assert "pyarrow" in caught.value.message
    assert caught.value.hint == "pip install 'prompt-workbench[parquet]'"
