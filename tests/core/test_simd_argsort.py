"""numpy 1.26's argsort on an AVX-512 CPU (x86-simd-sort), against goldens numpy wrote there.

The goldens come from tools/gen_simd_argsort_goldens.py; this file never imports numpy. What
the replica must get right is the order of ties, which is why the arrays are full of them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from workbench.core.replicas.numpy_argsort import numpy_argsort, numpy_argsort_top
from workbench.core.replicas.simd_argsort import std_sort

GOLDENS = json.loads((Path(__file__).parent / "data" / "simd_argsort_goldens.json").read_text(encoding="utf-8"))
CASES = GOLDENS["cases"]


def _values(case: dict) -> list[float]:
    return [float(v) for v in case["values"]]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"n{len(c['values'])}-{c['kind']}")
def test_the_order_numpy_gives_on_avx512(case: dict) -> None:
    assert numpy_argsort(_values(case), "avx512") == case["argsort"]


def test_the_goldens_tell_the_two_sorts_apart() -> None:
    # (else the cases above would not test the AVX-512 order at all)
    differ = [c for c in CASES if numpy_argsort(_values(c), "baseline") != c["argsort"]]
    assert len(differ) > len(CASES) // 3


@pytest.mark.parametrize("case", [c for c in CASES if len(c["values"]) >= 64], ids=lambda c: f"n{len(c['values'])}-{c['kind']}")
def test_the_top_is_the_full_sort_s(case: dict) -> None:
    values = _values(case)
    for k in (1, 3, 10, len(values)):
        assert numpy_argsort_top(values, k, "avx512") == case["argsort"][::-1][:k], k


@pytest.mark.parametrize("case", GOLDENS["std_sort"], ids=lambda c: f"n{len(c['values'])}")
def test_std_sort_is_libstdcxx_s(case: dict) -> None:
    # (the first arrays are keys McIlroy's adversary chose: they drive the heapsort)
    keys = case["values"]
    arg = list(range(len(keys)))
    std_sort(arg, 0, len(keys), keys)
    assert arg == case["sorted"]


def test_std_sort_skips_only_what_is_not_wanted() -> None:
    rng = random.Random(3)
    for _ in range(50):
        keys = [rng.randint(0, 4) for _ in range(rng.randint(2, 300))]
        n = len(keys)
        full = list(range(n))
        std_sort(full, 0, n, keys)
        lo = rng.randrange(n)
        hi = rng.randrange(lo, n)
        part = list(range(n))
        std_sort(part, 0, n, keys, lo, hi)
        assert part[lo:hi + 1] == full[lo:hi + 1]
