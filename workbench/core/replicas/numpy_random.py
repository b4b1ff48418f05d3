"""numpy's legacy global random generator, as OpenCompass' RandomRetriever uses it.

OpenCompass 0.5.4's ``RandomRetriever.retrieve`` does::

    np.random.seed(seed)                      # default seed 43
    for each test row:
        np.random.choice(num_idx, ice_num, replace=False).tolist()

This module reproduces that stream with the standard library only:

* ``np.random.seed(int)`` is MT19937 seeded with the classic ``init_genrand``
  recurrence (not Python's ``init_by_array``), so the 624-word state is built
  here and handed to :class:`random.Random` through ``setstate``; CPython's
  ``getrandbits`` then yields the very same 32-bit words as numpy's generator.
* ``choice(n, k, replace=False)`` (no ``p``) is ``permutation(n)[:k]``; the
  permutation is a Fisher-Yates shuffle from the last element down, each swap
  index drawn by numpy's legacy bounded-integer routine: mask the 32-bit word
  to the smallest all-ones mask covering the bound and reject values above it
  (two words, high one first, when the bound exceeds 32 bits).
* Validation order and error texts follow numpy 1.26 (the line OpenCompass
  0.5.4 pins); a call that raises consumes no random numbers, as in numpy.

The permutation always consumes draws for the whole population, whatever ``k``
is, so the picks of later rows depend on the population size of earlier ones.

May import: the standard library and :mod:`workbench.core.package_data` (the generated tables);
nothing else of the workbench.
"""

from __future__ import annotations

import operator
import random
import sys
from array import array

__all__ = ["LegacyRandomState", "random_retriever_picks"]

_MT_N = 624
_MASK32 = 0xFFFFFFFF
_MAX_SEED = 2**32 - 1
# Words fetched from the Mersenne Twister per refill of the local buffer.
_MIN_REFILL = 256


def _mt19937_key(seed: int) -> list[int]:
    """The 624-word MT19937 state numpy builds for an integer seed."""
    key = [0] * _MT_N
    value = seed & _MASK32
    for pos in range(_MT_N):
        key[pos] = value
        value = (1812433253 * (value ^ (value >> 30)) + pos + 1) & _MASK32
    return key


class LegacyRandomState:
    """A stand-in for ``numpy.random.RandomState(seed)`` / ``np.random.seed``.

    Only the draws RandomRetriever needs are provided.
    """

    def __init__(self, seed: int) -> None:
        # numpy takes any integer-like scalar (bool included); array seeds and
        # None are outside what RandomRetriever passes.
        seed = operator.index(seed)
        if seed < 0 or seed > _MAX_SEED:
            raise ValueError("Seed must be between 0 and 2**32 - 1")
        self.seed = seed
        self._mt = random.Random()
        # Index 624 makes the first draw regenerate the whole block, exactly as
        # numpy's freshly seeded state does.
        self._mt.setstate((3, (*_mt19937_key(seed), _MT_N), None))
        self._buf: array = array("I")
        self._pos = 0

    # -- raw words -----------------------------------------------------------

    def _refill(self, want: int) -> None:
        """Replace the consumed buffer with at least ``want`` fresh words."""
        count = max(want, _MIN_REFILL)
        data = self._mt.getrandbits(32 * count).to_bytes(4 * count, "little")
        rest = self._buf[self._pos:]
        buf = array("I")
        if buf.itemsize == 4:
            buf.frombytes(data)
            if sys.byteorder == "big":
                buf.byteswap()
        else:  # pragma: no cover - exotic platforms only
            buf = array("L", (int.from_bytes(data[i:i + 4], "little")
                              for i in range(0, len(data), 4)))
        self._buf = rest + buf
        self._pos = 0

    def random_uint32(self) -> int:
        """The next raw 32-bit output of the generator."""
        if self._pos >= len(self._buf):
            self._refill(1)
        word = self._buf[self._pos]
        self._pos += 1
        return word

    def random_interval(self, max_value: int) -> int:
        """numpy's legacy ``random_interval``: uniform integer in [0, max_value]."""
        if max_value == 0:
            return 0
        mask = (1 << max_value.bit_length()) - 1
        if max_value <= _MASK32:
            while True:
                value = self.random_uint32() & mask
                if value <= max_value:
                    return value
        while True:
            high = self.random_uint32()
            value = ((high << 32) | self.random_uint32()) & mask
            if value <= max_value:
                return value

    # -- permutations --------------------------------------------------------

    def shuffle(self, items: list) -> None:
        """In place, as legacy ``RandomState.shuffle`` on a 1-d array."""
        n = len(items)
        if n > _MASK32 + 1:  # pragma: no cover - needs > 4 GiB of list
            for i in range(n - 1, 0, -1):
                j = self.random_interval(i)
                items[i], items[j] = items[j], items[i]
            return
        # Inlined random_interval over a local word buffer (hot loop).
        buf = self._buf
        pos = self._pos
        end = len(buf)
        for i in range(n - 1, 0, -1):
            mask = (1 << i.bit_length()) - 1
            while True:
                if pos >= end:
                    self._pos = pos
                    self._refill(2 * i)
                    buf = self._buf
                    pos = 0
                    end = len(buf)
                j = buf[pos] & mask
                pos += 1
                if j <= i:
                    break
            items[i], items[j] = items[j], items[i]
        self._pos = pos

    def permutation(self, n: int) -> list[int]:
        """``RandomState.permutation(n)`` for an integer ``n``."""
        items = list(range(n))
        self.shuffle(items)
        return items

    def choice_without_replacement(self, n: int, k: int) -> list[int]:
        """``RandomState.choice(n, k, replace=False).tolist()`` (integer ``n``, no ``p``)."""
        if n <= 0 and k != 0:
            raise ValueError("a must be greater than 0 unless no samples are taken")
        if k > n:
            raise ValueError(
                "Cannot take a larger sample than population when 'replace=False'"
            )
        if k < 0:
            raise ValueError("Negative dimensions are not allowed")
        if n <= 0:
            return []
        return self.permutation(n)[:k]


def random_retriever_picks(
    seed: int, num_train: int, num_test: int, ice_num: int
) -> list[list[int]]:
    """The index lists ``RandomRetriever(seed=seed, ice_num=ice_num).retrieve()`` returns."""
    state = LegacyRandomState(seed)
    return [state.choice_without_replacement(num_train, ice_num) for _ in range(num_test)]
