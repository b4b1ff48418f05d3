"""The bundled demo shows the happy path cleanly; its pitfalls (``--pitfalls``) show each mistake
with the message its README promises."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
PITFALLS_README = ROOT / "demo_data" / "README.md"


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "html", "svg"])
def test_the_demo_renders_to_a_file_cleanly_in_every_format(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"demo.{fmt}"
    run = run_cli("render", "--format", fmt, "-o", str(out))
    assert run.code == 0, run.err
    # html and svg say once that they hold each pair's first sample; nothing else is said
    assert [line for line in run.err.splitlines() if "the first sample of each pair" not in line] == []
    assert out.stat().st_size > 0


def test_the_demo_is_twelve_clean_pairs() -> None:
    run = run_cli("render", "--format", "json")
    assert run.code == 0, run.err
    document = json.loads(run.out)
    pairs = {(r["dataset"], r["model"]) for r in document["renders"]}
    assert len(pairs) == 12
    assert {d for d, _ in pairs} == {"gsm8k-like", "mmlu-like-everyday-science", "multiturn-chat"}
    assert document["errors"] == [] and document["warnings"] == []


def test_the_demo_readme_counts_the_pairs_the_demo_has() -> None:
    text = PITFALLS_README.read_text(encoding="utf-8")
    assert "Three datasets × four models make 12 pairs" in text


def test_pitfalls_show_each_mistake_with_its_message() -> None:
    run = run_cli("render", "--pitfalls", "--format", "text")
    assert run.code == 3
    errors = [line for line in run.err.splitlines() if not line.startswith(("warning:", "workbench"))]
    assert run_cli("render", "--strict", "--format", "text").code == 0  # the demo is clean under --strict too
    assert len(errors) == 2
    assert "OpenAI does not support ppl-based evaluation yet" in errors[0]
    assert "HuggingFacewithChatTemplate does not support ppl-based evaluation yet" in errors[1]
    assert re.search(r"GSM8KDataset\.load\(\) cannot read \S+gsm8k_like\.json", run.err)
    assert "[multiturn-demo × internlm2-chat-7b-demo] the dataset is an AISBench config" in run.err
    assert "the multimodal `prompt_mm` parts are dropped" in run.err
    assert re.search(r"answer_prefix_gen\.py:\d+: \[answer-prefix × \S+\] PW201 unsent-generation-prompt: "
                     r"the generating BOT turn's prompt 'A:' is never sent", run.err)
    # every pitfall dataset the README's table names is in the render
    for abbr in re.findall(r"^\| `([\w-]+)` \(`datasets/", PITFALLS_README.read_text(encoding="utf-8"), re.M):
        assert f"=== {abbr} · " in run.out, abbr


def test_pitfalls_with_a_config_is_a_usage_error() -> None:
    run = run_cli("render", "--pitfalls", "eval.py")
    assert run.code == 2
    assert "--pitfalls opens the bundled pitfalls config: give it without a CONFIG" in run.err
