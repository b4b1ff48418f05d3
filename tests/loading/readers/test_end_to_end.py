"""Configs written the way the shipped ones are (same imports, same arguments, data ids and
``./data/...`` paths) render real rows from a data folder in the OpenCompass layout under
``$COMPASS_DATA_CACHE``, through the native reader of their class, and say so in the JSON.

The data files are the reader cases' fixtures, already held to the real ``load()``; the rows a
render shows are checked against those cases' goldens.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.headless.helpers import run_cli

CASES = Path(__file__).parent / "cases"
TEMPLATE = "dict(round=[dict(role='HUMAN', prompt='{prompt}'), dict(role='BOT', prompt='{answer}\\n')])"
GEN_CFG = f"""
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer

reader_cfg = dict(input_columns=['prompt'], output_column='answer')
infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template={TEMPLATE}),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)
"""

#: name → (config text, {case fixture path: where under the data cache}, golden case, column shown)
CONFIGS: dict[str, tuple[str, dict[str, str], str, str]] = {
    # SuperGLUE_CB_ppl_0143fe.py: load_dataset('json', data_files=..., split='train')
    "hf_dataset": ("""
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.datasets import HFDataset

CB_reader_cfg = dict(input_columns=['premise', 'hypothesis'], output_column='label')
CB_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template={
        label: dict(round=[dict(role='HUMAN', prompt='{premise}\\n{hypothesis}\\nWhat is the relation?'),
                           dict(role='BOT', prompt=label.capitalize())])
        for label in ('contradiction', 'entailment', 'neutral')}),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLInferencer),
)
CB_datasets = [dict(type=HFDataset, abbr='CB', path='json', split='train',
                    data_files='./data/SuperGLUE/CB/val.jsonl',
                    reader_cfg=CB_reader_cfg, infer_cfg=CB_infer_cfg)]
""", {"hf_json/data/SuperGLUE": "SuperGLUE"}, "hf_json", "premise"),
    # needlebench_4k/needlebench_single_4k.py
    "needlebench": (GEN_CFG + """
from opencompass.datasets.needlebench.origin import NeedleBenchOriginDataset

needlebench_datasets = [{
    'abbr': 'Length120Depth50_origin_en_4k', 'type': NeedleBenchOriginDataset,
    'path': 'opencompass/needlebench', 'length': 120, 'depth': 50, 'tokenizer_model': 'gpt-4',
    'file_list': ['PaulGrahamEssays.jsonl'], 'num_repeats_per_file': 3, 'length_buffer': 20,
    'guide': True, 'language': 'English', 'needle_file_name': 'needles.jsonl',
    'reader_cfg': reader_cfg, 'infer_cfg': infer_cfg,
}]
""", {"nb_origin_v1/needlebench": "needlebench"}, "nb_origin_v1", "prompt"),
    # bigcodebench/bigcodebench_hard_instruct_gen_c3d5ad.py
    "bigcodebench": ("""
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.datasets import BigCodeBenchDataset

bigcodebench_hard_instruct_datasets = [dict(
    abbr='bigcodebench_hard_instruct', type=BigCodeBenchDataset, path='opencompass/bigcodebench',
    reader_cfg=dict(input_columns=['instruct_prompt'], output_column='test'),
    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template=dict(
        round=[dict(role='HUMAN', prompt='{instruct_prompt}')])),
        retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)),
    release_version='v0.1.2', dataset_version='hard')]
""", {"bigcodebench_hard/data/bigcodebench": "bigcodebench"}, "bigcodebench_hard", "instruct_prompt"),
    # livemathbench/livemathbench_gen_9befbf.py
    "livemathbench": ("""
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.datasets.livemathbench import LiveMathBenchDataset

livemathbench_datasets = [dict(
    type=LiveMathBenchDataset, abbr='LiveMathBench', path='opencompass/LiveMathBench',
    dataset_splits=['CNMO', 'AMC'], dataset_languages=['cn', 'en'], cot=True, version='202412',
    reader_cfg=dict(input_columns=['prompt'], output_column='answer'),
    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template=dict(
        round=[dict(role='HUMAN', prompt='{prompt}')])),
        retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))]
