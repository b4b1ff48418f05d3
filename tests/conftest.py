"""Shared helpers: render one dataset × model pair straight from config dicts."""

from __future__ import annotations

import os
from typing import Any

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import PairRenderer
from workbench.core.spec import DatasetSpec, ModelSpec
from workbench.core.templates.prompt_list import to_json

# Tied retriever scores are ordered as a CPU without AVX-512 orders them in every test, on any
# machine (the CLI would read this machine's CPU: workbench/loading/cpu.py); a test of the
# other order says so itself.
os.environ["WORKBENCH_NUMPY_SORT"] = "baseline"


def make_pair(dataset_cfg: dict, rows: Any, model_cfg: dict | None = None,
              framework: str = "opencompass", model_framework: str | None = None) -> PairRenderer:
    dataset = DatasetSpec(abbr=dataset_cfg.get("abbr", "ds"), cfg=dataset_cfg, rows=rows,
                          framework=framework)
    model = None
    if model_cfg is not None:
        model = ModelSpec(abbr=model_cfg.get("abbr", "m"), cfg=model_cfg,
                          framework=model_framework or framework)
    return PairRenderer(dataset, model)


def no_markers(prompt_list: Any) -> list:
    """A PromptList as the docs print it: no section markers, no empty strings."""
    out = []
    for item in to_json(prompt_list):
        if isinstance(item, dict) and "section" in item:
            continue
        if item == "":
            continue
        out.append(item)
    return out


@pytest.fixture
def render_errors():
    def run(dataset_cfg: dict, rows: Any, model_cfg: dict | None = None, framework="opencompass"):
        dataset = DatasetSpec(abbr="ds", cfg=dataset_cfg, rows=rows, framework=framework)
        models = [ModelSpec(abbr="m", cfg=model_cfg, framework=framework)] if model_cfg else []
        return render_workspace([dataset], models).errors

    return run


@pytest.fixture(autouse=True, scope="session")
def _code_cache_of_the_session(tmp_path_factory):
    """Configs the tests compile are kept in a folder of this session, not the user's cache."""
    from workbench.loading import workspace

    folder = tmp_path_factory.mktemp("config-code")
    original = workspace.default_folder
    workspace.default_folder = lambda: folder
    yield folder
    workspace.default_folder = original
