"""OpenCompass' BM25Retriever, reproduced with the standard library only.

OpenCompass 0.5.4 builds, for the index (train) split and the test split alike,
one string per row, ``' '.join(str(entry[c]) for c in input_columns)``, and then::

    index_corpus = [nltk.word_tokenize(text) for text in train_texts]
    bm25 = rank_bm25.BM25Okapi(index_corpus)
    for each test row:
        scores = bm25.get_scores(nltk.word_tokenize(test_text))
        picks = [int(i) for i in np.argsort(scores)[::-1][:ice_num]]

Each stage has its replica in ``workbench.core.replicas``: :mod:`~..replicas.nltk_tokenize`,
:mod:`~..replicas.rank_bm25` and :mod:`~..replicas.numpy_argsort`.
May import: those replicas and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from ..replicas.nltk_tokenize import word_tokenize
from ..replicas.numpy_argsort import numpy_argsort_top
from ..replicas.rank_bm25 import BM25Okapi

__all__ = ["bm25_picks", "input_field_text"]


def input_field_text(entry: Mapping[str, object], input_columns: Sequence[str]) -> str:
    """The corpus string DatasetReader builds for a row when no input template is set."""
    return " ".join(str(entry[column]) for column in input_columns)


def bm25_picks(
    train_texts: Sequence[str],
    test_texts: Sequence[str],
    ice_num: int,
    flavor: str = "3.10",
) -> list[list[int]]:
    """The index lists ``BM25Retriever(ice_num=ice_num).retrieve()`` returns.

    ``flavor`` is the nltk release line whose word_tokenize to mirror. Cached by the texts:
    a dataset rendered through several models (or reloaded unchanged) is indexed once.
    """
    picks = _picks(tuple(train_texts), tuple(test_texts), ice_num, flavor)
    return [list(p) for p in picks]


@lru_cache(maxsize=8)
def _picks(train_texts: tuple[str, ...], test_texts: tuple[str, ...], ice_num: int,
           flavor: str) -> tuple[tuple[int, ...], ...]:
    bm25 = BM25Okapi([word_tokenize(text, flavor) for text in train_texts])
    return tuple(
        tuple(numpy_argsort_top(bm25.get_scores(word_tokenize(text, flavor)), ice_num))
        for text in test_texts
    )
