"""OpenCompass's embedding retrievers (TopK, VoteK), ranked as faiss and numpy rank them.

The core embeds nothing itself: the loader hands it an :class:`Embedder` (a local
sentence-transformers folder behind the ``embeddings`` extra) and this module does what
``TopkRetriever`` / ``VotekRetriever`` do with the vectors.  DPP and MDL are refused in
:mod:`workbench.core.retrievers.retriever` with the reason.

What OpenCompass 0.5.4 computes (``icl_topk_retriever.py``, ``icl_votek_retriever.py``):

* the corpus is ``DatasetReader.generate_input_field_prompt`` of each row (input columns
  joined by spaces), tokenised with ``tokenizer_name`` (``truncation=True``) and decoded
  back with ``skip_special_tokens=True`` before ``SentenceTransformer.encode``, one call
  per ``batch_size`` rows, train rows (the index) first;
* TopK: ``faiss.IndexFlatIP`` searched one test row at a time for ``ice_num`` ids;
* VoteK: every train row votes for its ``votek_k`` nearest rows by sklearn's cosine
  similarity ordered with ``np.argsort``; the most-voted rows whose voters are not a
  subset of an earlier candidate's win, the same list for every test row.

Scores are computed in float64 from the model's float32 vectors; faiss sums in float32
in an order its compiler picks, so two rows whose scores differ by less than float32
precision (a few parts in 10^7) may be ordered differently there.  Exact ties (identical
rows embed identically) are ordered exactly as faiss's heap and numpy's sort orders them (the
CPU's: replicas/numpy_argsort.py).

May import: the core's bottom layer, templates, replicas and the other retriever modules; not
models, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import RenderError
from ..extras import install_hint
from ..render_notes import OC_VERSION, Notes
from ..replicas.numpy_argsort import numpy_argsort, numpy_argsort_top  # numpy 1.x's sorts, ties included

Vector = Sequence[float]
# texts -> one vector per text (a sentence-transformers model's ``encode``)
Encoder = Callable[[Sequence[str]], Sequence[Vector]]

DEFAULT_MODEL = "all-mpnet-base-v2"
DEFAULT_TOKENIZER = "gpt2-xl"
GPT2_NAMES = {"gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl", "distilgpt2"}
GPT2_EOS = "<|endoftext|>"
GPT2_MAX_TOKENS = 1024
INSTALL = install_hint("embeddings")


@dataclass(frozen=True)
class Embedder:
    """What the loader found for one retriever: its encoder, and its tokenizer if local.

    ``roundtrip`` is the ``tokenizer_name`` tokenise-and-decode OpenCompass puts every
    text through; ``None`` when that tokenizer is not on disk, and then GPT-2's byte-level
    round trip is modelled (lossless but for ``<|endoftext|>``, which it drops).
    """

    encode: Encoder
    label: str
    roundtrip: Callable[[str], str] | None = None


@dataclass(frozen=True)
class EmbeddingRequest:
    """What a retriever asks the loader for (names as written in the config)."""

    retriever: str
    model_name: str
    tokenizer_name: str
    config_file: str | None = None


EmbedderLookup = Callable[[EmbeddingRequest], Embedder]


def no_embeddings(request: EmbeddingRequest) -> Embedder:
    """The lookup when nothing was set up: the message says what to install and pass."""
    raise RenderError(
        f"{request.retriever} ranks examples by sentence embeddings "
        f"(sentence_transformers_model_name={request.model_name!r}), and no local embedding "
        "model is set up; the workbench never downloads one",
        hint=f"{INSTALL}, then pass --embedding-model DIR (a local sentence-transformers "
        "model folder) or set sentence_transformers_model_name to one",
    )


# -- the corpus ----------------------------------------------------------------------------


def gpt2_roundtrip(text: str) -> str:
    """GPT-2's tokenise-then-decode with ``skip_special_tokens``: only ``<|endoftext|>`` goes."""
    return text.replace(GPT2_EOS, "")


def prepared_texts(texts: Sequence[str], embedder: Embedder, tokenizer_name: str,
                   notes: Notes | None) -> list[str]:
    """The texts OpenCompass hands the embedding model (after its tokenizer round trip)."""
    if embedder.roundtrip is not None:
        return [embedder.roundtrip(t) for t in texts]
    if notes is not None:
        short = tokenizer_name.rsplit("/", 1)[-1]
        if short not in GPT2_NAMES:
            notes.warn(f"tokenizer_name {tokenizer_name!r} is not a local folder: modelled as GPT-2's "
                       "lossless byte-level round trip (a tokenizer that normalises text, lower-casing "
                       "or re-spacing it, would embed different text)")
        long = sum(len(t.encode("utf-8")) > GPT2_MAX_TOKENS for t in texts)
        if long:
            notes.warn(f"{long} row(s) are over {GPT2_MAX_TOKENS} bytes: OpenCompass tokenises them with "
                       f"{tokenizer_name} (truncation=True) before embedding, which may cut them at "
                       f"{GPT2_MAX_TOKENS} tokens; embedded whole here (set tokenizer_name to a local "
                       "tokenizer folder for the exact cut)")
    return [gpt2_roundtrip(t) for t in texts]


