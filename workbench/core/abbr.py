"""Abbreviation rules of OpenCompass 0.5.4 and AISBench, re-stated without the frameworks.

Both frameworks name things by an ``abbr``: the model abbr is the directory name under
``predictions/`` and ``results/``, the dataset abbr is the file name inside it and the row
label in summaries.  A config may set ``abbr`` itself; when it does not, the frameworks derive
one with the rules written out here, so the workbench labels prompts with the same names the
framework would show.

What the two frameworks do (read from ``opencompass/utils/abbr.py`` and
``ais_bench/benchmark/utils/core/abbr.py``):

* **dataset abbr** (identical in both): ``cfg['abbr']`` if the key exists; otherwise
  ``cfg['path']``, plus ``'_' + cfg['name']`` when a ``name`` key exists, with every ``/``
  replaced by ``_``.  The path is *not* normalised, so ``'opencompass/mmlu/'`` becomes
  ``'opencompass_mmlu_'`` (trailing slash → trailing underscore).
* **model abbr**: ``cfg['abbr']`` if the key exists; otherwise ``cfg['type']`` + ``'_'`` +
  the last two components of ``os.path.realpath(cfg['path'])`` joined by ``_``, then every
  ``/`` replaced by ``_``.  ``realpath`` drops a trailing slash, resolves ``..`` and symlinks,
  and makes a relative path (e.g. a hub id) absolute against the current directory.  A list or
  tuple of model configs gives the abbrs joined by ``_``.
  The one difference: OpenCompass requires ``path`` (``KeyError`` without it), AISBench uses
  the bare ``type`` when the config has no ``path`` key.
* AISBench additionally names a task that merges several datasets after the first dataset's
  class (``type.split('.')[-1].lower()``) — see :func:`merged_dataset_abbr`.

The presence tests are on the *key*, as in the frameworks: ``abbr=None`` comes back as
``None`` and ``name=None`` raises ``TypeError``.  These quirks are kept on purpose so
the workbench fails where the framework would.

The core reads no file system: ``realpath`` is a parameter, the loader passes
``os.path.realpath`` (what the frameworks call on the machine that runs them) and tests pass
:func:`lexical_realpath`. May import: the standard library only.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

Framework = Literal["opencompass", "ais_bench"]

__all__ = [
    "dataset_abbr_from_cfg",
    "lexical_realpath",
    "merged_dataset_abbr",
    "model_abbr_for_summarizer",
    "model_abbr_from_cfg",
    "realpath_tail",
]


def dataset_abbr_from_cfg(cfg: Mapping[str, Any]) -> str:
    """Dataset abbr as OpenCompass and AISBench derive it (the rule is the same in both).

    ``abbr`` wins when the key is present (its value is returned untouched).  Otherwise the
    raw ``path`` string, ``'_' + name`` when ``name`` is present, and ``/`` → ``_``.  No path
    normalisation happens, so trailing slashes survive as underscores.

    Raises:
        KeyError: no ``abbr`` and no ``path`` (the frameworks raise the same).
        TypeError: ``path`` or ``name`` is not a string (string concatenation fails there too).
    """
    if "abbr" in cfg:
        return cfg["abbr"]
    abbr = cfg["path"]
    if not isinstance(abbr, str):
        raise TypeError(f"dataset path must be a str to derive an abbr, got {type(abbr).__name__}")
    if "name" in cfg:
        name = cfg["name"]
        if not isinstance(name, str):
            raise TypeError(
                f"dataset name must be a str to derive an abbr, got {type(name).__name__}"
            )
        abbr += "_" + name
    return abbr.replace("/", "_")


def lexical_realpath(cwd: str) -> Callable[[str], str]:
    """``os.path.realpath`` emulated without the file system, anchored at ``cwd``.

    Results do not depend on the machine the workbench runs on; they differ from ``realpath``
    only when the path crosses a symlink.
    """
    def resolve(path: str) -> str:
        resolved = posixpath.normpath(posixpath.join(cwd, path))
        # realpath collapses a leading '//' that normpath keeps (POSIX allows it to be special).
        if resolved.startswith("//"):
            resolved = "/" + resolved.lstrip("/")
        return resolved

    return resolve


def realpath_tail(path: str, realpath: Callable[[str], str], parts: int = 2) -> list[str]:
    """Last ``parts`` components of ``realpath(path)`` split on ``/``.

    ``realpath`` is ``os.path.realpath`` for exactly what the frameworks do on the machine
    that runs them (symlinks resolved, relative paths anchored at the process's working
    directory; the loader passes it), or :func:`lexical_realpath`.

    The split is on ``/`` only, like the frameworks' ``realpath(...).split('/')``; a path at the
    root yields empty components (``'/'`` → ``['', '']``, ``'/x'`` → ``['', 'x']``).
    """
    return realpath(path).split("/")[-parts:]


def model_abbr_from_cfg(
    cfg: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    framework: Framework = "opencompass",
    realpath: Callable[[str], str],
) -> str:
    """Model abbr as ``model_abbr_from_cfg`` of the chosen framework derives it.

    Args:
        cfg: one model config, or a list/tuple of them (abbrs joined by ``_``, as both
            frameworks do for multi-model tasks).
        framework: ``"opencompass"`` needs ``path``; ``"ais_bench"`` falls back to the bare
            ``type`` when the config has no ``path`` key.
        realpath: see :func:`realpath_tail` (``os.path.realpath``, or :func:`lexical_realpath`).

    ``type`` must be a string here.  In the frameworks it is a string too by the time abbrs are
    computed from a dumped config (e.g. ``'opencompass.models.OpenAI'``), and the full dotted
    text ends up in the abbr, dots included.

    Raises:
        KeyError: no ``abbr`` and no ``type``; or, for OpenCompass, no ``path``.
        TypeError: ``type`` or ``path`` is not a string.
        ValueError: unknown ``framework``.
    """
    if framework not in ("opencompass", "ais_bench"):
        raise ValueError(f"unknown framework {framework!r}")
    if isinstance(cfg, (list, tuple)):
        return "_".join(model_abbr_from_cfg(c, framework=framework, realpath=realpath) for c in cfg)
    if not isinstance(cfg, Mapping):
        raise TypeError(f"model config must be a mapping, got {type(cfg).__name__}")
    if "abbr" in cfg:
        return cfg["abbr"]
    type_name = cfg["type"]
    if not isinstance(type_name, str):
        raise TypeError(
            f"model type must be a str to derive an abbr, got {type(type_name).__name__}"
        )
    abbr = type_name
    if framework == "opencompass" or "path" in cfg:
        path = cfg["path"]  # KeyError for OpenCompass when absent, like the framework
        if not isinstance(path, str):
            raise TypeError(
                f"model path must be a str to derive an abbr, got {type(path).__name__}"
            )
        abbr += "_" + "_".join(realpath_tail(path, realpath))
    return abbr.replace("/", "_")


def model_abbr_for_summarizer(
    cfg: Mapping[str, Any],
    *,
    framework: Framework = "opencompass",
    realpath: Callable[[str], str],
) -> str:
    """Column name summarizers use for a model: a truthy ``summarizer_abbr`` else the abbr.

    AISBench's default summarizers and OpenCompass's subjective summarizers both prefer
    ``summarizer_abbr`` (only when truthy) over :func:`model_abbr_from_cfg`.
    """
    if cfg.get("summarizer_abbr", None):
        return cfg["summarizer_abbr"]
    return model_abbr_from_cfg(cfg, framework=framework, realpath=realpath)


def merged_dataset_abbr(dataset_cfgs: Sequence[Mapping[str, Any]]) -> str:
    """AISBench's name for the dataset part of a task (``merge_dataset_abbr_from_cfg``).

    When one AISBench task carries several datasets, its output file is named after the first
    dataset's class: the last dotted component of ``type``, lower-cased (e.g.
    ``'ais_bench.benchmark.datasets.MMLUDataset'`` → ``'mmludataset'``).  A single dataset uses
    its ``abbr`` key directly (``KeyError`` if absent; AISBench fills abbrs before this point).
    OpenCompass has no such rule.
    """
    if not dataset_cfgs:
        raise ValueError("at least one dataset config is required")
    first = dataset_cfgs[0]
    if len(dataset_cfgs) > 1:
        type_name = first.get("type")
        if not isinstance(type_name, str):
            raise TypeError(
                "dataset type must be a str to name a merged task, "
                f"got {type(type_name).__name__}"
            )
        return type_name.split(".")[-1].lower()
    return first["abbr"]
