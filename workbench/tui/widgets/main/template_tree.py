"""The template tree pane: a Textual Tree drawn from :func:`workbench.views.template_tree` nodes.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.scroll_view import ScrollView
from textual.widgets import Tree
from textual.widgets.tree import TreeNode as WidgetNode

from ....views.template_tree import Key, TreeNode


class TemplateTree(Tree[TreeNode]):
    """Rebuilt on every good load, keeping which nodes were open and where the cursor was."""

    ALLOW_MAXIMIZE = True

    DEFAULT_CSS = """
    TemplateTree {
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        background: $surface;
        scrollbar-size-vertical: 1;
        scrollbar-size-horizontal: 0;
    }
    TemplateTree:focus {
        border: round $primary;
        border-title-color: $text;
    }
    TemplateTree.-stale {
        text-opacity: 45%;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("Templates", id=id)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = True
        self.border_title = "Templates"
        self._selected: set[tuple[str, str]] = set()
        self._known: dict[Key, bool] = {}  # key -> expanded, remembered across rebuilds
        self._shown_nodes: tuple[TreeNode, ...] | None = None  # what the widget shows now
        self._marks: dict[tuple[str, str], Text] = {}

    def notify_style_update(self) -> None:
        """Restyle without laying the screen out again.

        Textual's Tree answers a style change (focus coming or going restyles the border and
        the cursor) by forgetting its lines and reflowing the whole screen, which made moving
        between panes the slowest key. A style changes no line's width here: the labels and
        the guides (``guide_depth``, set in code) measure the same, so the lines drawn from
        the cache are dropped and repainted in place.
        """
        ScrollView.notify_style_update(self)
        self._line_cache.clear()
        self._updates += 1
        self.root._reset()
        self.refresh()

    def load(self, nodes: Sequence[TreeNode], selected: Sequence[tuple[str, str]]) -> None:
        nodes = tuple(nodes)
        if self._update_in_place(nodes, set(selected)):
            return
        self._rebuild(nodes, selected)
        self._shown_nodes = nodes

    def _update_in_place(self, nodes: tuple[TreeNode, ...], selected: set[tuple[str, str]]) -> bool:
        """Keep what did not change: tree nodes are reused across reloads for the datasets and
        models a save did not touch, so a reload usually swaps one subtree, or nothing."""
        old = self._shown_nodes
        if (old is None or len(old) != len(nodes) or selected != self._selected
                or len(self.root.children) != len(old)):
            return False
        changed = [i for i, (a, b) in enumerate(zip(old, nodes)) if a is not b]
        if len(changed) > 4:
            return False
        cursor = self.cursor_node.data.key if self.cursor_node is not None and self.cursor_node.data else None
        target = None
        for i in changed:
            stale = self.root.children[i]
            for node in self._walk(stale):
                if node.data is not None:
                    self._known[node.data.key] = node.is_expanded
            target = self._add(self.root, nodes[i], cursor, before=i) or target
            stale.remove()
        self._shown_nodes = nodes
        if target is not None:
            self.move_cursor(target)
        return True

    def _rebuild(self, nodes: tuple[TreeNode, ...], selected: Sequence[tuple[str, str]]) -> None:
        cursor = self.cursor_node.data.key if self.cursor_node is not None and self.cursor_node.data else None
        for node in self._walk(self.root):
            if node.data is not None:
                self._known[node.data.key] = node.is_expanded
        self._selected = set(selected)
        self.clear()
        target: WidgetNode[TreeNode] | None = None
        for node in nodes:
            found = self._add(self.root, node, cursor)
            target = target or found
        if target is not None:
            self.move_cursor(target)
        elif self.root.children:
            self.move_cursor(self.root.children[0])

    def _add(self, parent: WidgetNode[TreeNode], node: TreeNode,
             cursor: Key | None, before: int | None = None) -> WidgetNode[TreeNode] | None:
        expanded = self._known.get(node.key, node.expanded)
        label = self._label(node)
        if not node.openable:
            child = parent.add_leaf(label, data=node, before=before)
            return child if node.key == cursor else None
        child = parent.add(label, data=node, expand=expanded, before=before)
        found = child if node.key == cursor else None
        if node.grow is None or expanded:  # a node that grows on demand waits to be opened
            for sub in node.kids():
                found = self._add(child, sub, cursor) or found
        return found

    @on(Tree.NodeExpanded)
    def _grow(self, event: Tree.NodeExpanded[TreeNode]) -> None:
        """A dataset of a suite builds its nodes the first time it is opened."""
        node = event.node
        if node.data is not None and node.data.grow is not None and not node.children:
            for sub in node.data.kids():
                self._add(node, sub, None)

    def _label(self, node: TreeNode) -> Text:
        label = node.label.copy()
        mark = self._marks.get(node.selects) if node.selects is not None else None
        if mark is not None:
            label.append("  ")
            label.append_text(mark)
        if node.selects is not None and node.selects in self._selected:
            label.append(" ◀", style="bold")
        return label

    def set_marks(self, marks: dict[tuple[str, str], Text]) -> None:
        """Notes after a dataset's or model's name (e.g. which models fail for a dataset)."""
        if marks == self._marks:
            return
        changed = set(marks) ^ set(self._marks) | {k for k in marks if self._marks.get(k) != marks[k]}
        self._marks = dict(marks)
        self._relabel(changed)

    def _relabel(self, which: set[tuple[str, str]]) -> None:
        for node in self._walk(self.root):
            if node.data is not None and node.data.selects in which:
                node.set_label(self._label(node.data))

    def mark_selected(self, selected: Sequence[tuple[str, str]]) -> None:
        """Move the ◀ marks to the selected dataset and model, and the cursor with them.

        The cursor follows a newly selected dataset (else model) unless it is already inside
        it: ``e`` opens the cursor's file, which after ``d`` must be the new dataset's.
        """
        selected_set = set(selected)
        if selected_set == self._selected:
            return
        changed = selected_set ^ self._selected
        gained = [key for key in selected if key not in self._selected]
        self._selected = selected_set
        self._relabel(changed)  # only the nodes that gain or lose the mark
        if gained:
            self._follow(gained[0])

    def _follow(self, key: tuple[str, str]) -> None:
        target = next((node for node in self._walk(self.root)
                       if node.data is not None and node.data.selects == key), None)
        if target is None or self._inside(self.cursor_node, target):
            return
        above = target.parent
        while above is not None:  # a node under a closed one has no line to move to
            if not above.is_expanded:
                above.expand()
            above = above.parent
        _ = self._tree_lines  # (re)builds the lines, which gives ``target`` its line number
        self.move_cursor(target)

    @staticmethod
    def _inside(node: WidgetNode[TreeNode] | None, ancestor: WidgetNode[TreeNode]) -> bool:
        while node is not None:
            if node is ancestor:
                return True
            node = node.parent
        return False

    def _walk(self, node: WidgetNode[TreeNode]):
        yield node
        for child in node.children:
            yield from self._walk(child)
