"""The prefix two strings share, found at C speed.

Texts rendered one after another (a pair's requests) usually start alike: the instructions and
the in-context examples, then the row. Work done on such a prefix can be kept and reused (the
JSON export's escapes, the token estimate's lines).

May import: the standard library only (the core's bottom layer).
"""

from __future__ import annotations


def shared_prefix(a: str, b: str) -> int:
    """How many first characters ``a`` and ``b`` have in common (found by halving, each step one
    comparison of slices at C speed)."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while low < high - 1:  # a[:low] == b[:low], a[:high] != b[:high]
        middle = (low + high) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle
    return low
