"""Real configs from the frameworks' own PyPI wheels: each renders, or fails as listed.

A fixed sample of the dataset configs of OpenCompass 0.5.4 and AISBench 3.1.20260630 is
loaded through their read_base chains (with the tree as ``--config-root``) and rendered
with placeholder rows through ``render_workspace``, every sample of every pair.  A config
either renders without an error, or gives exactly the errors listed for it in
``real_configs_expected.json`` (``file:line: message``, paths relative to the tree).

When the core learns something new, refresh the list::

    WORKBENCH_UPDATE_EXPECTED=1 python -m pytest tests/loading/test_real_configs.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from workbench.cli import main as cli_main
from workbench.core.lazy_pairs import render_workspace
from workbench.loading.workspace import Loader

from . import framework_trees as trees

EXPECTED_FILE = Path(__file__).parent / "real_configs_expected.json"
UPDATE = os.environ.get("WORKBENCH_UPDATE_EXPECTED") == "1"
NO_DATASETS = "(defines no datasets: a helper file other configs import)"

# (distribution, folder of dataset configs, every n-th config of the sorted list)
SAMPLES = {
    "opencompass": (trees.OPENCOMPASS, "opencompass/configs/datasets", 5),
    "ais_bench": (trees.AISBENCH, "ais_bench/benchmark/configs/datasets", 4),
}
MINIMUM = {"opencompass": 300, "ais_bench": 50}


def _tree(dist: trees.Distribution) -> Path:
    try:
        return trees.tree(dist)
    except trees.Unreachable as exc:
        pytest.skip(str(exc))


def _sample(root: Path, folder: str, every: int) -> list[Path]:
    files = sorted(p for p in (root / folder).rglob("*.py") if p.name != "__init__.py")
    return files[::every]


def _outcome(loader, config: Path, root: Path) -> list[str]:
    """[] when it renders; else its errors as sorted 'file:line: message' lines."""
    workspace = loader.load([config], roots=[root])
    errors = list(workspace.errors)
    if not errors:
        result = render_workspace(workspace.datasets, workspace.models)
        for pair in result.pairs:  # every request of every sample must render
            for sample in pair.samples():
                assert sample.requests
        errors = list(result.errors)
        if not workspace.datasets and not errors:
            return [NO_DATASETS]

    def line(error) -> str:
        file = os.path.relpath(error.file, root) if error.file else "<config>"
        where = f"{file}:{error.line}" if error.line else file
        return f"{where}: {error.message.replace(str(root), '<root>')}"

    return sorted({line(e) for e in errors})


@pytest.fixture(scope="module")
def expected() -> dict[str, dict[str, list[str]]]:
    if EXPECTED_FILE.is_file():
        return json.loads(EXPECTED_FILE.read_text(encoding="utf-8"))
    return {}


@pytest.fixture(scope="module")
def in_process():
    """These configs are the frameworks' own: run them here, twice as fast as through the
    worker (whose isolation the other tests cover); the loading code is the same."""
    with Loader(isolate=False) as loader:
        yield loader


@pytest.mark.parametrize("framework", sorted(SAMPLES))
def test_real_dataset_configs_render_or_fail_as_listed(framework, in_process, expected):
    loader = in_process
    dist, folder, every = SAMPLES[framework]
    root = _tree(dist)
    configs = _sample(root, folder, every)
    assert len(configs) >= MINIMUM[framework]
    outcomes = {str(c.relative_to(root)): _outcome(loader, c, root) for c in configs}
    failing = {name: errors for name, errors in outcomes.items() if errors}
    if UPDATE:
        expected[framework] = failing
        EXPECTED_FILE.write_text(json.dumps(expected, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                                 encoding="utf-8")
        pytest.skip(f"wrote {len(failing)} expected-error configs for {framework}")
    listed = expected.get(framework, {})
    surprises = {name: errors for name, errors in failing.items() if listed.get(name) != errors}
    now_render = sorted(name for name in listed if name in outcomes and not outcomes[name])
    assert not surprises, "unexpected errors (or changed ones):\n" + json.dumps(surprises, indent=1)
    assert not now_render, f"these now render; remove them from {EXPECTED_FILE.name}: {now_render}"
    rendered = len(configs) - len(failing)
    assert rendered / len(configs) > 0.7, f"only {rendered} of {len(configs)} render"


def test_a_real_top_level_eval_config_renders_datasets_times_models(tmp_path, capsys):
    """OpenCompass's own autotest eval config, through the CLI, plus a second model file."""
    root = _tree(trees.OPENCOMPASS)
    config = root / "autotest" / "eval" / "eval_base_fullbench.py"
    extra_models = root / "opencompass" / "configs" / "models" / "qwen2_5" / "hf_qwen_2_5_7b.py"
    out = tmp_path / "render.json"
    status = cli_main(["render", str(config), "--config-root", str(root), "--models", str(extra_models),
                       "--format", "json", "--out", str(out)])
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["errors"] == [] and status == 0, capsys.readouterr().err
    datasets = {r["dataset"] for r in document["renders"]}
    models = {r["model"] for r in document["renders"]}
    assert len(datasets) == 51 and models == {"qwen3-8b-base-fullbench", "qwen2.5-7b-hf"}
    assert len(document["renders"]) == len(datasets) * len(models)
    # the config's own edit of its bases (test_range = '[0:4]') reached the datasets
    by_pair = {(r["dataset"], r["model"]): r for r in document["renders"]}
    gsm8k = by_pair[("gsm8k", "qwen2.5-7b-hf")]
    assert gsm8k["samples"] and all(s["requests"][0]["model_input"] for s in gsm8k["samples"])
    assert "‹question›" in gsm8k["samples"][0]["requests"][0]["model_input"]


def test_an_aisbench_dataset_through_an_aisbench_model_file(loader):
    root = _tree(trees.AISBENCH)
    configs = root / "ais_bench" / "benchmark" / "configs"
    workspace = loader.load([configs / "datasets" / "gsm8k" / "gsm8k_gen_0_shot_cot_chat_prompt.py"],
                            model_files=[configs / "models" / "vllm_api" / "vllm_api_general_chat.py"],
                            roots=[root])
    assert not workspace.errors
    assert [(m.abbr, m.framework) for m in workspace.models] == [("vllm-api-general-chat", "ais_bench")]
    result = render_workspace(workspace.datasets, workspace.models)
    assert not result.errors and len(result.pairs) == len(workspace.datasets) == 1
    request = result.pairs[0].sample(0).requests[0]
    assert request.model_input[-1]["role"] == "HUMAN" and "‹question›" in request.model_input[-1]["prompt"]


def test_an_unreachable_index_means_skip_not_failure(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    with pytest.raises(trees.Unreachable, match="PyPI is unreachable"):
        trees.tree(trees.OPENCOMPASS)
    assert not list((tmp_path / "prompt-workbench" / "wheels").glob("*.whl"))
