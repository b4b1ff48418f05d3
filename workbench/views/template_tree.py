"""The template tree: datasets (reader_cfg, templates item by item, retriever, inferencer)
and models (meta template roles), as plain nodes any front end can draw.

Each node carries a stable ``key`` (its path through the config, so a reload can keep
what was expanded and selected) and a ``location``.  Locations come from a
:data:`Locator`; the default answers with the line the loader recorded for that part of
the config (each dict and list knows where it was written), else the nearest enclosing
part's, else where the dataset or model dict was defined.

May import: the core, rich, plotext and the other view modules (``lmeval_tree`` draws an lm-eval
task's part); not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text
from rich.tree import Tree

from ..core.lazy_pairs import in_place
from ..core.memo import RoundCache
from ..core.spec import DatasetSpec, ModelSpec, Source, locate, type_name
from .fragments import badge, faint, snippet
from .lmeval_tree import TaskTree, is_task, task_label
from .options import ViewOptions, display_path
from .safe import one_line

Spec = DatasetSpec | ModelSpec
Key = tuple[Any, ...]
# (the spec a node belongs to, the node's path through spec.cfg) -> where it was written
Locator = Callable[[Spec, Key], "Source | None"]


def spec_locator(spec: Spec, path: Key) -> Source | None:
    """Where the part of the config at ``path`` was written (the deepest location recorded)."""
    return locate(spec, path)


@dataclass(frozen=True)
class TreeNode:
    key: Key  # ("dataset", abbr, *path) / ("model", abbr, *path) / ("models",)
    label: Text
    location: Source | None = None
    children: tuple[TreeNode, ...] = ()
    expanded: bool = True
    selects: tuple[str, str] | None = None  # choosing it selects ("dataset"|"model", abbr)
    # children built on demand (a suite's datasets, when first opened) instead of ``children``
    grow: Callable[[], tuple[TreeNode, ...]] | None = field(default=None, compare=False, repr=False)

    @property
    def openable(self) -> bool:
        return bool(self.children) or self.grow is not None

    def kids(self) -> tuple[TreeNode, ...]:
        """The children, built now if the node grows them on demand."""
        return self.grow() if self.grow is not None else self.children

    def walk(self):
        """This node and every descendant (growing the nodes that grow on demand)."""
        yield self
        for child in self.kids():
            yield from child.walk()


#: With more datasets than this, the app's tree shows them collapsed (and builds their nodes
#: when opened): a suite's 234 datasets, expanded, would be thousands of lines.
OPEN_DATASETS = 8


def _grown(build: Callable[[], TreeNode]) -> Callable[[], tuple[TreeNode, ...]]:
    """``build().children``, built once, the first time it is asked for."""
    made: list[tuple[TreeNode, ...]] = []

    def grow() -> tuple[TreeNode, ...]:
        if not made:
            made.append(build().children)
        return made[0]

    return grow


def _name(text: str, opts: ViewOptions, detail: Text | str | None = None) -> Text:
    out = Text(one_line(text, 40), style=opts.palette.style("label"))
    if detail is not None and str(detail):
        out.append("  ")
        out.append_text(detail if isinstance(detail, Text) else faint(one_line(str(detail), 80), opts))
    return out


def _snip(value: Any, opts: ViewOptions, limit: int = 48) -> Text:
    quiet = ViewOptions(whitespace=True, provenance=False, palette=opts.palette, tokens=opts.tokens)
    return snippet(value, quiet, limit)


def _params(cfg: Mapping[str, Any], skip: Sequence[str] = ("type",)) -> str:
    return " ".join(f"{k}={v!r}" for k, v in cfg.items() if k not in skip)


class _Builder:
    def __init__(self, opts: ViewOptions, locate: Locator) -> None:
        self.opts = opts
        self.locate = locate

    def node(self, spec: Spec, key: Key, label: Text, children: Sequence[TreeNode] = (),
             expanded: bool = True, selects: tuple[str, str] | None = None) -> TreeNode:
        return TreeNode(key=key, label=label, location=self.locate(spec, key[2:]),
                        children=tuple(children), expanded=expanded, selects=selects)

    # -- datasets --------------------------------------------------------------------
    def dataset(self, spec: DatasetSpec) -> TreeNode:
        opts, cfg, base = self.opts, spec.cfg, ("dataset", spec.abbr)
        infer = cfg.get("infer_cfg") if isinstance(cfg.get("infer_cfg"), Mapping) else {}
        if is_task(spec):  # an lm-eval task: its YAML, not the stand-in template that renders it
            return self.node(spec, base, task_label(spec, opts), TaskTree(self, _name, _snip).children(spec),
                             selects=("dataset", spec.abbr))
        children: list[TreeNode] = []
        reader = cfg.get("reader_cfg")
        if isinstance(reader, Mapping):
            inputs = reader.get("input_columns", [])
            inputs = ", ".join(map(str, inputs)) if isinstance(inputs, (list, tuple)) else str(inputs)
            detail = f"{inputs} → {reader.get('output_column')}"
            extra = _params(reader, skip=("input_columns", "output_column"))
            children.append(self.node(spec, (*base, "reader_cfg"),
                                      _name("reader_cfg", opts, f"{detail} {extra}".strip())))
        else:
            missing = Text("missing", style=opts.palette.style("error"))
            children.append(self.node(spec, (*base, "reader_cfg"), _name("reader_cfg", opts, missing)))
        for which in ("ice_template", "prompt_template"):
            tmpl = infer.get(which)
            if tmpl is None:
                continue
            children.append(self.template(spec, (*base, "infer_cfg", which), which, tmpl))
        for which in ("retriever", "inferencer"):
            part = infer.get(which)
            if isinstance(part, Mapping):
                detail = f"{type_name(part.get('type'))} {_params(part)}".strip()
                children.append(self.node(spec, (*base, "infer_cfg", which), _name(which, opts, detail)))
        if spec.rows_origin:
            origin = spec.rows_origin
            shown = display_path(origin, opts.root) if Path(origin).is_absolute() else origin
            if spec.rows_source is not None:
                shown = f"{spec.rows_source.kind}: {shown}"
            children.append(self.node(spec, (*base, "rows"), _name("rows", opts, shown)))
        inferencer = infer.get("inferencer") if isinstance(infer, Mapping) else None
        detail = type_name(inferencer.get("type")) if isinstance(inferencer, Mapping) else ""
        label = Text(one_line(spec.abbr, 40), style="bold")
        if detail:
            label.append("  ")
            label.append_text(faint(one_line(detail, 40), opts))
        return self.node(spec, base, label, children, selects=("dataset", spec.abbr))

    def lazy_dataset(self, spec: DatasetSpec, expanded: bool) -> TreeNode:
        """The dataset's own line now; its parts when the node is first opened."""
        full = self.dataset
        infer = spec.cfg.get("infer_cfg") if isinstance(spec.cfg.get("infer_cfg"), Mapping) else {}
        inferencer = infer.get("inferencer") if isinstance(infer, Mapping) else None
        detail = type_name(inferencer.get("type")) if isinstance(inferencer, Mapping) else ""
        label = Text(one_line(spec.abbr, 40), style="bold")
        if is_task(spec):
            label = task_label(spec, self.opts)
        elif detail:
            label.append("  ")
            label.append_text(faint(one_line(detail, 40), self.opts))
        base = ("dataset", spec.abbr)
        return TreeNode(key=base, label=label, location=self.locate(spec, ()), expanded=expanded,
                        selects=("dataset", spec.abbr), grow=_grown(lambda: full(spec)))

    def failed_dataset(self, abbr: str, error: Any) -> TreeNode:
        """A dataset that could not be loaded: its name marked, and the reason as its child."""
        opts, base = self.opts, ("dataset", abbr)
        where = Source(getattr(error, "file", None), getattr(error, "line", None))
        label = Text(one_line(abbr, 40), style="bold")
        label.append("  ✖ not loaded", style=opts.palette.style("error"))
        reason = Text(one_line(str(getattr(error, "message", error)), 120), style=opts.palette.style("error"))
        child = TreeNode(key=(*base, "error"), label=reason, location=where)
        return TreeNode(key=base, label=label, location=where, children=(child,), expanded=False,
                        selects=("dataset", abbr))

    def template(self, spec: DatasetSpec, key: Key, which: str, cfg: Any) -> TreeNode:
        opts = self.opts
        if not isinstance(cfg, Mapping):
            return self.node(spec, key, _name(which, opts, Text(f"not a dict: {one_line(repr(cfg), 40)}",
                                                                 style=opts.palette.style("error"))))
        bits = [type_name(cfg.get("type", "PromptTemplate"))]
        for token_key in ("ice_token", "sep_token"):
            if cfg.get(token_key):
                bits.append(f"{token_key} {cfg[token_key]!r}")
        if "messages" in cfg and "template" not in cfg:  # RawPromptTemplate
            if cfg.get("format_variables") is False:
                bits.append("format_variables=False")
            children = self.template_body(spec, (*key, "messages"), cfg.get("messages"))
            return self.node(spec, key, _name(which, opts, " · ".join(bits)), children)
        children = self.template_body(spec, (*key, "template"), cfg.get("template"))
        return self.node(spec, key, _name(which, opts, " · ".join(bits)), children)

    def template_body(self, spec: DatasetSpec, key: Key, tmpl: Any) -> list[TreeNode]:
        opts = self.opts
        if isinstance(tmpl, str):
            return [self.node(spec, key, _snip(tmpl, opts, 60))]
        if isinstance(tmpl, (list, tuple)):
            return [self.item(spec, (*key, i), item) for i, item in enumerate(tmpl)]
        if not isinstance(tmpl, Mapping):
            return [self.node(spec, key, faint(one_line(repr(tmpl), 60), opts))]
        if set(tmpl) & {"begin", "round", "end"} and set(tmpl) <= {"begin", "round", "end"}:
            out = []
            for section in ("begin", "round", "end"):
                if section in tmpl:
                    value = tmpl[section]
                    kids = self.template_body(spec, (*key, section), value) if not isinstance(value, str) \
                        else [self.node(spec, (*key, section, 0), _snip(value, opts, 60))]
                    out.append(self.node(spec, (*key, section), _name(section, opts), kids))
            return out
        # a label dict (PPL): one template per label, the first one open
        return [self.node(spec, (*key, label), _name(f"label {label!r}", opts),
                          self.template_body(spec, (*key, label), value), expanded=i == 0)
                for i, (label, value) in enumerate(tmpl.items())]

    def item(self, spec: DatasetSpec, key: Key, item: Any) -> TreeNode:
        opts = self.opts
        if isinstance(item, Mapping) and "role" in item:
            label = badge(item["role"], opts, item.get("fallback_role"))
            label.append(" ")
            if "prompt_mm" in item and isinstance(item["prompt_mm"], Mapping):
                for i, (name, part) in enumerate(item["prompt_mm"].items()):
                    if i:
                        label.append(" ")
                    label.append(f"{one_line(str(name), 16)}: ", style=opts.palette.style("faint"))
                    label.append_text(_snip(part.get("text", part) if isinstance(part, Mapping) else part,
                                            opts, 28))
            elif "prompt" in item:
                label.append_text(_snip(item["prompt"], opts))
            elif "content" in item:  # RawPromptTemplate messages
                label.append_text(_snip(item["content"], opts))
            else:
                label.append_text(faint("(no prompt)", opts))
            return self.node(spec, key, label)
        if isinstance(item, Mapping) and "expand_column" in item:
            column = one_line(str(item["expand_column"]), 40)
            return self.node(spec, key, _name("expand_column", opts, column))
        if isinstance(item, str):
            return self.node(spec, key, _snip(item, opts))
        return self.node(spec, key, faint(one_line(repr(item), 60), opts))

    # -- models ----------------------------------------------------------------------
    def model(self, spec: ModelSpec, kind: str | None) -> TreeNode:
        opts, cfg, base = self.opts, spec.cfg, ("model", spec.abbr)
        children: list[TreeNode] = []
        path = cfg.get("path")
        if isinstance(path, str):
            shown = display_path(path, opts.root) if Path(path).is_absolute() else path
            children.append(self.node(spec, (*base, "path"), _name("path", opts, shown)))
        meta = cfg.get("meta_template")
        if isinstance(meta, Mapping):
            children.append(self.meta(spec, (*base, "meta_template"), meta))
        elif isinstance(meta, (list, tuple)):  # a list of messages, merged into raw messages
            kids = [self.item(spec, (*base, "meta_template", i), m) for i, m in enumerate(meta)]
            children.append(self.node(spec, (*base, "meta_template"), _name("meta_template", opts), kids))
        elif meta is None:
            note = ("chat template from the tokenizer" if kind == "chat_template"
                    else "none: prompts are joined")
            children.append(self.node(spec, (*base, "meta_template"), _name("meta_template", opts, note)))
        label = Text(one_line(spec.abbr, 40), style="bold")
        kind_bits = (type_name(cfg.get("type")) if cfg.get("type") else "", kind or "")
        detail = " · ".join(x for x in kind_bits if x)
        if detail:
            label.append("  ")
            label.append_text(faint(one_line(detail, 60), opts))
        return self.node(spec, base, label, children, expanded=False, selects=("model", spec.abbr))

    def meta(self, spec: ModelSpec, key: Key, meta: Mapping[str, Any]) -> TreeNode:
        opts = self.opts
        children: list[TreeNode] = []
        for section in ("begin", "round", "reserved_roles", "end"):
            value = meta.get(section)
            if value is None:
                continue
            if isinstance(value, (list, tuple)):
                kids = [self.meta_role(spec, (*key, section, i), r) for i, r in enumerate(value)]
                children.append(self.node(spec, (*key, section), _name(section, opts), kids))
            else:
                children.append(self.node(spec, (*key, section), _name(section, opts, _snip(value, opts))))
        rest = {k: v for k, v in meta.items() if k not in ("begin", "round", "reserved_roles", "end")}
        for k, v in rest.items():
            children.append(self.node(spec, (*key, k), _name(str(k), opts, one_line(repr(v), 60))))
        return self.node(spec, key, _name("meta_template", opts), children)

    def meta_role(self, spec: ModelSpec, key: Key, role: Any) -> TreeNode:
        opts = self.opts
        if not isinstance(role, Mapping):
            label = _snip(role, opts) if isinstance(role, str) else faint(repr(role), opts)
            return self.node(spec, key, label)
        label = badge(role.get("role", "?"), opts, role.get("fallback_role"))
        for part in ("begin", "end"):
            if role.get(part) is not None:
                label.append(f" {part} ", style=opts.palette.style("faint"))
                label.append_text(_snip(role[part], opts, 28))
        for flag in ("api_role", "generate", "prompt"):
            if flag in role:
                label.append(f" {flag}={one_line(repr(role[flag]), 24)}", style=opts.palette.style("faint"))
        return self.node(spec, key, label)


