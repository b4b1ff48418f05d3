"""The lm-eval options (``--num-fewshot``, ``--fewshot-seed``, ``--seed``, ``--system-instruction``,
``--apply-chat-template``, ``--fewshot-as-multiturn``) on every command that loads configs: each
renders a task with them as lm-eval does (the contexts of the parity goldens, made by lm-eval
0.4.13), and each refuses them alike where lm-eval would, or where no CONFIG is a task."""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.commands import open as open_command

LMEVAL = Path(__file__).resolve().parent.parent / "parity" / "lmeval"
TASKS = LMEVAL / "tasks"
CHATML = str(LMEVAL / "chat" / "chatml")
ARC = ["--data", f"test={TASKS / 'arc_test.jsonl'}", "--data", f"train={TASKS / 'arc_train.jsonl'}"]
# lm-eval's shots folded into one user message under chatml, two of them (cases.py: mc-2shot-chat-st)
FOLDED = ["--num-fewshot", "2", "--apply-chat-template", "--chat-template", CHATML,
          "--fewshot-as-multiturn", "false"]
OPENCOMPASS = Path(__file__).resolve().parent.parent.parent / "demo_data" / "eval_demo.py"


def contexts(golden: str) -> list[str]:
    requests = json.loads((LMEVAL / "goldens" / f"{golden}.json").read_text())["requests"]
    return list(dict.fromkeys(r["arguments"][0] for r in requests))


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_render_text_and_markdown_take_the_options(fmt):
    run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, *FOLDED, "-f", fmt)
    assert run.code == 0, run.err
    expected = contexts("mc-2shot-chat-st")
    assert len(expected) == 4
    for context in expected:
        assert context in run.out
    assert contexts("mc-2shot-chat-mt")[0] not in run.out


def test_render_html_takes_the_options():
    run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, "--num-fewshot", "1", "--system-instruction",
                  "You are a careful assistant.", "-f", "html", "--limit", "1")
    assert run.code == 0, run.err
    [first] = contexts("mc-system-plain")[:1]
    assert html.escape(first, quote=False).split("\n")[0] in run.out
    assert "You are a careful assistant." in run.out


def test_render_svg_shows_what_decided_the_prompt(tmp_path: Path):
    out = tmp_path / "task.svg"
    run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, "--num-fewshot", "2", "--fewshot-seed", "7",
                  "-f", "svg", "--limit", "1", "--out", str(out))
    assert run.code == 0, run.err
    svg = out.read_text().replace("&#160;", " ")
    for text in ("in&#160;effect", "--num-fewshot", "--fewshot-seed"):
        assert text.replace("&#160;", " ") in svg


def test_the_seed_reaches_the_sampler():
    def shots(*extra: str) -> list[list[int]]:
        run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, "--num-fewshot", "2", *extra)
        return [s["ice_indices"] for s in json.loads(run.out)["renders"][0]["samples"]]

    default = shots()
    assert shots("--fewshot-seed", "1234") == default
    assert shots("--fewshot-seed", "7") != default


SHUFFLE = ["--data", f"test={TASKS / 'shuffle_test.jsonl'}", "--data",
           f"train={TASKS / 'shuffle_train.jsonl'}", "--num-fewshot", "2"]


def _requests(run) -> list[dict]:
    return [{"task": render["dataset"], "doc_id": sample["index"], "idx": i,
             "arguments": [request["model_input"], request["continuation"]]}
            for render in json.loads(run.out)["renders"] for sample in render["samples"]
            for i, request in enumerate(sample["requests"])]


@pytest.mark.parametrize(("golden", "extra"), [("shuffle-two-tasks", []), ("shuffle-seed-42", ["--seed", "42"])])
def test_process_docs_that_shuffle_render_as_lm_eval_does_and_stay_put(golden, extra):
    """Tasks whose process_docs shuffle with the global random state, rendered together: lm-eval's
    seeded order (its --seed too), the same bytes on every run."""
    case = json.loads((LMEVAL / "goldens" / f"{golden}.json").read_text())
    paths = [str(LMEVAL / path) for path in (case["case"]["task"], *case["case"]["also"])]
    first = run_cli("render", *paths, *SHUFFLE, *extra)
    assert first.code == 0, first.err
    assert _requests(first) == case["requests"]
    again = run_cli("render", *paths, *SHUFFLE, *extra)
    assert again.out == first.out


def test_the_global_seeds_reach_process_docs():
    """``--seed``'s first two values are Python's and numpy's seeds: another one, another order;
    the same values written out in full, the same order."""
    task = str(TASKS / "npshuffle.yaml")

    def options(*extra: str) -> list[list[str]]:
        run = run_cli("render", task, *SHUFFLE, "--num-fewshot", "0", *extra)
        assert run.code == 0, run.err
        return [[r["continuation"] for r in s["requests"]] for s in json.loads(run.out)["renders"][0]["samples"]]

    default = options()
    assert options("--seed", "0,1234,1234,1234") == default
    assert options("--seed", "0,1234,5,1234") == default  # torch's seed: nothing here draws from it
    assert options("--seed", "0,99,1234,1234") != default


