"""``datasets.load_dataset(folder)`` on a local folder, for the loaders that call it: which files
make which split, by the names Hugging Face gives split files, and parquet read with pyarrow
(an optional extra, the ``parquet`` one: ``core.extras.install_hint`` says how to get it).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError
from ....core.extras import install_hint
from . import Row

#: Split names and the file-name keywords that mean them, in the order the splits come out.
SPLIT_KEYWORDS = {
    "train": ("train", "training"),
    "validation": ("validation", "valid", "dev", "val"),
    "test": ("test", "testing", "eval", "evaluation"),
}
SUFFIXES = (".parquet",)


def _split_of(relative: Path) -> str | None:
    """The split a file belongs to: a keyword starting its name (then ``-``, ``.``, ``_``, a space
    or a digit) or naming a folder it is in."""
    for split, keywords in SPLIT_KEYWORDS.items():
        for keyword in keywords:
            pattern = re.compile(rf"(^|/){re.escape(keyword)}([-._ 0-9/]|$)")
            if pattern.search(relative.with_suffix("").as_posix()):
                return split
    return None


def split_files(folder: Path, suffixes: tuple[str, ...] = SUFFIXES) -> dict[str, list[Path]]:
    """``{split: files}`` as ``load_dataset`` finds them; every data file is ``train`` when no
    file is named for a split."""
    if not folder.is_dir():
        raise ConfigError(f"data folder not found: {folder}", file=str(folder),
                          hint="the dataset's loader reads a folder of split files here")
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in suffixes
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    if not files:
        kinds = " or ".join(suffixes)
        raise ConfigError(f"no {kinds} files in {folder}", file=str(folder),
                          hint=f"the native reader reads the {kinds} split files the dataset ships")
    splits: dict[str, list[Path]] = {}
    for path in files:
        split = _split_of(path.relative_to(folder))
        if split is not None:
            splits.setdefault(split, []).append(path)
    if not splits:
        return {"train": files}
    return {split: splits[split] for split in SPLIT_KEYWORDS if split in splits}


def read_parquet(path: Path) -> list[Row]:
    """The rows of a parquet file, as ``Dataset.to_list()`` gives them."""
    try:
        # lazy: pyarrow (the parquet extra) loads only for a parquet file
        import pyarrow.parquet as parquet
    except ImportError:
        raise ConfigError("reading .parquet data files needs pyarrow", file=str(path),
                          hint=install_hint("parquet")) from None
    try:
        table: Any = parquet.read_table(path)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read parquet file: {exc}", file=str(path)) from None
    return table.to_pylist()
