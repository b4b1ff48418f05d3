"""Dataset paths resolved as the frameworks resolve them, and the route that gave each dataset
its rows said everywhere (JSON, tree, one stderr line per dataset on placeholders)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.core.spec import AISBENCH, OPENCOMPASS
from workbench.loading.rows.data_paths import lookup_data_path, opencompass_data_ids

GSM8K_CONFIG = '''\
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

gsm8k_datasets = [dict(
    abbr='gsm8k', path='opencompass/gsm8k',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template='Question: {question}\\nAnswer:'),
        retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)),
)]
models = [dict(abbr='m1', type='HuggingFaceCausalLM', path='/nonexistent/m1'),
          dict(abbr='m2', type='HuggingFaceCausalLM', path='/nonexistent/m2')]
'''


def test_the_id_table_is_opencompass_0_5_4s() -> None:
    table = opencompass_data_ids()
    assert table["opencompass/gsm8k"] == "./data/gsm8k/"
    assert table["opencompass/mmlu"] == "./data/mmlu/"
    assert len(table) > 100


def test_a_data_id_goes_through_the_table_under_the_cache(tmp_path: Path) -> None:
    found = lookup_data_path("opencompass/gsm8k", OPENCOMPASS, env={"COMPASS_DATA_CACHE": str(tmp_path)},
                             home=tmp_path / "home")
    assert found.data_id == "opencompass/gsm8k"
    assert found.candidates[0] == tmp_path / "data" / "gsm8k"
    # get_data_path's fallback: ~/.cache/opencompass/<cache-joined path>; absolute stays absolute
    assert found.candidates[-1] == tmp_path / "data" / "gsm8k"
    assert found.found() is None


def test_without_a_cache_the_id_is_relative_then_the_default_cache(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".cache" / "opencompass" / "data" / "mmlu").mkdir(parents=True)
    found = lookup_data_path("opencompass/mmlu", OPENCOMPASS, bases=[tmp_path / "cfg"], env={}, home=home)
    assert found.candidates[:2] == (Path("data/mmlu"), tmp_path / "cfg" / "data" / "mmlu")
    assert found.found() == home / ".cache" / "opencompass" / "data" / "mmlu"


def test_a_path_not_in_the_table_is_used_as_written(tmp_path: Path) -> None:
    (tmp_path / "data" / "mine").mkdir(parents=True)
    found = lookup_data_path("./data/mine", OPENCOMPASS, bases=[tmp_path], env={}, home=tmp_path)
    assert found.data_id is None
    assert found.found() == tmp_path / "data" / "mine"
    absolute = lookup_data_path(str(tmp_path), OPENCOMPASS, env={})
    assert absolute.candidates == (tmp_path,)


def test_aisbench_joins_its_own_cache_or_the_package_root(tmp_path: Path) -> None:
    cached = lookup_data_path("ais_bench/datasets/gsm8k", AISBENCH, env={"AIS_BENCH_DATASETS_CACHE": "/c"})
    assert cached.candidates == (Path("/c/ais_bench/datasets/gsm8k"),)
    rooted = lookup_data_path("ais_bench/datasets/gsm8k", AISBENCH, bases=[tmp_path], env={})
    assert rooted.candidates == (Path("ais_bench/datasets/gsm8k"), tmp_path / "ais_bench/datasets/gsm8k")
    # OpenCompass ids mean nothing to AISBench
    assert rooted.data_id is None


@pytest.fixture()
def gsm8k(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "eval.py").write_text(GSM8K_CONFIG, encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    return tmp_path


def test_rows_from_the_cache_named_by_a_data_id(gsm8k: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = gsm8k / "cache" / "data" / "gsm8k"
    folder.mkdir(parents=True)
    (folder / "test.jsonl").write_text('{"question": "What is 6 x 7?", "answer": "42"}\n', encoding="utf-8")
    (folder / "train.jsonl").write_text('{"question": "1 + 1?", "answer": "2"}\n', encoding="utf-8")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(gsm8k / "cache"))
    run = run_cli("render", str(gsm8k / "eval.py"), "--model", "m1", cwd=gsm8k)
    assert run.code == 0, run.err
    document = json.loads(run.out)
    render = document["renders"][0]
    assert render["rows_source"] == {"kind": "data-id", "path": str(folder), "data_id": "opencompass/gsm8k",
                                     "reader": None}
    assert render["samples"][0]["requests"][0]["prompt_list"] == "Question: What is 6 x 7?\nAnswer:"
    assert document["warnings"] == []


def test_placeholders_say_where_rows_were_looked_for_once_per_dataset(gsm8k: Path) -> None:
    run = run_cli("render", str(gsm8k / "eval.py"), "-f", "text", cwd=gsm8k)
    assert run.code == 0, run.err
    lines = [line for line in run.err.splitlines() if "no rows found" in line]
    assert len(lines) == 1, run.err  # two models, one dataset: one line
    assert lines[0].startswith("warning: [gsm8k")
    assert "opencompass/gsm8k → data/gsm8k" in lines[0]
    assert str(gsm8k / "home" / ".cache" / "opencompass" / "data" / "gsm8k") in lines[0]
    document = json.loads(run_cli("render", str(gsm8k / "eval.py"), cwd=gsm8k).out)
    assert {r["rows_source"]["kind"] for r in document["renders"]} == {"placeholder"}
    assert [w["dataset"] for w in document["warnings"] if "no rows found" in w["message"]] == ["gsm8k"]
    quiet = run_cli("render", str(gsm8k / "eval.py"), "-f", "text", "--quiet", cwd=gsm8k)
    assert "no rows found" not in quiet.err


def test_a_plain_rows_file_under_a_class_that_reads_a_folder_is_shown_and_said(gsm8k: Path) -> None:
    # GSM8KDataset reads <path>/train.jsonl and test.jsonl; a single rows file would fail in
    # the framework, so the rows are shown plainly with a warning that says so
    (gsm8k / "rows.jsonl").write_text('{"question": "q?", "answer": "a"}\n', encoding="utf-8")
    config = gsm8k / "eval.py"
    config.write_text(config.read_text(encoding="utf-8").replace("path='opencompass/gsm8k'",
                                                                 "path='rows.jsonl', type='GSM8KDataset'"),
                      encoding="utf-8")
    run = run_cli("render", str(config), "--model", "m1", cwd=gsm8k)  # the dataset's warning stays
    assert run.code == 0, run.err
    document = json.loads(run.out)
    assert document["renders"][0]["rows_source"]["kind"] == "file"
    (warning,) = [w["message"] for w in document["warnings"]]
    assert warning.startswith("GSM8KDataset.load() cannot read ") and "a run of the framework fails here" in warning


def test_placeholder_turns_count_from_0_like_every_other_turn() -> None:
    from workbench.core.inferencers.plan import placeholder
    from workbench.loading.rows.placeholder_rows import placeholder_rows

    cfg = {"reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": {"prompt_template": {"type": "MultiTurnPromptTemplate"},
                         "inferencer": {"type": "MultiTurnGenInferencer"}}}
    rows = placeholder_rows(cfg)
    test = rows["test"] if isinstance(rows, dict) else rows
    assert test[0]["question"] == ["‹question turn 0›", "‹question turn 1›"]
    assert placeholder(0) == "‹prediction turn 0›"  # the first turn's answer, as JSON's turn 0