def embed(embedder: Embedder, texts: Sequence[str], batch_size: int) -> list[list[float]]:
    """``SentenceTransformer.encode`` once per DataLoader batch, as TopkRetriever.forward calls it."""
    out: list[list[float]] = []
    for start in range(0, len(texts), batch_size):
        batch = list(texts[start:start + batch_size])
        vectors = embedder.encode(batch)
        if len(vectors) != len(batch):
            raise RenderError(f"the embedding model gave {len(vectors)} vectors for {len(batch)} texts")
        out += [[float(x) for x in v] for v in vectors]
    widths = {len(v) for v in out}
    if len(widths) > 1:
        raise RenderError(f"the embedding model gave vectors of different sizes: {sorted(widths)}")
    return out


# -- arithmetic (numpy when it is there: the extra always brings it) ------------------------


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _matrix(rows: Sequence[Vector], np: Any) -> Any:
    """The rows as a float64 array when numpy is there, else as they are."""
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), -1) if np is not None else rows


def inner_products(rows: Any, query: Vector, np: Any = None) -> list[float]:
    """``rows · query`` for every row, in float64; each row summed the same way."""
    if np is not None:
        # An elementwise product and a row-wise sum: identical rows give identical sums
        # (a BLAS gemv may sum its edge rows in another order).
        return (np.asarray(rows) * np.asarray(query, dtype=np.float64)).sum(axis=1).tolist()
    return [math.fsum(a * b for a, b in zip(row, query)) for row in rows]


def _normalized(rows: Sequence[Vector]) -> list[list[float]]:
    """sklearn's ``normalize``: each row over its L2 norm, a zero row left as it is."""
    out = []
    for row in rows:
        norm = math.sqrt(math.fsum(x * x for x in row))
        out.append([x / norm for x in row] if norm else [float(x) for x in row])
    return out


# -- TopK: faiss.IndexFlatIP ----------------------------------------------------------------


def faiss_search(scores: Sequence[float], k: int) -> list[int]:
    """The ids ``IndexFlatIP.search`` returns for one query, given its scores by id.

    faiss keeps a min-heap of ``k`` (score, id) pairs, ties broken by id: a row enters only
    if it beats the heap's top strictly, and evicts the top, the lowest score and among equal
    scores the lowest id.  The heap is then emptied into descending (score, id) order,
    padded with -1 when there are fewer than ``k`` rows.
    """
    if k <= 0:
        raise RenderError("TopkRetriever: faiss's search needs ice_num > 0 "
                          "(OpenCompass fails with AssertionError)",
                          hint="use ZeroRetriever for no in-context examples")
    neutral = -math.inf
    heap_val = [neutral] * k
    heap_id = [-1] * k

    def less(a_val: float, b_val: float, a_id: int, b_id: int) -> bool:  # CMin::cmp2
        return a_val < b_val or (a_val == b_val and a_id < b_id)

    def replace_top(size: int, val: float, ident: int) -> None:
        i = 1
        while True:
            i1, i2 = 2 * i, 2 * i + 1
            if i1 > size:
                break
            if i2 == size + 1 or less(heap_val[i1 - 1], heap_val[i2 - 1], heap_id[i1 - 1], heap_id[i2 - 1]):
                child = i1
            else:
                child = i2
            if less(val, heap_val[child - 1], ident, heap_id[child - 1]):
                break
            heap_val[i - 1], heap_id[i - 1] = heap_val[child - 1], heap_id[child - 1]
            i = child
        heap_val[i - 1], heap_id[i - 1] = val, ident

    for ident, score in enumerate(scores):
        if heap_val[0] < score:
            replace_top(k, score, ident)
    # heap_reorder: pop the top into the tail, ``k - i`` elements left each time.
    out_val = [neutral] * k
    out_id = [-1] * k
    filled = 0
    for i in range(k):
        val, ident = heap_val[0], heap_id[0]
        size = k - i
        last_val, last_id = heap_val[size - 1], heap_id[size - 1]
        if size > 1:
            replace_top(size - 1, last_val, last_id)
        if ident != -1:
            out_val[k - filled - 1], out_id[k - filled - 1] = val, ident
            filled += 1
    return out_id[k - filled:] + [-1] * (k - filled)


def topk_picks(train_vectors: Sequence[Vector], test_vectors: Sequence[Vector],
               ice_num: int) -> list[list[int]]:
    """``TopkRetriever.knn_search``: the ``ice_num`` train rows of highest inner product."""
    np = _numpy()
    rows = _matrix(train_vectors, np)
    return [faiss_search(inner_products(rows, q, np), ice_num) for q in test_vectors]


