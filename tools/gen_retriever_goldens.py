"""Dev-only: record what OpenCompass' RandomRetriever and BM25Retriever compute.

Runs the real libraries OpenCompass 0.5.4 calls (numpy 1.x, nltk, rank_bm25
0.2.2) and writes the goldens that tests/core/test_np_random.py and
tests/core/test_bm25.py compare workbench.core.replicas (numpy_random, nltk_tokenize, rank_bm25,
numpy_argsort) / workbench.core.retrievers.bm25
against.  The tests themselves never import numpy, nltk or rank_bm25.

Set-up (a scratch venv, never a project dependency)::

    python3 -m venv $SCRATCH_VENV
    $SCRATCH_VENV/bin/pip install "numpy>=1.23.4,<2" nltk rank_bm25==0.2.2
    # NLTK's punkt_tab English model must be findable, e.g. under $NLTK_DATA:
    #   $NLTK_DATA/tokenizers/punkt_tab/english/{abbrev_types.txt,
    #       collocations.tab,ortho_context.tab,sent_starters.txt}
    NLTK_DATA=... $SCRATCH_VENV/bin/python tools/gen_retriever_goldens.py

With nltk >= 3.10 it writes random_retriever_goldens.json and bm25_goldens.json;
run it again from a venv with nltk 3.9.x (same numpy and rank_bm25) to write
bm25_nltk39_goldens.json, the goldens of workbench's ``flavor="3.9"`` tokenizer.

numpy must be 1.x (OpenCompass 0.5.4 pins numpy<2) on a CPU without AVX-512:
there np.argsort's default kind is numpy's portable introsort, whose order of
tied scores workbench.core.replicas.numpy_argsort reproduces.  numpy 1.25+ on AVX-512 CPUs and
numpy 2.x on AVX2 CPUs sort with x86-simd-sort instead, which orders ties
differently, so the script refuses to run there (tools/gen_simd_argsort_goldens.py
records that order).
"""

from __future__ import annotations

import json
import platform
import random
import sys
from importlib.metadata import version
from pathlib import Path

import nltk
import numpy as np
from nltk.tokenize import sent_tokenize, word_tokenize
from rank_bm25 import BM25Okapi

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "core" / "data"


def _check_numpy() -> None:
    if int(np.__version__.split(".")[0]) >= 2:
        raise SystemExit(f"numpy {np.__version__}: OpenCompass 0.5.4 needs numpy<2")
    try:
        from numpy.core._multiarray_umath import __cpu_features__ as feats
    except ImportError:  # pragma: no cover
        feats = {}
    if feats.get("AVX512_SKX"):
        raise SystemExit("AVX-512 CPU: numpy's argsort would use x86-simd-sort here")


def _env() -> dict:
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "numpy": np.__version__,
        "nltk": nltk.__version__,
        "rank_bm25": version("rank_bm25"),
        "regex": version("regex"),
    }


# ---------------------------------------------------------------------------
# RandomRetriever
# ---------------------------------------------------------------------------


def _picks(seed: int, n: int, rows: int, k: int) -> list[list[int]]:
    np.random.seed(seed)
    return [np.random.choice(n, k, replace=False).tolist() for _ in range(rows)]


