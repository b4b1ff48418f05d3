"""An lm-eval task's part of the template tree: its include chain, the YAML's fields that decide
the prompt (each with the file:line of the chain that set it, ``!function`` utilities with the
line they are defined at), what lm-eval's command line and defaults decided beside them, and
where each split's docs came from.

The task reaches the views as the Workspace dataset ``loading/lmeval_tasks.task_dataset`` makes:
``cfg["lm_eval"]`` the merged fields as written, ``lm_eval_chain``, ``lm_eval_functions``,
``lm_eval_render`` and ``lm_eval_rows``; the locations are the dataset's own.

May import: the core, rich and the other view modules but ``template_tree`` (which builds these
nodes through the builder it passes in); not loading, not textual, and no front end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from rich.text import Text

from ..core.spec import DatasetSpec, Source
from .fragments import faint
from .options import ViewOptions, display_path
from .safe import one_line

#: The fields that decide a task's prompt, in the order a reader follows them; the others are
#: listed after them, closed.
PROMPT_FIELDS = ("task", "output_type", "dataset_path", "dataset_name", "test_split", "validation_split",
                 "training_split", "fewshot_split", "process_docs", "description", "doc_to_text",
                 "doc_to_target", "doc_to_choice", "gen_prefix", "target_delimiter", "fewshot_delimiter",
                 "num_fewshot", "fewshot_config", "generation_kwargs", "multiple_input")
#: Values quoted so their whitespace reads as such (``' '``, ``'↵↵'``).
QUOTED = ("target_delimiter", "fewshot_delimiter", "description", "gen_prefix")


class Builder(Protocol):
    """What the template tree's builder lends this module."""

    opts: ViewOptions

    def node(self, spec: Any, key: tuple[Any, ...], label: Text, children: Sequence[Any] = (),
             expanded: bool = True, selects: tuple[str, str] | None = None) -> Any: ...

    def locate(self, spec: Any, path: tuple[Any, ...]) -> Source | None: ...


Name = Callable[[str, ViewOptions, "Text | str | None"], Text]
Snip = Callable[[Any, ViewOptions, int], Text]


def is_task(spec: DatasetSpec) -> bool:
    return isinstance(spec.cfg.get("lm_eval"), Mapping)


def task_label(spec: DatasetSpec, opts: ViewOptions) -> Text:
    """The dataset line of a task: its name and output type (not the stand-in inferencer)."""
    label = Text(one_line(spec.abbr, 40), style="bold")
    output = spec.cfg["lm_eval"].get("output_type", "generate_until")
    label.append("  ")
    label.append_text(faint(one_line(f"lm-eval · {output}", 40), opts))
    return label


