"""TopK / VoteK ranked as OpenCompass 0.5.4 ranks them; DPP and MDL refused with the reason.

The goldens come from tools/gen_embedding_goldens.py (the real retrievers, faiss and
all-MiniLM-L6-v2); they hold the texts OpenCompass embedded, batch by batch, with the
vectors it got, which a replaying encoder hands back here, so these tests need neither
the model nor numpy.  tests/loading/test_embeddings.py encodes for real when the
``embeddings`` extra is installed.
"""

from __future__ import annotations

import array
import base64
import json
import sys
from pathlib import Path

import pytest

from workbench.core.config_keys import unknown_keys
from workbench.core.errors import RenderError
from workbench.core.extras import install_hint
from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.render_notes import Notes
from workbench.core.retrievers import embedding_retrievers as er
from workbench.core.retrievers.embedding_retrievers import (
    Embedder,
    EmbeddingRequest,
    embedding_picks,
    faiss_search,
)
from workbench.core.retrievers.retriever import build_retriever
from workbench.core.spec import DatasetSpec, type_name

GOLDENS = json.loads((Path(__file__).parent / "data" / "embedding_goldens.json").read_text(encoding="utf-8"))


def _vectors(batch: dict) -> list[list[float]]:
    flat = array.array("f")
    flat.frombytes(base64.b64decode(batch["vectors"]))
    if sys.byteorder != "little":  # pragma: no cover
        flat.byteswap()
    n = len(batch["texts"])
    width = len(flat) // n
    return [list(flat[i * width:(i + 1) * width]) for i in range(n)]


BATCHES = {tuple(b["texts"]): _vectors(b) for b in GOLDENS["batches"]}