def test_an_unseeded_global_state_is_said():
    run = run_cli("render", str(TASKS / "shuffle.yaml"), *SHUFFLE, "--seed", "None,1234,1234,1234")
    assert run.code == 0, run.err
    warnings = [(w["dataset"], w["message"]) for w in json.loads(run.out)["warnings"] if "not seeded" in w["message"]]
    assert warnings == [("shuffled", "Python's random is not seeded (--seed None): what the task's code draws "
                         "from it differs on every render, as in lm-eval's runs")]


def test_snapshot_writes_and_checks_with_the_options(tmp_path: Path):
    folder = tmp_path / "snaps"
    wrote = run_cli("snapshot", str(TASKS / "mc.yaml"), *ARC, *FOLDED, "--dir", str(folder))
    assert wrote.code == 0, wrote.err
    [snap] = folder.rglob("*.snap")
    text = snap.read_text()
    # every request's context: the shots folded into the user message of chatml
    assert text.count("| <|im_start|>user\n| Question: ") == 12
    assert text.count("| <|im_start|>assistant") == 12
    assert run_cli("snapshot", str(TASKS / "mc.yaml"), *ARC, *FOLDED, "--dir", str(folder), "--check").code == 0
    # without them the task renders otherwise: the check says so
    assert run_cli("snapshot", str(TASKS / "mc.yaml"), *ARC, "--dir", str(folder), "--check").code == 1


def test_diff_renders_both_sides_with_the_options(tmp_path: Path):
    for name in ("mc.yaml", "base.yaml"):
        shutil.copy(TASKS / name, tmp_path)
    (tmp_path / "other.yaml").write_text((TASKS / "mc.yaml").read_text() + 'description: "Answer.\\n\\n"\n')
    run = run_cli("diff", str(tmp_path / "mc.yaml"), str(tmp_path / "other.yaml"), *ARC, *FOLDED,
                  "--color", "never")
    assert run.code == 1, run.err
    assert "  | <|im_start|>system\n- | The following are questions.\n+ | Answer." in run.out


def test_the_app_gets_the_options_from_its_command_line():
    args = open_command.build_parser().parse_args([str(TASKS / "mc.yaml"), *ARC, *FOLDED])
    inputs = open_command.inputs_of(args)
    assert inputs.lmeval.num_fewshot == 2 and inputs.lmeval.apply_chat_template
    assert inputs.lmeval.fewshot_as_multiturn is False


@pytest.mark.parametrize("command", ["render", "snapshot", "diff", "lint", "serve", None])
def test_every_command_refuses_them_as_lm_eval_does(command: str | None, tmp_path: Path):
    """Shots as turns without a chat template (lm-eval: ValueError); a chat template to apply
    and none named; the options where no CONFIG is a task."""
    extra = ["--dir", str(tmp_path)] if command == "snapshot" else []
    head = [command] if command else []
    cases = [([str(TASKS / "mc.yaml"), "--fewshot-as-multiturn"], "needs --apply-chat-template"),
             ([str(TASKS / "mc.yaml"), "--apply-chat-template"], "needs --chat-template"),
             ([str(OPENCOMPASS), "--num-fewshot", "3"], "for lm-eval task YAMLs, and"),
             ([str(TASKS / "mc.yaml"), "--fewshot-as-multiturn", "maybe"], "give true or false"),
             ([str(TASKS / "mc.yaml"), "--seed", "1,2"], "4 integers or None"),
             ([str(TASKS / "mc.yaml"), "--seed", "x"], "'x' is not an integer or None"),
             ([str(TASKS / "mc.yaml"), "--seed", "1,2,3,None"], "unseeded random.Random(None)"),
             ([str(TASKS / "mc.yaml"), "--seed", "42", "--fewshot-seed", "7"], "give one of them")]
    for argv, said in cases:
        if command == "diff":  # A B: the config twice
            argv = [argv[0], *argv]
        run = run_cli(*head, *extra, *argv)
        assert run.code == 2, (command, argv, run.err)
        assert said in run.err, (command, argv, run.err)


def test_help_describes_each_option():
    run = run_cli("render", "--help")
    for flag in ("--num-fewshot", "--fewshot-seed", "--seed", "--system-instruction",
                 "--apply-chat-template", "--fewshot-as-multiturn"):
        assert run.out.count(flag) >= 1
    assert "(default:onwith--apply-chat-template," in "".join(run.out.split())
