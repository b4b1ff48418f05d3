"""numpy 1.x's default ``argsort``, reproduced with the standard library, as it sorts on the CPU
of the machine that runs the evaluation (OpenCompass 0.5.4 pins ``numpy<2``).

The order of tied scores is numpy's and the CPU's: BM25Retriever and VoteK pick among ties in
it. Without AVX-512 (``"baseline"``) numpy's argsort is an introsort with median-of-three
pivots, insertion sort below 17 elements and a heapsort fallback; on a CPU with AVX-512
(``"avx512"``: numpy's ``AVX512_SKX`` features) numpy 1.25 and later sort with x86-simd-sort
(:mod:`.simd_argsort`). The loader says which CPU that is (``loading/cpu.py``); the core only
takes the name.

May import: the standard library only, and :mod:`.simd_argsort`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .simd_argsort import insertion_sort, simd_argsort_range, sort_keys

__all__ = ["SORTS", "numpy_argsort", "numpy_argsort_top", "numpy_sort", "set_numpy_sort"]

#: The two orders numpy 1.x gives ties, by the CPU it runs on (see the module's docstring).
SORTS = ("baseline", "avx512")

_sort = "baseline"


def numpy_sort() -> str:
    """The CPU's sort the render reproduces: the process's (``set_numpy_sort``), "baseline"
    until the loader says otherwise."""
    return _sort


def set_numpy_sort(name: str) -> None:
    """Reproduce numpy's sort of ``name`` (one of ``SORTS``) in this process."""
    global _sort
    if name not in SORTS:
        raise ValueError(f"numpy sort {name!r}: one of {', '.join(SORTS)}")
    _sort = name


_SMALL_QUICKSORT = 15


def _heapsort(keys: list, idx: list[int], lo: int, n: int) -> None:
    """numpy's ``aheapsort`` on ``idx[lo:lo + n]`` (1-based heap arithmetic)."""
    base = lo - 1

    def sift(i: int, tmp: int, size: int) -> None:
        j = i << 1
        while j <= size:
            if j < size and keys[idx[base + j]] < keys[idx[base + j + 1]]:
                j += 1
            if keys[tmp] < keys[idx[base + j]]:
                idx[base + i] = idx[base + j]
                i = j
                j += j
            else:
                break
        idx[base + i] = tmp

    for i in range(n >> 1, 0, -1):
        sift(i, idx[base + i], n)
    while n > 1:
        tmp = idx[base + n]
        idx[base + n] = idx[base + 1]
        n -= 1
        sift(1, tmp, n)


def _introsort(keys: list, idx: list[int], want_lo: int, want_hi: int) -> None:
    """numpy's ``aquicksort``, skipping sub-ranges entirely outside [want_lo, want_hi].

    Partitions never move elements across sub-range boundaries, so the final
    contents of the wanted positions are exactly those of a full sort.
    """
    num = len(idx)
    if num < 2:
        return
    stack: list[tuple[int, int, int]] = []
    pl, pr = 0, num - 1
    cdepth = (num.bit_length() - 1) * 2
    while True:
        if cdepth < 0:
            _heapsort(keys, idx, pl, pr - pl + 1)
        else:
            while pr - pl > _SMALL_QUICKSORT:
                pm = pl + ((pr - pl) >> 1)
                if keys[idx[pm]] < keys[idx[pl]]:
                    idx[pm], idx[pl] = idx[pl], idx[pm]
                if keys[idx[pr]] < keys[idx[pm]]:
                    idx[pr], idx[pm] = idx[pm], idx[pr]
                if keys[idx[pm]] < keys[idx[pl]]:
                    idx[pm], idx[pl] = idx[pl], idx[pm]
                vp = keys[idx[pm]]
                pi = pl
                pj = pr - 1
                idx[pm], idx[pj] = idx[pj], idx[pm]
                while True:
                    pi += 1
                    while keys[idx[pi]] < vp:
                        pi += 1
                    pj -= 1
                    while vp < keys[idx[pj]]:
                        pj -= 1
                    if pi >= pj:
                        break
                    idx[pi], idx[pj] = idx[pj], idx[pi]
                pk = pr - 1
                idx[pi], idx[pk] = idx[pk], idx[pi]
                cdepth -= 1
                # numpy pushes the larger side and loops on the smaller one.
                if pi - pl < pr - pi:
                    big, small = (pi + 1, pr), (pl, pi - 1)
                else:
                    big, small = (pl, pi - 1), (pi + 1, pr)
                if big[0] <= want_hi and big[1] >= want_lo:
                    stack.append((big[0], big[1], cdepth))
                if small[0] <= want_hi and small[1] >= want_lo:
                    pl, pr = small
                else:
                    pl, pr = 0, -1  # nothing wanted here
            insertion_sort(idx, pl, pr + 1, keys)
        if not stack:
            break
        pl, pr, cdepth = stack.pop()


def _sorted_range(values: Sequence[float], want_lo: int, want_hi: int, sort: str) -> list[int]:
    """The indices in the order numpy's ``sort`` leaves them, right at the wanted positions."""
    idx = list(range(len(values)))
    keys = sort_keys(values)
    if sort == "avx512":
        simd_argsort_range(keys, idx, want_lo, want_hi)
    else:
        _introsort(keys, idx, want_lo, want_hi)
    return idx


def numpy_argsort(values: Sequence[float], sort: str = "baseline") -> list[int]:
    """``np.argsort(np.asarray(values, dtype=float64)).tolist()`` under numpy 1.x on a CPU of
    ``sort`` (see ``SORTS``)."""
    return _sorted_range(values, 0, len(values) - 1, sort)


def numpy_argsort_top(values: Sequence[float], k: int, sort: str = "baseline") -> list[int]:
    """``list(np.argsort(values)[::-1][:k])`` as ints, sorting only what is needed."""
    n = len(values)
    wanted = range(n - 1, -1, -1)[:k]
    if not wanted:
        return []
    idx = _sorted_range(values, wanted[-1], wanted[0], sort)
    return [idx[p] for p in wanted]
