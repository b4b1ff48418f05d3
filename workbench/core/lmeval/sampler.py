"""The few-shot samplers of lm-eval 0.4.13 (``default`` and ``first_n``), rewritten.

Why a replica and not "any k docs": which shots a doc gets depends on the exact draws of one
``random.Random`` seeded once per task (1234 unless told) and shared by every doc in order, and
on the n + 1 draw lm-eval makes when the few-shot split is the evaluated split (then the doc
itself is dropped from the draw, and only the first n kept). Docs are compared by value, as
lm-eval compares them (``x != doc``).

May import: the standard library and ``workbench.core.errors``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RenderError

#: lm-eval's ``fewshot_random_seed`` default (``DEFAULT_OTHER_SEED``).
DEFAULT_SEED = 1234
#: ``simple_evaluate``'s global seeds for Python's ``random`` and numpy (``DEFAULT_RANDOM_SEED``,
#: ``DEFAULT_OTHER_SEED``; its ``--seed`` default is ``0,1234,1234,1234``): what a task's
#: ``process_docs`` draws from
RANDOM_SEED = 0
NUMPY_SEED = 1234
SAMPLERS = ("default", "first_n")


class Sampler:
    """Draws shot positions (indices into the pool) for one task, doc after doc."""

    def __init__(self, name: str, pool: Sequence[Mapping[str, Any]], seed: int | None = DEFAULT_SEED) -> None:
        if name not in SAMPLERS:
            raise RenderError(f"fewshot_config.sampler {name!r} is not one lm-eval 0.4.13 knows "
                              f"(it has {', '.join(SAMPLERS)}): lm-eval raises KeyError",
                              hint="use default or first_n")
        self.name = name
        self.rnd = random.Random(seed)
        # fewshot_config.fewshot_indices never reach lm-eval 0.4.13's sampler (the task builds it
        # without them): the whole pool is drawn from, as there
        self.positions = list(range(len(pool)))
        self.pool = pool

    def draw(self, n: int, eval_doc: Mapping[str, Any] | None) -> list[int]:
        """The pool positions of the n shots for one doc; ``eval_doc`` when the few-shot split is
        the evaluated split (it is then left out)."""
        if n <= 0:
            return []
        docs = self.pool
        if self.name == "first_n":
            kept = [p for p in range(len(docs)) if eval_doc is None or docs[p] != eval_doc]
            if n > len(kept):
                raise RenderError(f"num_fewshot {n} is more than the {len(kept)} few-shot docs "
                                  "the first_n sampler has: lm-eval raises AssertionError")
            return kept[:n]
        if not docs:
            raise RenderError("no few-shot docs to draw from: lm-eval raises AssertionError "
                              "(no documents available for sampling)")
        positions = self.positions
        if not eval_doc:  # lm-eval: `if not eval_doc` (an empty doc counts as none)
            return self._sample(positions, n)
        drawn = self._sample(positions, n + 1)
        res = [p for p in drawn if docs[p] != eval_doc][:n]
        if len(res) < n:  # copies of the doc in the pool: drawn again without any of them
            res = self._sample([p for p in positions if docs[p] != eval_doc], n)
        return res

    def _sample(self, positions: list[int], k: int) -> list[int]:
        if k > len(positions):
            raise RenderError(f"{k} few-shot docs asked of a pool of {len(positions)}: lm-eval "
                              "raises ValueError (Sample larger than population)",
                              hint="lower --num-fewshot or give a larger few-shot split")
        return self.rnd.sample(positions, k)
