"""numpy 1.26's ``argsort`` on a CPU with AVX-512 (``AVX512_SKX``), reproduced with the standard
library: the order it gives tied values.

There numpy sorts with x86-simd-sort (its vendored copy): a quicksort whose pivot is the median
of eight samples, partitioning eight lanes at a time with compress-stores, bitonic networks of
eight-lane registers for ranges of at most 64, and libstdc++'s ``std::sort`` once the quicksort
has recursed ``2 * log2(n)`` times without finishing (common with many ties: a pivot equal to
the range's smallest value sends every element right) or where a value is NaN. Each step here
does what the vector code does lane by lane, so ties come out in the same order.

May import: the standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

__all__ = ["insertion_sort", "simd_argsort_range", "sort_keys", "std_sort"]

_INF = float("inf")
LANES = 8

# the lane permutations of the networks: a register v permuted is [v[p] for p in P]
_SWAP = (1, 0, 3, 2, 5, 4, 7, 6)  # shuffle with SHUFFLE_MASK(1, 1, 1, 1): neighbours swapped
_HALVES_REVERSED = (3, 2, 1, 0, 7, 6, 5, 4)  # NETWORK_64BIT_1
_REVERSED = (7, 6, 5, 4, 3, 2, 1, 0)  # NETWORK_64BIT_2
_PAIRS_SWAPPED = (2, 3, 0, 1, 6, 7, 4, 5)  # NETWORK_64BIT_3
_HALVES_SWAPPED = (4, 5, 6, 7, 0, 1, 2, 3)  # NETWORK_64BIT_4


def _lanes(mask: int) -> tuple[bool, ...]:
    return tuple(bool(mask >> lane & 1) for lane in range(LANES))


_ODD, _UPPER_PAIRS, _UPPER_HALF = _lanes(0xAA), _lanes(0xCC), _lanes(0xF0)

Register = list  # eight keys, or the eight indices that go with them


def _cmp_merge(keys: Register, idx: Register, perm: tuple[int, ...], takes_max: tuple[bool, ...]) -> None:
    """``cmp_merge`` of a register with its permutation: each lane keeps the max (where the
    mask says so) or the min of itself and its partner, and its own index unless the kept
    key differs from its own (``_mm512_max_pd(b, a)`` keeps ``a`` when they are equal)."""
    pk = [keys[p] for p in perm]
    pi = [idx[p] for p in perm]
    for lane in range(LANES):
        a, b = keys[lane], pk[lane]
        kept = (b if b > a else a) if takes_max[lane] else (b if b < a else a)
        if kept != a:
            idx[lane] = pi[lane]
        keys[lane] = kept


def _sort_register(keys: Register, idx: Register) -> None:
    for perm, mask in ((_SWAP, _ODD), (_HALVES_REVERSED, _UPPER_PAIRS), (_SWAP, _ODD),
                       (_REVERSED, _UPPER_HALF), (_PAIRS_SWAPPED, _UPPER_PAIRS), (_SWAP, _ODD)):
        _cmp_merge(keys, idx, perm, mask)


def _bitonic_merge(keys: Register, idx: Register) -> None:
    for perm, mask in ((_HALVES_SWAPPED, _UPPER_HALF), (_PAIRS_SWAPPED, _UPPER_PAIRS), (_SWAP, _ODD)):
        _cmp_merge(keys, idx, perm, mask)


def _coex(k: list[Register], i: list[Register], a: int, b: int) -> None:
    """Compare-exchange registers ``a`` and ``b``: lane by lane, the min into ``a``."""
    ka, kb, ia, ib = k[a], k[b], i[a], i[b]
    low_k, high_k, low_i, high_i = [], [], [], []
    for lane in range(LANES):
        x, y = ka[lane], kb[lane]
        low = x if x < y else y
        own = low == x
        low_k.append(low)
        high_k.append(x if x > y else y)
        low_i.append(ia[lane] if own else ib[lane])
        high_i.append(ib[lane] if own else ia[lane])
    k[a], k[b], i[a], i[b] = low_k, high_k, low_i, high_i


def _reverse(k: list[Register], i: list[Register], r: int) -> None:
    k[r], i[r] = k[r][::-1], i[r][::-1]


def _merge_registers(k: list[Register], i: list[Register], start: int, count: int) -> None:
    """The bitonic merge of two sorted runs of ``count // 2`` registers each (2, 4 or 8)."""
    half = count // 2
    for r in range(start + half, start + count):
        _reverse(k, i, r)
    for r in range(half):
        _coex(k, i, start + r, start + count - 1 - r)
    for r in range(start + half, start + count):  # each upper register reversed back
        _reverse(k, i, r)
    step = half // 2  # then the half cleaners between registers
    while step:
        for base in range(start, start + count, 2 * step):
            for r in range(base, base + step):
                _coex(k, i, r, r + step)
        step //= 2
    for r in range(start, start + count):
        _bitonic_merge(k[r], i[r])