class Replay:
    """An encoder that gives back what the model gave OpenCompass for the same batch."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, texts):
        batch = tuple(texts)
        self.calls.append(batch)
        assert batch in BATCHES, f"OpenCompass never embedded this batch: {batch!r}"
        return BATCHES[batch]


def _texts(dataset: str, split: str) -> list[str]:
    spec = GOLDENS["datasets"][dataset]
    return [" ".join(str(r[c]) for c in spec["input_columns"]) for r in spec[split]]


def _run(case: dict, replay: Replay, notes: Notes | None = None) -> list[list[int]]:
    params = dict(case["params"])
    ice_num = params.pop("ice_num", 1)
    return embedding_picks(case["retriever"], params, ice_num, _texts(case["dataset"], "train"),
                           _texts(case["dataset"], "test"), lambda request: Embedder(replay, "replay"), notes)


RANKED = [c for c in GOLDENS["cases"] if c["retriever"] != "DPPRetriever"]
ARITHMETIC = ["python", pytest.param("numpy", marks=pytest.mark.skipif(
    er._numpy() is None, reason="numpy is not installed"))]


@pytest.fixture(params=ARITHMETIC)
def arithmetic(request, monkeypatch):
    if request.param == "python":
        monkeypatch.setattr(er, "_numpy", lambda: None)
    return request.param


@pytest.mark.parametrize("case", RANKED, ids=lambda c: f"{c['dataset']}-{c['retriever']}-{c['params']}")
def test_picks_match_opencompass(case: dict, arithmetic: str) -> None:
    replay = Replay()
    if "error" in case or "random_fill" in case:
        with pytest.raises(RenderError) as info:
            _run(case, replay)
        if "error" in case:
            assert case["error"] in info.value.message
        else:
            # OpenCompass' picks start with the voted rows, then random.sample's.
            voted = case["picks"][0][:len(case["picks"][0]) - case["random_fill"]]
            assert f"the votes choose {len(voted)} of" in info.value.message
            assert str(voted) in info.value.message and "unseeded random.sample" in info.value.message
        return
    assert _run(case, replay) == case["picks"]
    # The same batches, in the same order, as OpenCompass' DataLoader gave the model.
    assert replay.calls == [tuple(GOLDENS["batches"][i]["texts"]) for i in case["batches"]]


def test_goldens_cover_what_matters() -> None:
    picks = [c for c in RANKED if "picks" in c and "random_fill" not in c]
    assert any(-1 in p for c in picks for p in c["picks"]), "ice_num beyond the train rows"
    assert any(c["params"].get("batch_size", 1) > 1 for c in picks)
    assert any("random_fill" in c for c in RANKED) and any("error" in c for c in RANKED)
    embedded = {t for b in GOLDENS["batches"] for t in b["texts"]}
    assert "I like apples  and pears" in embedded, "GPT-2's <|endoftext|> is dropped before embedding"
    ties = [c for c in picks if c["dataset"] == "ties"]
    assert len(ties) >= 10 and len(GOLDENS["datasets"]["ties"]["train"]) > 16


@pytest.mark.parametrize("trial", GOLDENS["faiss_ties"], ids=lambda t: f"n{len(t['scores'])}-k{t['k']}")
def test_faiss_search_orders_ties_as_faiss(trial: dict) -> None:
    assert faiss_search(trial["scores"], trial["k"]) == trial["ids"]


def test_faiss_search_refuses_k_zero_as_faiss_asserts() -> None:
    with pytest.raises(RenderError, match="ice_num > 0"):
        faiss_search([1.0, 2.0], 0)


@pytest.mark.parametrize("case", [c for c in GOLDENS["cases"] if c["retriever"] == "DPPRetriever"],
                         ids=lambda c: f"{c['dataset']}-{c['params']}")
def test_dpp_is_refused_with_the_frameworks_error(case: dict) -> None:
    cfg = {"type": "DPPRetriever", **case["params"]}
    with pytest.raises(RenderError) as info:
        build_retriever(cfg, {}, Notes(), type_name)
    assert case["error"] in info.value.message


def test_mdl_is_refused_naming_the_language_model() -> None:
    cfg = {"type": "MDLRetriever", "ice_num": 8, "candidate_num": 30, "select_time": 10}
    with pytest.raises(RenderError) as info:
        build_retriever(cfg, {}, Notes(), type_name)
    assert "ce_model_name" in info.value.message and "runs no language model" in info.value.message
    assert "TopkRetriever" in (info.value.hint or "")


def test_without_an_embedding_model_the_message_says_what_to_install_and_pass() -> None:
    case = next(c for c in RANKED if c["retriever"] == "TopkRetriever")
    params = dict(case["params"])
    with pytest.raises(RenderError) as info:
        embedding_picks("TopkRetriever", params, 1, ["a"], ["b"], None, Notes())
    assert install_hint("embeddings") in (info.value.hint or "")
    assert "--embedding-model DIR" in (info.value.hint or "")
    assert "never downloads" in info.value.message


def test_the_request_names_the_configs_model_and_tokenizer() -> None:
    seen: list[EmbeddingRequest] = []

    def lookup(request: EmbeddingRequest) -> Embedder:
        seen.append(request)
        return Embedder(lambda texts: [[1.0, float(len(t))] for t in texts], "fake")

    params = {"sentence_transformers_model_name": "models/minilm", "tokenizer_name": "tok", "votek_k": 1}
    embedding_picks("VotekRetriever", params, 1, ["a", "bb", "ccc"], ["q"], lookup, Notes(), "/cfg/x.py")
    assert seen == [EmbeddingRequest("VotekRetriever", "models/minilm", "tok", "/cfg/x.py")]


def test_tokenizer_round_trip_and_its_warnings() -> None:
    got: list[str] = []

    def encode(texts):
        got.extend(texts)
        return [[1.0, 0.0] for _ in texts]

    notes = Notes()
    long = "word " * 300
    embedding_picks("TopkRetriever", {"tokenizer_name": "bert-base-uncased"}, 1,
                    ["a <|endoftext|>b", long], ["c"], lambda r: Embedder(encode, "fake"), notes)
    assert got == ["a b", long, "c"]
    assert any("'bert-base-uncased' is not a local folder" in m for m in notes.messages)
    assert any("1 row(s) are over 1024 bytes" in m for m in notes.messages)
    # A local tokenizer (the loader's) replaces the GPT-2 model, warnings and all.
    got.clear()
    notes = Notes()
    embedding_picks("TopkRetriever", {}, 1, ["Hello World"], ["x"],
                    lambda r: Embedder(encode, "fake", roundtrip=str.lower), notes)
    assert got == ["hello world", "x"]
    assert not any("1024" in m or "not a local folder" in m for m in notes.messages)


@pytest.mark.parametrize(("params", "message"), [
    ({"batch_size": 0}, "batch_size must be a positive int"),
    ({"tokenizer_name": 3}, "tokenizer_name must be a str"),
    ({"votek_k": "3"}, "votek_k must be an int"),
])
def test_bad_parameters(params: dict, message: str) -> None:
    lookup = lambda r: Embedder(lambda texts: [[1.0] for _ in texts], "fake")  # noqa: E731
    with pytest.raises(RenderError, match=message):
        embedding_picks("VotekRetriever", params, 1, ["a"], ["b"], lookup, Notes())


def test_unknown_arguments_are_refused_as_python_would() -> None:
    cfg = {"infer_cfg": {"retriever": {"type": "TopkRetriever", "votek_k": 3}}}
    [error] = unknown_keys(DatasetSpec("d", cfg), None)
    assert "TopkRetriever.__init__() got an unexpected keyword argument 'votek_k'" in error.message


# -- through the renderer -------------------------------------------------------------------

ANIMALS = GOLDENS["datasets"]["animals"]
DATASET = {
    "abbr": "animals",
    "reader_cfg": {"input_columns": ["q"], "output_column": "label"},
    "infer_cfg": {
        "ice_template": {"type": "PromptTemplate", "template": "Q: {q}\nA: {label}"},
        "prompt_template": {"type": "PromptTemplate", "template": "</E>Q: {q}\nA:", "ice_token": "</E>"},
        "retriever": {"type": "TopkRetriever", "ice_num": 3},
        "inferencer": {"type": "GenInferencer"},
    },
}


def _options() -> RenderOptions:
    return RenderOptions(embeddings=lambda request: Embedder(Replay(), "all-MiniLM-L6-v2 (replayed)"))


def _golden(retriever: str, **params) -> dict:
    return next(c for c in GOLDENS["cases"] if c["dataset"] == "animals" and c["retriever"] == retriever
                and c["params"] == params)


def test_a_topk_config_renders_its_nearest_examples() -> None:
    rows = {"train": ANIMALS["train"], "test": ANIMALS["test"]}
    pair = PairRenderer(DatasetSpec(abbr="animals", cfg=DATASET, rows=rows), None, _options())
    expected = _golden("TopkRetriever", ice_num=3)["picks"]
    samples = list(pair.samples())
    assert [list(s.ice_indices) for s in samples] == expected
    # The nearest example first, as the ice_template writes it, then the test row.
    nearest = ANIMALS["train"][expected[1][0]]
    assert str(samples[1].requests[0].model_input).startswith(f"Q: {nearest['q']}\nA: {nearest['label']}\n")
    assert any("TopkRetriever embeds with all-MiniLM-L6-v2 (replayed)" in m for m in pair.notes.messages)


def test_ice_num_beyond_the_train_rows_reads_minus_one_as_the_last_row() -> None:
    cfg = {**DATASET, "infer_cfg": {**DATASET["infer_cfg"], "retriever": {"type": "TopkRetriever", "ice_num": 12}}}
    rows = {"train": ANIMALS["train"], "test": ANIMALS["test"]}
    pair = PairRenderer(DatasetSpec(abbr="animals", cfg=cfg, rows=rows), None, _options())
    sample = pair.sample(0)
    assert list(sample.ice_indices) == _golden("TopkRetriever", ice_num=12)["picks"][0]
    assert any("pads its answer with id -1" in m for m in pair.notes.messages)


def test_without_the_extra_the_pair_is_an_error_at_the_retriever() -> None:
    rows = {"train": ANIMALS["train"], "test": ANIMALS["test"]}
    result = render_workspace([DatasetSpec(abbr="animals", cfg=DATASET, rows=rows)], [])
    [error] = result.errors
    assert "no local embedding model is set up" in error.message
    assert install_hint("embeddings") in (error.hint or "")
