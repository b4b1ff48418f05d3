"""Quirks met in shipped configs: each one loads, renders, or is reported the way it should be.

The framework side of each is pinned by the r_quirks / r_ais_quirks parity goldens.
"""

from __future__ import annotations

from workbench.core.errors import UnsupportedError
from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import PairRenderer

from .conftest import write

READER = "dict(input_columns=['q'], output_column='a')"
INFER = ("dict(prompt_template=dict(type=PromptTemplate, template={template}), "
         "retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer))")
IMPORTS = """from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
"""


def dataset(abbr: str, template: str = "'{q}'", reader: str = READER) -> str:
    return f"dict(abbr='{abbr}', reader_cfg={reader}, infer_cfg={INFER.format(template=template)})"


def test_datasets_names_bound_to_a_dict_or_a_function_are_skipped_with_a_warning(loader, tmp_path):
    config = write(tmp_path / "c.py", IMPORTS + f"""
good_datasets = [{dataset('good')}]
mapping_datasets = dict(x={dataset('in_a_dict')})
def helper_datasets():
    return []
""")
    workspace = loader.load([config])
    assert [d.abbr for d in workspace.datasets] == ["good"]
    assert any("mapping_datasets is a dict" in w and "skipped" in w for w in workspace.warnings)
    assert any("helper_datasets is a function" in w and "skipped" in w for w in workspace.warnings)


def test_a_reader_cfg_made_a_tuple_by_a_trailing_comma_is_named_as_such(loader, tmp_path):
    config = write(tmp_path / "c.py", IMPORTS + f"""
reader = {READER},
tuple_datasets = [dict(abbr='t', reader_cfg=reader, infer_cfg={INFER.format(template="'{q}'")})]
""")
    workspace = loader.load([config], data=[str(write(tmp_path / "rows.jsonl", '{"q": "x", "a": "y"}\n'))])
    (error,) = render_workspace(workspace.datasets, workspace.models).errors
    assert "reader_cfg is a tuple" in error.message and "trailing comma" in error.message


def test_a_system_turn_without_fallback_role_under_a_meta_template_without_system(loader, tmp_path):
    template = "dict(begin=[dict(role='SYSTEM', prompt='S')], round=[dict(role='HUMAN', prompt='{q}')])"
    config = write(tmp_path / "c.py", IMPORTS + f"""
from opencompass.models import HuggingFaceCausalLM
sys_datasets = [{dataset('sys', template)}]
models = [dict(abbr='llama', type=HuggingFaceCausalLM, path='x', meta_template=dict(
    round=[dict(role='HUMAN', begin='[INST] ', end=' [/INST]'), dict(role='BOT', begin=' ', generate=True)]))]
""")
    workspace = loader.load([config], data=[str(write(tmp_path / "rows.jsonl", '{"q": "x", "a": "y"}\n'))])
    (error,) = render_workspace(workspace.datasets, workspace.models).errors
    assert "no fallback_role" in error.message and "KeyError: None" in error.message


def test_a_datasets_own_template_class_is_reported_by_name(loader, tmp_path):
    config = write(tmp_path / "c.py", IMPORTS + f"""
from opencompass.datasets import OlympiadBenchTemplate
own_datasets = [dict(abbr='own', reader_cfg={READER}, infer_cfg=dict(
    prompt_template=dict(type=OlympiadBenchTemplate), retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer)))]
""")
    workspace = loader.load([config], data=[str(write(tmp_path / "rows.jsonl", '{"q": "x", "a": "y"}\n'))])
    try:
        PairRenderer(workspace.datasets[0], None)
    except UnsupportedError as exc:
        assert "template class OlympiadBenchTemplate is not supported" in exc.message
    else:
        raise AssertionError("a dataset's own template class rendered")


def test_system_is_a_user_turn_for_opencompass_chat_models_and_a_system_message_for_aisbench(loader, tmp_path):
    template = ("dict(begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='S')], "
                "round=[dict(role='HUMAN', prompt='{q}'), dict(role='BOT', prompt='{a}')])")
    rows = str(write(tmp_path / "rows.jsonl", '{"q": "x", "a": "y"}\n'))
    inputs = {}
    for fw, package in (("oc", "opencompass"), ("ais", "ais_bench.benchmark")):
        text = IMPORTS.replace("opencompass.openicl", f"{package}.openicl") + f"""
from {package}.models import HuggingFacewithChatTemplate
{fw}_datasets = [{dataset(fw, template)}]
models = [dict(abbr='chat', type=HuggingFacewithChatTemplate, path='/nonexistent')]
"""
        workspace = loader.load([write(tmp_path / f"{fw}.py", text)], data=[rows])
        result = render_workspace(workspace.datasets, workspace.models)
        assert not result.errors, result.errors
        inputs[fw] = result.pairs[0].sample(0).requests[0].model_input
    assert inputs["oc"] == [{"role": "user", "content": "S\nx\n"}]
    assert inputs["ais"] == [{"role": "system", "content": "S"}, {"role": "user", "content": "x"}]


def test_every_dict_is_taken_in_the_order_of_the_runs_dump(loader, tmp_path):
    """Both CLIs run from mmengine's dump of the config, which writes every dict (nested, and
    inside lists) with its keys sorted by str(key): int labels sort as text, lists keep their
    order (tests/verify/test_real_runs.py holds real runs to it)."""
    config = write(tmp_path / "c.py", IMPORTS + """
datasets = [dict(abbr='ppl', reader_cfg=dict(output_column='a', input_columns=['q']),
    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template={2: '{q} two', 10: '{q} ten', 1: '{q} one'}),
                   retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)),
    extra=[dict(z=1, a=dict(y=2, b=3))])]
""")
    (spec,) = loader.load([config]).datasets
    assert list(spec.cfg["infer_cfg"]["prompt_template"]["template"]) == [1, 10, 2]
    assert list(spec.cfg) == ["abbr", "extra", "infer_cfg", "reader_cfg"]
    assert spec.cfg["extra"] == [{"a": {"b": 3, "y": 2}, "z": 1}]
    assert list(spec.cfg["extra"][0]) == ["a", "z"] and list(spec.cfg["extra"][0]["a"]) == ["b", "y"]
    assert spec.cfg["reader_cfg"]["input_columns"] == ["q"]
