"""rank_bm25 0.2.2's ``BM25Okapi``, reproduced with the standard library.

Its defaults (k1=1.5, b=0.75, epsilon=0.25), the idf floor (a negative idf becomes epsilon
times the mean idf), and the same floating-point operation order, so scores are bit-equal.

May import: the standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["BM25Okapi"]


class BM25Okapi:
    """rank_bm25 0.2.2's ``BM25Okapi`` over pre-tokenised documents."""

    def __init__(
        self,
        corpus: Sequence[Sequence[str]],
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
    ) -> None:
        self.k1 = k1
        self.b = b
        self.epsilon = epsilon
        self.corpus_size = 0
        self.doc_len: list[int] = []
        self.doc_freqs: list[dict[str, int]] = []
        self.idf: dict[str, float] = {}

        nd: dict[str, int] = {}  # word -> number of documents containing it
        num_doc = 0
        for document in corpus:
            self.doc_len.append(len(document))
            num_doc += len(document)
            frequencies: dict[str, int] = {}
            for word in document:
                frequencies[word] = frequencies.get(word, 0) + 1
            self.doc_freqs.append(frequencies)
            for word in frequencies:
                nd[word] = nd.get(word, 0) + 1
            self.corpus_size += 1
        # ZeroDivisionError for an empty corpus, as rank_bm25 raises.
        self.avgdl = num_doc / self.corpus_size

        idf_sum = 0.0
        negative: list[str] = []
        for word, freq in nd.items():
            idf = math.log(self.corpus_size - freq + 0.5) - math.log(freq + 0.5)
            self.idf[word] = idf
            idf_sum += idf
            if idf < 0:
                negative.append(word)
        # ZeroDivisionError when every document is empty, as in rank_bm25.
        self.average_idf = idf_sum / len(self.idf)
        eps = self.epsilon * self.average_idf
        for word in negative:
            self.idf[word] = eps

        # Per-document length normalisation, in numpy's operation order:
        # k1 * (1 - b + b * doc_len / avgdl).
        one_minus_b = 1 - b
        self._norm = [k1 * (one_minus_b + b * dl / self.avgdl) for dl in self.doc_len]
        # With a positive, finite normaliser a document lacking the term adds
        # exactly +-0.0, so only documents containing it need visiting.
        self._sparse = all(n > 0 and n != math.inf for n in self._norm)
        # Per-word (document, score term) lists, filled on first use.
        self._terms: dict[str, list[tuple[int, float]]] = {}
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for i, frequencies in enumerate(self.doc_freqs):
            for word, freq in frequencies.items():
                self._postings.setdefault(word, []).append((i, freq))

    def get_scores(self, query: Sequence[str]) -> list[float]:
        """Score of every document for ``query`` (a token list)."""
        scores = [0.0] * self.corpus_size
        k1p1 = self.k1 + 1
        norm = self._norm
        for q in query:
            idf = self.idf.get(q) or 0
            if self._sparse:
                if idf == 0:
                    continue
                terms = self._terms.get(q)
                if terms is None:
                    terms = self._terms[q] = [
                        (i, idf * (freq * k1p1 / (freq + norm[i])))
                        for i, freq in self._postings.get(q, ())
                    ]
                for i, term in terms:
                    scores[i] += term
            else:
                for i, frequencies in enumerate(self.doc_freqs):
                    freq = frequencies.get(q) or 0
                    try:
                        part = freq * k1p1 / (freq + norm[i])
                    except ZeroDivisionError:
                        part = math.nan if freq == 0 else math.copysign(math.inf, freq * k1p1)
                    scores[i] += idf * part
        return scores
