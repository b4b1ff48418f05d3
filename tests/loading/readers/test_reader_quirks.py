"""What the goldens cannot show: where the framework's result is not fixed, or where the
workbench deliberately does less than the framework (it never runs data as code)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from workbench.core.errors import ConfigError
from workbench.core.extras import install_hint
from workbench.loading.rows.readers import ReaderCall, find_reader


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
    assert caught.value.hint == install_hint("parquet")


def test_readers_are_chosen_by_the_module_the_class_comes_from() -> None:
    # NeedleBench v1 and v2 define classes of the same names that build other rows.
    v1 = find_reader("NeedleBenchOriginDataset", "opencompass.datasets.needlebench.origin")
    v2 = find_reader("NeedleBenchOriginDataset", "opencompass.datasets.needlebench_v2.origin")
    assert v1 is not None and v2 is not None and v1 is not v2
    assert find_reader("NeedleBenchOriginDataset", "ais_bench.benchmark.datasets.needlebench_v2.origin") is v2
    # a bare name does not say which one
    assert find_reader("NeedleBenchOriginDataset") is None
    # unseeded draws (Parallel) and a hub download (OpenCompass's v2 Multi): the framework route
    assert find_reader("NeedleBenchParallelDataset", "opencompass.datasets.needlebench.parallel") is None
    assert find_reader("NeedleBenchMultiDataset", "opencompass.datasets.needlebench_v2.multi") is None
    assert find_reader("NeedleBenchMultiDataset", "ais_bench.benchmark.datasets.needlebench_v2.multi") is not None
    # classes read whatever module defines them
    assert find_reader("GSM8KDataset", "opencompass.datasets.gsm8k") is find_reader("GSM8KDataset")


def test_hf_json_document_is_refused_where_pandas_would_type_it(tmp_path: Path) -> None:
    (tmp_path / "dev.json").write_text('[\n {"a": 1},\n {"a": 2}\n]\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        _read("HFDataset", path="json", data_files=str(tmp_path / "dev.json"), split="train")
    assert "pandas" in caught.value.message and caught.value.file == str(tmp_path / "dev.json")
    assert "--framework-python" in (caught.value.hint or "")


def test_ruler_qa_asking_more_samples_than_questions_stops_where_the_loader_hangs() -> None:
    pytest.importorskip("tiktoken")
    case = Path(__file__).parent / "cases" / "ruler_qa_squad"
    with pytest.raises(ConfigError) as caught:
        _read("RulerQaDataset", path=str(case / "data" / "ruler" / "dev-v2.0.json"), max_seq_length=4096,
              num_samples=5, pre_samples=1)
    # four answerable questions: the fifth sample (index 4 + 1) is past them
    assert "4 answerable questions" in caught.value.message and "for ever" in caught.value.message


def test_paired_words_are_the_sorted_set_of_every_pair() -> None:
    from workbench.loading.rows.readers.ruler_words import PairedWords

    # prefixes continued by '-', a space or an apostrophe sort among other blocks
    adjectives = ["blue", "blue-eyed", "blue eyed", "blue's", "bluer", "old", "old-fashioned", "a", "a-b", "zany"]
    nouns = ["b-c", "cat", "eyed-dog", "dog", "b", "cat"]
    expected = sorted({f"{a}-{n}" for a in adjectives for n in nouns})
    words = PairedWords(adjectives, nouns)
    assert len(words) == len(expected)
    assert [words[i] for i in range(len(words))] == expected


def test_ruler_refuses_long_configs_at_once_and_stops_at_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("tiktoken")
    from workbench.loading.rows.readers import Declined, ruler

    with pytest.raises(Declined) as declined:  # before any work: no tokenizer is even built
        _read("RulerVtDataset", max_seq_length=131072, tokenizer_model="not-a-model")
    assert "max_seq_length 131072" in declined.value.message
    assert "--framework-python" in (declined.value.hint or "")
    monkeypatch.setattr(ruler, "TOKENIZE_BUDGET", 200_000)
    with pytest.raises(ConfigError) as caught:
        _read("RulerVtDataset", max_seq_length=16384, num_samples=2)
    assert "stopped after tokenizing" in caught.value.message
    # a small sample stays well inside it
    assert len(_read("RulerVtDataset", max_seq_length=700, num_samples=2)) == 2  # type: ignore[arg-type]
