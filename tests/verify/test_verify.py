"""``workbench verify`` on run folders written by the real OpenCompass inference task
(tools/make_run_fixtures.py): untouched runs pass, a changed template fails with the diff."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

FIXTURE = Path(__file__).parent / "fixture"
RUN = "runs/20261124_000000"


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"  # Textual needs asyncio


@pytest.fixture()
def fixture(tmp_path: Path) -> Path:
    """A copy of the fixture (configs, rows, runs) to change freely; verify runs from its root,
    as a user runs it from the repository the run was started in."""
    target = tmp_path / "fixture"
    shutil.copytree(FIXTURE, target)
    return target


#: The fixture's config pairs the API model with boolq's PPL, which OpenCompass's task refuses
#: (NotImplementedError, in the task's log): the pair has no predictions in any real run, so no
#: verify of it is green (exit 1; 3 under --strict).
REFUSED = ("boolq × fake-api: 0 matched, 0 differing, 0 missing (no predictions: the render fails this pair "
           "of the config (OpenAI does not support ppl-based evaluation yet, try gen-based instead.), and the "
           "run wrote none for it either: its inference task failed with NotImplementedError: StandInAPI does "
           "not support ppl-based evaluation yet, try gen-based instead. (its log: ")
NOT_RUN_TAIL = "; 1 pair of the config with no predictions (the task did not run or crashed)"


def test_an_untouched_run_matches_every_recorded_prompt(fixture: Path) -> None:
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 1, run.out + run.err
    assert REFUSED in run.out
    assert "gsm8k × fake-lm: 4 matched, 0 differing, 0 missing" in run.out
    assert "gsm8k × fake-api: 4 matched, 0 differing, 0 missing" in run.out
    assert "boolq × fake-lm: 3 matched, 0 differing, 0 missing" in run.out  # PPL: every label
    assert run.out.rstrip().endswith("verify: all 11 compared samples match, 0 missing" + NOT_RUN_TAIL)
    assert run_cli("verify", RUN, "--strict", cwd=fixture).code == 3


def test_a_sharded_run_is_read_shard_by_shard(fixture: Path) -> None:
    run = run_cli("verify", "runs/sharded", "--format", "json", cwd=fixture)
    assert run.code == 1, run.out + run.err  # (boolq × fake-api: REFUSED, its two shards' logs read)
    pairs = {(p["dataset"], p["model"]): p for p in json.loads(run.out)["pairs"]}
    assert pairs[("gsm8k", "fake-lm")]["matched"] == 4


def test_a_template_changed_after_the_run_fails_with_the_diff(fixture: Path) -> None:
    changed = fixture / "changed.py"
    text = (fixture / "eval_fixture.py").read_text(encoding="utf-8")
    changed.write_text(text.replace("Let\\'s think step by step\\nAnswer:'),\n    ]), ice_token",
                                    "Let\\'s think step by step\\n\\nAnswer:'),\n    ]), ice_token"),
                       encoding="utf-8")
    assert changed.read_text(encoding="utf-8") != text
    run = run_cli("verify", RUN, "--config", str(changed), cwd=fixture)
    assert run.code == 1, run.out + run.err
    assert "gsm8k × fake-lm: 0 matched, 4 differing, 0 missing" in run.out
    assert "boolq × fake-lm: 3 matched, 0 differing, 0 missing" in run.out
    # the extra newline, visible: recorded "step by step↵" then "Answer:", rendered with a blank line
    assert "+ ↵" in run.out
    assert "- recorded by the run, + rendered now" in run.out
    assert "verify: 8 of 11 compared samples differ, 0 missing" in run.out


def test_a_partial_run_counts_missing_samples(fixture: Path) -> None:
    (fixture / "runs" / "sharded" / "predictions" / "fake-lm" / "gsm8k_1.json").unlink()
    run = run_cli("verify", "runs/sharded", cwd=fixture)
    assert run.code == 1, run.out + run.err
    assert "gsm8k × fake-lm: 2 matched, 0 differing, 2 missing\n" in run.out
    assert run.out.rstrip().endswith("verify: all 9 compared samples match, 2 missing" + NOT_RUN_TAIL)


def test_truncated_predictions_are_a_located_error(fixture: Path) -> None:
    file = fixture / RUN / "predictions" / "fake-lm" / "gsm8k.json"
    file.write_text(file.read_text(encoding="utf-8")[:300], encoding="utf-8")
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 3
    assert run.err.startswith(f"{RUN}/predictions/fake-lm/gsm8k.json:3: ")
    assert "not valid JSON" in run.err and "Traceback" not in run.err


def test_not_a_run_and_usage_errors(fixture: Path) -> None:
    missing = run_cli("verify", "runs/none", cwd=fixture)
    assert missing.code == 3 and "run folder not found" in missing.err
    not_a_run = run_cli("verify", "data", cwd=fixture)
    assert not_a_run.code == 3 and "no predictions/ folder" in not_a_run.err
    assert run_cli("verify", cwd=fixture).code == 2
    assert run_cli("verify", RUN, "--max-diffs", "-1", cwd=fixture).code == 2
    stray = run_cli("verify", RUN, "eval_fixture.py", cwd=fixture)  # a config given as a positional
    assert stray.code == 2 and "unrecognized arguments: eval_fixture.py" in stray.err and "--config" in stray.err
    helped = run_cli("verify", "--help", cwd=fixture)
    assert "RUN_DIR" in helped.out and "CONFIG " not in helped.out and "--run " not in helped.out


def test_a_run_whose_pairs_are_not_in_the_config_compares_nothing(fixture: Path) -> None:
    other = fixture / "other.py"
    other.write_text((fixture / "eval_fixture.py").read_text(encoding="utf-8")
                     .replace("abbr='gsm8k'", "abbr='gsm8k-renamed'")
                     .replace("abbr='boolq'", "abbr='boolq-renamed'"), encoding="utf-8")
    run = run_cli("verify", RUN, "--config", str(other), cwd=fixture)
    assert run.code == 1
    assert "not in the config" in run.out
    assert "verify: no recorded prompt could be compared" in run.out
    assert "match" not in run.out.splitlines()[-1]
    assert "gsm8k-renamed × fake-lm: 0 matched, 0 differing, 4 missing (no predictions: " in run.out
    assert "or it is named otherwise in the run, which has 3 pair(s) this config lacks)" in run.out


def test_run_outputs_show_beside_each_request_in_the_json(fixture: Path) -> None:
    config = f"{RUN}/configs/20261124_000000_1.py"
    run = run_cli("render", config, "--run", RUN, "--dataset", "gsm8k", "--model", "fake-api", cwd=fixture)
    assert run.code == 0, run.err
    samples = json.loads(run.out)["renders"][0]["samples"]
    recorded = json.loads((fixture / RUN / "predictions" / "fake-api" / "gsm8k.json").read_text(encoding="utf-8"))
    assert [s["requests"][0]["recorded_output"] for s in samples] == [recorded[str(i)]["prediction"]
                                                                      for i in range(4)]
    bad = run_cli("render", config, "--run", "runs/none", cwd=fixture)
    assert bad.code == 2 and "--run" in bad.err and "run folder not found" in bad.err


@pytest.mark.anyio
async def test_v_shows_the_recorded_answer_in_the_app(fixture: Path) -> None:
    import os

    from workbench.tui.app import create_app
    from workbench.tui.session import Inputs

    from ..tui.conftest import pane_text, press, settle

    old = Path.cwd()
    os.chdir(fixture)
    try:
        inputs = Inputs(configs=(f"{RUN}/configs/20261124_000000_1.py",), run=RUN)
        app = create_app(inputs, watch=False, deterministic=True)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot)
            assert "api answer" not in pane_text(app, "final-input")
            await press(pilot, "v")
            text = pane_text(app, "final-input")
            assert "the model's answer, as the run recorded it" in text
            assert "answer " in text
    finally:
        os.chdir(old)


def test_aisbench_jsonl_records_are_read_by_id(fixture: Path) -> None:
    # AISBench's layout (predictions/<model>/<dataset>.jsonl, a line per finished request, in
    # any order, keyed by "id"), written here from the OpenCompass run's own records
    predictions = fixture / RUN / "predictions" / "fake-lm"
    records = json.loads((predictions / "gsm8k.json").read_text(encoding="utf-8"))
    (predictions / "gsm8k.json").unlink()
    lines = [{"data_abbr": "gsm8k", "id": int(i), "success": True, "uuid": f"u{i}", **r}
             for i, r in reversed(records.items())]
    (predictions / "gsm8k.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    (predictions / "gsm8k_failed.jsonl").write_text('{"id": 9, "input": "x", "error_info": "boom"}\n',
                                                    encoding="utf-8")
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 1, run.out + run.err  # (boolq × fake-api: REFUSED)
    assert "gsm8k × fake-lm: 4 matched, 0 differing, 0 missing" in run.out
    (predictions / "gsm8k.jsonl").write_text('{"id": 0, "origin_prompt": "x"}\n{"id": 1, "orig', encoding="utf-8")
    broken = run_cli("verify", RUN, cwd=fixture)
    assert broken.code == 3 and f"{RUN}/predictions/fake-lm/gsm8k.jsonl:2: " in broken.err


def test_rows_that_fail_to_load_are_the_error_not_a_pair_missing_from_the_config(fixture: Path) -> None:
    # the dataset exists, its rows do not load: that error, located, and exit 3 (errors outrank
    # differences), not "not in the config"
    (fixture / "data" / "gsm8k" / "test.jsonl").write_text('{"question": "q", "answer": "a"}\n{bad\n',
                                                           encoding="utf-8")
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 3, run.out + run.err
    assert "not in the config" not in run.out
    assert "gsm8k × fake-lm: 0 matched" in run.out and "not rendered: invalid JSON" in run.out
    (line,) = [line for line in run.err.splitlines() if "invalid JSON" in line]
    assert line.startswith(f"{fixture / 'data' / 'gsm8k' / 'test.jsonl'}:2: [gsm8k × no model] invalid JSON")


def test_a_model_whose_task_crashed_is_named_and_fails(fixture: Path) -> None:
    # OpenCompass writes predictions/<model>/ only once a task finishes a dataset: a task that
    # crashed (its traceback in logs/infer/<model>/<dataset>.out) leaves no folder at all
    shutil.rmtree(fixture / RUN / "predictions" / "fake-api")
    (fixture / RUN / "logs" / "infer" / "fake-api").mkdir(parents=True, exist_ok=True)
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 1, run.out + run.err
    assert "gsm8k × fake-api: 0 matched, 0 differing, 4 missing (no predictions: the config has this pair, " \
        "and the run wrote none for it: its inference task did not run, or crashed (its log: " in run.out
    last = run.out.rstrip().splitlines()[-1]
    assert last == ("verify: all 7 compared samples match, 0 missing; 2 pairs of the config with no predictions "
                    "(the task did not run or crashed)")
    document = json.loads(run_cli("verify", RUN, "-f", "json", cwd=fixture).out)
    assert [p["status"] for p in document["pairs"]] == ["compared", "compared", "no predictions", "no predictions"]
    # a task stopped mid-way keeps what it answered in tmp_<dataset>.json, to resume from
    (fixture / RUN / "predictions" / "fake-api").mkdir()
    (fixture / RUN / "predictions" / "fake-api" / "tmp_gsm8k.json").write_text("{}", encoding="utf-8")
    stopped = run_cli("verify", RUN, cwd=fixture)
    assert stopped.code == 1 and "(tmp_gsm8k.json holds the samples answered before it stopped)" in stopped.out


TRACEBACK = ("Traceback (most recent call last):\n  File \"icl_fix_k_retriever.py\", line 47, in retrieve\n"
             "    assert idx < num_idx, f'Index {idx} is out of range of {num_idx}'\n"
             "AssertionError: Index 99 is out of range of 4\n")


def test_a_run_whose_every_task_failed_is_verified_against_the_render_failing_the_same_way(fixture: Path) -> None:
    # OpenCompass ran, every inference task crashed (a FixK index past the train split): no
    # predictions at all, only the tasks' logs. The render fails those pairs as the run did, and
    # the verdict says both, with the exception each task's log ends with.
    config = fixture / "broken.py"
    config.write_text((fixture / "eval_fixture.py").read_text(encoding="utf-8")
                      .replace("fix_id_list=[0, 1]", "fix_id_list=[0, 99]"), encoding="utf-8")
    shutil.rmtree(fixture / RUN / "predictions")
    (fixture / RUN / "predictions").mkdir()
    for model in ("fake-lm", "fake-api"):
        (fixture / RUN / "logs" / "infer" / model).mkdir(parents=True, exist_ok=True)
        (fixture / RUN / "logs" / "infer" / model / "gsm8k.out").write_text("loading...\n" + TRACEBACK,
                                                                             encoding="utf-8")
    run = run_cli("verify", RUN, "--config", str(config), cwd=fixture)
    assert run.code == 1, run.out + run.err
    line = next(line for line in run.out.splitlines() if "gsm8k × fake-api" in line)
    assert ("no predictions: the render fails this pair of the config (FixKRetriever: Index 99 is out of range "
            "of 4), and the run wrote none for it either: its inference task failed with AssertionError: Index "
            "99 is out of range of 4 (its log: ") in line
    assert run.out.rstrip().splitlines()[-1] == ("verify: no recorded prompt could be compared, 0 missing; 4 pairs "
                                                 "of the config with no predictions (the task did not run or crashed)")
    # boolq × fake-lm rendered, and its task's log ends in no exception: not run, or crashed
    assert "boolq × fake-lm: 0 matched, 0 differing, 3 missing (no predictions: the config has this pair" in run.out
    assert run_cli("verify", RUN, "--config", str(config), "--strict", cwd=fixture).code == 3
    # without the tasks' logs the run may still be starting: nothing to verify yet
    shutil.rmtree(fixture / RUN / "logs")
    waiting = run_cli("verify", RUN, "--config", str(config), cwd=fixture)
    assert waiting.code == 3 and "holds no prediction files" in waiting.err and "wait for inference" in waiting.err


def test_a_crashed_tasks_exception_is_read_from_the_end_of_its_log_only(fixture: Path) -> None:
    from workbench.loading.run_folder import MAX_LOG_TAIL, task_failure

    logs = fixture / RUN / "logs" / "infer" / "fake-api"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "gsm8k_1.out").write_text("ValueError: an early one\n" + "x" * MAX_LOG_TAIL + "\n" + TRACEBACK,
                                      encoding="utf-8")
    found = task_failure(fixture / RUN, "fake-api", "gsm8k")
    assert found is not None and found[0].name == "gsm8k_1.out"
    assert found[1] == "AssertionError: Index 99 is out of range of 4"
    (logs / "gsm8k_1.out").write_text("all done\n", encoding="utf-8")
    assert task_failure(fixture / RUN, "fake-api", "gsm8k") is None


def test_a_run_with_no_predictions_folder_but_failed_tasks_is_verified(fixture: Path) -> None:
    # AISBench makes predictions/ only when a task writes its first prediction, and colours the
    # exception in its task's log
    shutil.rmtree(fixture / RUN / "predictions")
    logs = fixture / RUN / "logs" / "infer" / "fake-api"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "gsm8k.out").write_text("ais_bench.benchmark.utils.logging.exceptions.AISBenchValueError: "
                                    "[\x1b[1m\x1b[41mICLR-PARAM-004\x1b[0m] fix-k retriever index out of range\n",
                                    encoding="utf-8")
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 1, run.out + run.err
    assert ("gsm8k × fake-api: 0 matched, 0 differing, 4 missing (no predictions: the config has this pair, and "
            "the run wrote none for it: its inference task failed with ais_bench.benchmark.utils.logging."
            "exceptions.AISBenchValueError: [ICLR-PARAM-004] fix-k retriever index out of range (its log: ") in run.out
    shutil.rmtree(fixture / RUN / "logs")
    assert "has no predictions/ folder" in run_cli("verify", RUN, cwd=fixture).err


def test_a_truncation_mode_says_the_match_is_of_the_uncut_prompt(fixture: Path) -> None:
    # OpenAI with mode='mid' cuts every message over max_seq_len - 100 - max_out_len before
    # sending (openai_api.py _preprocess_messages / _bin_trim); the run records origin_prompt uncut
    config = fixture / RUN / "configs" / "20261124_000000_1.py"
    cut = fixture / "cut.py"
    cut.write_text(config.read_text(encoding="utf-8").replace("max_seq_len=4096,", "max_seq_len=160, mode='mid',"),
                   encoding="utf-8")
    run = run_cli("verify", RUN, "--config", str(cut), cwd=fixture)
    assert run.code == 1, run.out + run.err  # (boolq × fake-api: REFUSED)
    assert "gsm8k × fake-api: 4 matched, 0 differing, 0 missing (4 matched sample(s) compared uncut: the model " \
        "class cut their input before sending it" in run.out
    assert run.out.rstrip().endswith("4 matched sample(s) compared uncut: the model class cut them before sending")
    assert REFUSED in run.out
    assert "would cut the input to fit max_seq_len (mode='mid')" in run.err  # render's own warning, said once
    assert run.err.count("would cut the input") == 1


def test_placeholder_rows_are_not_compared_and_say_why(fixture: Path) -> None:
    shutil.rmtree(fixture / "data" / "gsm8k")
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 1, run.out + run.err
    for model in ("fake-lm", "fake-api"):
        assert f"gsm8k × {model}: 0 matched, 0 differing, 0 missing, 4 not checked (not compared: no rows found " \
            "(looked for " in run.out
    assert "placeholder rows built from reader_cfg and every prompt would differ from the run's" in run.out
    assert "differ" not in run.out.rstrip().splitlines()[-1].split(";")[0]
    assert run.out.rstrip().endswith("; 2 pairs not compared: placeholder rows, no data found")
    assert "no rows found" not in run.err  # (said in each pair's report, not again)


def test_bad_prediction_files_are_located_and_the_rest_is_verified(fixture: Path, monkeypatch) -> None:
    predictions = fixture / RUN / "predictions"
    file = predictions / "fake-lm" / "gsm8k.json"
    file.write_text(file.read_text(encoding="utf-8")[:300], encoding="utf-8")  # truncated
    # a record without origin_prompt, and one that is not an object
    api = predictions / "fake-api" / "gsm8k.json"
    records = json.loads(api.read_text(encoding="utf-8"))
    del records["1"]["origin_prompt"]
    records["3"] = "oops"
    api.write_text(json.dumps(records, indent=4), encoding="utf-8")
    # a predictions file for a pair the config lacks
    (predictions / "fake-lm" / "mmlu.json").write_text('{"0": {"origin_prompt": "x"}}', encoding="utf-8")
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 3, run.out + run.err
    lines = run.err.splitlines()
    assert lines[0].startswith(f"{RUN}/predictions/fake-api/gsm8k.json:") and "record '3' is not an object" in lines[0]
    assert lines[1].startswith(f"{RUN}/predictions/fake-lm/gsm8k.json:3: ") and "not valid JSON" in lines[1]
    assert "Traceback" not in run.err
    assert "boolq × fake-lm: 3 matched, 0 differing, 0 missing\n" in run.out  # the rest, verified
    assert "gsm8k × fake-api: 2 matched, 0 differing, 1 missing, 1 not checked (not checked (sample 1 of " \
        "gsm8k.json): the record has no origin_prompt)" in run.out
    assert "mmlu × fake-lm: 0 matched, 0 differing, 0 missing, 1 not checked (not in the config: no dataset × " \
        f"model of that name ({RUN}/predictions/fake-lm/mmlu.json))" in run.out
    assert run.out.rstrip().endswith("2 part(s) of the run could not be read (said above)")
    # nested deeper than the JSON reader goes: said, not a traceback
    (predictions / "fake-lm" / "mmlu.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    deep = run_cli("verify", RUN, cwd=fixture)
    assert deep.code == 3 and f"{RUN}/predictions/fake-lm/mmlu.json: prediction JSON nested too deep" in deep.err
    assert "Traceback" not in deep.err and "boolq × fake-lm: 3 matched" in deep.out
    # a file over the size limit: said, not read, the rest verified
    from workbench.loading import run_folder

    monkeypatch.setattr(run_folder, "MAX_PREDICTION_BYTES", 2500)  # boolq.json: 2695 bytes
    file.unlink()
    big = run_cli("verify", RUN, cwd=fixture)
    assert big.code == 3
    assert f"{RUN}/predictions/fake-lm/boolq.json" in big.err and "its records are not read" in big.err


def test_a_huge_recorded_prompt_is_diffed_within_bounds(fixture: Path) -> None:
    file = fixture / RUN / "predictions" / "fake-lm" / "gsm8k.json"
    records = json.loads(file.read_text(encoding="utf-8"))
    records["0"]["origin_prompt"] = "x" * 3_000_000  # one line of 3 MB, nothing like the render
    file.write_text(json.dumps(records), encoding="utf-8")
    run = run_cli("verify", RUN, cwd=fixture)
    assert run.code == 1
    assert "gsm8k × fake-lm: 3 matched, 1 differing, 0 missing" in run.out
    assert "[… 2,980,000 more characters not shown; --format json has them]" in run.out
    assert len(run.out) < 100_000
