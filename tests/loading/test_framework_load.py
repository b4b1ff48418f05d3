"""The framework route: a dataset class with no native reader gets its rows from its own
``load()``, run in the Python named by --framework-python (here a stand-in framework package,
never the real one), under a time limit, cached on disk by the data files' stat."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

#: As OpenCompass's BaseDataset (datasets/base.py): __init__ takes the dataset dict less type,
#: infer_cfg and eval_cfg, and calls self.load() with what is left once abbr is popped.
BASE = '''\
class BaseDataset:
    def __init__(self, reader_cfg={}, k=1, n=1, **kwargs):
        kwargs.pop("abbr", "dataset")
        self.dataset = self.load(**kwargs)
        self.reader_cfg = reader_cfg
'''

FRAMEWORK = BASE + '''
import json, os, time

class CountingDataset(BaseDataset):
    @staticmethod
    def load(path, name, sleep=0, fail=False, hub=False):
        if fail:
            raise ValueError("the files are broken")
        if hub:  # as `datasets` says it with HF_DATASETS_OFFLINE=1
            raise ConnectionError("Couldn't reach 'some/dataset' on the Hub (OfflineModeIsEnabled)")
        time.sleep(sleep)
        with open(os.environ["LOADS_LOG"], "a") as log:
            log.write("load\\n")
        rows = [json.loads(line) for line in open(os.path.join(path, name + ".txt"))]
        return {"train": rows[:1], "test": rows}
'''

CONFIG = '''\
from opencompass.datasets import CountingDataset
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr='counting', type=CountingDataset, path='./mydata', name='part', {extra}
    reader_cfg=dict(input_columns=['q'], output_column='a'),
    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {q}\\nA:'),
                   retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)),
)]
'''


@pytest.fixture()
def framework(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    package = tmp_path / "fw" / "opencompass" / "datasets"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text(FRAMEWORK, encoding="utf-8")
    python = tmp_path / "framework-python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{tmp_path / "fw"}" exec "{sys.executable}" "$@"\n',
                      encoding="utf-8")
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    (tmp_path / "mydata").mkdir()
    (tmp_path / "mydata" / "part.txt").write_text('{"q": "one?", "a": "1"}\n{"q": "two?", "a": "2"}\n',
                                                    encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LOADS_LOG", str(tmp_path / "loads.log"))
    return tmp_path


def _write(folder: Path, extra: str = "") -> Path:
    config = folder / "eval.py"
    config.write_text(CONFIG.replace("{extra}", extra), encoding="utf-8")
    return config


def test_rows_come_from_the_classes_own_load_and_are_cached(framework: Path) -> None:
    config = _write(framework)
    python = str(framework / "framework-python")
    first = run_cli("render", str(config), "--framework-python", python, cwd=framework)
    assert first.code == 0, first.err
    render = json.loads(first.out)["renders"][0]
    assert render["rows_source"]["kind"] == "framework-load"
    assert render["rows_source"]["reader"] == "CountingDataset"
    assert [s["requests"][0]["prompt_list"] for s in render["samples"]] == ["Q: one?\nA:", "Q: two?\nA:"]
    again = run_cli("render", str(config), "--framework-python", python, cwd=framework)
    assert again.out == first.out
    assert (framework / "loads.log").read_text().count("load") == 1  # the second came from the cache
    os.utime(framework / "mydata" / "part.txt", ns=(1, 1))  # a changed file loads again
    run_cli("render", str(config), "--framework-python", python, cwd=framework)
    assert (framework / "loads.log").read_text().count("load") == 2


def test_a_load_that_raises_is_a_located_error(framework: Path) -> None:
    config = _write(framework, "fail=True,")
    run = run_cli("render", str(config), "--framework-python", str(framework / "framework-python"),
                  cwd=framework)
    assert run.code == 3
    assert run.err.startswith(f"{config}:")
    assert "CountingDataset.load() failed: ValueError: the files are broken" in run.err
    assert "Traceback" not in run.err


def test_a_load_that_hangs_is_stopped(framework: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.loading.rows import framework_load

    monkeypatch.setattr(framework_load, "TIMEOUT", 1.0)
    config = _write(framework, "sleep=30,")
    run = run_cli("render", str(config), "--framework-python", str(framework / "framework-python"),
                  cwd=framework)
    # no answer is not what a run does: the next route gives the rows, and the warning says why
    assert run.code == 0, run.err
    assert json.loads(run.out)["renders"][0]["rows_source"]["kind"] == "placeholder"
    assert "CountingDataset.load() ran past 1 s" in run.err
    assert "showing placeholders" in run.err


def test_without_a_framework_the_route_is_skipped(framework: Path) -> None:
    config = _write(framework)
    run = run_cli("render", str(config), cwd=framework)
    assert run.code == 0
    assert json.loads(run.out)["renders"][0]["rows_source"]["kind"] == "placeholder"


def test_a_framework_python_that_does_not_exist(framework: Path) -> None:
    run = run_cli("render", str(_write(framework)), "--framework-python", "/nonexistent/python",
                  cwd=framework)
    assert run.code == 0, run.err
    assert "cannot run --framework-python /nonexistent/python" in run.err
    assert json.loads(run.out)["renders"][0]["rows_source"]["kind"] == "placeholder"


def test_a_class_only_in_its_own_module_is_found_there(framework: Path) -> None:
    # NeedleBenchParallelDataset lives in opencompass.datasets.needlebench.parallel (v1) and
    # ...needlebench_v2.parallel (v2), and the package does not export either: the route loads
    # the one the config imports.
    package = framework / "fw" / "opencompass" / "datasets"
    for version, label in (("needlebench", "v1"), ("needlebench_v2", "v2")):
        (package / version).mkdir()
        (package / version / "__init__.py").write_text("", encoding="utf-8")
        (package / version / "parallel.py").write_text(
            "from opencompass.datasets import BaseDataset\n"
            "class NeedleBenchParallelDataset(BaseDataset):\n    @staticmethod\n    def load(path, name):\n"
            f"        return [{{'q': '{label}', 'a': 'x'}}]\n", encoding="utf-8")
    config = framework / "eval.py"
    config.write_text(CONFIG.replace("from opencompass.datasets import CountingDataset",
                                     "from opencompass.datasets.needlebench_v2.parallel import "
                                     "NeedleBenchParallelDataset")
                      .replace("CountingDataset", "NeedleBenchParallelDataset").replace("{extra}", ""),
                      encoding="utf-8")
    run = run_cli("render", str(config), "--framework-python", str(framework / "framework-python"),
                  cwd=framework)
    assert run.code == 0, run.err
    render = json.loads(run.out)["renders"][0]
    assert render["rows_source"]["kind"] == "framework-load"
    assert render["samples"][0]["requests"][0]["prompt_list"] == "Q: v2\nA:"


def _framework_package(framework: Path, source: str) -> None:
    (framework / "fw" / "opencompass" / "datasets" / "__init__.py").write_text(source, encoding="utf-8")


def _prompts(run) -> list[str]:
    return [s["requests"][0]["prompt_list"] for s in json.loads(run.out)["renders"][0]["samples"]]


def test_an_import_that_fails_says_why_and_a_rows_file_that_works_wins(framework: Path) -> None:
    # the framework's package does not import in that Python (OpenCompass without torch)
    _framework_package(framework, 'raise ModuleNotFoundError("No module named \'torch\'", name="torch")\n')
    config = _write(framework)
    python = str(framework / "framework-python")
    run = run_cli("render", str(config), "--framework-python", python, cwd=framework)
    assert run.code == 0, run.err
    warning = next(line for line in run.err.splitlines() if "No module named 'torch'" in line)
    assert f"{python} cannot load CountingDataset: cannot import opencompass.datasets: ModuleNotFoundError: " \
        "No module named 'torch'" in warning
    assert warning.endswith("showing placeholders from reader_cfg (hint: --framework-python PATH runs "
                            "CountingDataset.load() in a Python where OpenCompass imports, or give the "
                            "rows with --data FILE)")
    assert json.loads(run.out)["renders"][0]["rows_source"]["kind"] == "placeholder"
    # a folder of split files the reader can take: those rows, and the warning says why
    (framework / "mydata" / "test.jsonl").write_text('{"q": "three?", "a": "3"}\n', encoding="utf-8")
    (framework / "mydata" / "train.jsonl").write_text('{"q": "four?", "a": "4"}\n', encoding="utf-8")
    run = run_cli("render", str(config), "--framework-python", python, cwd=framework)
    assert run.code == 0, run.err
    assert json.loads(run.out)["renders"][0]["rows_source"]["kind"] == "file"
    assert _prompts(run) == ["Q: three?\nA:"]
    warning = next(line for line in run.err.splitlines() if "No module named 'torch'" in line)
    assert "shown as a plain rows file" in warning


def test_load_as_an_instance_method_runs_as_the_class_builds_it(framework: Path) -> None:
    # OpenCompass's subjective datasets define `def load(self, ...)`, and some set attributes in
    # their __init__ before BaseDataset's calls self.load (AdvDataset's subset)
    _framework_package(framework, BASE + '''
import json, os

class CountingDataset(BaseDataset):
    def __init__(self, prefix="", **kwargs):
        self.prefix = prefix
        super().__init__(**kwargs)

    def load(self, path, name):
        rows = [json.loads(line) for line in open(os.path.join(path, name + ".txt"))]
        return [dict(row, q=self.prefix + row["q"]) for row in rows]
''')
    config = _write(framework, "prefix='P:',")
    run = run_cli("render", str(config), "--framework-python", str(framework / "framework-python"),
                  cwd=framework)
    assert run.code == 0, run.err
    assert _prompts(run) == ["Q: P:one?\nA:", "Q: P:two?\nA:"]


def test_the_load_runs_in_the_folder_its_relative_path_was_found_under(framework: Path) -> None:
    # the data sits beside the config, the command runs elsewhere: load() opens './mydata' as
    # written, so it runs where the workbench found that folder
    elsewhere = framework / "elsewhere"
    elsewhere.mkdir()
    run = run_cli("render", str(_write(framework)), "--framework-python", str(framework / "framework-python"),
                  cwd=elsewhere)
    assert run.code == 0, run.err
    assert json.loads(run.out)["renders"][0]["rows_source"]["kind"] == "framework-load"
    assert _prompts(run) == ["Q: one?\nA:", "Q: two?\nA:"]


def test_a_load_that_would_download_is_no_error(framework: Path) -> None:
    # the hub is off in the framework route: a run would download, so this is no failure of it
    run = run_cli("render", str(_write(framework, "hub=True,")), "--framework-python",
                  str(framework / "framework-python"), cwd=framework)
    assert run.code == 0, run.err
    assert "it needs a download, which the workbench never makes: ConnectionError: Couldn't reach" in run.err
    assert json.loads(run.out)["renders"][0]["rows_source"]["kind"] == "placeholder"


def test_a_class_that_makes_its_rows_from_its_arguments_needs_no_path(framework: Path) -> None:
    # AISBench's SyntheticDataset: `config=...`, no path; its load() makes the rows
    _framework_package(framework, BASE + '''
class CountingDataset(BaseDataset):
    def load(self, count):
        return [{"q": f"n{i}?", "a": str(i)} for i in range(count)]
''')
    config = framework / "eval.py"
    config.write_text(CONFIG.replace("{extra}", "count=2,").replace("path='./mydata', name='part', ", ""),
                      encoding="utf-8")
    python = str(framework / "framework-python")
    run = run_cli("render", str(config), "--framework-python", python, cwd=framework)
    assert run.code == 0, run.err
    assert _prompts(run) == ["Q: n0?\nA:", "Q: n1?\nA:"]
    without = run_cli("render", str(config), "-f", "text", cwd=framework)
    assert without.code == 0
    assert ("warning: [counting × no model] the dataset has no path, and no native reader makes "
            "CountingDataset's rows: showing placeholders from reader_cfg (hint: --framework-python PATH "
            "runs CountingDataset.load() in a Python where OpenCompass imports") in without.err