def _network_sort(keys: Sequence[float], arg: list[int], left: int, n: int) -> None:
    """``argsort_{8,16,32,64}_64bit``: ``arg[left:left + n]`` (n <= 64) sorted by networks of
    registers, lanes past the end loaded as +inf with index 0 and not stored back."""
    count = 1 if n <= 8 else 2 if n <= 16 else 4 if n <= 32 else 8
    full = 0 if count == 1 else count // 2  # registers loaded whole
    k: list[Register] = []
    i: list[Register] = []
    for r in range(count):
        valid = LANES if r < full else max(0, min(LANES, n - LANES * r))
        ids = arg[left + LANES * r:left + LANES * r + valid] + [0] * (LANES - valid)
        i.append(ids)
        k.append([keys[x] for x in ids[:valid]] + [_INF] * (LANES - valid))
        _sort_register(k[r], i[r])
    size = 2
    while size <= count:
        for start in range(0, count, size):
            _merge_registers(k, i, start, size)
        size *= 2
    for r in range(count):
        valid = max(0, min(LANES, n - LANES * r))
        arg[left + LANES * r:left + LANES * r + valid] = i[r][:valid]


class _Partition:
    """``partition_avx512_unrolled<vtype, 4>`` of ``arg[left:right]`` around ``pivot``: where
    it ends, and the smallest and biggest values it saw."""

    def __init__(self, keys: Sequence[float], arg: list[int], pivot: float) -> None:
        self.keys, self.arg, self.pivot = keys, arg, pivot
        self.smallest, self.biggest = _INF, -_INF

    def _vector(self, ids: list[int], l_store: int, r_store_end: int) -> int:
        """``partition_vec``: the indices below the pivot compress-stored from ``l_store``,
        the others ending at ``r_store_end``, each side in lane order. Returns how many went
        right."""
        keys, pivot = self.keys, self.pivot
        values = [keys[x] for x in ids]
        high = [x >= pivot for x in values]
        low_ids = [x for x, h in zip(ids, high) if not h]
        high_ids = [x for x, h in zip(ids, high) if h]
        self.arg[l_store:l_store + len(low_ids)] = low_ids
        self.arg[r_store_end - len(high_ids):r_store_end] = high_ids
        self.smallest = min(self.smallest, *values)
        self.biggest = max(self.biggest, *values)
        return len(high_ids)

    def run(self, left: int, right: int, bounds: tuple[float, float] | None = None) -> int:
        """The partition of ``arg[left:right]``; ``bounds``: its smallest and biggest values,
        where known (a range whose every value went right holds the same values again)."""
        arg, keys = self.arg, self.keys
        if bounds is None:
            values = [keys[x] for x in arg[left:right]]
            bounds = (min(values), max(values))
        if bounds[0] >= self.pivot:  # every value goes right: where each lands depends on the size alone
            self.smallest, self.biggest = bounds
            segment = arg[left:right]
            arg[left:right] = [segment[p] for p in _all_right(right - left)]
            return left
        return self._run(left, right)

    def _run(self, left: int, right: int) -> int:
        unroll = 4 if right - left > 8 * 4 * LANES else 1
        block = unroll * LANES
        arg, keys, pivot = self.arg, self.keys, self.pivot
        for _ in range((right - left) % block):  # the scalar head, until whole blocks remain
            value = keys[arg[left]]
            self.smallest = value if value < self.smallest else self.smallest
            self.biggest = value if self.biggest < value else self.biggest
            if not value < pivot:
                right -= 1
                arg[left], arg[right] = arg[right], arg[left]
            else:
                left += 1
        if left == right:
            return left
        if unroll == 1 and right - left == LANES:
            return left + LANES - self._vector(arg[left:right], left, right)
        first = [arg[left + LANES * v:left + LANES * (v + 1)] for v in range(unroll)]
        last = [arg[right - LANES * (unroll - v):right - LANES * (unroll - v - 1)] for v in range(unroll)]
        r_store, l_store = right - LANES, left
        left += block
        right -= block
        while right - left:
            if (r_store + LANES) - right < left - l_store:
                right -= block
                loaded = [arg[right + LANES * v:right + LANES * (v + 1)] for v in range(unroll)]
            else:
                loaded = [arg[left + LANES * v:left + LANES * (v + 1)] for v in range(unroll)]
                left += block
            for ids in loaded:
                went = self._vector(ids, l_store, r_store + LANES)
                l_store += LANES - went
                r_store -= went
        if unroll == 1:  # (the one-register partition bounds its last vector by l_store)
            l_store += LANES - self._vector(first[0], l_store, r_store + LANES)
            return l_store + LANES - self._vector(last[0], l_store, l_store + LANES)
        for ids in (*first, *last):
            went = self._vector(ids, l_store, r_store + LANES)
            l_store += LANES - went
            r_store -= went
        return l_store


