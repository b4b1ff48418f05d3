"""numpy 1.x's default ``argsort`` for float64, reproduced with the standard library.

On a CPU without AVX-512 (OpenCompass 0.5.4 pins ``numpy<2``) it is an introsort with
median-of-three pivots, insertion sort below 17 elements and a heapsort fallback, which fixes
the (unstable) order of tied scores: BM25Retriever and VoteK pick among ties in that order.

May import: the standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["numpy_argsort", "numpy_argsort_top"]


_SMALL_QUICKSORT = 15


def _sort_keys(values: Sequence[float]) -> list:
    vals = [float(v) for v in values]
    if any(v != v for v in vals):
        # numpy orders NaN after every number and NaNs as equal to each other;
        # (is_nan, value) tuples compare exactly that way.
        return [(1, 0.0) if v != v else (0, v) for v in vals]
    return vals


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
            for i in range(pl + 1, pr + 1):
                vi = idx[i]
                key = keys[vi]
                j = i
                while j > pl and key < keys[idx[j - 1]]:
                    idx[j] = idx[j - 1]
                    j -= 1
                idx[j] = vi
        if not stack:
            break
        pl, pr, cdepth = stack.pop()


def numpy_argsort(values: Sequence[float]) -> list[int]:
    """``np.argsort(np.asarray(values, dtype=float64)).tolist()`` under numpy 1.x."""
    keys = _sort_keys(values)
    idx = list(range(len(keys)))
    _introsort(keys, idx, 0, len(idx) - 1)
    return idx


def numpy_argsort_top(values: Sequence[float], k: int) -> list[int]:
    """``list(np.argsort(values)[::-1][:k])`` as ints, sorting only what is needed."""
    n = len(values)
    wanted = range(n - 1, -1, -1)[:k]
    if not wanted:
        return []
    keys = _sort_keys(values)
    idx = list(range(n))
    _introsort(keys, idx, wanted[-1], wanted[0])
    return [idx[p] for p in wanted]
