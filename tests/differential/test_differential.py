"""The differential harness: the fast wing writes the reference mode's bytes.

The reference mode (workbench/core/reference.py, ``--reference``) renders every sample with the
interpreter, runs every chat template, counts every estimate whole and encodes every JSON
value whole. Everything the fast wing does instead (docs/architecture.md names each path) must
give the same bytes, so each input below is written twice, as ``render --format json`` and
``--format text`` write it (samples streamed, stamps handed out where a sample can be one),
once in each mode, and the two outputs compared whole:

- every parity case (tests/parity/cases), in JSON and text;
- the bundled demo, in JSON and text;
- the suite fixture (benchmarks/suite: chat_OC15 through a meta-template model and a
  chat-template model, 8 test and 10 train rows a dataset) through the CLI, with and without
  ``--reference``, in JSON and text;
- random configs and rows (Hypothesis, derandomized: templates, retrievers, inferencers,
  meta templates, max_seq_len, hostile values), 12 rows each so the splices and stamps engage.

The parity goldens themselves also run in the reference mode (tests/parity/test_parity.py is
parametrized by mode), so the interpreter alone is held to the frameworks too.

Size: 131 parity cases × 2 formats, 2 demo and 2 suite comparisons, 120 random examples, checks
that each mode takes the paths it should (the parity cases' stamps counted), that snapshot,
diff and spawned workers take the switch, that a wrong fast path fails and that a refusal is
counted under its rule (and written where it applies): 274 tests,
389 comparisons, 50 to 100 s on the shared 2-CPU development machine (about half of it the
suite's CLI renders). Keep it there: a new input earns its place by reaching a path the
others do not.

After the summary the harness prints how often each rule of workbench/core/refusals.py sent a
row back to the interpreter over the in-process inputs (conftest.py): a rule at 0 is one no
input here reaches.
"""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench
from benchmarks.suite_rows import write_suite
from tests.core.test_properties import model_cfgs, retrievers, values, well_formed_templates
from tests.headless.helpers import run_cli, write_streamed, write_workspace
from tests.parity.test_parity import CASE_DIRS
from workbench.commands.common import demo_config
from workbench.core.lazy_pairs import render_workspace
from workbench.core.reference import reference, reference_mode, set_reference
from workbench.core.refusals import RULES, hits
from workbench.core.render import RenderOptions
from workbench.core.result import RenderResult
from workbench.core.spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec
from workbench.headless.formats.json_export import write_render_json
from workbench.headless.formats.stamp_writer import StampWriter
from workbench.headless.formats.text_export import TextOptions, write_render_text
from workbench.loading.workspace import load_workspace

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ("json", "text")
#: stamps handed out in the fast mode, by format (the parity cases' test below reads them)
STAMPED: dict[str, int] = {}


def written(result_of: Callable[[RenderOptions], RenderResult], fmt: str, reference: bool) -> str:
    """The document ``render --format fmt`` writes for the pairs ``result_of`` renders, in the
    reference mode or not (the options are made inside the switch, as the CLI makes them)."""
    with reference_mode(reference):
        result = result_of(RenderOptions(token_sections=fmt == "text"))
        if fmt == "json":
            text, handed, _ = write_streamed(result, write_render_json, stamps=True)
        else:
            text, handed, _ = write_streamed(
                result, lambda narrowed, out, samples_of: write_render_text(narrowed, out, samples_of,
                                                                            TextOptions()), stamps=True)
    STAMPED[fmt] = STAMPED.get(fmt, 0) + handed
    return text


def assert_same_bytes(result_of: Callable[[RenderOptions], RenderResult], fmt: str) -> str:
    fast = written(result_of, fmt, reference=False)
    slow = written(result_of, fmt, reference=True)
    if fast != slow:
        at = next((i for i, (a, b) in enumerate(zip(fast, slow)) if a != b), min(len(fast), len(slow)))
        pytest.fail(f"the fast wing and the reference differ at character {at}:\n"
                    f"fast:      {fast[max(0, at - 200):at + 200]!r}\nreference: {slow[max(0, at - 200):at + 200]!r}")
    return fast


def workspace_of(config: Path, data: list[str] | None = None) -> Callable[[RenderOptions], RenderResult]:
    def result_of(options: RenderOptions) -> RenderResult:
        workspace = load_workspace([config], data=data or [])
        assert not workspace.errors, [e.located() for e in workspace.errors]
        return render_workspace(workspace.datasets, workspace.models, str(config), options=options)

    return result_of


