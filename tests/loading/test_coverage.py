"""Every dataset config the frameworks ship renders, or is refused as the framework refuses it.

The figure is over all of them (see ``coverage.py``); below 98% the test fails.  The report in
docs/coverage.md is this one: when what is covered changes, refresh it with
``python -m tests.loading.coverage --update-docs``.
"""

from __future__ import annotations

import pytest

from . import coverage
from . import framework_trees as trees


@pytest.fixture(scope="module")
def outcomes() -> list[coverage.Outcome]:
    roots = {}
    for dist in (trees.OPENCOMPASS, trees.AISBENCH):
        try:
            roots[dist.name] = trees.tree(dist)
        except trees.Unreachable as exc:
            pytest.skip(str(exc))
    return coverage.run(roots=roots)


def test_at_least_98_percent_of_shipped_configs_are_covered(outcomes):
    report = coverage.report(outcomes)
    print(report)
    assert len(outcomes) > 1700
    assert coverage.figure(outcomes) >= coverage.THRESHOLD, report


def test_no_config_crashes_the_render(outcomes):
    crashed = {o.config: o.reasons for o in outcomes if any(r.startswith("crash:") for r in o.reasons)}
    assert not crashed


def test_the_doc_shows_the_current_figure_and_what_is_not_covered(outcomes):
    section = coverage.doc_section()
    assert section is not None, "docs/coverage.md has no coverage section"
    assert f"**{coverage.figure(outcomes):.2%}**" in section, (
        "docs/coverage.md's figure is stale: python -m tests.loading.coverage --update-docs")
    uncovered = {o.config for o in outcomes if not o.covered}
    assert coverage.not_covered_in_doc() == uncovered, (
        "docs/coverage.md's list of configs not covered is stale: python -m tests.loading.coverage "
        "--update-docs")