def template_tree(datasets: Sequence[DatasetSpec], models: Sequence[ModelSpec], opts: ViewOptions,
                  locate: Locator = spec_locator,
                  kinds: Mapping[str, str] | None = None,
                  memo: RoundCache[TreeNode] | None = None, lazy: bool = False,
                  failed: Sequence[tuple[int, str, Any]] = ()) -> tuple[TreeNode, ...]:
    """Tree nodes for every dataset, then a ``models`` node with every model.

    A node is a pure function of its spec's content and the options; with a ``memo`` (the
    app keeps one across reloads) nodes are reused for the datasets and models a save did
    not touch, so the tree pane swaps only what changed. ``lazy`` (the app) gives each
    dataset node its children on demand, and shows the datasets collapsed when there are
    more than :data:`OPEN_DATASETS`. ``failed`` are datasets that could not be loaded
    (position among ``datasets``, abbr, error): each is a node saying why, in its place.
    """
    builder = _Builder(opts, locate)
    kinds = kinds or {}

    def node(content: Any, key: tuple, build: Callable[[], TreeNode]) -> TreeNode:
        if memo is None or content is None:
            return build()
        try:
            hash(key)
        except TypeError:  # an unhashable option: build every time
            return build()
        return memo.get_or_build(key, build)

    if memo is not None:
        memo.next_round()
    nodes = []
    open_datasets = len(datasets) + len(failed) <= OPEN_DATASETS
    for d in datasets:
        content = d.content_key()
        if lazy:
            nodes.append(node(content, (content, opts, locate, "lazy", open_datasets),
                              lambda d=d: builder.lazy_dataset(d, open_datasets)))
        else:
            nodes.append(node(content, (content, opts, locate), lambda d=d: builder.dataset(d)))
    nodes = in_place(nodes, [(at, builder.failed_dataset(abbr, error)) for at, abbr, error in failed])
    if models:
        kids = tuple(node(m.content_key(), (m.content_key(), kinds.get(m.abbr), opts, locate),
                          lambda m=m: builder.model(m, kinds.get(m.abbr)))
                     for m in models)
        nodes.append(TreeNode(key=("models",), label=_name("models", opts, str(len(models))),
                              children=kids))
    return tuple(nodes)


