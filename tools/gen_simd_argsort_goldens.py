"""Dev-only: record how numpy 1.26 orders ties on a CPU with AVX-512 (x86-simd-sort), for
tests/core/test_simd_argsort.py (which never imports numpy).

Run it with the framework venv (numpy 1.26, as OpenCompass 0.5.4 pins) on a CPU whose numpy
dispatches argsort to x86-simd-sort (it refuses elsewhere: see ``gen_goldens.numpy_sort``)::

    $FWENV/bin/python tools/gen_simd_argsort_goldens.py

Writes tests/core/data/simd_argsort_goldens.json: seeded arrays (ties of few values, mostly
zeros as BM25 scores are, sorted runs, NaN, signed zeros, sizes around the 8/16/32/64 networks
and the 256-element partition) with ``np.argsort``'s answer; and, for the ``std::sort`` numpy
falls back to, arrays sorted by libstdc++'s own (a small C++ program ``g++`` builds), among
them keys McIlroy's adversary chose to drive the introsort into its heapsort.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _shared import REPO, write_json
from gen_goldens import numpy_sort

OUT = REPO / "tests" / "core" / "data" / "simd_argsort_goldens.json"
SIZES = [2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66, 100, 255, 256, 257, 258, 300, 600, 1200]


def cases() -> list[dict]:
    rng = random.Random(20261207)
    out = []
    for n in SIZES:
        for kind in ("few", "zeros", "random", "sorted", "nan", "signed_zero"):
            if kind == "few":
                values = [float(rng.randint(0, 3)) for _ in range(n)]
            elif kind == "zeros":
                values = [0.0] * n
                for _ in range(max(1, n // 15)):
                    values[rng.randrange(n)] = round(rng.random() * 5, 3)
            elif kind == "random":
                values = [rng.random() for _ in range(n)]
            elif kind == "sorted":
                values = sorted(float(rng.randint(0, 2)) for _ in range(n))
            elif kind == "nan":
                values = [float(rng.randint(0, 4)) for _ in range(n)]
                values[rng.randrange(n)] = float("nan")
            else:
                values = [rng.choice([-0.0, 0.0, 1.0]) for _ in range(n)]
            order = np.argsort(np.asarray(values, dtype=np.float64)).tolist()
            out.append({"kind": kind, "values": [repr(v) for v in values], "argsort": order})
    return out


_STD_SORT = r"""
#include <algorithm>
#include <cstdio>
#include <vector>
int main() {
    int n;
    while (scanf("%d", &n) == 1) {
        std::vector<double> v(n); std::vector<long> a(n);
        for (int i = 0; i < n; i++) { scanf("%lf", &v[i]); a[i] = i; }
        std::sort(a.begin(), a.end(), [&](long x, long y) { return v[x] < v[y]; });
        for (int i = 0; i < n; i++) printf("%ld ", a[i]);
        printf("\n");
    }
}
"""


def adversary_keys(n: int) -> list[float]:
    """Keys McIlroy's adversary fixes while the replica's std_sort sorts them (its heapsort runs)."""
    sys.path.insert(0, str(REPO))
    from workbench.core.replicas.simd_argsort import std_sort

    solid: dict[int, int] = {}
    candidate = [0]

    class Gas:
        """A key the adversary fixes only when a comparison forces it."""

        def __init__(self, i: int) -> None:
            self.i = i

        def __lt__(self, other: Gas) -> bool:
            x, y = self.i, other.i
            if x not in solid and y not in solid:
                solid[x if x == candidate[0] else y] = len(solid)
            if x not in solid:
                candidate[0] = x
            elif y not in solid:
                candidate[0] = y
            return solid.get(x, n) < solid.get(y, n)

    std_sort(list(range(n)), 0, n, [Gas(i) for i in range(n)])
    return [float(solid.get(i, n)) for i in range(n)]


def std_sort_cases() -> list[dict]:
    rng = random.Random(7)
    arrays = [adversary_keys(n) for n in (40, 200, 1000)]
    arrays += [[float(rng.randint(0, 3)) for _ in range(n)] for n in (2, 16, 17, 50, 300, 2000)]
    arrays += [[float(i % 7) for i in range(n)] for n in (33, 500)]
    with tempfile.TemporaryDirectory() as tmp:
        source, program = Path(tmp) / "sort.cpp", Path(tmp) / "sort"
        source.write_text(_STD_SORT, encoding="utf-8")
        subprocess.run(["g++", "-O2", "-o", str(program), str(source)], check=True)
        given = "".join(f"{len(a)} " + " ".join(repr(v) for v in a) + "\n" for a in arrays)
        lines = subprocess.run([str(program)], input=given, capture_output=True, text=True,
                               check=True).stdout.splitlines()
    return [{"values": a, "sorted": [int(x) for x in line.split()]} for a, line in zip(arrays, lines)]


def main() -> int:
    if numpy_sort() != "avx512":
        print("numpy sorts without x86-simd-sort here: run this on a CPU with AVX-512", file=sys.stderr)
        return 1
    write_json(OUT, {"numpy": np.__version__, "cases": cases(), "std_sort": std_sort_cases()})
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
