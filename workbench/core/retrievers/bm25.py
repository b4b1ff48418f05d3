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
from itertools import pairwise

from ..render_notes import Notes
from ..replicas.nltk_tokenize import word_tokenize
from ..replicas.numpy_argsort import numpy_argsort_top
from ..replicas.rank_bm25 import BM25Okapi

#: What each of numpy's sorts is called in a message (its CPU, and the sort numpy runs there).
_SORT_NAMES = {"baseline": "a CPU without AVX-512 (numpy's introsort)",
               "avx512": "a CPU with AVX-512 (numpy's x86-simd-sort)"}

__all__ = ["bm25_picks", "input_field_text"]


def input_field_text(entry: Mapping[str, object], input_columns: Sequence[str]) -> str:
    """The corpus string DatasetReader builds for a row when no input template is set."""
    return " ".join(str(entry[column]) for column in input_columns)


def bm25_picks(
    train_texts: Sequence[str],
    test_texts: Sequence[str],
    ice_num: int,
    flavor: str = "3.10",
    sort: str = "baseline",
    notes: Notes | None = None,
) -> list[list[int]]:
    """The index lists ``BM25Retriever(ice_num=ice_num).retrieve()`` returns.

    ``flavor`` is the nltk release line whose word_tokenize to mirror; ``sort`` the CPU's
    numpy sort that orders tied scores (``replicas.numpy_argsort.SORTS``), said in ``notes``
    where a tie decides which examples a row gets or their order. Cached by the texts: a
    dataset rendered through several models (or reloaded unchanged) is indexed once.
    """
    picks, tied = _picks(tuple(train_texts), tuple(test_texts), ice_num, flavor, sort)
    if tied and notes is not None:
        other = next(name for name in _SORT_NAMES if name != sort)
        first = ", ".join(map(str, tied[:5])) + (", ..." if len(tied) > 5 else "")
        notes.warn(
            f"BM25Retriever: tied scores decide the in-context examples of {len(tied)} of "
            f"{len(test_texts)} test rows (rows {first}); numpy orders ties by the CPU of the machine "
            f"that runs the evaluation: rendered as on {_SORT_NAMES[sort]}; where the evaluation "
            f"runs on {_SORT_NAMES[other]}, set WORKBENCH_NUMPY_SORT={other}"
        )
    return [list(p) for p in picks]


@lru_cache(maxsize=8)
def _picks(train_texts: tuple[str, ...], test_texts: tuple[str, ...], ice_num: int,
           flavor: str, sort: str) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Each row's picks, and the rows whose picks a tie decides (their order included)."""
    bm25 = BM25Okapi([word_tokenize(text, flavor) for text in train_texts])
    picks, tied = [], []
    for row, text in enumerate(test_texts):
        scores = bm25.get_scores(word_tokenize(text, flavor))
        count = len(range(len(scores))[:ice_num])  # what [::-1][:ice_num] keeps
        # one more than kept: a tie with the first row left out decides too
        ranked = numpy_argsort_top(scores, count + 1, sort)
        picks.append(tuple(ranked[:count]))
        top = [scores[i] for i in ranked]
        if any(a == b for a, b in pairwise(top)):
            tied.append(row)
    return tuple(picks), tuple(tied)
