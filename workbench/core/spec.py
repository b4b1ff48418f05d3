"""What the loader hands the core: datasets and models as plain data, with where they came from.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use (ModelAssets is named for type checking only).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models.model_assets import ModelAssets

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


#: A path through a config: dict keys and list indices, e.g. ``("infer_cfg", "retriever")``.
KeyPath = tuple[Any, ...]


def role_path(spec: DatasetSpec, role: str) -> KeyPath | None:
    """The path of the first item of the dataset's ``infer_cfg`` whose ``role`` is ``role``
    (where a template wrote a role the model does not know), or None."""
    def walk(value: Any, path: KeyPath) -> KeyPath | None:
        if isinstance(value, Mapping):
            if value.get("role") == role:
                return path
            items: Any = value.items()
        elif isinstance(value, (list, tuple)):
            items = enumerate(value)
        else:
            return None
        for key, sub in items:
            found = walk(sub, (*path, key))
            if found is not None:
                return found
        return None

    cfg = spec.cfg if isinstance(spec.cfg, Mapping) else {}
    return walk(cfg.get("infer_cfg"), ("infer_cfg",))


def locate(spec: DatasetSpec | ModelSpec, path: KeyPath) -> Source:
    """Where the part of ``spec.cfg`` at ``path`` was written: the deepest recorded location on
    the way to it, else where the whole dataset or model dict was defined."""
    locations = spec.locations
    for end in range(len(path), 0, -1):
        found = locations.get(tuple(path[:end]))
        if found is not None:
            return found
    return spec.source


@dataclass(frozen=True)
class RowsSource:
    """Which route gave a dataset its rows, so a user can tell real rows from stand-ins.

    ``kind``: ``file`` (``--data``, ``workbench.toml`` or a ``path`` naming a rows file or
    folder), ``data-id`` (a framework data id resolved through its id table), ``native-reader``
    (the dataset class's files read as its ``load()`` reads them), ``framework-load`` (the
    class's own ``load()``), ``placeholder`` (no rows found: stand-ins built from
    ``reader_cfg``).
    """

    kind: str
    path: str | None = None
    data_id: str | None = None
    reader: str | None = None  # the dataset class whose load() was reproduced or run
    looked_for: str | None = None  # placeholder: where rows were looked for
    note: str | None = None  # worth a warning: how these rows differ from what the framework loads

    def to_json(self) -> dict[str, str | None]:
        return {"kind": self.kind, "path": self.path, "data_id": self.data_id, "reader": self.reader}


#: Where a spec keeps its content key once worked out (see DatasetSpec.content_key).
_KEY = "_content_key"


@dataclass(frozen=True)
class DatasetSpec:
    abbr: str
    cfg: Mapping[str, Any]
    rows: Any = None  # a list of rows, or {split: [rows]}; None until the loader finds some
    framework: str = OPENCOMPASS
    source: Source = field(default_factory=Source)
    rows_origin: str | None = None  # where the rows came from, for display
    rows_source: RowsSource | None = None
    #: Says the rows are the same as last load's (the versions of the files they were read
    #: from); None: unknown.
    rows_version: Any = None
    #: Where each dict (and, in JSON/YAML/TOML configs, each list) inside ``cfg`` was written.
    locations: Mapping[KeyPath, Source] = field(default_factory=dict)

    @property
    def rows_unknown(self) -> bool:
        """No real rows (none found, or placeholders): nothing of their content, their gold, is known."""
        return self.rows is None or (self.rows_source is not None and self.rows_source.kind == "placeholder")

    def content_key(self) -> Hashable | None:
        """Equal for two specs that render and display alike, so what was made from one can
        be reused for the other; None when the rows' content cannot be vouched for.

        Worked out once per spec: a save keeps every dataset it did not change as the same
        spec (the loader's), and the ``repr`` of a suite's configs is most of what keying its
        render cache and tree costs. A spec's config is never changed once it is built (the
        core copies what it changes), so its key cannot go stale."""
        if self.rows_version is None:
            return None
        found = self.__dict__.get(_KEY)
        if found is None:
            found = ("dataset", self.abbr, self.framework, self.source, self.rows_origin, self.rows_source,
                     self.rows_version, repr(self.cfg), repr(dict(self.locations)))
            object.__setattr__(self, _KEY, found)  # frozen: not a field, so eq, hash and repr ignore it
        return found


@dataclass(frozen=True)
class ModelSpec:
    abbr: str
    cfg: Mapping[str, Any]
    framework: str = OPENCOMPASS
    source: Source = field(default_factory=Source)
    locations: Mapping[KeyPath, Source] = field(default_factory=dict)
    #: The model's local files as the loader read them (chat templates, tokenizer); None for a
    #: spec built by hand, which renders as a model whose folder is not local.
    assets: ModelAssets | None = None

    def content_key(self) -> Hashable:
        """Equal for two specs that render and display alike (see DatasetSpec.content_key)."""
        assets = self.assets.identity() if self.assets is not None else None
        return ("model", self.abbr, self.framework, self.source, repr(self.cfg), repr(dict(self.locations)),
                repr(assets))