def random_goldens() -> dict:
    rng = random.Random(20240611)
    cases = []
    fixed = [
        (43, 1, 3, 1),
        (43, 2, 5, 1),
        (43, 2, 5, 2),
        (43, 5, 10, 0),
        (43, 5, 10, 5),
        (43, 10, 10, 1),
        (43, 10, 10, 3),
        (43, 16, 8, 4),
        (43, 17, 8, 4),
        (43, 100, 20, 1),
        (43, 100, 20, 8),
        (43, 257, 10, 16),
        (43, 1000, 10, 5),
        (43, 5000, 4, 8),
        (43, 65537, 2, 4),
        (0, 10, 5, 3),
        (1, 10, 5, 3),
        (42, 500, 5, 5),
        (12345, 31, 12, 31),
        (2**31, 64, 5, 2),
        (2**32 - 1, 64, 5, 2),
    ]
    for seed, n, rows, k in fixed:
        cases.append({"seed": seed, "num_train": n, "num_test": rows, "ice_num": k})
    for _ in range(40):
        n = rng.choice([1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 64, 127, 128, 129, 300, 1024, 2049])
        cases.append(
            {
                "seed": rng.choice([43, rng.randrange(2**32)]),
                "num_train": n,
                "num_test": rng.randrange(1, 12),
                "ice_num": rng.randrange(0, min(n, 10) + 1),
            }
        )
    for case in cases:
        case["picks"] = _picks(case["seed"], case["num_train"], case["num_test"], case["ice_num"])

    # Errors: each call is made after seeding; "then" is the next successful
    # draw, showing whether the failed call consumed random numbers.
    errors = []
    for seed, n, k in [(43, 5, 6), (43, 0, 1), (43, 0, -1), (43, 5, -1), (43, -1, 0), (7, 3, 4)]:
        np.random.seed(seed)
        try:
            np.random.choice(n, k, replace=False)
        except ValueError as exc:
            message = str(exc)
        else:  # pragma: no cover
            raise SystemExit(f"choice({n}, {k}) did not raise")
        then = np.random.choice(10, 3, replace=False).tolist()
        errors.append({"seed": seed, "n": n, "k": k, "error": message, "then": then})
    empty = []
    for seed, n, k in [(43, 0, 0), (43, 1, 1), (43, 1, 0), (43, 5, 0)]:
        np.random.seed(seed)
        got = np.random.choice(n, k, replace=False).tolist()
        then = np.random.choice(10, 3, replace=False).tolist()
        empty.append({"seed": seed, "n": n, "k": k, "picks": got, "then": then})

    seed_errors = []
    for seed in (-1, 2**32, 2**40):
        try:
            np.random.seed(seed)
        except ValueError as exc:
            seed_errors.append({"seed": seed, "error": str(exc)})

    # Raw 32-bit words and legacy bounded integers (the draw behind shuffle).
    words = {}
    for seed in (0, 43, 2**32 - 1):
        rs = np.random.RandomState(seed)
        words[str(seed)] = rs.randint(0, 2**32, size=1500, dtype=np.uint64).tolist()
    intervals = []
    for seed, max_value in [(43, 1), (43, 2), (43, 5), (43, 1000), (5, 2**31), (5, 2**32 - 2),
                            (9, 2**32), (9, 2**40 + 12345), (11, 2**63 - 1)]:
        rs = np.random.RandomState(seed)
        draws = rs.randint(0, max_value + 1, size=300, dtype=np.uint64).tolist()
        intervals.append({"seed": seed, "max": max_value, "draws": draws})

    return {
        "env": _env(),
        "cases": cases,
        "errors": errors,
        "empty": empty,
        "seed_errors": seed_errors,
        "words": words,
        "intervals": intervals,
    }


# ---------------------------------------------------------------------------
# BM25Retriever
# ---------------------------------------------------------------------------

