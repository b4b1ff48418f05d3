"""``verify`` and ``--run`` on the real run folders (tools/make_real_runs.py: OpenCompass 0.5.4
and AISBench 3.1.20260630 run against a loopback server that kept every request body it got).

The proof that multi-turn answers go where the frameworks put them: rendered with ``--run``,
every turn's request on the wire is one the server received, turn 2's history holding the
answer the run recorded for turn 1.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

REAL = Path(__file__).parent / "fixture" / "real_runs"
OC_API = "outputs/eval_api/20261127_173702"
AIS_MULTITURN = "outputs/eval_ais_multiturn/20261127_173618"


@pytest.fixture()
def real(tmp_path: Path) -> Path:
    """A copy of the real runs, each verified from its framework's folder (where it was run)."""
    shutil.copytree(REAL, tmp_path / "real_runs")
    return tmp_path / "real_runs"


def _sent(real: Path, name: str) -> list[dict]:
    """The bodies the loopback server received (key order aside: the JSON as objects)."""
    lines = (real / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(json.loads(line)["body"]) for line in lines if line.strip()]


def _bodies(render_out: str) -> list[tuple[int, int, dict | None, str | None]]:
    return [(s["index"], r["turn"], (r.get("wire") or {}).get("body"), r.get("recorded_output"))
            for render in json.loads(render_out)["renders"] for s in render["samples"] for r in s["requests"]]


def test_the_real_opencompass_api_run_is_verified_pair_by_pair(real: Path) -> None:
    run = run_cli("verify", OC_API, "-f", "json", cwd=real / "opencompass")
    assert run.code == 1, run.out + run.err  # a model task crashed: never a pass
    pairs = {(p["dataset"], p["model"]): p for p in json.loads(run.out)["pairs"]}
    for model in ("oc-openai", "oc-sdk", "oc-trunc"):
        # ChatInferencer's dialogue mode: each round's user message against its turn
        assert (pairs[("dialogue", model)]["matched"], pairs[("dialogue", model)]["differing"]) == (2, 0)
        assert (pairs[("gsm8k", model)]["matched"], pairs[("gsm8k", model)]["differing"]) == (4, 0)
    # oc-trunc (mode='mid', max_seq_len=130) cut what it sent: its matches are of the uncut prompts
    assert [pairs[(d, "oc-trunc")]["cut_by_class"] for d in ("gsm8k", "dialogue")] == [4, 2]
    assert all(pairs[(d, m)]["cut_by_class"] == 0 for d in ("gsm8k", "dialogue") for m in ("oc-openai", "oc-sdk"))
    # oc-crash's server answered HTTP 500: OpenCompass wrote no predictions for it
    for dataset, samples in (("gsm8k", 4), ("dialogue", 2)):
        crashed = pairs[(dataset, "oc-crash")]
        assert (crashed["status"], crashed["missing"], crashed["matched"]) == ("no predictions", samples, 0)
    assert "stand-in" not in run.err  # (the crashed pairs are counted, not warned about turn by turn)
    text = run_cli("verify", OC_API, cwd=real / "opencompass")
    assert text.out.rstrip().splitlines()[-1] == (
        "verify: all 18 compared samples match, 0 missing; 2 pairs of the config with no predictions (the "
        "task did not run or crashed); 6 matched sample(s) compared uncut: the model class cut them before sending")


def test_run_puts_the_recorded_dialogue_rounds_on_the_wire_as_opencompass_sent_them(real: Path) -> None:
    folder = real / "opencompass"
    config = next((folder / OC_API / "configs").glob("*.py"))
    sent = _sent(real, "opencompass/requests/eval_api.jsonl")
    recorded = json.loads((folder / OC_API / "predictions" / "oc-openai" / "dialogue.json").read_text(encoding="utf-8"))
    for model in ("oc-openai", "oc-sdk"):
        run = run_cli("render", str(config), "--run", OC_API, "--dataset", "dialogue", "--model", model, "-f", "json",
                      cwd=folder)
        assert run.code == 0, run.err
        requests = _bodies(run.out)
        assert len(requests) == 4 and "‹prediction turn" not in run.out
        for index, turn, body, answer in requests:
            assert body in sent, (model, index, turn)
            if model == "oc-openai":
                assert answer == recorded[str(index)]["prediction"][turn]["assistant"]


def test_run_puts_aisbench_turns_on_the_wire_as_aisbench_sent_them(real: Path) -> None:
    folder = real / "aisbench"
    # MTBenchDataset's rows (its `prompt` list as `question`, an empty answer a turn), given with
    # --data: reading its files as the class does is the rows' concern, not this test's
    rows = [json.loads(line) for line in (folder / "data" / "mtbench" / "question.jsonl").read_text().splitlines()]
    (folder / "mt_rows.jsonl").write_text("".join(
        json.dumps({"question": r["prompt"], "answer": [""] * len(r["prompt"])}) + "\n" for r in rows),
        encoding="utf-8")
    data = ["--config", "eval_ais_multiturn.py", "--data", "mtbench=mt_rows.jsonl"]
    verified = run_cli("verify", AIS_MULTITURN, *data, "-f", "json", cwd=folder)
    assert verified.code == 0, verified.out + verified.err
    [pair] = json.loads(verified.out)["pairs"]
    # a line per turn (2 + 3 of them): every one compared with its own turn's request
    assert (pair["matched"], pair["differing"], pair["unrecorded_turns"]) == (2, 0, 0)
    run = run_cli("render", *data[1:], "--run", AIS_MULTITURN, "-f", "json", cwd=folder)
    assert run.code == 0, run.err
    sent = _sent(real, "aisbench/requests/eval_ais_multiturn.jsonl")
    lines = [json.loads(line) for line in
             (folder / AIS_MULTITURN / "predictions" / "ais-chat" / "mtbench.jsonl").read_text().splitlines()]
    requests = _bodies(run.out)
    assert len(requests) == len(lines) == 5  # (the server got one more: the first prompt, sent twice)
    for index, turn, body, answer in requests:
        assert body in sent, (index, turn)
        assert answer == [line for line in lines if line["id"] == index][turn]["prediction"]