# -- VoteK -------------------------------------------------------------------------------


def votek_select(vectors: Sequence[Vector], select_num: int, k: int, sort: str = "baseline") -> list[int]:
    """``VotekRetriever.votek_select`` with ``overlap_threshold=1`` and no vote file.

    Raises when the votes choose fewer than ``select_num`` rows: OpenCompass then draws
    the rest with Python's unseeded ``random.sample``, which no render can reproduce.
    """
    n = len(vectors)
    unit = _normalized(vectors)
    np = _numpy()
    rows = _matrix(unit, np)
    vote_stat: dict[int, list[int]] = {}
    for i in range(n):
        scores = inner_products(rows, unit[i], np)
        # np.argsort(scores)[-k - 1:-1], sorting only the positions it keeps.
        nearest = (numpy_argsort_top(scores, k + 1, sort)[:0:-1] if k >= 0
                   else numpy_argsort(scores, sort)[-k - 1:-1])
        for idx in nearest:
            if idx != i:
                vote_stat.setdefault(idx, []).append(i)
    votes = sorted(vote_stat.items(), key=lambda item: len(item[1]), reverse=True)
    selected: list[int] = []
    j = 0
    while len(selected) < select_num and j < len(votes):
        candidate = set(votes[j][1])
        # Overlap with *any* earlier entry of the vote list, chosen or not, disqualifies.
        if not any(len(candidate & set(votes[pre][1])) >= len(candidate) for pre in range(j)):
            selected.append(int(votes[j][0]))
        j += 1
    if len(selected) < select_num:
        missing = select_num - len(selected)
        unselected = n - len(selected)
        if missing > unselected:
            raise RenderError(
                f"VotekRetriever: ValueError: Sample larger than population or is negative "
                f"(ice_num={select_num}, {n} train rows)",
                hint=f"ice_num can be at most {n}, the number of train rows")
        raise RenderError(
            f"VotekRetriever: the votes choose {len(selected)} of the ice_num={select_num} examples "
            f"({selected}); OpenCompass draws the other {missing} with Python's unseeded "
            "random.sample, so they change from run to run and cannot be shown",
            hint=f"lower ice_num to {len(selected)}, or raise votek_k so more rows are voted for")
    return selected


# -- the entry point ----------------------------------------------------------------------


def embedding_picks(name: str, params: Mapping[str, Any], ice_num: int,
                    train_texts: Sequence[str], test_texts: Sequence[str],
                    lookup: EmbedderLookup | None, notes: Notes | None,
                    config_file: str | None = None, sort: str = "baseline") -> list[list[int]]:
    """The example indices TopkRetriever / VotekRetriever give each test row."""
    model_name = params.get("sentence_transformers_model_name", DEFAULT_MODEL)
    tokenizer_name = params.get("tokenizer_name", DEFAULT_TOKENIZER)
    batch_size = params.get("batch_size", 1)
    for key, value in (("sentence_transformers_model_name", model_name), ("tokenizer_name", tokenizer_name)):
        if not isinstance(value, str):
            raise RenderError(f"{name}: {key} must be a str, got {value!r}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise RenderError(f"{name}: batch_size must be a positive int, got {batch_size!r}")
    request = EmbeddingRequest(name, model_name, tokenizer_name, config_file)
    embedder = (lookup or no_embeddings)(request)
    if notes is not None:
        notes.warn(f"{name} embeds with {embedder.label}; {OC_VERSION} runs it only with transformers "
                   "4.x (its DatasetEncoder calls tokenizer.encode_plus, which transformers 5 removed)")
    if not train_texts:
        raise RenderError(f"{name}: ValueError: need at least one array to stack "
                          "(OpenCompass cannot index an empty train split)",
                          hint="give the dataset train rows")
    train = embed(embedder, prepared_texts(train_texts, embedder, tokenizer_name, notes), batch_size)
    if name == "VotekRetriever":
        votek_k = params.get("votek_k", 3)
        if isinstance(votek_k, bool) or not isinstance(votek_k, int):
            raise RenderError(f"VotekRetriever: votek_k must be an int, got {votek_k!r}")
        chosen = votek_select(train, ice_num, votek_k, sort)
        return [list(chosen) for _ in test_texts]
    if ice_num <= 0:
        faiss_search([], ice_num)  # raises as faiss does
    test = embed(embedder, prepared_texts(test_texts, embedder, tokenizer_name, None), batch_size)
    picks = topk_picks(train, test, ice_num)
    if notes is not None and ice_num > len(train_texts):
        notes.warn(f"TopkRetriever: ice_num={ice_num} is more than the {len(train_texts)} train rows: faiss "
                   "pads its answer with id -1, which OpenCompass reads as the last train row")
    return picks
