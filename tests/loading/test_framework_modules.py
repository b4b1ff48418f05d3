"""A config that imports a module its framework does not have is said, with its line (issue 27,
item 8): AISBench 3.1.20260630's own mmlu_gen_5_shot_chat_prompt.py imports
ais_bench.benchmark.utils.text_postprocessors, which that version lacks."""

from __future__ import annotations

from tests.headless.helpers import run_cli
from workbench.core.warning_kinds import real_run_differs
from workbench.loading.config.config_file import load_config_file
from workbench.loading.config.framework_modules import missing_module

CONFIG = """\
from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.utils.text_postprocessors import first_option_postprocess

datasets = [dict(abbr='qa', path='qa.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {question}'),
                   retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)),
    eval_cfg=dict(pred_postprocessor=dict(type=first_option_postprocess, options='ABCD')))]
"""


def test_the_table_knows_each_frameworks_modules():
    assert missing_module("ais_bench.benchmark.openicl.icl_prompt_template") is None
    assert missing_module("opencompass.utils.text_postprocessors") is None
    assert missing_module("ais_bench.benchmark.utils.text_postprocessors") == "AISBench 3.1.20260630"
    assert missing_module("opencompass.utils.model_postprocessors") == "OpenCompass 0.5.4"
    assert missing_module("opencompass.configs.datasets.gsm8k.gsm8k_gen") is None  # a config: a file
    assert missing_module("mmengine.config") is None and missing_module("numpy") is None


def test_a_missing_module_is_one_located_warning_that_strict_makes_an_error(tmp_path):
    config = tmp_path / "eval.py"
    config.write_text(CONFIG, encoding="utf-8")
    (tmp_path / "qa.jsonl").write_text('{"question": "2+2?", "answer": "4"}\n', encoding="utf-8")
    result = load_config_file(config)
    assert result["error"] is None
    assert result["warnings"] == [
        "eval.py:4: imports ais_bench.benchmark.utils.text_postprocessors, which AISBench 3.1.20260630 "
        "does not have (ModuleNotFoundError where the run builds first_option_postprocess): the config "
        "loads, and the run fails there"]
    assert real_run_differs(result["warnings"][0])
    plain = run_cli("render", str(config), "-f", "text", cwd=tmp_path)
    assert plain.code == 0 and plain.err.count("does not have (ModuleNotFoundError") == 1
    strict = run_cli("render", str(config), "-f", "text", "--strict", cwd=tmp_path)
    assert strict.code == 3 and "eval.py:4: imports ais_bench.benchmark.utils.text_postprocessors" in strict.err
