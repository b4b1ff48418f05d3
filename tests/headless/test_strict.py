"""--strict (issue 27, item 8): the warnings that mean the real run differs from what is shown,
or fails, are errors (exit 3, over a difference's 1); without it each is said once, counted."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.headless.helpers import edit, run_cli, write_workspace
from workbench.core.lazy_pairs import render_workspace
from workbench.core.spec import DatasetSpec, ModelSpec
from workbench.core.warning_kinds import DIFFERS, real_run_differs

ROOT = Path(__file__).resolve().parents[2]
VERIFY_FIXTURE = ROOT / "tests" / "verify" / "fixture"
RUN = "runs/20261124_000000"
PARITY_CASES = Path(__file__).resolve().parent.parent / "parity" / "cases"

#: Messages as the code writes them, each with its kind (True: the real run differs or fails).
MESSAGES = {
    "OpenCompass 0.5.4 fails here: LookupError: '</E>' not in 'x'; rendered as the docs describe (kept)": True,
    "no request on the wire: the input has 9000 tokens, over max_seq_len 4096: ValueError": True,
    "no rows found (looked for data/x.jsonl): showing placeholders from reader_cfg (hint: --data FILE)": True,
    "prompt_template: {qustion} matches no column of the rows, so it is sent as written": True,
    "reader_cfg.input_columns lists 'q', but the test rows have no such column, so {q} is sent as "
    "written (the frameworks do not check input columns)": True,
    "model type 'MyModel' is not a class the frameworks ship; treated as a local model that parses its "
    "meta template into one string": True,
    "has no predictions in the run: its task did not run, or crashed; nothing of it is verified": True,
    "eval.py: AISBench's command line refuses this config (ais_bench eval.py): it defines no `summarizer` "
    "(TMAN-CFG-002), so a run of it fails before inference; the render shows what its pairs would send": True,
    "mmlu.py:6: imports ais_bench.benchmark.utils.text_postprocessors, which AISBench 3.1.20260630 does not "
    "have (ModuleNotFoundError where the run builds first_option_postprocess): the config loads, and the run "
    "fails there": True,
    "max_seq_len 2048: 3 of 10 samples lose in-context examples (samples 1, 2, 3); APPROXIMATE: measured "
    "with an estimate, so the real framework may drop other examples": True,
    "OpenAISDKStreaming with stream=False calls OpenAISDK._generate with one argument too many (TypeError), "
    "retries and fails on every request (OpenCompass 0.5.4): no request is sent; its requests show wire null":
        True,
    # notes on a faithful render
    "Foo's request on the wire is not reproduced (the workbench builds the requests of the API classes the "
    "shipped model configs use; see docs/wire.md): its requests show wire null": False,
    "max_seq_len 2048: 3 of 10 samples lose in-context examples (samples 1, 2, 3); measured with the "
    "model's tokenizer": False,
    "prompt_template: format_variables=False, so {x} is sent as written": False,
    "labels come from the output column's distinct values; the framework's order (list(set(...))) varies "
    "between runs, shown here sorted": False,
    "x is not a local folder (looked in the working directory, beside the config, and in the Hugging Face "
    "cache), so the chat template is unknown and model_text is null; --chat-template NAME|FILE renders one":
        False,
    "GenInferencer: each row is sent 5 times (sc_size), the same prompt every time": False,
    "Gemini ignores max_out_len (100): its requests always ask for maxOutputTokens 2048": False,
}


@pytest.mark.parametrize("message", sorted(MESSAGES))
def test_each_kind_is_decided_by_the_table(message):
    assert real_run_differs(message) is MESSAGES[message]


def test_every_pattern_of_the_table_is_used_by_an_example_or_a_test():
    examples = " | ".join(m for m, differs in MESSAGES.items() if differs)
    assert all(re.compile(pattern) for pattern, _, _ in DIFFERS)
    assert sum(bool(re.search(p, examples, re.M)) for p, _, _ in DIFFERS) >= 8


def test_warnings_of_real_renders_are_classified():
    """An unfilled {field} and a framework failure, as a render says them."""
    cfg = {"abbr": "qa", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": {"ice_template": {"type": "PromptTemplate", "template": "</E>Q: {qustion} {question}",
                                          "ice_token": "</E>"},
                         "retriever": {"type": "FixKRetriever"},
                         "inferencer": {"type": "GenInferencer", "fix_id_list": [0]}}}
    result = render_workspace([DatasetSpec("qa", cfg, rows=[{"question": "q", "answer": "a"}])],
                              [ModelSpec("lm", {"type": "HuggingFaceCausalLM", "path": "x"})])
    kinds = {w.message: real_run_differs(w.message) for w in result.warnings}
    assert any("{qustion} matches no column" in m and k for m, k in kinds.items()), kinds
    assert any("fails here: ValueError: Passing fix_id_list" in m and k for m, k in kinds.items()), kinds


def _placeholders(tmp: Path) -> Path:
    """The workspace with a dataset whose rows are missing: placeholders, and said."""
    write_workspace(tmp)
    (tmp / "data" / "qa.json").unlink()
    return tmp


def test_render_says_each_once_with_a_count_and_strict_makes_them_errors(tmp_path):
    ws = _placeholders(tmp_path)
    plain = run_cli("render", "eval.py", "--model", "chat-lm", "-f", "text", cwd=ws)
    assert plain.code == 0, plain.err
    assert plain.err.count("no rows found") == 1
    assert re.search(r"workbench render: 1 warning above says the real run differs from what is shown, "
                     r"or fails \(1 place\); --strict makes it an error \(exit 3\)", plain.err), plain.err
    strict = run_cli("render", "eval.py", "--model", "chat-lm", "-f", "text", "--strict", cwd=ws)
    assert strict.code == 3 and "Traceback" not in strict.err
    line = next(x for x in strict.err.splitlines() if "no rows found" in x)
    # one located line, one hint: the warning's own, then --strict's
    assert re.match(r"^eval\.py: \[qa × no model\] no rows found \(looked for [^()]*\): showing placeholders "
                    r"from reader_cfg \(hint: --data FILE, [^()]*; --strict: [^()]+\)$", line), line
    assert "warning: " not in line


def test_strict_never_writes_the_out_file(tmp_path):
    ws = _placeholders(tmp_path)
    out = ws / "out.json"
    run = run_cli("render", "eval.py", "--model", "chat-lm", "--strict", "-o", str(out), cwd=ws)
    assert run.code == 3 and not out.exists()
    assert "not written: the render has warnings --strict makes errors" in run.err


def test_strict_check_with_a_difference_and_a_warning_exits_3(tmp_path):
    ws = _placeholders(tmp_path)
    assert run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", cwd=ws).code == 0
    edit(ws / "datasets" / "qa_gen.py", "Answer briefly.", "Answer in one word.")
    check = ["snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", "--check", "--color", "never"]
    assert run_cli(*check, cwd=ws).code == 1
    strict = run_cli(*check, "--strict", cwd=ws)
    assert strict.code == 3, strict.out + strict.err
    assert "passed" not in strict.out and "no rows found" in strict.err


def test_strict_check_without_a_difference_still_fails_on_the_warning(tmp_path):
    ws = _placeholders(tmp_path)
    assert run_cli("snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", cwd=ws).code == 0
    check = ["snapshot", "eval.py", "--model", "chat-lm", "--dir", "snaps", "--check"]
    assert run_cli(*check, cwd=ws).code == 0
    strict = run_cli(*check, "--strict", cwd=ws)
    assert strict.code == 3 and "snapshot check failed (--strict)" in strict.out


def test_verify_says_a_model_task_that_did_not_run(tmp_path):
    fixture = tmp_path / "fixture"
    shutil.copytree(VERIFY_FIXTURE, fixture)
    (fixture / RUN / "predictions" / "fake-lm" / "boolq.json").unlink()
    plain = run_cli("verify", RUN, cwd=fixture)
    assert plain.code == 1, plain.out + plain.err  # nothing of the pair compared: never "match"
    # one warning for the cause, with where else it applies (boolq × fake-api: the framework
    # refuses PPL for an API model, so no run has that pair's predictions either)
    assert "[boolq × fake-api] has no predictions in the run" in plain.err
    assert "(and 1 more model for boolq)" in plain.err
    assert re.search(r"boolq × fake-lm: 0 matched, 0 differing, \d+ missing \(no predictions: ", plain.out)
    strict = run_cli("verify", RUN, "--strict", cwd=fixture)
    assert strict.code == 3 and "has no predictions in the run" in strict.err


def test_diff_strict_exits_3_over_a_difference(tmp_path):
    for side in ("a", "b"):
        _placeholders(tmp_path / side)
    edit(tmp_path / "b" / "datasets" / "qa_gen.py", "Answer briefly.", "Answer in one word.")
    args = ["diff", "a/eval.py", "b/eval.py", "--model", "chat-lm", "--color", "never"]
    assert run_cli(*args, cwd=tmp_path).code == 1
    assert run_cli(*args, "--strict", cwd=tmp_path).code == 3


@pytest.mark.parametrize("command", ["render", "snapshot", "diff", "verify", None])
def test_every_command_help_mentions_strict(command):
    run = run_cli(*([command] if command else []), "--help")
    assert run.code == 0 and "--strict" in run.out


def test_the_json_document_marks_each_warning(tmp_path):
    ws = _placeholders(tmp_path)
    run = run_cli("render", "eval.py", "--model", "chat-lm", cwd=ws)
    warnings = json.loads(run.out)["warnings"]
    assert warnings and all(isinstance(w["real_run_differs"], bool) for w in warnings)
    assert [w["real_run_differs"] for w in warnings if "no rows found" in w["message"]] == [True]


def test_an_aisbench_config_its_command_line_refuses_is_said_and_strict_fails(tmp_path):
    """``ais_bench CONFIG.py`` checks a config before it runs (CustomConfigChecker): without a
    ``summarizer`` dict with an ``attr`` the run fails at once, so the render is no promise."""
    case = PARITY_CASES / "ais_ARC_c_gen_0_shot_chat_prompt"
    shutil.copy(case / "data.json", tmp_path / "rows.json")
    source = (case / "config.py").read_text(encoding="utf-8")
    name = re.search(r"^(\w+_datasets) = ", source, re.M).group(1)
    runnable = f"{source}\ndatasets = [*{name}]\nmodels = models[-1:]\n"
    (tmp_path / "eval.py").write_text(runnable, encoding="utf-8")
    args = ["render", "eval.py", "--data", "rows.json", "-f", "text"]
    plain = run_cli(*args, cwd=tmp_path)
    assert plain.code == 0, plain.err
    [line] = [line for line in plain.err.splitlines() if "command line refuses" in line]
    assert "AISBench's command line refuses this config (ais_bench eval.py): it defines no `summarizer` " \
        "(TMAN-CFG-002), so a run of it fails before inference" in line
    assert run_cli(*args, "--strict", cwd=tmp_path).code == 3
    summarized = runnable + ("from ais_bench.benchmark.summarizers import DefaultSummarizer\n"
                             "summarizer = dict(attr='accuracy', type=DefaultSummarizer)\n")
    (tmp_path / "eval.py").write_text(summarized, encoding="utf-8")
    fine = run_cli(*args, "--strict", cwd=tmp_path)
    assert fine.code == 0 and "command line refuses" not in fine.err, fine.err


def test_the_aisbench_command_line_checks_are_the_frameworks():
    from workbench.loading.config.config_file import ais_cli_refusal

    ok = {"models": [{"abbr": "m"}], "datasets": [{"abbr": "d"}], "summarizer": {"attr": "accuracy"}}
    assert ais_cli_refusal(ok) is None
    assert ais_cli_refusal({**ok, "summarizer": {}}) == "it defines no `summarizer` (TMAN-CFG-002)"
    assert ais_cli_refusal({**ok, "summarizer": {"type": "X"}}) == "its `summarizer` has no `attr` (TMAN-CFG-002)"
    assert ais_cli_refusal({**ok, "models": [{"type": "X"}]}) == "a member of `models` has no `abbr` (TMAN-CFG-002)"
    assert ais_cli_refusal({**ok, "datasets": ["x"]}) == "a member of `datasets` is not a dict (TMAN-CFG-003)"
    assert ais_cli_refusal({"models": ok["models"]}) is None  # a file of models only is not run on its own
