"""workbench.core.retrievers.bm25 against nltk / rank_bm25 / numpy 1.x goldens.

The goldens come from tools/gen_retriever_goldens.py; this file never imports
numpy, nltk or rank_bm25.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from workbench.core.replicas.nltk_tokenize import NLTK_FLAVORS, sent_tokenize, word_tokenize
from workbench.core.replicas.numpy_argsort import numpy_argsort, numpy_argsort_top
from workbench.core.replicas.rank_bm25 import BM25Okapi
from workbench.core.retrievers.bm25 import bm25_picks, input_field_text

DATA = Path(__file__).parent / "data"
GOLDENS = json.loads((DATA / "bm25_goldens.json").read_text(encoding="utf-8"))
# The same texts and retrievals under nltk 3.9.x (workbench's flavor="3.9").
GOLDENS_39 = json.loads((DATA / "bm25_nltk39_goldens.json").read_text(encoding="utf-8"))

REL = 1e-12


def _close(a: float, b: float) -> bool:
    return a == b or math.isclose(a, b, rel_tol=REL, abs_tol=0.0)


@pytest.mark.parametrize("case", GOLDENS["tokenize"], ids=lambda c: repr(c["text"][:40]))
def test_word_tokenize(case: dict) -> None:
    assert word_tokenize(case["text"]) == case["tokens"]


@pytest.mark.parametrize("case", GOLDENS["tokenize"], ids=lambda c: repr(c["text"][:40]))
def test_sent_tokenize(case: dict) -> None:
    assert sent_tokenize(case["text"]) == case["sentences"]


@pytest.mark.parametrize("index", range(len(GOLDENS["scores"])))
def test_scores(index: int) -> None:
    case = GOLDENS["scores"][index]
    bm = BM25Okapi(case["corpus"])
    assert _close(bm.avgdl, case["avgdl"])
    assert _close(bm.average_idf, case["average_idf"])
    assert bm.idf.keys() == case["idf"].keys()
    for word, idf in case["idf"].items():
        assert _close(bm.idf[word], idf), word
    for query, expected in zip(case["queries"], case["scores"], strict=True):
        got = bm.get_scores(query)
        assert len(got) == len(expected)
        assert all(_close(g, e) for g, e in zip(got, expected)), (query, got, expected)


@pytest.mark.parametrize(
    "case", GOLDENS["argsort"], ids=lambda c: f"n{len(c['values'])}-{len(set(c['values']))}distinct"
)
def test_numpy_argsort(case: dict) -> None:
    assert numpy_argsort(case["values"]) == case["argsort"]


@pytest.mark.parametrize(
    "case", GOLDENS["argsort"], ids=lambda c: f"n{len(c['values'])}-{len(set(c['values']))}distinct"
)
def test_numpy_argsort_top_matches_full_sort(case: dict) -> None:
    full = case["argsort"][::-1]
    for k in (0, 1, 2, 5, 16, 17, len(full), len(full) + 3, -1, -len(full) + 1):
        assert numpy_argsort_top(case["values"], k) == full[:k], k


@pytest.mark.parametrize("index", range(len(GOLDENS["picks"])))
def test_bm25_picks(index: int) -> None:
    case = GOLDENS["picks"][index]
    assert bm25_picks(case["train"], case["test"], case["ice_num"]) == case["picks"]


def test_nan_sorts_last_like_numpy() -> None:
    nan = float("nan")
    assert numpy_argsort([1.0, nan, 0.0, nan, -1.0]) == [4, 2, 0, 1, 3]


def test_empty_corpus_raises_like_rank_bm25() -> None:
    with pytest.raises(ZeroDivisionError):
        BM25Okapi([])
    with pytest.raises(ZeroDivisionError):
        BM25Okapi([[], []])


def test_input_field_text_joins_columns_with_spaces() -> None:
    entry = {"question": "What is 2+2?", "A": 4, "B": None}
    assert input_field_text(entry, ["question", "A", "B"]) == "What is 2+2? 4 None"


def test_goldens_cover_ties_and_small_sizes() -> None:
    picks = GOLDENS["picks"]
    assert any(len(set(c["train"])) < len(c["train"]) for c in picks)
    assert any(len(c["train"]) <= 16 for c in picks) and any(len(c["train"]) > 16 for c in picks)


@pytest.mark.parametrize("case", GOLDENS_39["tokenize"], ids=lambda c: repr(c["text"][:40]))
def test_word_tokenize_nltk39(case: dict) -> None:
    assert word_tokenize(case["text"], flavor="3.9") == case["tokens"]
    assert sent_tokenize(case["text"], flavor="3.9") == case["sentences"]


@pytest.mark.parametrize("index", range(len(GOLDENS_39["picks"])))
def test_bm25_picks_nltk39(index: int) -> None:
    case = GOLDENS_39["picks"][index]
    got = bm25_picks(case["train"], case["test"], case["ice_num"], flavor="3.9")
    assert got == case["picks"]


def test_flavors_really_differ_and_unknown_is_rejected() -> None:
    assert NLTK_FLAVORS == ("3.10", "3.9")
    assert word_tokenize("We've got 'em.") == ["We", "'ve", "got", "'", "em", "."]
    assert word_tokenize("We've got 'em.", flavor="3.9") == ["We", "'ve", "got", "'em", "."]
    with pytest.raises(ValueError, match="unknown nltk flavor"):
        word_tokenize("x", flavor="3.8")


def test_goldens_were_made_with_the_mirrored_nltk_lines() -> None:
    assert GOLDENS["env"]["nltk"].startswith("3.1")
    assert GOLDENS_39["env"]["nltk"].startswith("3.9.")
    assert GOLDENS["env"]["numpy"].startswith("1.")


def test_a_dataset_is_indexed_once_for_all_its_models() -> None:
    from tests.conftest import make_pair
    from workbench.core.retrievers import bm25

    train = [{"q": f"apples and pears number {i}", "a": str(i)} for i in range(6)]
    test = [{"q": "pears please", "a": "x"}, {"q": "apples", "a": "y"}]
    cfg_model = {"type": "HuggingFaceCausalLM", "path": "m", "meta_template": {"round": [
        {"role": "HUMAN", "begin": "<u>"}, {"role": "BOT", "begin": "<b>", "generate": True}]}}
    before = bm25._picks.cache_info()
    cfg = {"reader_cfg": {"input_columns": ["q"], "output_column": "a"}, "infer_cfg": {
        "ice_template": {"type": "PromptTemplate", "template": "Q: {q} A: {a}\n"},
        "prompt_template": {"type": "PromptTemplate", "template": "</E>Q: {q} A:", "ice_token": "</E>"},
        "retriever": {"type": "BM25Retriever", "ice_num": 2},
        "inferencer": {"type": "GenInferencer"}}}
    picks = []
    for model in (None, cfg_model):
        pair = make_pair(cfg, {"train": train, "test": test}, model)
        picks.append([pair.sample(i).ice_indices for i in range(2)])
    after = bm25._picks.cache_info()
    assert picks[0] == picks[1] and after.misses - before.misses == 1 and after.hits > before.hits


def test_a_tie_is_said_only_where_it_decides() -> None:
    from workbench.core.render_notes import Notes

    train = ["the cat sat", "a dog ran", "tea and rain", "a dog ran"]
    notes = Notes()
    # "cat" reaches row 0 alone: the row kept and the next one score apart
    assert bm25_picks(train, ["cat sat"], 1, notes=notes) == [[0]]
    assert not notes.messages
    # "dog" reaches rows 1 and 3 alike: which comes first is the sort's
    bm25_picks(train, ["dog"], 1, notes=notes)
    assert len(notes.messages) == 1 and "of 1 test rows (rows 0)" in notes.messages[0]