TOKENIZE_TEXTS = [
    "",
    "   ",
    "Hello world.",
    "Hello world",
    "Dr. Smith went to Washington D.C. yesterday. He said \"hi!\" It's 3.5 dollars.",
    "Mr. Brown can't go. Mrs. Green won't either; Prof. White isn't sure.",
    "J. Smith and B. Levine met at 5 p.m. on Jan. 3. They left at 7 a.m. the next day.",
    "The U.S. economy grew 3.2% in Q1. Meanwhile, the U.K. shrank by 0.5%.",
    "St. Louis is in Mo. It is big. No. 5 is great. Vol. 3 was bad.",
    "e.g. this, i.e. that; etc. and so on. See Fig. 2 and Eq. (3).",
    "I'd've done it. You'll see. They're here. We've got 'em. 'Tis true. 'Twas night.",
    "cannot gonna gotta lemme wanna go gimme more'n d'ye know",
    "CANNOT GONNA Gotta -- she DIDN'T, he WON'T, they'RE",
    "He said: \"Go.\" Then he left. (Sent1.) Sent2. \"Quoted sentence.\" Next one.",
    "'quoted' and ''double'' and ``tex`` and \"plain\" quotes",
    "\u201cCurly quotes,\u201d she said. \u2018Single\u2019 too. \u00abGuillemets\u00bb here.",
    "\u201cEnds with a curly quote.\u201d Next sentence starts. \u00abEnd.\u00bb Then more.",
    "What?! No way... Really?? Yes!!! OK. Wait . . . what?",
    "Ellipsis... then more. And . . . spaced. And.. two dots.",
    "Price: $1,000.50 (approx.) [note] {x} <y> -- dash \u2014 em \u2013 en \u2012 fig",
    "Numbers: 3.14, -2.5, 1,000,000, 10:30, 1/2, 50%, #1, 2nd, 3rd. Version 2.0.1 ok.",
    "1. First item\n2. Second item\n3. Third item.",
    "He scored 3. Then he left. It costs 5. but why",
    "Line one\nLine two.\n\nNew paragraph. End",
    "tab\tseparated\twords. and\r\nCRLF lines.\r\nAnother.",
    "na\u00efve caf\u00e9 r\u00e9sum\u00e9. \u00dcn\u00efc\u00f6d\u00e9 text here. Stra\u00dfe.",
    "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3002"
    "\u4e2d\u6587\u53e5\u5b50\u3002 Mixed \u4e2d\u6587 and English.",
    "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440. "
    "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac. \u0639\u0631\u0628\u064a.",
    "e\u0301l\u00e8ve 'e\u0301t\u00e9' \u00bd \u00b2 \u24b6. x\u200dy",
    "email me at foo@bar.com. #hashtag & stuff; ok* 100% sure",
    "Q: What is 2+2? A: 4. Q: And 3*3? A: 9!",
    "Question: Which is correct?\nA. red\nB. blue\nC. green\nD. none\nAnswer:",
    "The quick brown fox jumps over the lazy dog.",
    "ALL CAPS SENTENCE. ANOTHER ONE HERE. lower case start. Mixed Case.",
    "Inc. and Corp. and Ltd. and Co. are abbreviations. So is Gen. Smith.",
    "It was Sept. 11. The U.S.A. responded. U.N. officials met.",
    "A. B. C. D. E.",
    "non\u00a0breaking\u00a0space. ideographic\u3000space. Next.",
    "don't can't won't shan't y'all ma'am o'clock rock'n'roll",
    "<html> tags </html> and [brackets] and {braces}.",
    "***bold*** and __under__ and `code` and ~tilde~.",
    "Trailing spaces.   \n\n   ",
    "Sentence one.Sentence two without space. Three.",
    "Mr.Smith no space. Dr.Who.",
    "Is it 5 p.m. or 5 P.M.? Both.",
    "\"Hello,\" he said, \"how are you?\" \"Fine.\"",
    "She asked 'why?' and left.",
    "Multiple\n\n\nblank\n\n\nlines.",
    "Ph.D. students at M.I.T. study. They work hard.",
    "Chapter 1. Introduction. Section 1.1. Background.",
]


def _fuzz_texts(count: int) -> list[str]:
    """Deterministic random strings exercising punctuation and quote rules."""
    rng = random.Random(7)
    palette = [
        *"abcdeABCDE xyz.,;:!?'\"()[]{}<>-*@#$%&`\n\t0123456789",
        "Dr.", "Mr.", "U.S.", "e.g.", "J.", "...", "''", "``", "n't", "'s", "\u201c", "\u201d",
        "\u2018", "\u2019", "\u00ab", "\u00bb", "\u2013", "\u2014", " The ", " the ",
        " However ", "\u0301", "\u00e9", "\u017f", "\x1c", "\u00a0", "\u3000", "\u00bd",
        "\u00b2", "--", " St. ", "No.", "5.", "p.m.", " i.e. ", "cannot", "gonna", "'tis",
        "'em", " Inc. ", " Smith", " smith", " Corp.",
    ]
    return [
        "".join(rng.choice(palette) for _ in range(rng.randrange(1, 50))) for _ in range(count)
    ]


def _sentence_texts(count: int) -> list[str]:
    """Deterministic sentence-like texts that reach Punkt's heuristics."""
    from nltk.tokenize.punkt import PunktTokenizer

    params = PunktTokenizer("english")._params
    rng = random.Random(11)
    ortho = sorted(params.ortho_context)
    abbr = sorted(params.abbrev_types)
    starters = sorted(params.sent_starters)
    colloc = sorted(params.collocations)

    def word() -> str:
        r = rng.random()
        if r < 0.5:
            w = rng.choice(ortho)
        elif r < 0.6:
            w = rng.choice(abbr) + "."
        elif r < 0.7:
            w = rng.choice(starters)
        elif r < 0.75:
            a, b = rng.choice(colloc)
            w = (str(rng.randrange(100)) if a == "##number##" else a) + ". " + b
        elif r < 0.8:
            w = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "."
        elif r < 0.85:
            w = str(rng.randrange(1000)) + rng.choice(["", ".", ",", ".5"])
        elif r < 0.9:
            w = rng.choice(["...", "?", "!", ".", ",", ";", ":", '"', "'", "(", ")", "--"])
        else:
            w = rng.choice(ortho).upper()
        if rng.random() < 0.3:
            w = w[:1].upper() + w[1:]
        return w

    seps = [" "] * 12 + ["  ", "\n", ". ", "? ", "! ", ".\n", " \n\n "]
    out = []
    for _ in range(count):
        out.append("".join(word() + rng.choice(seps) for _ in range(rng.randrange(1, 30))))
    return out


