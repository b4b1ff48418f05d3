"""Python configs mean here what they mean to mmengine's Config (and so to both frameworks)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.loading.config.config_file import load_config_file
from workbench.loading.config.executor import Executor
from workbench.loading.config.stand_ins import ConfigDict

from .conftest import write

TEMPLATE_IMPORTS = """\
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
"""

BASE = TEMPLATE_IMPORTS + """
demo_reader_cfg = dict(input_columns=['question'], output_column='answer')
demo_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template='Q: {question}'),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer, max_out_len=100),
)
demo_datasets = [
    dict(abbr='demo', path='org/demo', reader_cfg=demo_reader_cfg, infer_cfg=demo_infer_cfg),
]
"""


def _load(loader, config: Path, **kwargs):
    workspace = loader.load([config], **kwargs)
    assert not workspace.errors, [e.located() for e in workspace.errors]
    return workspace


def test_read_base_relative_chain_and_dataset_source_line(tmp_path, loader):
    write(tmp_path / "datasets" / "demo" / "demo_gen_abc123.py", BASE)
    write(tmp_path / "datasets" / "demo" / "demo_gen.py",
          "from mmengine.config import read_base\n\nwith read_base():\n"
          "    from .demo_gen_abc123 import demo_datasets  # noqa: F401\n")
    top = write(tmp_path / "eval_demo.py",
                "from mmengine.config import read_base\n\nwith read_base():\n"
                "    from .datasets.demo.demo_gen import demo_datasets\n\n"
                "datasets = [*demo_datasets]\n")
    workspace = _load(loader, top)
    (dataset,) = workspace.datasets
    assert dataset.abbr == "demo"
    assert dataset.source.file == str(tmp_path / "datasets" / "demo" / "demo_gen_abc123.py")
    assert dataset.source.line == 12
    assert {p.name for p in workspace.files} >= {"eval_demo.py", "demo_gen.py", "demo_gen_abc123.py"}
    infer = dataset.cfg["infer_cfg"]
    assert infer["prompt_template"]["type"] == "opencompass.openicl.icl_prompt_template.PromptTemplate"


def test_read_base_by_package_through_config_roots_and_the_environment(tmp_path, loader, monkeypatch):
    root = tmp_path / "site"
    write(root / "opencompass" / "configs" / "datasets" / "demo" / "demo_gen.py", BASE)
    write(root / "ais_bench" / "benchmark" / "configs" / "models" / "m.py",
          "from ais_bench.benchmark.models import VLLMCustomAPIChat\n\n"
          "models = [dict(type=VLLMCustomAPIChat, abbr='vllm-api', path='')]\n")
    top = write(tmp_path / "eval.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from opencompass.configs.datasets.demo.demo_gen import demo_datasets\n"
        "    from ais_bench.benchmark.configs.models.m import models\n"
    ))
    workspace = _load(loader, top, roots=[root])
    assert [d.abbr for d in workspace.datasets] == ["demo"]
    assert [(m.abbr, m.framework) for m in workspace.models] == [("vllm-api", "ais_bench")]
    monkeypatch.setenv("WORKBENCH_CONFIG_ROOT", os.pathsep.join([str(tmp_path / "nothing"), str(root)]))
    assert [d.abbr for d in _load(loader, top).datasets] == ["demo"]


def test_read_base_falls_back_to_an_installed_framework_package(tmp_path, monkeypatch):
    site = tmp_path / "site"
    write(site / "fakecompass" / "__init__.py", "raise RuntimeError('never imported')\n")
    write(site / "fakecompass" / "configs" / "demo.py", BASE)
    monkeypatch.syspath_prepend(str(site))
    top = write(tmp_path / "eval.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from fakecompass.configs.demo import demo_datasets  # noqa: F401\n"
    ))
    result = load_config_file(top)
    assert result["error"] is None
    assert [d["cfg"]["abbr"] for d in result["datasets"]] == ["demo"]


def test_star_import_of_a_package_config_in_read_base(tmp_path, loader):
    root = tmp_path / "site"
    write(root / "opencompass" / "configs" / "datasets" / "demo" / "demo_gen.py", BASE)
    top = write(tmp_path / "eval.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from opencompass.configs.datasets.demo.demo_gen import *\n\n"
        "demo_datasets[0]['abbr'] = 'starred'\n"
        "retriever = ZeroRetriever\n"
    ))
    workspace = _load(loader, top, roots=[root])
    assert [d.abbr for d in workspace.datasets] == ["starred"]


def test_framework_names_are_markers_and_types_may_be_strings(tmp_path, loader):
    top = write(tmp_path / "c.py", (
        "import opencompass.openicl.icl_retriever as retrievers\n"
        "from opencompass.openicl import icl_inferencer\n"
        "demo_datasets = [dict(\n"
        "    abbr='demo',\n"
        "    reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "    infer_cfg=dict(\n"
        "        prompt_template=dict(type='PromptTemplate', template='Q: {question}'),\n"
        "        retriever=dict(type=retrievers.ZeroRetriever),\n"
        "        inferencer=dict(type=icl_inferencer.GenInferencer),\n"
        "    ),\n"
        ")]\n"
    ))
    (dataset,) = _load(loader, top).datasets
    infer = dataset.cfg["infer_cfg"]
    assert infer["prompt_template"]["type"] == "PromptTemplate"
    assert infer["retriever"]["type"] == "opencompass.openicl.icl_retriever.ZeroRetriever"
    assert infer["inferencer"]["type"] == "opencompass.openicl.icl_inferencer.GenInferencer"


def test_unknown_types_are_kept_and_reported(tmp_path, loader):
    top = write(tmp_path / "c.py", BASE + (
        "from mypkg.postprocess import clean\n"
        "class MyEvaluator:\n    pass\n"
        "demo_datasets[0]['eval_cfg'] = dict(evaluator=dict(type=MyEvaluator),\n"
        "                                    pred_postprocessor=dict(type=clean),\n"
        "                                    cast=dict(type=str))\n"
    ))
    workspace = _load(loader, top)
    eval_cfg = workspace.datasets[0].cfg["eval_cfg"]
    assert eval_cfg == {"evaluator": {"type": "MyEvaluator"},
                        "pred_postprocessor": {"type": "mypkg.postprocess.clean"},
                        "cast": {"type": "str"}}
    assert len(workspace.warnings) == 2
    assert any("type mypkg.postprocess.clean comes from mypkg" in w for w in workspace.warnings)
    assert any("type MyEvaluator is defined in the config" in w for w in workspace.warnings)


def test_stdlib_imports_are_real_other_packages_lazy(tmp_path, loader):
    top = write(tmp_path / "c.py", BASE + (
        "import os.path as osp\n"
        "from copy import deepcopy\n"
        "import numpy as np\n"
        "extra_datasets = [deepcopy(demo_datasets[0])]\n"
        "extra_datasets[0]['abbr'] = osp.join('demo', 'copy')\n"
        "extra_datasets[0]['dtype'] = np.float32\n"
    ))
    workspace = _load(loader, top)
    assert [d.abbr for d in workspace.datasets] == ["demo", "demo/copy"]
    assert workspace.datasets[1].cfg["dtype"] == "numpy.float32"


def test_base_values_are_copied_per_importing_file(tmp_path, loader):
    """mmengine copies base values into ConfigDicts for each importing file."""
    write(tmp_path / "base.py", BASE)
    write(tmp_path / "a.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .base import demo_datasets, demo_infer_cfg\n\n"
        "a_datasets = demo_datasets\n"
        "a_datasets[0]['abbr'] = 'changed-in-a'\n"
        "demo_infer_cfg['inferencer']['max_out_len'] = 1\n"  # a copy: not the datasets' dict
    ))
    write(tmp_path / "b.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .base import demo_datasets\n\nb_datasets = demo_datasets\n"
    ))
    top = write(tmp_path / "top.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .a import a_datasets\n    from .b import b_datasets\n\n"
        "datasets = a_datasets + b_datasets\n"
    ))
    workspace = _load(loader, top)
    assert [d.abbr for d in workspace.datasets] == ["changed-in-a", "demo"]
    assert workspace.datasets[0].cfg["infer_cfg"]["inferencer"]["max_out_len"] == 100


def test_configs_that_mutate_base_values_see_their_change(tmp_path, loader):
    write(tmp_path / "base.py", BASE)
    top = write(tmp_path / "top.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .base import demo_datasets\n\n"
        "for d in demo_datasets:\n"
        "    d['reader_cfg']['test_range'] = '[0:1]'\n"
        "    d.infer_cfg.inferencer.max_out_len = 7\n"
        "datasets = demo_datasets\n"
    ))
    (dataset,) = _load(loader, top).datasets
    assert dataset.cfg["reader_cfg"]["test_range"] == "[0:1]"
    assert dataset.cfg["infer_cfg"]["inferencer"]["max_out_len"] == 7


def test_import_star_from_a_base_brings_every_name(tmp_path, loader):
    write(tmp_path / "base.py", BASE + "helper_value = 3\n")
    top = write(tmp_path / "top.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .base import *\n\n"
        "demo_datasets[0]['n_shots'] = helper_value\n"
        "retriever = dict(type=ZeroRetriever)\n"
    ))
    (dataset,) = _load(loader, top).datasets
    assert dataset.cfg["n_shots"] == 3


def test_module_names_file_and_main(tmp_path):
    write(tmp_path / "base.py", "base_file = __file__\n")
    top = write(tmp_path / "top.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .base import base_file\n\n"
        "import os\n"
        "here = __file__\n"
        "ran_main = False\n"
        "if __name__ == '__main__':\n"
        "    ran_main = True\n"
        "def helper():\n    return 1\n"
    ))
    executor = Executor()
    module = executor.run(top)
    names = module.config_names()
    assert names["here"] == str(top) and names["base_file"] == str(tmp_path / "base.py")
    assert names["ran_main"] is False  # mmengine runs configs without __name__ == '__main__'
    assert "read_base" not in names  # imported names are not part of the config
    assert callable(names["helper"])  # lazy-import mode keeps functions (to_dict would too)


def test_classic_base_mode_merges_and_drops_functions_and_modules(tmp_path, monkeypatch):
    monkeypatch.setenv("WB_TEST_ROOT", "/data/root")
    write(tmp_path / "base.py", (
        "infer = dict(inferencer=dict(type='GenInferencer', max_out_len=100), retriever='zero')\n"
        "models = [dict(abbr='m')]\n"
        "name = 'base'\n"
    ))
    top = write(tmp_path / "child.py", (
        "_base_ = ['./base.py']\n"
        "import os\n"
        "infer = dict(inferencer=dict(max_out_len=5))\n"
        "replaced = dict(_delete_=True, only='this')\n"
        "label = '{{ fileBasenameNoExtension }}'\n"
        "root = '{{$WB_TEST_ROOT:/default}}'\n"
        "other = '{{$WB_TEST_UNSET_ROOT:/fallback}}'\n"
        "base_name = {{_base_.name}}\n"
        "def helper():\n    return 1\n"
        "from_base = _base_.models[0].abbr\n"
    ))
    module = Executor().run(top)
    names = module.config_names()
    assert names["infer"] == {"inferencer": {"type": "GenInferencer", "max_out_len": 5}, "retriever": "zero"}
    assert names["replaced"] == {"only": "this"}
    assert names["label"] == "child"
    assert names["root"] == "/data/root" and names["other"] == "/fallback"
    assert names["base_name"] == "base" and names["from_base"] == "m"
    assert "helper" not in names and "os" not in names and "_base_" not in names
    assert names["models"] == [{"abbr": "m"}]


def test_configdict_behaves_as_mmengines():
    cfg = ConfigDict(a=dict(b=1, c=dict(d=2)), e=[dict(f=3)])
    assert isinstance(cfg.a, ConfigDict) and cfg.a.c.d == 2 and isinstance(cfg.e[0], ConfigDict)
    cfg.update(a=dict(c=dict(g=4)))
    assert cfg.a == {"b": 1, "c": {"d": 2, "g": 4}}  # nested dicts merge
    assert cfg.pop("missing") is None
    with pytest.raises(AttributeError, match="'ConfigDict' object has no attribute 'nope'"):
        _ = cfg.nope
    copied = cfg.deepcopy()
    copied.a.b = 9
    assert cfg.a.b == 1 and isinstance(copied, ConfigDict)
    plain = dict(x=1)
    cfg.h = plain
    plain["x"] = 2
    assert cfg.h == {"x": 1}  # stored values are converted, so they are copies


def test_datasets_list_wins_over_suffix_lists_and_entries_are_deduplicated(tmp_path, loader):
    top = write(tmp_path / "c.py", BASE + (
        "other_datasets = [dict(abbr='other', reader_cfg=demo_reader_cfg, infer_cfg=demo_infer_cfg)]\n"
        "broken_datasets = dict(abbr='not-a-list')\n"
        "all_datasets = demo_datasets + demo_datasets\n"
    ))
    workspace = _load(loader, top)
    assert [d.abbr for d in workspace.datasets] == ["demo", "other"]
    assert any("broken_datasets is a dict, not a list" in w for w in workspace.warnings)
    top.write_text(top.read_text() + "datasets = other_datasets\n")
    assert [d.abbr for d in _load(loader, top).datasets] == ["other"]


def test_locals_aggregation_as_in_eval_configs(tmp_path, loader):
    write(tmp_path / "base.py", BASE)
    top = write(tmp_path / "eval.py", (
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from .base import demo_datasets\n\n"
        "datasets = sum((v for k, v in locals().items() if k.endswith('_datasets')), [])\n"
    ))
    assert [d.abbr for d in _load(loader, top).datasets] == ["demo"]


def test_abbrs_are_derived_as_opencompass_does(tmp_path, loader):
    top = write(tmp_path / "c.py", BASE + (
        "from opencompass.models import HuggingFacewithChatTemplate\n"
        "del demo_datasets[0]['abbr']\n"
        "demo_datasets[0]['name'] = 'main'\n"
        "models = [dict(type=HuggingFacewithChatTemplate, path='/models/org/chat-7b/')]\n"
    ))
    workspace = _load(loader, top)
    assert workspace.datasets[0].abbr == "org_demo_main"
    assert workspace.models[0].abbr == "opencompass.models.HuggingFacewithChatTemplate_org_chat-7b"


def test_aisbench_configs_are_recognised(tmp_path, loader):
    top = write(tmp_path / "c.py", (
        "from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate\n"
        "from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever\n"
        "from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer\n"
        "from ais_bench.benchmark.models import VLLMCustomAPIChat\n"
        "demo_datasets = [dict(abbr='demo', reader_cfg=dict(input_columns=['q'], output_column='a'),\n"
        "    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='{q}'),\n"
        "                   retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))]\n"
        "models = [dict(type=VLLMCustomAPIChat, abbr='api')]\n"
    ))
    workspace = _load(loader, top)
    assert workspace.datasets[0].framework == "ais_bench" and workspace.models[0].framework == "ais_bench"


def test_files_a_config_opens_are_dependencies(tmp_path, loader):
    write(tmp_path / "subjects.txt", "algebra\ngeometry\n")
    top = write(tmp_path / "c.py", BASE + (
        "import os\n"
        "def read(name):\n"
        "    with open(os.path.join(os.path.dirname(__file__), name)) as f:  # (a with at top level\n"
        "        return f.read().split()  # would be refused, as mmengine refuses it)\n"
        "subjects = read('subjects.txt')\n"
        "demo_datasets[0]['subjects'] = subjects\n"
    ))
    workspace = _load(loader, top)
    assert workspace.datasets[0].cfg["subjects"] == ["algebra", "geometry"]
    assert (tmp_path / "subjects.txt").resolve() in workspace.files


def test_a_bad_dataset_spoils_only_its_own_renders(tmp_path, loader):
    from workbench.core.lazy_pairs import render_workspace

    top = write(tmp_path / "c.py", BASE + (
        "bad_datasets = [dict(abbr='bad', reader_cfg=demo_reader_cfg,\n"
        "                     infer_cfg=dict(demo_infer_cfg, retriever=dict(type='NoSuchRetriever')))]\n"
        "odd_datasets = ['not a dict']\n"
    ))
    workspace = loader.load([top])
    assert [e.message for e in workspace.errors] == ["a dataset entry is a str, not a dict"]
    result = render_workspace(workspace.datasets, workspace.models)
    assert [p.dataset_abbr for p in result.pairs] == ["demo"]
    assert [(e.dataset, e.line) for e in result.errors] == [("bad", 15)]  # the retriever's line