@lru_cache(maxsize=64)
def _all_right(size: int) -> tuple[int, ...]:
    """Where a partition of ``size`` elements that all go right puts each (a quicksort whose
    pivot is the range's smallest value, as a range of mostly equal scores makes it, does
    that ``2 * log2(n)`` times before falling back to std::sort)."""
    arg = list(range(size))
    _Partition([0.0] * size, arg, 0.0)._run(0, size)
    return tuple(arg)


def _pivot(keys: Sequence[float], arg: list[int], left: int, right: int) -> float:
    """The median of eight samples (the fifth smallest), or the last value of a short range."""
    if right - left >= LANES:
        size = (right - left) // 8
        return sorted(keys[arg[left + size * s]] for s in range(1, 9))[4]
    return keys[arg[right]]


def sort_keys(values: Sequence[float]) -> list:
    """The values as floats, or, where one is NaN, as keys that order NaN after every number
    and NaNs as equal to each other, as numpy does: (is_nan, value) tuples compare that way."""
    floats = [float(v) for v in values]
    if any(v != v for v in floats):
        return [(1, 0.0) if v != v else (0, v) for v in floats]
    return floats


def simd_argsort_range(keys: Sequence[Any], arg: list[int], want_lo: int, want_hi: int) -> None:
    """``avx512_argsort`` of ``arg`` (a permutation of ``range(len(keys))``) by ``keys`` (made
    by :func:`sort_keys`), in place, skipping the ranges that hold no position in
    ``[want_lo, want_hi]`` (the others end as a whole sort leaves them: no step moves an index
    across a range's bounds)."""
    n = len(arg)
    if n <= 1:
        return
    if type(keys[0]) is tuple:  # a NaN: std_argsort_withnan, numbers by value, NaN after them all
        std_sort(arg, 0, n, keys, want_lo, want_hi)
        return
    stack: list[tuple[int, int, int, tuple[float, float] | None]] = [(0, n - 1, 2 * int(math.log2(n)), None)]
    while stack:
        left, right, iters, bounds = stack.pop()
        if right < want_lo or left > want_hi or right < left:
            continue
        if iters <= 0:
            std_sort(arg, left, right + 1, keys, want_lo, want_hi)
            continue
        if right + 1 - left <= 64:
            _network_sort(keys, arg, left, right + 1 - left)
            continue
        pivot = _pivot(keys, arg, left, right)
        part = _Partition(keys, arg, pivot)
        at = part.run(left, right + 1, bounds)
        if pivot != part.biggest:
            stack.append((at, right, iters - 1, (part.smallest, part.biggest) if at == left else None))
        if pivot != part.smallest:
            stack.append((left, at - 1, iters - 1, None))


