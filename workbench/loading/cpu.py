"""Which of numpy's sorts the machine that runs the evaluation has: tied retriever scores are
ordered by it (``core/replicas/numpy_argsort.py``).

``WORKBENCH_NUMPY_SORT`` says so (``baseline``: a CPU without AVX-512; ``avx512``: one with
it; ``auto``, or unset: this machine's CPU, as numpy 1.26 reads it: x86-simd-sort where the CPU
has every feature of numpy's ``AVX512_SKX`` group).

May import: the standard library and the core.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ..core.replicas.numpy_argsort import SORTS

ENV = "WORKBENCH_NUMPY_SORT"

#: numpy's AVX512_SKX: the features its x86-simd-sort dispatch needs, as /proc/cpuinfo names them.
_SKX = frozenset({"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"})


def cpu_sort(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """This machine's sort: ``avx512`` where its CPU flags hold AVX512_SKX's features, else
    (another system, or no flags to read) ``baseline``."""
    try:
        with cpuinfo.open(encoding="ascii", errors="replace") as lines:
            for line in lines:
                if line.startswith("flags"):
                    return "avx512" if set(line.partition(":")[2].split()) >= _SKX else "baseline"
    except OSError:
        pass
    return "baseline"


def machine_sort(environ: Mapping[str, str] = os.environ,
                 cpuinfo: Path = Path("/proc/cpuinfo")) -> tuple[str, str | None]:
    """The sort to render with, and what is wrong with ``WORKBENCH_NUMPY_SORT`` (None: nothing)."""
    value = environ.get(ENV, "").strip().lower()
    if value in SORTS:
        return value, None
    found = cpu_sort(cpuinfo)
    if value in ("", "auto"):
        return found, None
    return found, (f"{ENV}={environ[ENV]!r} is not one of auto, {', '.join(SORTS)}: "
                   f"tied retriever scores are ordered as on this machine's CPU ({found})")
