"""What the loader hands the core: datasets and models as plain data, with where they came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model_assets import ModelAssets

OPENCOMPASS = "opencompass"
AISBENCH = "ais_bench"


def type_name(value: Any) -> str:
    """The class name a config's ``type`` refers to (``a.b.PromptTemplate`` → ``PromptTemplate``)."""
    if isinstance(value, str):
        return value.rsplit(".", 1)[-1]
    name = getattr(value, "__name__", None)
    if isinstance(name, str):
        return name
    return str(value)


def type_module(value: Any) -> str:
    """The dotted module a ``type`` was written with ('' for a bare name)."""
    if isinstance(value, str):
        return value.rsplit(".", 1)[0] if "." in value else ""
    return str(getattr(value, "__module__", "") or "")


@dataclass(frozen=True)
class Source:
    """Where a dataset or model was defined (for errors that point at the line)."""

    file: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class DatasetSpec:
    abbr: str
    cfg: Mapping[str, Any]
    rows: Any = None  # a list of rows, or {split: [rows]}; None until the loader finds some
    framework: str = OPENCOMPASS
    source: Source = field(default_factory=Source)
    rows_origin: str | None = None  # where the rows came from, for display


@dataclass(frozen=True)
class ModelSpec:
    abbr: str
    cfg: Mapping[str, Any]
    framework: str = OPENCOMPASS
    source: Source = field(default_factory=Source)
    #: The model's local files as the loader read them (chat templates, tokenizer); None for a
    #: spec built by hand, which renders as a model whose folder is not local.
    assets: ModelAssets | None = None