class TaskTree:
    """Builds a task's nodes with the template tree's builder and its label helpers."""

    def __init__(self, builder: Builder, name: Name, snip: Snip) -> None:
        self.builder, self.name, self.snip = builder, name, snip
        self.opts = builder.opts

    def children(self, spec: DatasetSpec) -> list[Any]:
        base = ("dataset", spec.abbr)
        fields: Mapping[str, Any] = spec.cfg["lm_eval"]
        out = [self.chain(spec, base)]
        shown = [k for k in PROMPT_FIELDS if k in fields]
        out += [self.field(spec, (*base, "lm_eval", k), k, fields[k]) for k in shown]
        others = [k for k in fields if k not in PROMPT_FIELDS]
        if others:
            kids = [self.field(spec, (*base, "lm_eval", k), str(k), fields[k]) for k in others]
            out.append(self.builder.node(spec, (*base, "lm_eval_other"),
                                         self.name("other fields", self.opts, ", ".join(map(str, others))),
                                         kids, expanded=False))
        decided = spec.cfg.get("lm_eval_render") or {}
        if decided:
            kids = [self.decided(spec, (*base, "lm_eval_render", k), k, value, source)
                    for k, (value, source) in decided.items()]
            note = "the command line and lm-eval's defaults"
            out.append(self.builder.node(spec, (*base, "lm_eval_render"),
                                         self.name("in effect", self.opts, note), kids))
        out.append(self.rows(spec, base))
        return out

    def rows(self, spec: DatasetSpec, base: tuple[Any, ...]) -> Any:
        """Where each split's docs came from (placeholder docs: said so)."""
        kind = spec.rows_source.kind if spec.rows_source is not None else "file"
        files = spec.cfg.get("lm_eval_rows") or {}
        shown = " · ".join(f"{split}: {self.path(file)}" for split, file in files.items())
        return self.builder.node(spec, (*base, "rows"), self.name("rows", self.opts,
                                                                  f"{kind}: {shown}" if shown else kind))

    # -- parts -------------------------------------------------------------------------------

    def chain(self, spec: DatasetSpec, base: tuple[Any, ...]) -> Any:
        links = spec.cfg.get("lm_eval_chain") or []
        kids = []
        for i, link in enumerate(links):
            at = link.get("included_at")
            detail = faint(f"included at {self.where(Source(at[0], at[1]))}", self.opts) if at else \
                faint("the task", self.opts)
            kids.append(self.builder.node(spec, (*base, "lm_eval_chain", i),
                                          self.name(Path(link["file"]).name, self.opts, detail)))
        names = " → ".join(Path(link["file"]).name for link in links)
        return self.builder.node(spec, (*base, "lm_eval_chain"), self.name("include chain", self.opts, names),
                                 kids, expanded=len(links) > 1)

    def field(self, spec: DatasetSpec, key: tuple[Any, ...], name: str, value: Any) -> Any:
        label = self.name(name, self.opts, None)
        kids: list[Any] = []
        if isinstance(value, Mapping) and not _function(value):
            kids = [self.field(spec, (*key, k), str(k), v) for k, v in value.items()]
        else:
            label.append("  ")
            label.append_text(self.value(spec, name, value))
        self.locate_in(label, spec, key[2:])
        return self.builder.node(spec, key, label, kids)

    def value(self, spec: DatasetSpec, name: str, value: Any) -> Text:
        if _function(value):
            qual = str(value).removeprefix("!function ")
            out = self.snip(str(value), self.opts, 48)
            defined = (spec.cfg.get("lm_eval_functions") or {}).get(qual)
            if defined:
                out.append(f" ({self.where(Source(defined[0], defined[1]))})",
                           style=self.opts.palette.style("faint"))
            return out
        if name in QUOTED and isinstance(value, str):
            out = Text("'", style=self.opts.palette.style("faint"))
            out.append_text(self.snip(value, self.opts, 46))
            out.append("'", style=self.opts.palette.style("faint"))
            return out
        return self.snip(value, self.opts, 48)

    def decided(self, spec: DatasetSpec, key: tuple[Any, ...], name: str, value: Any, source: str) -> Any:
        """One thing the render used: its value, and where from (a YAML field, with where it was
        written; a flag; lm-eval's default)."""
        label = self.name(name, self.opts, None)
        label.append("  ")
        if name == "chat template" and isinstance(value, str) and value.startswith("/"):
            file, _, rest = value.partition(" (")  # a tokenizer folder's file: its folder's name
            value = str(Path(Path(file).parent.name) / Path(file).name) + (f" ({rest}" if rest else "")
        label.append_text(faint("none", self.opts) if value is None else self.value(spec, name, value))
        label.append(f"  {source}", style=self.opts.palette.style("faint"))
        field = source.split(":", 1)[0].split(".", 1)[0]
        if field in spec.cfg["lm_eval"]:
            self.locate_in(label, spec, ("lm_eval", field), sep=" ")
        return self.builder.node(spec, key, label)

    # -- locations ---------------------------------------------------------------------------

    def locate_in(self, label: Text, spec: DatasetSpec, path: tuple[Any, ...], sep: str = "  ") -> None:
        """Append where ``path`` was written (``base.yaml:7``), when it was recorded."""
        found = spec.locations.get(path)
        if found is not None and found.file:
            label.append(sep)
            label.append(self.where(found), style=self.opts.palette.style("location"))

    def where(self, source: Source) -> str:
        shown = self.path(source.file)
        return f"{shown}:{source.line}" if source.line else shown

    def path(self, file: str | None) -> str:
        if not file:
            return "<task>"
        return display_path(file, self.opts.root) if Path(file).is_absolute() else file


def _function(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("!function ")
