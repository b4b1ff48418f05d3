"""Dataset paths resolved as the frameworks resolve them, and the route that gave each dataset
its rows said everywhere (JSON, tree, one stderr line per dataset on placeholders)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.core.spec import AISBENCH, OPENCOMPASS
from workbench.loading.rows.data_paths import lookup_data_path, opencompass_data_ids, path_as_written_classes

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


def test_a_class_that_opens_its_path_as_written_is_looked_for_there_only(tmp_path: Path) -> None:
    # MultiroundDataset.load() opens osp.join(path, name + '.json') without get_data_path: no
    # data id, no data cache, no ~/.cache/opencompass; only the working folder (and the
    # workbench's stand-ins for it)
    assert "MultiroundDataset" in path_as_written_classes(OPENCOMPASS)
    assert "GSM8KDataset" not in path_as_written_classes(OPENCOMPASS)
    assert "BoolQDataset" in path_as_written_classes(AISBENCH)
    env = {"COMPASS_DATA_CACHE": str(tmp_path / "cache"), "AIS_BENCH_DATASETS_CACHE": "/c"}
    found = lookup_data_path("opencompass/gsm8k", OPENCOMPASS, bases=[tmp_path], env=env, home=tmp_path,
                             class_name="MultiroundDataset")
    assert found.candidates == (Path("opencompass/gsm8k"), tmp_path / "opencompass/gsm8k")
    assert found.data_id is None
    ais = lookup_data_path("data/boolq", AISBENCH, env=env, class_name="BoolQDataset")
    assert ais.candidates == (Path("data/boolq"),)
    # a class that resolves its path keeps the framework's lookup
    assert lookup_data_path("data/x", OPENCOMPASS, env=env, home=tmp_path,
                            class_name="GSM8KDataset").candidates[0] == tmp_path / "cache" / "data/x"


def test_the_folder_a_relative_path_was_found_under(tmp_path: Path) -> None:
    (tmp_path / "cfg" / "data" / "mine").mkdir(parents=True)
    found = lookup_data_path("data/mine", OPENCOMPASS, bases=[tmp_path / "cfg"], env={}, home=tmp_path)
    assert found.working_folder() == tmp_path / "cfg"
    assert lookup_data_path(str(tmp_path), OPENCOMPASS, env={}).working_folder() is None


MT_BENCH_CONFIG = '''\
from opencompass.datasets import MTBenchDataset
from opencompass.openicl.icl_inferencer import ChatInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr=f'mtbench_{name}', type=MTBenchDataset, path='data/subjective/mtbench', name=name,
    reader_cfg=dict(input_columns=['dialogue'], output_column='judge'),
    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template="""{dialogue}"""),
                   retriever=dict(type=ZeroRetriever), inferencer=dict(type=ChatInferencer)),
) for name in ('0.0', '0.7')]
'''


def test_a_folder_of_per_name_files_is_no_folder_of_splits(gsm8k: Path) -> None:
    # MT-Bench's folder holds {name}.json per dataset (OlympiadBench's too): read as split
    # files it has no split 'train', so a class without a native reader falls back on
    # placeholders, said once per dataset with the way that would work
    folder = gsm8k / "data" / "subjective" / "mtbench"
    folder.mkdir(parents=True)
    for name in ("mtbench_0.0", "mtbench_0.7"):
        (folder / f"{name}.json").write_text('[{"dialogue": [], "capability": "x", "others": {}}]',
                                             encoding="utf-8")
    config = gsm8k / "mtbench.py"
    config.write_text(MT_BENCH_CONFIG, encoding="utf-8")
    run = run_cli("render", str(config), cwd=gsm8k)
    assert run.code == 0, run.err
    document = json.loads(run.out)
    assert {r["rows_source"]["kind"] for r in document["renders"]} == {"placeholder"}
    (warning,) = [w for w in document["warnings"] if "MTBenchDataset" in w["message"]]
    assert warning["message"] == (
        f"found {Path('data/subjective/mtbench')}, but no native reader for MTBenchDataset, and no rows "
        "file or folder of split files holding the reader's splits (train and test): showing placeholders "
        "from reader_cfg (hint: --framework-python PATH runs MTBenchDataset.load() in a Python where "
        "OpenCompass imports, or give the rows with --data FILE)")
    # a folder that does hold the reader's splits still serves
    (folder / "test.json").write_text('[{"dialogue": "hi"}]', encoding="utf-8")
    (folder / "train.json").write_text('[{"dialogue": "ho"}]', encoding="utf-8")
    document = json.loads(run_cli("render", str(config), cwd=gsm8k).out)
    assert {r["rows_source"]["kind"] for r in document["renders"]} == {"file"}


def test_a_rows_file_a_class_without_reader_cannot_use_is_no_error(gsm8k: Path) -> None:
    # a .json file that is no rows file (a class's own format): placeholders, said with where
    (gsm8k / "mine.json").write_text('{"version": 2}', encoding="utf-8")
    config = gsm8k / "eval.py"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "path='opencompass/gsm8k'", "path='mine.json', type='MyOwnDataset'"), encoding="utf-8")
    run = run_cli("render", str(config), "--model", "m1", cwd=gsm8k)
    assert run.code == 0, run.err
    (warning,) = [w["message"] for w in json.loads(run.out)["warnings"]]
    assert warning.startswith("found mine.json, but no native reader for MyOwnDataset, and as a rows file: ")
    assert "--framework-python PATH runs MyOwnDataset.load()" in warning


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


def test_placeholder_rows_give_clp_the_choices_its_loaders_add() -> None:
    from workbench.core.render import PairRenderer
    from workbench.core.spec import DatasetSpec, ModelSpec
    from workbench.loading.rows.placeholder_rows import placeholder_rows

    cfg = {"abbr": "civil", "reader_cfg": {"input_columns": ["text"], "output_column": "label"},
           "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": "Text: {text}\nAnswer:"},
                         "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "CLPInferencer"}}}
    rows = placeholder_rows(cfg)
    assert rows["test"][0]["choices"] == ["‹choices 0›", "‹choices 1›"]
    model = ModelSpec("m", {"type": "opencompass.models.HuggingFaceCausalLM", "path": "/x"})
    request = PairRenderer(DatasetSpec("civil", cfg, rows), model).sample(0).requests[0]
    assert dict(request.extra)["choices"] == ["‹choices 0›", "‹choices 1›"]


WIKIBENCH_CONFIG = '''\
from opencompass.datasets import WikiBenchDataset
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr='wiki', type=WikiBenchDataset, path='data/WikiBench/wiki_', filename='one.jsonl', name='one',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='{question}'),
                   retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)),
)]
'''


def test_a_path_that_is_the_start_of_a_file_name_is_read_by_the_classs_reader(tmp_path: Path) -> None:
    # WikiBenchDataset.load opens get_data_path(path) + filename: 'wiki_' names nothing on disk,
    # 'wiki_one.jsonl' does (a real OpenCompass run of a shipped CompassBench config reads it;
    # the render showed placeholders, and verify --strict was red on a run that matched)
    (tmp_path / "data" / "WikiBench").mkdir(parents=True)
    (tmp_path / "data" / "WikiBench" / "wiki_one.jsonl").write_text(
        '{"question": "Q?", "options": ["a", "b", "c", "d"], "answer": "A"}\n', encoding="utf-8")
    (tmp_path / "eval.py").write_text(WIKIBENCH_CONFIG, encoding="utf-8")
    run = run_cli("render", "eval.py", cwd=tmp_path)
    assert run.code == 0, run.err
    [render] = json.loads(run.out)["renders"]
    assert render["rows_source"]["kind"] == "native-reader"
    assert render["samples"][0]["requests"][0]["model_input"] == "Q?\nA. a\nB. b\nC. c\nD. d\n"
    (tmp_path / "data" / "WikiBench" / "wiki_one.jsonl").unlink()  # nothing there: looked for, said
    missing = json.loads(run_cli("render", "eval.py", cwd=tmp_path).out)
    assert missing["renders"][0]["rows_source"]["kind"] == "placeholder"
