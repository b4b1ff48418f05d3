"""A scrollable, focusable pane showing one view renderable under a border title.

Long-context prompts run to hundreds of kilobytes, and wrapping that much text takes
seconds.  So the renderable is wrapped into lines off the UI thread
(:func:`render_lines`, called from the frame worker at the pane's width), and the pane
draws only the lines on screen (Textual's line API), like a log viewer does.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import io

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...search import highlighted


def render_lines(renderable: RenderableType, width: int) -> list[Strip]:
    """``renderable`` wrapped to ``width`` cells, as strips (safe to call from a worker thread)."""
    width = max(width, 10)
    console = Console(width=width, file=io.StringIO(), color_system="truecolor", force_terminal=True,
                      legacy_windows=False, emoji=False, markup=False, highlight=False)
    lines = console.render_lines(renderable, console.options.update_width(width), pad=False)
    return [Strip(Segment.simplify(line)).adjust_cell_length(width) for line in lines]


CONTEXT_LINES = 1  # unchanged lines kept above the first changed one when a pane scrolls to it


def changed_view_top(before: list[Strip], after: list[Strip], top: int, height: int) -> int | None:
    """Where to scroll so the first line that differs between ``before`` and ``after`` is in
    view, or None when a line in view at ``top`` already differs (or nothing does).

    Few-shot prompts share their opening (the system prompt, the examples) from sample to
    sample: without this, ``n`` would change only lines below the pane's edge.
    """
    first = next((i for i, (a, b) in enumerate(zip(before, after)) if a.text != b.text),
                 min(len(before), len(after)))
    if first >= len(after) and len(before) == len(after):
        return None  # the same text
    if top <= first < top + height:
        return None
    if any(i >= len(before) or before[i].text != after[i].text
           for i in range(max(top, first), min(top + height, len(after)))):
        return None
    return max(0, first - CONTEXT_LINES)


class ViewPane(ScrollView, can_focus=True):
    """Keeps its scroll position across updates, so a reload does not jump the view."""

    ALLOW_MAXIMIZE = True
    DEFAULT_CSS = """
    ViewPane {
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 0 1;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
    }
    ViewPane:focus {
        border: round $primary;
        border-title-color: $text;
    }
    ViewPane.-stale {
        text-opacity: 45%;
    }
    """

    class Resized(Message, bubble=True):
        """The pane's text width changed: its lines must be wrapped again."""

    def __init__(self, title: str, placeholder: RenderableType = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = title
        self.renderable: RenderableType = placeholder  # what the lines were drawn from
        self.lines: list[Strip] = []
        self._drawn_width = 0
        self._placeholder = placeholder
        self.marks: dict[int, list[tuple[int, int, bool]]] = {}
        self._line_style: Style | None = None

    @property
    def text_width(self) -> int:
        """The width lines are wrapped to (the scrollbar's column is always kept free)."""
        return self.scrollable_content_region.width

    def on_mount(self) -> None:
        if self._placeholder:
            self.call_after_refresh(self._draw_placeholder)

    def _draw_placeholder(self) -> None:
        if not self.lines and self.text_width > 0:
            lines = render_lines(self._placeholder, self.text_width)
            self.show(self._placeholder, str(self.border_title), lines)

    def show(self, renderable: RenderableType, title: str, lines: list[Strip], follow: bool = False) -> None:
        """Show new lines; with ``follow`` (another sample, model...), scroll to where they
        begin to differ from the old ones when none of the lines in view changed."""
        before = self.lines
        self.marks = {}  # they were for the lines before
        self.border_title = title
        self.renderable = renderable
        self.lines = lines
        self._drawn_width = lines[0].cell_length if lines else self.text_width
        self._set_virtual_size(Size(self._drawn_width, len(lines)))
        if follow:
            top = changed_view_top(before, lines, self.scroll_offset.y, self.scrollable_content_region.height)
            if top is not None:
                self.scroll_to(y=top, animate=False, immediate=True)
        self.refresh()

    def _set_virtual_size(self, size: Size) -> None:
        """The new text's size, laying the screen out again only when the pane's box can change.

        Assigning ``virtual_size`` reflows the whole screen (every widget measured and placed),
        which was most of what a navigation key cost on a suite. A pane of fixed height (a
        ``1fr`` grid cell) keeps its box whatever it shows: a new sample of another length only
        moves its scrollbar thumb, unless the scrollbar comes or goes. A pane sized by its text
        (the timeline's ``height: auto``) is laid out again. Textual is pinned (pyproject), so
        its scrollbar update is used directly.
        """
        if size == self.virtual_size:
            return
        height = self.styles.height
        if not self.container_size or height is None or height.is_auto:
            self.virtual_size = size  # not laid out yet, or sized by its text: a full layout
            return
        before = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        self.set_reactive(ScrollView.virtual_size, size)
        self._scroll_update(size)
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != before:
            self.refresh(layout=True)

    @property
    def wrapped(self) -> bool:
        """The lines on show were wrapped at the pane's present width (a resize re-wraps them)."""
        return not self.lines or self.text_width <= 0 or self.text_width == self._drawn_width

    def on_resize(self) -> None:
        if self.lines and self.text_width > 0 and self.text_width != self._drawn_width:
            self.post_message(self.Resized())

    def render_lines(self, crop: Region) -> list[Strip]:
        # the pane's style, worked out from its CSS once per paint instead of twice a line
        # (it was a third of what painting a key's frame cost)
        self._line_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._line_style = None

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        style = self._line_style or self.rich_style
        index = scroll_y + y
        if index >= len(self.lines):
            return Strip.blank(width, style)
        line = self.lines[index]
        if index in self.marks:
            line = highlighted(line, self.marks[index])
        return line.crop_extend(scroll_x, scroll_x + width, style).apply_style(style)

    def set_marks(self, marks: dict[int, list[tuple[int, int, bool]]]) -> None:
        """Search matches to highlight: line -> (start, end, current) in the line's text."""
        if marks != self.marks:
            self.marks = marks
            self.refresh()

    def set_stale(self, stale: bool) -> None:
        self.set_class(stale, "-stale")
