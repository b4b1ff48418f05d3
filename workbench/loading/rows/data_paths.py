"""Where a dataset's ``path`` points, resolved as the frameworks resolve it on a local machine.

OpenCompass 0.5.4 (``get_data_path``): an absolute path is used as it is; a data id such as
``opencompass/gsm8k`` becomes its folder in the id table (``data/opencompass_data_ids.json``,
recorded from the real package by ``tools/gen_data_ids.py``), any other path stays as written;
the result is joined to ``$COMPASS_DATA_CACHE`` (empty by default, so relative to the working
directory of a run from the repository root), and ``~/.cache/opencompass/`` is tried when
that does not exist.

AISBench 3.1 (``get_data_path``): a path starting with ``/`` is used as it is; any other is
joined to ``$AIS_BENCH_DATASETS_CACHE``, by default the folder that holds the ``ais_bench``
package (the site-packages, or the repository root of a checkout).

A class whose ``load()`` opens its path as written, without ``get_data_path``
(``data/path_as_written_classes.json``, recorded from both frameworks by
``tools/gen_raw_path_classes.py``: MultiroundDataset, C3Dataset, ...), is looked for only where
that open looks: an absolute path as it is, a relative one under the working folder (no data id,
no data cache, no ``~/.cache/opencompass``).

Without the framework's working directory, a relative result is looked for under the working
directory, then the folders given (the config's folder, the config roots); the folder it was
found under is where the framework's own ``load()`` is run (``PathLookup.working_folder``).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ...core.spec import AISBENCH

OPENCOMPASS_CACHE_ENV = "COMPASS_DATA_CACHE"
AISBENCH_CACHE_ENV = "AIS_BENCH_DATASETS_CACHE"
OPENCOMPASS_DEFAULT_CACHE = Path(".cache") / "opencompass"


@cache
def path_as_written_classes(framework: str) -> frozenset[str]:
    """The dataset classes of ``framework`` whose ``load()`` opens its path as written."""
    text = resources.files(__package__).joinpath("data", "path_as_written_classes.json").read_text("utf-8")
    return frozenset(json.loads(text).get(framework, {}).get("path_as_written", ()))


@cache
def opencompass_data_ids() -> Mapping[str, str]:
    """OpenCompass's data id → local path table (``./data/gsm8k`` style, as written there)."""
    text = resources.files(__package__).joinpath("data", "opencompass_data_ids.json").read_text("utf-8")
    return json.loads(text)["local"]


@dataclass(frozen=True)
class PathLookup:
    """A dataset ``path`` and the places it was looked for, in the order they are tried."""

    written: str
    candidates: tuple[Path, ...]
    #: The data id, when ``written`` is one the framework's id table knows.
    data_id: str | None = None
    #: Each candidate's folder a relative path was joined to (None: as written, or absolute).
    anchors: tuple[Path | None, ...] = ()

    def found(self) -> Path | None:
        """The first candidate that exists, or is a symlink loop (which exists for no one: the
        reader refuses it at the file, rather than rows being "not found" past it)."""
        for candidate in self.candidates:
            try:
                candidate.stat()
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    return candidate
                continue
            return candidate
        return None

    def resolve(self, path: str | None = None) -> Path:
        """What ``get_data_path`` would return: the first existing candidate, else the first
        one (so an error names where the framework would have looked)."""
        if path is not None and path != self.written:
            return Path(path)
        return self.found() or self.candidates[0]

    def working_folder(self) -> Path | None:
        """The folder a run would have to work in to find the path where it was found: the
        config's folder or a config root it was found under; None for the working folder
        itself (or an absolute path)."""
        for candidate, anchor in zip(self.candidates, self.anchors):
            if candidate.exists():
                return anchor
        return None

    def describe(self) -> str:
        """Where it was looked for, for a message (at most five places)."""
        shown = [str(p) for p in self.candidates[:5]]
        more = len(self.candidates) - len(shown)
        text = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
        return f"{self.written} → {text}" if self.data_id else text


def lookup_data_path(path: str, framework: str, bases: Sequence[Path] = (),
                     env: Mapping[str, str] | None = None, home: Path | None = None,
                     class_name: str = "") -> PathLookup:
    """Where ``path`` (a dataset's ``path`` as written) is looked for, framework by framework
    and, for the classes that open it as written, class by class."""
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    if class_name and class_name in path_as_written_classes(framework):
        return _lookup(path, _anchored(Path(path), bases))
    if framework == AISBENCH:
        if path.startswith("/"):
            return PathLookup(path, (Path(path),), anchors=(None,))
        cache_dir = env.get(AISBENCH_CACHE_ENV)
        return _lookup(path, _anchored(Path(cache_dir) / path if cache_dir else Path(path), bases))
    if os.path.isabs(path):
        return PathLookup(path, (Path(path),), anchors=(None,))
    table = opencompass_data_ids()
    data_id = path if path in table else None
    joined = Path(os.path.join(env.get(OPENCOMPASS_CACHE_ENV, ""), table.get(path, path)))
    fallback = home / OPENCOMPASS_DEFAULT_CACHE / joined
    return _lookup(path, [*_anchored(joined, bases), (fallback, None)], data_id)


def _lookup(path: str, places: Sequence[tuple[Path, Path | None]], data_id: str | None = None) -> PathLookup:
    """A lookup of the places given as (candidate, its anchor), the first of each candidate kept."""
    unique: dict[Path, Path | None] = {}
    for candidate, anchor in places:
        unique.setdefault(candidate, anchor)
    return PathLookup(path, tuple(unique), data_id, tuple(unique.values()))


def _anchored(path: Path, bases: Sequence[Path]) -> list[tuple[Path, Path | None]]:
    if path.is_absolute():
        return [(path, None)]
    # as written first: relative to the working directory, and shown as the user wrote it
    return [(path, None), *((base / path, base) for base in bases)]
