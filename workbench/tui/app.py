"""The workbench app: four panes over one RenderResult, reloaded live as configs are edited.

Data flows one way.  A thread worker loads and renders the workspace
(:func:`workbench.tui.session.load`); another builds the panes' renderables for the
current selection (:func:`workbench.views.frame.build_frame`); the UI thread only swaps
finished renderables in.  A watcher on the workspace's folders posts coalescing
:class:`FilesChanged` messages; each starts an exclusive load worker, and a generation
number makes sure the newest change wins.  A load with config errors never replaces
the last good render: it stays on screen, dimmed, under the error banner.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import asyncio
import io
import subprocess
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult, SuspendNotSupported, SystemCommand
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen, SystemModalScreen
from textual.widgets import Static, Tree
from textual.worker import get_current_worker

from ..core.memo import RoundCache
from ..core.render import RenderCache
from ..views.errors import error_banner
from ..views.frame import Frame, frame_panels
from ..views.options import LONG_TEXT, ViewOptions
from ..views.recording import svg_of
from ..views.safe import one_line
from ..views.selection import Selection
from ..views.template_tree import TreeNode, node_location_text, tree_view
from .collector import Collector
from .config import AppConfig
from .editor import editor_command
from .export_file import default_export_dir, export_name, export_target, write_atomic
from .jump_commands import JumpProvider
from .messages import FilesChanged, FrameReady, PairsChecked, WorkspaceLoaded
from .pair_check import PairCheck, check_pairs, failure_marks
from .prefetch import Built, FrameCache, FrameRequest, Prebuilt, frame_key, frame_lines, prefetch, step
from .screens.ask import AskScreen
from .screens.help import HelpScreen
from .screens.main import MainScreen
from .search_actions import SearchKeys
from .session import Inputs, Loaded, load, tree_of
from .themes import DEFAULT_THEME, bundled_themes_dir, load_themes, palette_for, user_themes_dir
from .watcher import Relevance, watch_changes
from .widgets.main.footer import WorkbenchFooter
from .widgets.main.template_tree import TemplateTree
from .widgets.main.view_pane import ViewPane, render_lines

PANES = ("tree", "prompt-list", "final-input", "timeline")
PREFETCH_AFTER = 0.04  # seconds after a frame is shown before the frames around it are built
#: seconds a watch of other folders runs beside the new one, which may not see changes at once
WATCH_OVERLAP = 1.0


#: what stays a key on every screen: the rest act on the main screen's panes
GLOBAL_ACTIONS = frozenset({"quit", "help", "next_theme", "command_palette"})


class WorkbenchApp(SearchKeys, App[int]):
    TITLE = "Prompt Workbench"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (140, "-wide")]
    ENABLE_COMMAND_PALETTE = True
    COMMANDS = App.COMMANDS | {JumpProvider}  # jump to a dataset, model, label or sample by name
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $panel; color: $text; padding: 0 1; }
    #body { height: 1fr; }
    #left { width: 30; }
    .-wide #left { width: 44; }
    #tree { height: 1fr; }
    #location { height: 1; color: $text-muted; padding: 0 1; }
    #right { width: 1fr; }
    #banner {
        display: none; height: auto; max-height: 9;
        border: round $error; border-title-color: $error; padding: 0 1;
    }
    #banner.-shown { display: block; }
    #panes { layout: grid; grid-size: 1 3; grid-rows: 1fr 1fr auto; }
    .-wide #panes { grid-size: 2 2; grid-columns: 1fr 1fr; grid-rows: 1fr auto; }
    .-wide #final-input { row-span: 2; }
    #timeline { height: auto; max-height: 7; }
    .-wide #timeline { max-height: 16; }
    Footer { background: $panel; }
    """

    BINDINGS: ClassVar[list[Binding]] = [
        Binding("n", "sample(1)", "next", tooltip="next sample"),
        Binding("p", "sample(-1)", "prev", tooltip="previous sample"),
        Binding("g", "jump", "jump", show=False, tooltip="jump to sample N"),
        Binding("slash", "search", "search", show=False,
                tooltip="search: every match highlighted; n / N step (on to other samples); esc ends"),
        Binding("N", "match(-1)", "prev match", show=False, tooltip="previous search match (after /)"),
        Binding("escape", "end_search", "end search", show=False, tooltip="end the search (after /)"),
        Binding("d", "dataset(1)", "dataset", tooltip="next dataset"),
        Binding("D", "dataset(-1)", "prev dataset", show=False, tooltip="previous dataset"),
        Binding("m", "model(1)", "model", tooltip="next model"),
        Binding("M", "model(-1)", "prev model", show=False, tooltip="previous model"),
        Binding("l", "request(1)", "label", show=False, tooltip="next label / turn (request) of the sample"),
        Binding("L", "request(-1)", "prev label", show=False, tooltip="previous label / turn"),
        Binding("w", "toggle_whitespace", "whitespace",
                tooltip="show whitespace: ↵ newline · trailing space → tab"),
        Binding("o", "toggle_provenance", "origins", show=False,
                tooltip="colour text by where it came from (template, row, example, meta)"),
        Binding("s", "toggle_side_by_side", "side by side", show=False,
                tooltip="every model's final input for this sample, side by side"),
        Binding("b", "toggle_wire", "wire", show=False,
                tooltip="an API model's request as sent: endpoint and JSON body"),
        Binding("v", "toggle_answers", "answers", show=False,
                tooltip="the model's answer a run recorded, what was extracted (the rule that matched, "
                "highlighted), the gold, the verdict and the judge's prompt, below the final input "
                "(--run RUN_DIR)"),
        Binding("V", "toggle_wrong_only", "wrong only", show=False,
                tooltip="n / p step through the samples the run scored wrong only (--run RUN_DIR)"),
        Binding("a", "toggle_long_texts", "all text", show=False,
                tooltip="show all of very long texts (they are cut to head and tail by default)"),
        Binding("c", "copy", "copy",
                tooltip="copy the final input to the clipboard (OSC 52: works over SSH)"),
        Binding("e", "edit", "edit", show=False,
                tooltip="open the selected node's file at its line in $EDITOR"),
        Binding("x", "export", "export", show=False,
                tooltip="export the screen as an SVG, as it is (asks where)"),
        Binding("X", "export(True)", "export in full", show=False,
                tooltip="export every pane in full as an SVG, as render --format svg draws it (asks where)"),
        Binding("z", "zoom", "zoom", show=False, tooltip="maximise the focused pane (again to restore)"),
        Binding("r", "reload", "reload", show=False, tooltip="reload now (forgets files that are gone)"),
        Binding("t", "next_theme", "theme", show=False, tooltip="next theme"),
        Binding("h", "lengths", "lengths", show=False,
                tooltip="how long the prompts are: a histogram per model, the suite's worst pairs"),
        Binding("k", "token_seams", "token seams", show=False,
                tooltip="tokens at this sample's seams: template/row, examples, labels"),
        Binding("1", "focus_pane('tree')", show=False),
        Binding("2", "focus_pane('prompt-list')", show=False),
        Binding("3", "focus_pane('final-input')", show=False),
        Binding("4", "focus_pane('timeline')", show=False),
        Binding("question_mark,f1", "help", "help", tooltip="this help"),
        Binding("q", "quit", "quit", tooltip="quit"),
    ]

    def __init__(self, config: AppConfig) -> None:
        super().__init__()
        self.config = config
        self.inputs = config.inputs
        self.selection = Selection()
        self.options = ViewOptions(root=self.inputs.root(), max_chars=LONG_TEXT)
        self.good: Loaded | None = None  # the last load without config errors
        self.latest: Loaded | None = None  # the newest load, good or not
        self.frame: Frame | None = None
        self.loads = 0  # finished loads, for tests and the status line
        self._render_cache = RenderCache()  # pairs a save did not touch are reused
        self._frames = FrameCache()  # frames one key away, built ahead (tui/prefetch.py)
        self._tree_memo: RoundCache = RoundCache()  # and so are their tree nodes
        self._generation = 0
        self._frame_token = 0
        self._pending_load = False
        self._pending_frame = False
        self._pending_check = False  # every pair being checked in the background (pair_check.py)
        self._prefetching = False
        self._last_key = 0.0  # when a key last moved the selection (background work waits a moment)
        self._collector = Collector()
        self.pair_check: PairCheck | None = None
        self.wrong_only = False  # n / p step through the samples the run scored wrong (V)
        self._known_files: set[Path] = set()
        self._absent_files: set[Path] = set()  # files whose creation would change the load
        self._watching: frozenset[Path] = frozenset()
        self._stop_watch: asyncio.Event | None = None
        self._relevance: Relevance | None = None  # what the running watch keeps
        self._retiring: set[asyncio.Event] = set()  # watches that stop once the new one runs
        self._lengths_memo: dict = {}  # finished length summaries of the current good load
        self._export_folder: Path | None = None  # where the last `x` wrote: the next one offers it
        if config.deterministic:
            self.animation_level = "none"
        folders = [bundled_themes_dir(), user_themes_dir(), *config.theme_dirs]
        self.workbench_themes, self.theme_problems = load_themes(folders)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The main screen's keys act on the panes: over the lengths (or help) screen they would
        # change what is hidden beneath, and their names crowded its footer off the edge. (The
        # command palette, a system screen, runs them for the main screen as it closes.)
        if action in MAIN_SCREEN_ACTIONS and not isinstance(self.screen, (MainScreen, SystemModalScreen)):
            return False
        return super().check_action(action, parameters)

    # -- layout ------------------------------------------------------------------------
    def get_default_screen(self) -> Screen:
        return MainScreen(id="_default")

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield TemplateTree(id="tree")
                yield Static(id="location")
            with Vertical(id="right"):
                yield Static(id="banner")
                with Container(id="panes"):
                    yield ViewPane("PromptList", Text("loading…", style="italic"), id="prompt-list")
                    yield ViewPane("Final input", id="final-input")
                    yield ViewPane("Timeline", id="timeline")
        yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        for theme in self.workbench_themes.values():
            self.register_theme(theme)
        wanted = self.config.theme or DEFAULT_THEME
        if wanted in self.available_themes:
            self.theme = wanted
        else:
            self.notify(f"no theme named {one_line(wanted, 40)}; using {DEFAULT_THEME}", severity="warning")
            self.theme = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self.options = replace(self.options, palette=palette_for(self.current_theme))
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        for problem in self.theme_problems:
            self.notify(f"{problem.file.name}: {one_line(problem.message, 120)}", title="theme skipped",
                        severity="warning")
        self.query_one("#tree").focus()
        self._update_status()
        # the first load's frame is built for the panes' widths, known once they are laid out
        # (built for a guess, it would be thrown away and built again: ~100 ms of a suite's start)
        self._pending_load = True
        self.call_after_refresh(self._first_load)
        self.set_interval(1.0, self._idle_tick)

    def _first_load(self) -> None:
        self._pending_load = False
        self.request_load()

    # -- loading -----------------------------------------------------------------------
    def request_load(self, forget_missing: bool = False) -> None:
        """Load again; the newest request wins (older workers' results are dropped)."""
        if forget_missing:
            self._known_files = set()
        if self._pending_check:  # its self-tests use the config worker the load needs
            self.workers.cancel_group(self, "check")  # (first: the cut self-test is not a mark)
        # the frames around the last one are of the pairs this load replaces (dropped when it
        # lands): built on, they would only take the interpreter from the load and its frame
        self.workers.cancel_group(self, "prefetch")
        if self._pending_load or self._pending_check:
            self._loader().cancel()  # the running load's result would be dropped anyway
        self._generation += 1
        self._pending_load = True
        if self.latest is None:  # "loading" shows only until the first load; later the status
            self._update_status()  # stays as it is, and a repaint would only slow the load
        # what the frame is built for, read here on the UI thread (widths come from widgets)
        view = FrameRequest(self.selection, self.options, self._pane_widths())
        # datasets the screen shows: one of them failing keeps the last good render (dimmed)
        shown = frozenset(d.abbr for d in self.good.datasets) if self.good is not None else frozenset()
        self._load(self._generation, frozenset(self._known_files), view, shown)

    def _loader(self):
        # lazy: the preload thread imports loading while Textual loads (commands/open.py)
        from ..loading.workspace import shared_loader

        return self.config.loader or shared_loader()

    @work(thread=True, exclusive=True, group="load", exit_on_error=False, description="load")
    def _load(self, generation: int, known: frozenset[Path], view: FrameRequest,
              shown: frozenset[str] = frozenset()) -> None:
        preload = self.config.preload
        if generation == 1 and preload is not None:
            loaded = replace(preload.result(), generation=generation)
            if loaded.catalog is not None:  # the tree's labels in this theme's colours
                loaded = replace(loaded, tree=tree_of(loaded, view.options, self._tree_memo))
        else:
            loaded = load(self.inputs, generation, view.options, known, loader=self._loader(),
                          cache=self._render_cache, tree_memo=self._tree_memo, shown=shown)
        worker = get_current_worker()
        if worker.is_cancelled:
            return
        self.post_message(WorkspaceLoaded(loaded, _prebuild(loaded, view, worker)))

    def _pane_widths(self) -> dict[str | None, int]:
        return {pane.id: pane.text_width or self.size.width // 2 for pane in self.query(ViewPane)}

    @on(WorkspaceLoaded)
    def _loaded(self, message: WorkspaceLoaded) -> None:
        loaded = message.loaded
        if loaded.generation != self._generation:
            return  # a newer change is already being loaded
        self._pending_load = False
        self.loads += 1
        self.latest = loaded
        self._known_files |= set(loaded.files)
        self._absent_files = set(loaded.absent) - self._known_files
        prebuilt = message.prebuilt
        if loaded.ok:
            if self.good is None or self.good.catalog is not loaded.catalog:
                self._frames.clear()  # built from the last load's pairs
            self.good = loaded
            self._lengths_reloaded(loaded)
            if prebuilt is not None and prebuilt.view != FrameRequest(self.selection, self.options,
                                                                     self._pane_widths()):
                prebuilt = None  # the user moved, or a pane resized, while it was built
            self.selection = loaded.catalog.normalize(self.selection) if loaded.catalog else self.selection
            self.query_one(TemplateTree).load(loaded.tree, self._selected_keys())
        else:
            prebuilt = None
        self._show_problems()
        self._restart_watcher()
        if prebuilt is not None:
            self._frame_token += 1
            self._show_frame(prebuilt.frame, prebuilt.lines)
        else:
            self.request_frame()
        # a load that fails checks again what is still shown: its check was cut when the load began
        checked = loaded if loaded.ok else self.good if self._pending_check else None
        if checked is not None and checked.catalog is not None and checked.catalog.lazy is not None:
            self._pending_check = True
            # once the frame is painted: a thread rendering every pair beside the paint would
            # hold the interpreter lock the paint needs (~140 ms of a suite's first sample)
            self.call_after_refresh(self._check_all, checked.catalog)

    def _show_problems(self) -> None:
        latest = self.latest
        banner = self.query_one("#banner", Static)
        stale = latest is not None and not latest.ok and self.good is not None
        problems = list(latest.problems) if latest is not None else []
        if problems:
            banner.update(error_banner(problems, self.options, stale=stale))
            banner.border_title = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        banner.set_class(bool(problems), "-shown")
        for pane in self.query(ViewPane):
            pane.set_stale(stale)
        self.query_one(TemplateTree).set_class(stale, "-stale")

    # -- watching ----------------------------------------------------------------------
    def _restart_watcher(self) -> None:
        """Watch every file the workspace was built from, and the absent ones whose creation
        would change it (a workbench.toml beside a config, a model's chat template).

        A watch of the same folders is told the new files and goes on; a watch of other
        folders starts beside the old one, which stops a moment later: a save while a watch
        starts (a truncated config's failed load changes the files, and the write that follows
        comes at once) is seen by one of them, never lost."""
        if not self.config.watch:
            return
        files = frozenset(self._known_files | self._absent_files)
        if files == self._watching:
            return
        self._watching = files
        if self._relevance is not None and self._relevance.update(files):
            return
        old = self._stop_watch
        if old is not None:
            self._retiring.add(old)
            self.set_timer(WATCH_OVERLAP, partial(self._retire, old))
        self._stop_watch = asyncio.Event()
        self._relevance = Relevance(files)
        self._watch(self._relevance, self._stop_watch)

    def _retire(self, stop: asyncio.Event) -> None:
        stop.set()
        self._retiring.discard(stop)

    @work(group="watch", exit_on_error=False, description="watch")
    async def _watch(self, relevance: Relevance, stop: asyncio.Event) -> None:
        async for changed in watch_changes(relevance, stop, force_polling=self.config.force_polling):
            self.post_message(FilesChanged(changed))

    @on(FilesChanged)
    def _files_changed(self, message: FilesChanged) -> None:
        self.request_load()

    def on_unmount(self) -> None:
        for stop in (self._stop_watch, *self._retiring):
            if stop is not None:
                stop.set()

    # -- the panes ---------------------------------------------------------------------
    def request_frame(self) -> None:
        if self.good is None or self.good.catalog is None:
            self._show_nothing()
            return
        self._frame_token += 1
        self._pending_frame = True
        self._build_frame(self._frame_token, self.good, self.selection, self.options, self._pane_widths())

    @work(thread=True, exclusive=True, group="frame", exit_on_error=False, description="frame")
    def _build_frame(self, token: int, loaded: Loaded, selection: Selection, opts: ViewOptions,
                     widths: dict[str | None, int]) -> None:
        worker = get_current_worker()
        catalog = loaded.catalog
        assert catalog is not None  # request_frame builds frames for good loads only
        built = frame_lines(catalog, selection, opts, widths, lambda: worker.is_cancelled, render_lines)
        if built is not None and not worker.is_cancelled:
            self._frames.put(frame_key(built[0].selection, opts, widths), Built(catalog, *built))
            self.post_message(FrameReady(token, *built))

    def _prefetch_around(self, frame: Frame) -> None:
        if self.good is None or self.good.catalog is None or self._pending_load:
            return  # (a load in flight replaces the pairs these frames would be built from)
        self._prefetch(self.good.catalog, frame, self.options, self._pane_widths())

    @work(thread=True, exclusive=True, group="prefetch", exit_on_error=False, description="prefetch")
    def _prefetch(self, catalog, frame: Frame, opts: ViewOptions, widths: dict[str | None, int]) -> None:
        worker = get_current_worker()
        self._prefetching = True
        try:
            if prefetch(catalog, frame, opts, widths, self._frames, lambda: worker.is_cancelled,
                        render_lines):
                self._collector.keep()  # frames built to be kept a while
        finally:
            self._prefetching = False

    def _idle_tick(self) -> None:
        if not self._busy and self._collector.due(self._last_key):
            self._collector.start()
            self._collect_idle()

    @work(thread=True, exclusive=True, group="collect", exit_on_error=False, description="collect")
    def _collect_idle(self) -> None:
        self._collector.collect()

    @work(thread=True, exclusive=True, group="check", exit_on_error=False, description="check pairs")
    def _check_all(self, catalog) -> None:
        worker = get_current_worker()

        def give_way() -> None:  # what the reader is waiting for comes first
            time.sleep(0.001)
            while not worker.is_cancelled and (self._busy or time.monotonic() - self._last_key < 0.5):
                time.sleep(0.01)

        check = check_pairs(catalog.lazy, lambda: worker.is_cancelled, give_way, self._loader())
        if check is not None and not worker.is_cancelled:
            self._collector.keep()  # the pairs live until the next load (tui/collector.py)
            self.post_message(PairsChecked(catalog, check))

    @on(PairsChecked)
    def _pairs_checked(self, message: PairsChecked) -> None:
        catalog = self.good.catalog if self.good is not None else None
        if catalog is None or message.catalog is not catalog:
            return  # a newer load is being checked
        self._pending_check = False
        self.pair_check = message.check
        catalog.warning_places = message.check.places()
        self.query_one(TemplateTree).set_marks(failure_marks(message.check, self.options))
        self._frames.clear()  # frames built before said less about their warnings
        self.request_frame()

    @on(ViewPane.Resized)
    def _pane_resized(self) -> None:
        self.request_frame()

    @on(FrameReady)
    def _frame_ready(self, message: FrameReady) -> None:
        if message.token != self._frame_token:
            return
        self._show_frame(message.frame, message.lines)

    def _show_frame(self, frame: Frame, lines: dict) -> None:
        self._pending_frame = False
        # another sample (model, dataset...) brings the part that changed into view; a reload
        # of the same one keeps each pane where it was
        follow = self.frame is not None and self.frame.selection != frame.selection
        self.frame = frame
        # the frames one key away are built once this one is painted (a worker painting beside
        # the UI thread would double the paint's time)
        self.set_timer(PREFETCH_AFTER, lambda: self._prefetch_around(frame))
        self.call_after_refresh(self.show_search)
        self.selection = frame.selection
        with self.batch_update():
            self.query_one("#prompt-list", ViewPane).show(frame.prompt_list, frame.prompt_list_title,
                                                          lines["prompt-list"], follow)
            self.query_one("#final-input", ViewPane).show(frame.final_input, frame.final_input_title,
                                                          lines["final-input"], follow)
            self.query_one("#timeline", ViewPane).show(frame.timeline, frame.timeline_title,
                                                       lines["timeline"], follow)
            self.query_one(TemplateTree).mark_selected(self._selected_keys())
            self._update_status()

    def _show_nothing(self) -> None:
        """Before any good load: the problems say why the panes are empty."""
        latest = self.latest
        if latest is None:
            return
        note = Text("nothing rendered yet: fix the problem above and save", style="italic")
        for pane_id, title in (("#prompt-list", "PromptList"), ("#final-input", "Final input"),
                               ("#timeline", "Timeline")):
            pane = self.query_one(pane_id, ViewPane)
            shown = note if pane_id == "#prompt-list" else Text("")
            pane.show(shown, title, render_lines(shown, pane.text_width or 40))
        self._update_status()

    def _selected_keys(self) -> list[tuple[str, str]]:
        keys = []
        if self.selection.dataset is not None:
            keys.append(("dataset", self.selection.dataset))
        if self.selection.model is not None:
            keys.append(("model", self.selection.model))
        return keys

    def _update_status(self) -> None:
        sel, frame = self.selection, self.frame
        left = Text()
        left.append("Prompt Workbench", style="bold")
        if sel.dataset is not None:
            left.append(f"  {one_line(sel.dataset, 40)}", style="bold")
            left.append(" × ")
            left.append(one_line(sel.model or "(no model)", 40), style="bold")
            if frame is not None and frame.samples:
                left.append(f"  sample {sel.sample} ({sel.sample + 1}/{frame.samples})")
                if frame.requests > 1:
                    left.append(f"  request {sel.request + 1}/{frame.requests}")
        flags = []
        if self.options.whitespace:
            flags.append("ws")
        if not self.options.provenance:
            flags.append("no origins")
        if self.options.side_by_side:
            flags.append("side by side")
        if self.options.max_chars is None:
            flags.append("all text")
        if self.search is not None:
            flags.append(one_line(self.search.describe(), 50))
        if self.wrong_only:
            flags.append("wrong only")
        right = Text(" ".join(flags) + ("  " if flags else ""))
        latest = self.latest
        if self._pending_load and latest is None:
            right.append("◌ loading", style="italic")
        elif latest is not None and not latest.ok:
            right.append("✖ error", style="bold red")
        elif not self.config.watch:
            right.append("○ not watching")
        else:
            right.append("● live")
        grid = Table.grid(expand=True, padding=(0, 1))  # a cut left side keeps a space before the right
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(no_wrap=True, justify="right")
        grid.add_row(left, right)
        self.query_one("#status", Static).update(grid, layout=False)  # one line, always: no reflow

    @property
    def _busy(self) -> bool:
        """Work the reader is waiting for is running (background work gives way to it)."""
        return self._pending_frame or self._pending_load or self._prefetching

    @property
    def is_settled(self) -> bool:
        """No load or frame in flight, and every pane wrapped at its width (tests wait for this
        before looking)."""
        return (not self._pending_load and not self._pending_frame and not self._pending_check
                and all(pane.wrapped for pane in self.query(ViewPane)))

    # -- selection actions ---------------------------------------------------------------
    def _move(self, how) -> None:
        """Select ``how(catalog, selection)``: a frame built ahead is shown at once, else one
        is built (the UI thread never renders; ``how`` must not build pairs here)."""
        if self.good is None or self.good.catalog is None:
            return
        self._last_key = time.monotonic()
        self.workers.cancel_group(self, "prefetch")  # the key's own frame comes first
        catalog = self.good.catalog
        self.selection = how(catalog, self.selection)
        ready = self._frames.get(catalog, frame_key(self.selection, self.options, self._pane_widths()))
        if ready is not None:
            self._frame_token += 1  # a frame still being built for an older key is dropped
            self._show_frame(ready.frame, ready.lines)
            return
        self.request_frame()

    def jump_to(self, dataset: str | None = None, model: str | None = None, sample: int | None = None,
                request: int | None = None) -> None:
        """Show what was named (the command palette's jumps)."""
        changes: dict = {}
        if dataset is not None:
            changes.update(dataset=dataset, request=0)
        if model is not None:
            changes["model"] = model
        if sample is not None:
            changes.update(sample=sample, request=0)
        if request is not None:
            changes["request"] = request
        self._move(lambda c, s: c.normalize(replace(s, **changes), build=False))

    def _step(self, how: str, delta: int) -> None:
        count = self.frame.requests if self.frame is not None else 0
        self._move(lambda c, s: step(c, s, how, delta, count, build=False))

    def action_sample(self, delta: int) -> None:
        if self.search is not None and delta > 0:  # while searching, n steps through the matches
            self.action_match(1)
            return
        if self.wrong_only:
            self._step_wrong(delta)
            return
        self._step("sample", delta)

    def _wrong_samples(self) -> list[int] | None:
        """The selected pair's samples the run scored wrong (None: no verdicts to filter by)."""
        catalog = self.good.catalog if self.good is not None else None
        answers = catalog.answers if catalog is not None else None
        pair = answers.of(self.selection.dataset, self.selection.model) if answers is not None else None
        return pair.wrong() if pair is not None and pair.samples else None

    def _step_wrong(self, delta: int) -> None:
        scored = self._wrong_samples() or []
        samples = self.frame.samples if self.frame is not None else 0
        wrong = [i for i in scored if i < samples]  # the run may hold more samples than the rows shown
        here = self.selection.sample
        ahead = [i for i in wrong if i > here] if delta > 0 else [i for i in reversed(wrong) if i < here]
        if not ahead:
            self.bell()
            beyond = len(scored) - len(wrong)
            more = f"; {beyond} more past the {samples} rows shown" if beyond else ""
            self.notify(f"no wrong answer {'after' if delta > 0 else 'before'} sample {here} "
                        f"({len(scored)} wrong in this pair{more})", timeout=3)
            return
        target = ahead[0]
        self._move(lambda c, s: c.jump(s, target, build=False))

    def action_toggle_wrong_only(self) -> None:
        wrong = self._wrong_samples()
        if not self.wrong_only and wrong is None:
            self.bell()
            self.notify("no verdicts for this pair: start the app with --run RUN_DIR (a plain evaluator "
                        "scores it)", timeout=4)
            return
        self.wrong_only = not self.wrong_only
        if self.wrong_only:
            self._set_options(answers=True)
            self.notify(f"n / p: the {len(wrong or [])} wrong answers only (V again: every sample)",
                        timeout=3)
        else:
            self._update_status()

    def action_dataset(self, delta: int) -> None:
        self._step("dataset", delta)

    def action_model(self, delta: int) -> None:
        self._step("model", delta)

    def action_request(self, delta: int) -> None:
        self._step("request", delta)

    def action_jump(self) -> None:
        samples = self.frame.samples if self.frame is not None else 0
        if not samples:
            self.bell()
            return

        def answer(value: str | None) -> None:
            if value is None or not value.strip():
                return
            try:
                index = int(value.strip())
            except ValueError:
                self.notify(f"not a sample number: {one_line(value, 40)}", severity="error")
                return
            if not 0 <= index < samples:
                self.notify(f"samples are numbered 0 to {samples - 1}", severity="error")
                return
            self._move(lambda c, s: c.jump(s, index, build=False))

        self.push_screen(AskScreen(f"Jump to sample (0–{samples - 1}):", "a sample number",
                                   blink=not self.config.deterministic), answer)

    # -- view toggles ---------------------------------------------------------------------
    def _set_options(self, **changes) -> None:
        self.options = replace(self.options, **changes)
        self._update_status()
        self.request_frame()

    def action_toggle_whitespace(self) -> None:
        self._set_options(whitespace=not self.options.whitespace)

    def action_toggle_provenance(self) -> None:
        self._set_options(provenance=not self.options.provenance)

    def action_toggle_long_texts(self) -> None:
        self._set_options(max_chars=None if self.options.max_chars else LONG_TEXT)

    def action_toggle_answers(self) -> None:
        if not self.inputs.run and not self.options.answers:  # the answers would all be missing
            self.notify("no run loaded: start the app with --run RUN_DIR (an OpenCompass run's "
                        "folder, e.g. outputs/default/20241124_120000) to see its recorded answers "
                        "under the final input", title="v: the run's answers", severity="warning",
                        timeout=8)
            return
        self._set_options(answers=not self.options.answers)

    def action_toggle_wire(self) -> None:
        self._set_options(wire=not self.options.wire)

    def action_toggle_side_by_side(self) -> None:
        self._set_options(side_by_side=not self.options.side_by_side)

    def _theme_changed(self, theme) -> None:
        self.options = replace(self.options, palette=palette_for(theme))
        if self.good is not None and self.good.catalog is not None:
            nodes = tree_of(self.good, self.options, self._tree_memo)
            self.good = replace(self.good, tree=nodes)
            self.query_one(TemplateTree).load(nodes, self._selected_keys())
            if self.pair_check is not None:
                self.query_one(TemplateTree).set_marks(failure_marks(self.pair_check, self.options))
        self._show_problems()
        self.request_frame()

    def action_next_theme(self) -> None:
        names = sorted(self.workbench_themes) or sorted(self.available_themes)
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        self.notify(f"theme: {self.theme}")

    # -- actions on the selection ---------------------------------------------------------------
    def action_copy(self) -> None:
        text = self.frame.final_text if self.frame is not None else None
        if text is None:
            self.bell()
            return
        self.copy_to_clipboard(text)
        self.notify(f"copied the final input ({len(text):,} chars) to the clipboard")

    def _edit_target(self) -> tuple[str, int | None] | None:
        tree = self.query_one(TemplateTree)
        node = tree.cursor_node.data if tree.cursor_node is not None else None
        if node is not None and node.location is not None and node.location.file:
            return node.location.file, node.location.line
        catalog = self.good.catalog if self.good is not None else None
        pair = catalog.pair(self.selection.dataset, self.selection.model) if catalog else None
        if pair is not None and pair.dataset.source.file:
            return pair.dataset.source.file, pair.dataset.source.line
        if self.latest is not None:
            for problem in self.latest.problems:
                if problem.file:
                    return problem.file, problem.line
        return None

    def action_edit(self) -> None:
        if self.is_web:  # served: an editor would open on the server, not in the browser
            self.notify("in a browser, edit the config on the server: the page follows every save",
                        severity="warning")
            return
        target = self._edit_target()
        if target is None:
            self.notify("nothing to edit: no source location", severity="warning")
            return
        command = editor_command(*target)
        try:
            try:
                with self.suspend():
                    subprocess.run(command, check=False)
            except SuspendNotSupported:
                subprocess.run(command, check=False, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as exc:
            self.notify(f"cannot start the editor {one_line(command[0], 40)}: {exc}", severity="error")
            return
        self.request_load()

    def action_export(self, full: bool = False) -> None:
        """Ask where to write an SVG (by default outside the working tree): the screen as it is
        now, or with ``full`` every pane in full, as ``render --format svg`` draws them."""
        if self.frame is None:
            self.bell()
            return
        frame = self.frame
        name = export_name(frame.selection, full)
        title = f"Prompt Workbench · {one_line(frame.heading)}"
        if full:
            tree = self.good.tree if self.good else ()
            make = partial(self._full_svg, frame, tuple(tree), self.options, self.size.width, title)
        else:  # taken now: the question about to cover the screen is not part of it
            shot = self.export_screenshot(title=title)
            make = partial(str, shot)
        if self.is_web:  # served: the browser downloads it under this name, nothing to ask
            self._export(make, Path(name))
            return
        folder = self._export_folder or self.config.export_dir or default_export_dir()

        def answer(value: str | None) -> None:
            if value is None or not value.strip():
                return
            target = export_target(value, Path.cwd(), name)
            self._export_folder = target.parent
            self._export(make, target)

        what = "every pane in full" if full else "the screen"
        self.push_screen(AskScreen(f"Export {what} as SVG to (Enter writes, Escape cancels):", "a file path",
                                   value=str(folder / name), blink=not self.config.deterministic), answer)

    def _full_svg(self, frame: Frame, tree: tuple[TreeNode, ...], opts: ViewOptions, width: int,
                  title: str) -> str:
        banner = None
        if self.latest is not None and self.latest.problems:
            banner = error_banner(list(self.latest.problems), opts, stale=not self.latest.ok)
        panels = frame_panels(frame, tree_view(tree, opts, self._selected_keys(), titled=False), opts, banner)
        return svg_of([panels], max(width, 60), title)

    @work(thread=True, group="export", exit_on_error=False, description="export")
    def _export(self, make: Callable[[], str], target: Path) -> None:
        svg = make()
        if self.is_web:  # served: the browser downloads it (the server's disk is not the user's)
            self.call_from_thread(self.deliver_text, io.StringIO(svg), save_filename=target.name,
                                  mime_type="image/svg+xml")
            return
        try:
            write_atomic(target, svg)
        except OSError as exc:
            self.call_from_thread(self.notify, f"export failed: {one_line(str(exc), 200)}", severity="error")
            return
        self.call_from_thread(self.notify, f"exported {one_line(str(target), 200)}")

    # -- lengths ----------------------------------------------------------------------------------
    def action_lengths(self) -> None:
        if self.good is None or self.good.catalog is None:
            self.bell()
            return
        from .screens.lengths import LengthsScreen  # lazy: plotext loads when the screen first opens

        def jump(target: Selection | None) -> None:
            if target is not None:
                self._move(lambda c, s: c.normalize(target))

        self.push_screen(LengthsScreen(self.good, self.selection, self.options.palette, self._lengths_memo),
                         jump)

    # -- token seams ------------------------------------------------------------------------------
    def action_token_seams(self) -> None:
        """The token seams of the sample on screen, in a screen of their own (esc closes it)."""
        catalog = self.good.catalog if self.good is not None else None
        sel = self.selection
        pair = catalog.pair(sel.dataset, sel.model) if catalog is not None else None
        if catalog is None or pair is None or not len(pair):
            self.bell()
            return
        # lazy: the token seams load when the screen first opens
        from ..core.errors import RenderError
        from ..views.token_seams import sample_lines
        from .screens.token_seams import TokenSeamsScreen

        try:
            sample = catalog.sample(pair, sel.sample)
        except RenderError as exc:
            self.notify(f"no token seams: {one_line(exc.message, 200)}", severity="error")
            return
        names = f"{one_line(pair.dataset_abbr)} × {one_line(pair.model_abbr or 'no model')}"
        title = f"Token seams · {names} · sample {sel.sample}"
        self.push_screen(TokenSeamsScreen(title, sample_lines(pair, sample)))

    def _lengths_reloaded(self, loaded: Loaded) -> None:
        """A new good load: the lengths measured so far are of the old one."""
        self._lengths_memo.clear()
        for screen in self.screen_stack:
            if hasattr(screen, "reload_lengths"):
                screen.reload_lengths(loaded)

    # -- focus, zoom, help, reload ------------------------------------------------------------
    def action_focus_pane(self, pane: str) -> None:
        self.query_one(f"#{pane}").focus()

    def action_zoom(self) -> None:
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
        elif screen.focused is not None:
            screen.maximize(screen.focused, container=False)

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.BINDINGS))

    def action_reload(self) -> None:
        self.request_load(forget_missing=True)

    @on(Tree.NodeHighlighted)
    def _node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        node = event.node.data
        location = self.query_one("#location", Static)
        if isinstance(node, TreeNode):
            # one line of fixed height: new text lays nothing out (a layout here repainted the
            # whole screen after every d and m, whose cursor the tree moves)
            location.update(node_location_text(node, self.options), layout=False)

    @on(Tree.NodeSelected)
    def _node_selected(self, event: Tree.NodeSelected) -> None:
        node = event.node.data
        if not isinstance(node, TreeNode) or node.selects is None:
            return
        what, abbr = node.selects
        if what == "dataset" and abbr != self.selection.dataset:
            self._move(lambda c, s: c.normalize(replace(s, dataset=abbr, request=0), build=False))
        elif what == "model" and abbr != self.selection.model:
            self._move(lambda c, s: c.normalize(replace(s, model=abbr), build=False))

    # -- the command palette ---------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for binding in self.BINDINGS:
            if not binding.description or binding.action in ("quit", "help"):
                continue
            title = (binding.tooltip or binding.description)
            title = title[0].upper() + title[1:]
            yield SystemCommand(f"{title}  [{binding.key}]", f"key: {binding.key}",
                                lambda action=binding.action: self.run_action(action))
        yield SystemCommand("Help  [?]", "every key", self.action_help)
        for name in sorted(self.workbench_themes):
            yield SystemCommand(f"Theme: {name}", "switch to this theme",
                                lambda name=name: setattr(self, "theme", name))


def _prebuild(loaded: Loaded, view: FrameRequest, worker) -> Prebuilt | None:
    """The frame for a load, built in the load worker right away (saves a trip through the UI
    thread and a second worker on every save); None when there is nothing to show."""
    if not loaded.ok or loaded.catalog is None:
        return None
    try:
        built = frame_lines(loaded.catalog, loaded.catalog.normalize(view.selection), view.options,
                            view.widths, lambda: worker.is_cancelled, render_lines)
    except Exception:  # shown the usual way instead (its errors surface there)
        return None
    return Prebuilt(view, *built) if built is not None else None


def create_app(inputs: Inputs, **settings) -> WorkbenchApp:
    """The app for these inputs: the CLI and the tests both start here."""
    return WorkbenchApp(AppConfig(inputs=inputs, **settings))


MAIN_SCREEN_ACTIONS = frozenset(binding.action.partition("(")[0] for binding in WorkbenchApp.BINDINGS) \
    - GLOBAL_ACTIONS
