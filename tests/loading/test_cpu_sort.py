"""Which of numpy's sorts orders tied retriever scores: the setting, else this machine's CPU."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.replicas.numpy_argsort import numpy_sort, set_numpy_sort
from workbench.loading.cpu import cpu_sort, machine_sort

SKX = "fpu sse2 avx2 avx512f avx512dq avx512cd avx512bw avx512vl"


def _cpuinfo(tmp_path: Path, flags: str) -> Path:
    path = tmp_path / "cpuinfo"
    path.write_text(f"processor\t: 0\nmodel name\t: x\nflags\t\t: {flags}\n\nprocessor\t: 1\n", encoding="ascii")
    return path


def test_the_cpu_s_flags_decide(tmp_path: Path) -> None:
    assert cpu_sort(_cpuinfo(tmp_path, SKX)) == "avx512"
    # numpy's AVX512_SKX needs all five: AVX512F alone (Knights Landing) sorts the portable way
    assert cpu_sort(_cpuinfo(tmp_path, "fpu sse2 avx2 avx512f avx512cd")) == "baseline"
    assert cpu_sort(tmp_path / "missing") == "baseline"  # (not Linux: no flags to read)


def test_the_setting_wins_and_a_bad_one_is_said(tmp_path: Path) -> None:
    info = _cpuinfo(tmp_path, SKX)
    assert machine_sort({}, info) == ("avx512", None)
    assert machine_sort({"WORKBENCH_NUMPY_SORT": "auto"}, info) == ("avx512", None)
    assert machine_sort({"WORKBENCH_NUMPY_SORT": " Baseline "}, info) == ("baseline", None)
    sort, problem = machine_sort({"WORKBENCH_NUMPY_SORT": "avx2"}, info)
    assert sort == "avx512"
    assert problem is not None and "'avx2' is not one of auto, baseline, avx512" in problem


def test_set_numpy_sort_refuses_an_unknown_name() -> None:
    with pytest.raises(ValueError, match="one of baseline, avx512"):
        set_numpy_sort("avx2")


BM25_CONFIG = '''
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import BM25Retriever
from opencompass.openicl.icl_inferencer import GenInferencer

datasets = [dict(
    abbr="ties", type="X", path="x",
    reader_cfg=dict(input_columns=["question"], output_column="answer"),
    infer_cfg=dict(
        ice_template=dict(type=PromptTemplate, template="{question}={answer}\\n"),
        prompt_template=dict(type=PromptTemplate, template="</E>{question}=", ice_token="</E>"),
        retriever=dict(type=BM25Retriever, ice_num=3),
        inferencer=dict(type=GenInferencer),
    ),
)]
'''


@pytest.mark.parametrize("sort", ["baseline", "avx512"])
def test_render_orders_ties_as_the_setting_says_and_warns(sort: str, tmp_path: Path, capsys,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cfg.py").write_text(BM25_CONFIG, encoding="utf-8")
    words = ["cat", "dog", "tea", "rain"]
    rows = {"train": [{"question": f"{words[i % 4]} story {i // 4}", "answer": str(i)} for i in range(90)],
            "test": [{"question": "cat story", "answer": "x"}]}
    (tmp_path / "rows.json").write_text(json.dumps(rows), encoding="utf-8")
    monkeypatch.setenv("WORKBENCH_NUMPY_SORT", sort)
    before = numpy_sort()
    try:
        code = main(["render", str(tmp_path / "cfg.py"), "--data", str(tmp_path / "rows.json"), "-f", "json",
                     "--out", str(tmp_path / "out.json")])
    finally:
        set_numpy_sort(before)
    assert code == 0
    doc = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    picks = doc["renders"][0]["samples"][0]["ice_indices"]
    from workbench.core.retrievers.bm25 import bm25_picks

    train = [r["question"] for r in rows["train"]]
    assert picks == bm25_picks(train, ["cat story"], 3, sort=sort)[0]
    assert picks != bm25_picks(train, ["cat story"], 3, sort="baseline" if sort == "avx512" else "avx512")[0]
    messages = [w["message"] for w in doc["warnings"]]
    other = "baseline" if sort == "avx512" else "avx512"
    assert any("tied scores decide the in-context examples of 1 of 1 test rows (rows 0)" in m
               and f"WORKBENCH_NUMPY_SORT={other}" in m for m in messages), messages


def test_a_bad_setting_is_one_warning_line(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_NUMPY_SORT", "fast")
    before = numpy_sort()
    try:
        assert main(["--version"]) == 0  # (said for every command but --version)
        assert main(["render", "--help"]) == 0
    except SystemExit as exc:
        assert exc.code == 0
    finally:
        set_numpy_sort(before)
    err = capsys.readouterr().err
    assert err.count("WORKBENCH_NUMPY_SORT='fast' is not one of auto, baseline, avx512") == 1