def _tokenize_cases() -> list[dict]:
    texts = TOKENIZE_TEXTS + _fuzz_texts(300) + _sentence_texts(300)
    return [
        {"text": t, "sentences": sent_tokenize(t), "tokens": word_tokenize(t)} for t in texts
    ]


def _score_cases() -> list[dict]:
    rng = random.Random(3)
    cases = []
    hand = [
        (
            [["a", "b", "c"], ["a", "a", "d"], ["b", "e"], [], ["c", "c", "c", "a"]],
            [["a"], ["c", "a"], ["z"], [], ["a", "a", "b"], ["e", "d", "c", "b", "a"]],
        ),
        (
            [["same"], ["same"], ["same"]],  # every idf negative: epsilon floor
            [["same"], ["same", "same"], ["other"]],
        ),
        ([["x", "y"]], [["x"], ["y", "x"], ["q"]]),
    ]
    for corpus, queries in hand:
        cases.append({"corpus": corpus, "queries": queries})
    vocab = [f"w{i}" for i in range(40)]
    for _ in range(25):
        n = rng.choice([2, 3, 5, 9, 16, 17, 40, 120])
        top = rng.randrange(2, 40)
        corpus = [[rng.choice(vocab[:top]) for _ in range(rng.randrange(0, 12))] for _ in range(n)]
        if not any(corpus):
            corpus[0] = ["w0"]
        queries = [[rng.choice(vocab) for _ in range(rng.randrange(0, 9))] for _ in range(6)]
        cases.append({"corpus": corpus, "queries": queries})
    for case in cases:
        bm = BM25Okapi(case["corpus"])
        case["scores"] = [[float(x) for x in bm.get_scores(q)] for q in case["queries"]]
        case["idf"] = dict(bm.idf)
        case["average_idf"] = bm.average_idf
        case["avgdl"] = bm.avgdl
    return cases