@dataclass(frozen=True)
class FileLine:
    """``path:line`` on one line of whatever width it is drawn at: a path too long loses its
    head (``…/name.py:49``), never the line number, which is what a reader looks for."""

    path: str
    line: int | None
    style: Style | str = ""

    def fitted(self, width: int) -> str:
        whole = str(self)
        if cell_len(whole) <= width:
            return whole
        tail = f":{self.line}" if self.line else ""
        path = self.path
        while path and cell_len("…" + path + tail) > width:
            path = path[1:]
        return "…" + path + tail

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(self.fitted(options.max_width), style=self.style, no_wrap=True, overflow="crop")


def node_location_text(node: TreeNode, opts: ViewOptions) -> FileLine | Text:
    """A one-line "file:line" for the node, or a faint note when it has none."""
    if node.location is None or not node.location.file:
        return faint("no source location", opts)
    return FileLine(display_path(node.location.file, opts.root), node.location.line,
                    opts.palette.style("location"))


def tree_view(nodes: Sequence[TreeNode], opts: ViewOptions,
              selected: Sequence[tuple[str, str]] = (), titled: bool = True) -> Tree:
    """The tree as a rich renderable (what a headless export shows for the tree pane);
    ``titled=False`` leaves the "Templates" heading to a panel drawn around it."""
    root = Tree(Text("Templates", style=opts.palette.style("label")), guide_style=opts.palette.style("faint"),
                hide_root=not titled)

    def add(parent: Tree, node: TreeNode) -> None:
        label = node.label.copy()
        if node.selects is not None and node.selects in selected:
            label.append(" ◀", style=opts.palette.style("selected"))
        branch = parent.add(label, expanded=node.expanded)
        for child in (node.kids() if node.expanded else node.children):
            add(branch, child)

    for node in nodes:
        add(root, node)
    return root
