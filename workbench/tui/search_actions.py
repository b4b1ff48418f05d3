"""The app's ``/`` search: what the keys do (``/``, n, N, esc), kept apart from the app itself.

``/`` asks for text and highlights every match in the panes, scrolled to the first; when
the panes on screen do not hold it, the next sample that does is found in a worker and
shown. ``n`` / ``N`` step through the matches and, past the last (or before the first), on
to the next (previous) sample that has the text; ``esc`` ends the search. Matching is in
:mod:`workbench.tui.search`.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.worker import get_current_worker

from ..core.errors import WorkbenchError
from ..views.frame import exact_text
from ..views.safe import one_line
from .messages import SearchDone
from .screens.ask import AskScreen
from .search import SEARCHED, Search
from .widgets.main.view_pane import ViewPane


class SearchKeys:
    """Mixed into the app: its search state and the actions the search keys run."""

    search: Search | None = None
    _last_search: str = ""
    _land_on_last = False  # after N moved to an earlier sample: its last match is current

    def action_search(self: Any) -> None:
        if self.good is None:
            self.bell()
            return

        def answer(value: str | None) -> None:
            if value:
                self.begin_search(value)

        self.push_screen(AskScreen("Search (every match is highlighted; n / N step, esc ends):", "text",
                                   value=self._last_search, blink=not self.config.deterministic), answer)

    def begin_search(self: Any, query: str) -> None:
        self._last_search = query
        self.search = Search(query)
        self.show_search()
        if not self.search.matches:  # not on screen: the next sample that has it
            self._find_sample(query, self.good, self.selection, 1)

    def action_match(self: Any, delta: int) -> None:
        search = self.search
        if search is None:
            return
        at = search.current + delta
        if search.matches and 0 <= at < len(search.matches):
            search.current = at
            self._mark_matches()
            return
        self._land_on_last = delta < 0
        self._find_sample(search.query, self.good, self.selection, delta)

    def action_end_search(self: Any) -> None:
        if self.search is None:
            return
        self.search = None
        for pane in self.query(ViewPane):
            pane.set_marks({})
        self._update_status()

    def check_action(self: Any, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("match", "end_search"):
            return self.search is not None  # otherwise N and esc do what they did
        return True

    def show_search(self: Any) -> None:
        """Find the search's matches in the panes on screen (after a frame is shown)."""
        search = self.search
        if search is None:
            return
        search.find({pane_id: self.query_one(f"#{pane_id}", ViewPane).lines for pane_id in SEARCHED})
        if self._land_on_last and search.matches:
            search.current = len(search.matches) - 1
        self._land_on_last = False
        self._mark_matches()

    def _mark_matches(self: Any) -> None:
        search = self.search
        for pane_id in SEARCHED:
            self.query_one(f"#{pane_id}", ViewPane).set_marks(search.marks(pane_id) if search else {})
        match = search.match if search else None
        if match is not None:
            pane = self.query_one(f"#{match.pane}", ViewPane)
            pane.scroll_to(y=max(0, match.line - 2), animate=False)
        self._update_status()

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, description="search")
    def _find_sample(self: Any, query: str, loaded: Any, selection: Any, direction: int) -> None:
        """The next (``direction`` 1) or previous (-1) sample whose requests hold ``query``."""
        catalog = loaded.catalog
        pair = catalog.pair(selection.dataset, selection.model) if catalog else None
        found = None
        if pair is not None:
            needle = query.casefold()
            count = len(pair)
            for step in range(1, count + 1):
                if get_current_worker().is_cancelled:
                    return
                index = (selection.sample + direction * step) % count
                try:
                    sample = pair.sample(index)
                except WorkbenchError:
                    continue
                if any(needle in exact_text(r).casefold() or needle in str(r.prompt_list).casefold()
                       for r in sample.requests):
                    found = index
                    break
        self.post_message(SearchDone(query, found, selection.dataset))

    def on_search_done(self: Any, message: SearchDone) -> None:
        if message.index is None:
            self.notify(f"no sample contains {one_line(message.query, 40)!r}", severity="warning")
            return
        if message.dataset == self.selection.dataset:
            index = message.index
            self._move(lambda c, s: c.jump(s, index, build=False))
