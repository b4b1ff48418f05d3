"""One warning per cause: a hub-id chat model's "not a local folder" is said once for a suite,
with how many places it applies to, on stderr, in JSON (count, applies_to) and in markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.core.result import PairWarning
from workbench.core.warning_groups import elsewhere, group_warnings

DATASETS = 5
CONFIG = '''
datasets = [dict(
    abbr=f'ds{n}', path='rows.json',
    reader_cfg=dict(input_columns=['q'], output_column='a'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[dict(role='HUMAN', prompt='{q}')])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer')),
) for n in range(COUNT)]
models = [dict(type='HuggingFacewithChatTemplate', abbr='hub-chat', path='Org/Some-Chat-Model')]
'''


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("warnings")
    (root / "eval.py").write_text(CONFIG.replace("COUNT", str(DATASETS)))
    (root / "rows.json").write_text(json.dumps({"test": [{"q": "hi", "a": "x"}], "train": []}))
    return root


def test_groups_keep_first_seen_order_and_every_place():
    warnings = [PairWarning("a", "m", "same"), PairWarning("b", "m", "other"), PairWarning("b", "m", "same"),
                PairWarning("a", "m", "same")]
    groups = group_warnings(warnings)
    assert [(g.message, g.applies_to) for g in groups] == [("same", (("a", "m"), ("b", "m"))),
                                                            ("other", (("b", "m"),))]
    assert (groups[0].dataset, groups[0].model, groups[0].count) == ("a", "m", 2)


@pytest.mark.parametrize(("places", "said"), [
    ([("a", "m")], ""),
    ([("a", "m"), ("b", "m"), ("c", "m")], "and 2 more datasets with m"),
    ([("a", "m"), ("a", "n")], "and 1 more model for a"),
    ([("a", "m"), ("b", "n")], "and 1 more pair"),
    ([("a", None), ("b", None), ("c", None)], "and 2 more datasets"),  # a dataset's rows, no model
])
def test_elsewhere_names_what_the_places_share(places, said):
    assert elsewhere(places) == said


def test_stderr_says_a_model_warning_once_with_its_count(suite):
    result = run_cli("render", "eval.py", "-f", "text", cwd=suite)
    assert result.code == 0, result.err
    lines = [line for line in result.err.splitlines() if "not a local folder" in line]
    assert len(lines) == 1, result.err
    assert lines[0].startswith("warning: [ds0 × hub-chat] ")
    assert lines[0].endswith(f"(and {DATASETS - 1} more datasets with hub-chat)")


def test_json_has_one_entry_with_count_and_applies_to(suite):
    result = run_cli("render", "eval.py", cwd=suite)
    document = json.loads(result.out)
    found = [w for w in document["warnings"] if "not a local folder" in w["message"]]
    assert len(found) == 1
    entry = found[0]
    assert (entry["dataset"], entry["model"], entry["count"]) == ("ds0", "hub-chat", DATASETS)
    assert entry["applies_to"] == [{"dataset": f"ds{n}", "model": "hub-chat"} for n in range(DATASETS)]
    assert all(w["count"] == len(w["applies_to"]) for w in document["warnings"])


def test_markdown_lists_it_once(suite):
    result = run_cli("render", "eval.py", "-f", "markdown", cwd=suite)
    lines = [line for line in result.out.splitlines() if "not a local folder" in line]
    assert len(lines) == 1 and lines[0].endswith(f"(and {DATASETS - 1} more datasets with hub-chat)")