def _argsort_cases() -> list[dict]:
    rng = random.Random(5)
    cases = []
    for n in [0, 1, 2, 5, 15, 16, 17, 18, 19, 31, 32, 33, 64, 100, 257, 1000]:
        for kind in ("zeros", "few", "mixed", "sparse", "sorted", "reversed"):
            if kind == "zeros":
                v = [0.0] * n
            elif kind == "few":
                v = [float(rng.randrange(3)) for _ in range(n)]
            elif kind == "mixed":
                v = [rng.choice([0.0, 0.0, 1.25, 2.5, rng.random()]) for _ in range(n)]
            elif kind == "sparse":
                v = [rng.random() * 9 if rng.random() < 0.05 else 0.0 for _ in range(n)]
            elif kind == "sorted":
                v = sorted(float(rng.randrange(max(n // 3, 1))) for _ in range(n))
            else:
                v = sorted((float(rng.randrange(max(n // 3, 1))) for _ in range(n)), reverse=True)
            order = np.argsort(np.array(v, dtype=np.float64))
            cases.append({"values": v, "argsort": order.tolist()})
    # A median-of-three "killer" drives numpy into its heapsort fallback.
    # Halving the killer's values keeps the heapsort path but adds ties.
    for n in (64, 256, 1024):
        killer = _median_of_three_killer(n)
        for v in (killer, [float(int(x) // 2) for x in killer]):
            cases.append({"values": v, "argsort": np.argsort(np.array(v)).tolist()})
    return cases


def _median_of_three_killer(n: int) -> list[float]:
    """McIlroy's "antiqsort" adversary run against numpy's introsort.

    Values are fixed lazily as the sort compares them, so that the quicksort
    keeps choosing bad pivots and numpy falls back to heapsort. The comparison
    sequence comes from workbench.core.replicas.numpy_argsort, the replica of numpy's argsort; the
    golden order itself is numpy's.
    """
    sys.path.insert(0, str(ROOT))
    from workbench.core.replicas import numpy_argsort

    gas = float(n)
    val = [gas] * n
    state = {"solid": 0, "candidate": -1}

    def freeze(i: int) -> None:
        val[i] = float(state["solid"])
        state["solid"] += 1

    class Key:
        __slots__ = ("i",)

        def __init__(self, i: int) -> None:
            self.i = i

        def __lt__(self, other: Key) -> bool:
            x, y = self.i, other.i
            if val[x] == gas and val[y] == gas:
                freeze(x if x == state["candidate"] else y)
            if val[x] == gas:
                state["candidate"] = x
            elif val[y] == gas:
                state["candidate"] = y
            return val[x] < val[y]

    keys = [Key(i) for i in range(n)]
    numpy_argsort._introsort(keys, list(range(n)), 0, n - 1)
    return val


def _pick_cases() -> list[dict]:
    rng = random.Random(9)
    cases = []
    train = [
        "The cat sat on the mat.",
        "A dog chased the cat around the yard.",
        "Quantum mechanics describes nature at small scales.",
        "The cat sat on the mat.",  # duplicate: tied scores
        "Dr. Smith studies quantum physics at M.I.T. in the U.S.",
        "What is the capital of France? Paris.",
        "Paris is the capital and largest city of France.",
        "Dogs and cats are common pets.",
        "",
        "The mat was red.",
    ]
    test = [
        "Where did the cat sit?",
        "Tell me about quantum physics.",
        "What is the capital of France?",
        "Completely unrelated zebra xylophone.",
        "",
        "cat dog cat dog",
    ]
    for ice_num in (0, 1, 2, 3, 5, 10, 12):
        cases.append({"train": train, "test": test, "ice_num": ice_num})
    words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi",
        "chi", "psi", "omega", "the", "a", "of", "and", "is",
    ]
    for _ in range(12):
        n = rng.choice([3, 8, 16, 17, 25, 60, 150])
        tr = [
            " ".join(rng.choice(words) for _ in range(rng.randrange(1, 10)))
            + rng.choice([".", "?", ""])
            for _ in range(n)
        ]
        for _ in range(n // 4):  # duplicates make ties
            tr[rng.randrange(n)] = tr[rng.randrange(n)]
        te = [" ".join(rng.choice(words) for _ in range(rng.randrange(0, 6))) for _ in range(8)]
        cases.append({"train": tr, "test": te, "ice_num": rng.choice([1, 2, 4, 8, 16])})
    for case in cases:
        index_corpus = [word_tokenize(t) for t in case["train"]]
        bm = BM25Okapi(index_corpus)
        picks = []
        for t in case["test"]:
            scores = bm.get_scores(word_tokenize(t))
            picks.append([int(a) for a in list(np.argsort(scores)[::-1][: case["ice_num"]])])
        case["picks"] = picks
    return cases


def bm25_goldens() -> dict:
    return {
        "env": _env(),
        "tokenize": _tokenize_cases(),
        "scores": _score_cases(),
        "argsort": _argsort_cases(),
        "picks": _pick_cases(),
    }


def _dump(path: Path, data: dict) -> None:
    """JSON with one list item per line: compact, yet diffable case by case."""

    def enc(obj) -> str:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))

    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n  ".join(enc(item) for item in value)
            parts.append(f" {enc(key)}: [\n  {items}\n ]")
        else:
            parts.append(f" {enc(key)}: {enc(value)}")
    text = "{\n" + ",\n".join(parts) + "\n}"
    json.loads(text)
    path.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {path} ({len(text)} chars)")


def main() -> int:
    _check_numpy()
    DATA.mkdir(parents=True, exist_ok=True)
    nltk_line = tuple(int(part) for part in nltk.__version__.split(".")[:2])
    if nltk_line >= (3, 10):
        _dump(DATA / "random_retriever_goldens.json", random_goldens())
        _dump(DATA / "bm25_goldens.json", bm25_goldens())
    elif nltk_line == (3, 9):
        # Only what depends on the tokenizer: workbench's flavor="3.9".
        _dump(
            DATA / "bm25_nltk39_goldens.json",
            {"env": _env(), "tokenize": _tokenize_cases(), "picks": _pick_cases()},
        )
    else:
        raise SystemExit(f"nltk {nltk.__version__}: only 3.9.x and >= 3.10 are mirrored")
    return 0


if __name__ == "__main__":
    sys.exit(main())
