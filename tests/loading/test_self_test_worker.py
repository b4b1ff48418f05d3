"""The app's PW213 (docs/lint.md, "In the app"): a dataset's extraction self-test in the config
worker's bounded child, the same checks as in-process, only the rows they read sent; a pattern that
backtracks forever ends that dataset's child (said, kind ``bounded``), not the worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.answers.self_test import self_test, self_test_rows
from workbench.core.dataset_reader import ReaderConfig, build_splits
from workbench.loading.workspace import Loader

CONFIG = Path(__file__).parents[1] / "tui" / "fixtures" / "answer_format" / "eval.py"


def test_the_worker_runs_the_same_checks_and_cuts_a_runaway_pattern():
    with Loader() as loader:
        workspace = loader.load([CONFIG])
        specs = {spec.abbr: spec for spec in workspace.datasets}
        mcq = specs["mcq"]
        splits = build_splits(mcq.rows, ReaderConfig.from_cfg(mcq.cfg["reader_cfg"]), "mcq", mcq.framework)
        here = [vars(c) for c in self_test(mcq.cfg, {}, splits.train, splits.test)]
        assert loader.self_test(mcq, None, 10.0) == {"checks": here}
        assert [c["correct"] for c in here] == [False, False, True]  # two exemplars misread, the format read
        cut = loader.self_test(specs["runaway"], None, 0.5)
        assert cut == {"error": "the self-test ran past 0.5 s", "hint": None, "kind": "bounded"}
        fine = loader.self_test(specs["fine"], None, 10.0)  # the worker goes on
        assert [c["correct"] for c in fine["checks"]] == [True, True, True]


def test_only_the_rows_the_checks_read_are_sent():
    train = [{"q": f"q{i}", "a": "AB"[i % 2]} for i in range(1000)]
    test = [{"q": "t0", "a": "A"}, {"q": "t1", "a": "B"}]
    fixed = {"infer_cfg": {"retriever": {"type": "FixKRetriever", "fix_id_list": [7, 3, 5000]}}}
    assert self_test_rows(fixed, train, test) == {"exemplars": [[7, train[7]], [3, train[3]]], "test": [test[0]]}
    first = self_test_rows({}, train, [])
    assert [i for i, _ in first["exemplars"]] == [0, 1, 2, 3, 4] and first["test"] == []


def test_general_cn_is_segmented_in_the_worker_as_in_lint():
    """``general_cn_postprocess`` needs jieba's segmenter: the worker's child builds it, so the app
    checks such a dataset as ``lint`` does (the same checks as in-process with the segmenter)."""
    pytest.importorskip("jieba")
    from workbench.loading.chinese_segmenter import jieba_segmenter
    from workbench.loading.config.worker import ConfigWorker

    dataset = {"reader_cfg": {"input_columns": ["q"], "output_column": "answer"},
               "infer_cfg": {"ice_template": {"template": "{q}\n答案：{answer}\n"},
                             "prompt_template": {"template": "</E>{q}\n", "ice_token": "</E>"},
                             "retriever": {"type": "FixKRetriever", "fix_id_list": [0]}},
               "eval_cfg": {"evaluator": {"type": "opencompass.openicl.icl_evaluator.BleuEvaluator"},
                            "pred_postprocessor": {"type": "general_cn"}}}
    train = [{"q": "问题", "answer": "我爱北京天安门"}]
    here = [vars(c) for c in self_test(dataset, {}, train, train, jieba_segmenter)]
    assert "我 爱 北京 天安门" in here[0]["extracted"]  # segmented: words joined by spaces
    with ConfigWorker() as running:
        assert running.self_test(dataset, {}, self_test_rows(dataset, train, train), "eval.py") == {"checks": here}