""", {"livemathbench/data/LiveMathBench": "LiveMathBench"}, "livemathbench", "prompt"),
    # ruler/ruler_qa_gen.py (then max_seq_length and num_samples set as ruler_4k_gen.py sets them)
    "ruler_qa": (GEN_CFG + """
from opencompass.datasets.ruler.ruler_qa import RulerQaDataset

qa_datasets = [{'abbr': 'ruler_qa_squad', 'type': RulerQaDataset, 'dataset': 'squad',
                'path': './data/ruler/dev-v2.0.json', 'tokens_to_generate': 32,
                'max_seq_length': 300, 'num_samples': 3, 'tokenizer_model': 'gpt-4',
                'reader_cfg': reader_cfg, 'infer_cfg': infer_cfg}]
""", {"ruler_qa_squad/data/ruler": "ruler"}, "ruler_qa_squad", "prompt"),
    # ruler/ruler_vt_gen.py: no data files at all
    "ruler_vt": (GEN_CFG + """
from opencompass.datasets.ruler.ruler_vt import RulerVtDataset

vt_datasets = [{'abbr': 'ruler_vt', 'type': RulerVtDataset, 'num_chains': 1, 'num_hops': 4,
                'max_seq_length': 700, 'num_samples': 3, 'tokenizer_model': 'gpt-4',
                'reader_cfg': reader_cfg, 'infer_cfg': infer_cfg}]
""", {}, "ruler_vt", "prompt"),
}


def _first_row(case: str) -> dict[str, Any]:
    result = json.loads((CASES / case / "expected.json").read_text(encoding="utf-8"))["result"]
    return (result["test"] if isinstance(result, dict) else result)[0]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_shipped_style_config_renders_native_rows(name: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if importlib.util.find_spec("tiktoken") is None and name in ("needlebench", "ruler_qa", "ruler_vt"):
        pytest.skip("needs tiktoken (the tokens extra)")
    text, layout, case, column = CONFIGS[name]
    cache = tmp_path / "cache"
    for source, target in layout.items():
        shutil.copytree(CASES / source, cache / "data" / target)
    (tmp_path / "work").mkdir()
    config = tmp_path / "work" / f"{name}_gen.py"
    config.write_text(text, encoding="utf-8")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    monkeypatch.setenv("HOME", str(tmp_path))
    run = run_cli("render", str(config), "--format", "json", "--limit", "1", cwd=tmp_path / "work")
    assert run.code == 0, run.err
    document = json.loads(run.out)
    render = document["renders"][0]
    source = render["rows_source"]
    assert source["kind"] == "native-reader"
    assert source["reader"] in text
    if layout:
        assert source["path"].startswith(str(cache / "data"))
    else:
        assert source["path"] is None  # made from the config's arguments alone
    shown = json.dumps(render["samples"][0]["requests"][0]["prompt_list"], ensure_ascii=False)
    first = _first_row(case)[column]
    assert json.dumps(first, ensure_ascii=False)[1:-1][:200] in shown
    assert "‹" not in shown
    assert not [w for w in document["warnings"] if "no rows found" in w["message"]]


def test_a_config_the_reader_declines_renders_placeholders_and_says_why(tmp_path: Path) -> None:
    # ruler_128k_gen.py: the native reader does not make 128k samples (minutes of work)
    config = tmp_path / "ruler_vt_128k_gen.py"
    config.write_text(CONFIGS["ruler_vt"][0].replace("'max_seq_length': 700", "'max_seq_length': 131072"),
                      encoding="utf-8")
    run = run_cli("render", str(config), "--format", "json", "--limit", "1", cwd=tmp_path)
    assert run.code == 0, run.err
    document = json.loads(run.out)
    assert document["renders"][0]["rows_source"]["kind"] == "placeholder"
    (warning,) = [w["message"] for w in document["warnings"]]
    assert warning.startswith("RulerVtDataset at max_seq_length 131072: the native reader makes samples up "
                              "to 16384 tokens")
    assert "showing placeholders" in warning and "--framework-python" in warning