# -- libstdc++'s std::sort ---------------------------------------------------------------

_THRESHOLD = 16


def std_sort(arg: list[int], first: int, last: int, keys: Sequence[Any],
             want_lo: int = 0, want_hi: int = -1) -> None:
    """``std::sort(arg + first, arg + last)`` by ``keys[a] < keys[b]``, as libstdc++ does it: an
    introsort (median of three, unguarded partitions, a heapsort past ``2 * log2(n)`` levels),
    then one insertion sort over ranges of at most 16 (none of which an index leaves), skipping
    the ranges with no position in ``[want_lo, want_hi]`` (all wanted when ``want_hi`` < 0)."""
    if last - first < 2:
        return
    if want_hi < 0:
        want_lo, want_hi = first, last - 1
    blocks: list[tuple[int, int]] = []
    stack = [(first, last, 2 * ((last - first).bit_length() - 1))]
    while stack:
        lo, hi, depth = stack.pop()
        while hi - lo > _THRESHOLD:
            if hi - 1 < want_lo or lo > want_hi:
                break
            if depth == 0:
                _heap_sort(arg, lo, hi, keys)
                lo = hi
                break
            depth -= 1
            cut = _partition_pivot(arg, lo, hi, keys)
            stack.append((cut, hi, depth))
            hi = cut
        else:
            if hi - lo > 0 and not (hi - 1 < want_lo or lo > want_hi):
                blocks.append((lo, hi))
    for lo, hi in blocks:  # the final insertion sort, block by block (see the docstring)
        insertion_sort(arg, lo, hi, keys)


def _partition_pivot(arg: list[int], first: int, last: int, keys: Sequence[Any]) -> int:
    """``__unguarded_partition_pivot``: the median of three moved first, then the partition."""
    mid = first + (last - first) // 2
    a, b, c = keys[arg[first + 1]], keys[arg[mid]], keys[arg[last - 1]]
    if a < b:
        pick = mid if b < c else last - 1 if a < c else first + 1
    else:
        pick = first + 1 if a < c else last - 1 if b < c else mid
    arg[first], arg[pick] = arg[pick], arg[first]
    pivot = keys[arg[first]]
    lo, hi = first + 1, last
    while True:
        while keys[arg[lo]] < pivot:
            lo += 1
        hi -= 1
        while pivot < keys[arg[hi]]:
            hi -= 1
        if not lo < hi:
            return lo
        arg[lo], arg[hi] = arg[hi], arg[lo]
        lo += 1


def insertion_sort(arg: list[int], first: int, last: int, keys: Sequence[Any]) -> None:
    """``arg[first:last]`` sorted by ``keys`` with a plain insertion sort (numpy's introsort and
    libstdc++'s both end with one)."""
    for i in range(first + 1, last):
        value = arg[i]
        key = keys[value]
        j = i
        while j > first and key < keys[arg[j - 1]]:
            arg[j] = arg[j - 1]
            j -= 1
        arg[j] = value


def _heap_sort(arg: list[int], first: int, last: int, keys: Sequence[Any]) -> None:
    """``std::__partial_sort(first, last, last)``: make_heap, then sort_heap."""
    n = last - first
    if n >= 2:
        parent = (n - 2) // 2
        while True:
            _adjust_heap(arg, first, parent, n, arg[first + parent], keys)
            if parent == 0:
                break
            parent -= 1
    while last - first > 1:
        last -= 1
        value = arg[last]
        arg[last] = arg[first]
        _adjust_heap(arg, first, 0, last - first, value, keys)


def _adjust_heap(arg: list[int], first: int, hole: int, n: int, value: int, keys: Sequence[Any]) -> None:
    top = hole
    child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if keys[arg[first + child]] < keys[arg[first + child - 1]]:
            child -= 1
        arg[first + hole] = arg[first + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        arg[first + hole] = arg[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    key = keys[value]
    while hole > top and keys[arg[first + parent]] < key:
        arg[first + hole] = arg[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    arg[first + hole] = value
