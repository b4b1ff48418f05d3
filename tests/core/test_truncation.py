"""max_seq_len: in-context examples dropped as OpenCompass 0.5.4's inferencers drop them.

Goldens: tools/gen_truncation_goldens.py runs the real inferencers over a model folder with the
test tokenizer (tests/chat_templates/tokenizer_fixture.py); here the same folder is built and
the workbench must keep the same examples and send the same text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from workbench.core.inferencers.truncation import Truncation, TruncationTally, fit
from workbench.core.render import PairRenderer
from workbench.core.spec import DatasetSpec, ModelSpec
from workbench.core.tokens.counting import tokenizers_available
from workbench.loading.models.model_assets import attach_assets

HERE = Path(__file__).resolve().parent.parent / "chat_templates"
sys.path.insert(0, str(HERE))
from tokenizer_fixture import write_model_folder  # noqa: E402

GOLDENS = json.loads((HERE / "truncation_goldens.json").read_text(encoding="utf-8"))
needs_tokenizers = pytest.mark.skipif(not tokenizers_available(), reason="the tokens extra is not installed")


def pair_for(case: dict, folder: Path) -> PairRenderer:
    infer_cfg = {**case["templates"],
                 "retriever": {"type": "FixKRetriever", "fix_id_list": GOLDENS["fix_id_list"]},
                 "inferencer": {"type": case["inferencer"]}}
    dataset = DatasetSpec(abbr="ds", cfg={"abbr": "ds", "reader_cfg": GOLDENS["reader"], "infer_cfg": infer_cfg},
                          rows={"train": GOLDENS["train"], "test": GOLDENS["test"]})
    model_cfg = {k: v for k, v in case["model"].items()}
    model_cfg.update(abbr="m", path=str(folder))
    (model,) = attach_assets([ModelSpec(abbr="m", cfg=model_cfg)])  # the folder read as the loader reads it
    return PairRenderer(dataset, model)


@needs_tokenizers
@pytest.mark.parametrize("case", GOLDENS["cases"], ids=lambda c: c["id"])
def test_matches_opencompass(case, tmp_path):
    folder = write_model_folder(tmp_path / "model", case["folder"]["chat_template"], case["folder"]["tokens"])
    pair = pair_for(case, folder)
    for index, expected in enumerate(case["samples"]):
        sample = pair.sample(index)
        assert len(sample.requests) == len(expected)
        for request, want in zip(sample.requests, expected):
            assert request.label == want["label"]
            kept = list(request.truncation.kept) if request.truncation else list(sample.ice_indices)
            assert kept == want["kept"], (index, request.label)
            model_input = request.model_input
            if isinstance(model_input, list):
                model_input = [{"role": m["role"], "content": m["content"]} for m in model_input]
            assert model_input == want["model_input"]
            if "model_text" in want:
                assert request.model_text == want["model_text"]
            if case["model"].get("max_seq_len") is None:
                assert request.truncation is None
            else:
                assert request.truncation.exact


@needs_tokenizers
def test_cross_label_write_back_is_reported(tmp_path):
    case = next(c for c in GOLDENS["cases"] if c["id"] == "ppl-lm-labels")
    folder = write_model_folder(tmp_path / "model", None, case["folder"]["tokens"])
    first = pair_for(case, folder).sample(0)
    a, b = (r.truncation for r in first.requests)
    assert a.dropped == (1, 2, 3, 4) and a.inherited == 0
    assert b.kept == (0,) and b.inherited == 4 and b.steps == ((1, b.measured),)
    assert "already by an earlier label" in b.describe()


@needs_tokenizers
def test_dataset_summary_warning(tmp_path):
    case = next(c for c in GOLDENS["cases"] if c["id"] == "gen-lm-string")
    folder = write_model_folder(tmp_path / "model", None, case["folder"]["tokens"])
    pair = pair_for(case, folder)
    list(pair.samples())
    messages = [m for m in pair.notes.messages if m.startswith("max_seq_len 40")]
    assert any("4 of 4 samples lose in-context examples (samples 0, 1, 2, 3)" in m for m in messages)
    assert any("1 of 4 samples are still too long" in m and "(samples 3)" in m for m in messages)
    assert pair.tally is not None and pair.tally.messages(len(pair)) == messages


def test_estimate_says_truncation_is_approximate(tmp_path):
    case = next(c for c in GOLDENS["cases"] if c["id"] == "gen-lm-string")
    pair = pair_for(case, tmp_path / "missing-folder")
    request = pair.sample(3).requests[0]
    assert request.truncation is not None and not request.truncation.exact
    assert "approximate" in request.truncation.describe()
    list(pair.samples())
    assert any("APPROXIMATE" in m for m in pair.notes.messages)
    assert not request.tokens.exact and "estimate" in request.tokens.method


def test_fit_is_opencompass_loop():
    lengths = {3: 90, 2: 61, 1: 40, 0: 22}
    prompt, cut = fit([7, 8, 9], [7, 8, 9], lambda ice: len(ice), lambda n: lengths[n], 50)
    assert prompt == 1 and cut.kept == (7,) and cut.dropped == (8, 9)
    assert cut.steps == ((3, 90), (2, 61), (1, 40)) and not cut.overflow
    _, clp = fit([7], [7], lambda ice: len(ice), lambda n: {1: 55, 0: 50}[n], 50, margin=1)
    assert clp.kept == () and clp.overflow and clp.steps == ((1, 55), (0, 50))


def test_tally_lists_samples():
    tally = TruncationTally(10, True, "tokenizer.json (x)")
    cut = Truncation(10, (1, 2), (1,), ((2, 12), (1, 9)), True, "m")
    tally.add(0, [cut])
    tally.add(1, [])
    assert tally.messages(2) == [
        "max_seq_len 10: 1 of 2 samples lose in-context examples (samples 0); measured with tokenizer.json (x)"]


def test_aisbench_never_truncates(tmp_path):
    case = next(c for c in GOLDENS["cases"] if c["id"] == "gen-lm-string")
    infer_cfg = {**case["templates"], "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1]},
                 "inferencer": {"type": "GenInferencer"}}
    dataset = DatasetSpec(abbr="ds", cfg={"abbr": "ds", "reader_cfg": GOLDENS["reader"], "infer_cfg": infer_cfg},
                          rows={"train": GOLDENS["train"], "test": GOLDENS["test"]}, framework="ais_bench")
    model = ModelSpec(abbr="m", cfg={"type": "HuggingFacewithChatTemplate", "path": "nowhere", "max_seq_len": 5},
                      framework="ais_bench")
    pair = PairRenderer(dataset, model)
    assert pair.sample(0).requests[0].truncation is None
    assert any("AISBench never drops" in m for m in pair.notes.messages)