# -- the parity cases and the demo ------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASE_DIRS, ids=[p.name for p in CASE_DIRS])
def test_a_parity_case(case: Path, fmt: str) -> None:
    data = case / "data.json" if (case / "data.json").exists() else case / "data.jsonl"
    assert_same_bytes(workspace_of(case / "config.py", [str(data)]), fmt)


def test_the_parity_cases_are_stamped() -> None:
    """(after the cases above) their fast renders handed out stamps, in both formats: the
    comparisons held the stamps, not only the interpreter, to the reference"""
    if not CASE_DIRS:
        pytest.skip("no parity cases")
    assert STAMPED.get("json", 0) > 100 and STAMPED.get("text", 0) > 100, STAMPED


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_demo(fmt: str) -> None:
    assert '"requests"' in assert_same_bytes(workspace_of(demo_config()), fmt) or fmt == "text"


def test_the_fast_wing_is_on_and_the_reference_mode_takes_none_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparisons above compare two different paths: the demo hands out stamps, splices
    and compiled layouts when fast, and none of them (nor a chat outline) in the reference mode."""
    from workbench.core.models import meta_template
    from workbench.core.tokens import chat_apply

    taken: dict[str, int] = {}

    def counting(module: Any, name: str) -> None:
        real = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            taken[name] = taken.get(name, 0) + 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    counting(chat_apply, "_spliced")
    counting(chat_apply, "chat_layout")
    counting(meta_template._Layout, "compile")
    counting(meta_template._MessagesLayout, "compile")
    for slow in (False, True):
        taken.clear()
        with reference_mode(slow):
            result = workspace_of(demo_config())(RenderOptions())
            _, stamps, _ = write_streamed(result, write_render_json, stamps=True)
            spliced = sum(p._forms is not None for p in result.pairs)
        if slow:
            assert stamps == spliced == 0 and not taken, taken
        else:
            assert stamps > 0 and spliced > 0 and taken.get("compile") and taken.get("_spliced"), \
                (stamps, spliced, taken)


def test_the_harness_sees_a_fast_path_that_errs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stamp written one space too long (a fast path only) fails the comparison."""
    usual = StampWriter.text
    monkeypatch.setattr(StampWriter, "text", lambda self, stamp: usual(self, stamp) + " ")
    with pytest.raises(pytest.fail.Exception, match="differ at character"):
        assert_same_bytes(workspace_of(demo_config()), "json")


# -- the suite fixture, through the CLI ---------------------------------------------------------------

@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_suite(tmp_path_factory.mktemp("suite"), test_rows=8)


def _cli(config: Path, fmt: str, *more: str) -> bytes:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "workbench", "render", str(config), "--format", fmt, "-q", *more],
                          cwd=config.parent, env=env, capture_output=True, timeout=600, check=False)
    assert done.returncode in (0, 1), done.stderr.decode()[-2000:]  # (1: warnings only)
    return done.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_suite_through_the_cli(suite: Path, fmt: str) -> None:
    fast = _cli(suite, fmt)
    assert len(fast) > 100_000
    assert fast == _cli(suite, fmt, "--reference")


def test_snapshot_and_diff_take_the_switch(tmp_path: Path) -> None:
    """``--reference`` on snapshot and diff: the same files and the same report; each command
    sets the switch as it was asked (a command without it runs fast again)."""
    write_workspace(tmp_path / "a")
    write_workspace(tmp_path / "b", system="Answer in one word.")
    try:
        for mode in ("fast", "reference"):
            flag = ("--reference",) if mode == "reference" else ()
            made = run_cli("snapshot", "a/eval.py", "--dir", f"snaps-{mode}", "--model", "chat-lm", "--color", "never",
                           *flag, cwd=tmp_path)
            assert made.code in (0, 1), made.err
            assert reference() is (mode == "reference")
        fast = {p.relative_to(tmp_path / "snaps-fast"): p.read_bytes() for p in (tmp_path / "snaps-fast").rglob("*.snap")}
        slow = {p.relative_to(tmp_path / "snaps-reference"): p.read_bytes()
                for p in (tmp_path / "snaps-reference").rglob("*.snap")}
        assert fast and fast == slow
        reports = [run_cli("diff", "a/eval.py", "b/eval.py", "--model", "chat-lm", "--color", "never", *flag, cwd=tmp_path)
                   for flag in ((), ("--reference",))]
        assert reports[0].code == reports[1].code == 1 and reports[0].out == reports[1].out
        assert "Answer in one word." in reports[0].out
    finally:
        set_reference(False)


def test_a_spawned_worker_is_told_the_switch() -> None:
    """``--jobs`` workers that are spawned (not forked) get the switch with their recipe."""
    from workbench.headless import stream

    handler, source = signal.getsignal(signal.SIGINT), stream._WORKER.get("source")
    try:
        stream._init_worker(lambda: {}, True)
        assert reference()
    finally:
        signal.signal(signal.SIGINT, handler)
        stream._WORKER["source"] = source
        set_reference(False)


# -- random configs and rows --------------------------------------------------------------------------

RANDOM = settings(max_examples=120, deadline=None, derandomize=True, database=None, print_blob=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ROWS = 12  # enough for a splice, its sections and a stamp to serve several rows each


@RANDOM
@given(template=well_formed_templates, ice=st.one_of(st.none(), well_formed_templates),
       rows=st.lists(st.fixed_dictionaries({"question": values, "answer": values}), min_size=ROWS, max_size=ROWS),
       retriever=retrievers, inferencer=st.sampled_from(["GenInferencer", "PPLInferencer", "CLPInferencer"]),
       model=model_cfgs, framework=st.sampled_from([OPENCOMPASS, AISBENCH]), fmt=st.sampled_from(FORMATS))
def test_random_configs_and_rows(template: Any, ice: Any, rows: list, retriever: Any, inferencer: str,
                                 model: dict | None, framework: str, fmt: str) -> None:
    infer: dict[str, Any] = {"retriever": retriever, "inferencer": {"type": inferencer},
                             "prompt_template": {"type": "PromptTemplate", "template": template}}
    if ice is not None:
        infer["ice_template"] = {"type": "PromptTemplate", "template": ice}
        infer["prompt_template"]["ice_token"] = "</E>"
    cfg = {"abbr": "random", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": infer}

    def result_of(options: RenderOptions) -> RenderResult:
        dataset = DatasetSpec(abbr="random", cfg=cfg, rows={"train": rows, "test": rows}, framework=framework)
        models = [] if model is None else [ModelSpec(abbr="m", cfg=model, framework=framework)]
        return render_workspace([dataset], models, "random", options=options)

    assert_same_bytes(result_of, fmt)


# -- the refusals, by name -------------------------------------------------------------------------

def test_a_refusal_is_counted_by_its_rule(tmp_path: Path) -> None:
    """A row whose value holds an unclosed brace is rendered by the interpreter (a field could
    start in it), with the same bytes, and the harness's report counts it under its rule."""
    rows = {"train": [{"question": "What is 2 + 2?", "answer": "4"}],
            "test": [{"question": f"What is {n} + 1?", "answer": str(n + 1)} for n in range(6)]
            + [{"question": "Solve {x + 1 = 2.", "answer": "1"}]}
    config = write_workspace(tmp_path, qa_rows=rows)
    before = hits["value-refills"]
    assert "Solve {x + 1 = 2." in assert_same_bytes(workspace_of(config), "json")
    # once for each pair of the row's dataset, one a model (a stamp asked for first and the
    # splice it falls back to count the row once between them)
    result = workspace_of(config)(RenderOptions())
    pairs = [result.pairs[i] for i in range(len(result.pairs))]
    assert all(p._forms is not None for p in pairs)
    assert hits["value-refills"] - before == sum(p.dataset_abbr == "qa" for p in pairs) == 2
    assert set(hits) <= set(RULES)


def test_every_rule_is_refused_by_name_where_it_applies() -> None:
    """Each rule of core/refusals.py is the name of at least one ``refuse("rule")`` in the code,
    and every ``refuse`` names a rule as written: the promise is one table, and each of its
    predicates is found by searching the code for the rule's name."""
    named: set[str] = set()
    for path in (Path(workbench.__file__).parent).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "refuse":
                assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), f"{path}:{node.lineno}"
                named.add(node.args[0].value)
    assert named == set(RULES)
