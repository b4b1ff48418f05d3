"""The lengths screen: how long the selected dataset's prompts are, per model, and the suite's worst pairs.

A thread worker measures every pair (the dataset on screen first) a chunk of samples at a
time and posts each partial summary; the histograms and the table fill in as they come.
Enter on a bar closes the screen on the longest sample in it.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, ProgressBar, Static
from textual.worker import get_current_worker

from ...core.lengths import PairLengths, by_share_truncated
from ...views.lengths import SUITE_COLUMNS, failure_lines, group_title, groups_of, suite_row, summary_text
from ...views.lengths_plot import legend
from ...views.palette import DEFAULT_PALETTE, Palette
from ...views.selection import Selection
from ..lengths_jobs import Key, plan_jobs, run_jobs
from ..messages import Measured, MeasuringDone
from ..widgets.lengths.lengths_plot import LengthsPlot


class LengthsScreen(Screen[Selection | None]):
    DEFAULT_CSS = """
    LengthsScreen { layout: vertical; }
    #lengths-head { height: 1; background: $panel; padding: 0 1; }
    #lengths-progress { height: 1; padding: 0 1; }
    #lengths-progress.-done { display: none; }
    #lengths-plots { height: 2fr; }
    .lengths-summary { height: auto; padding: 0 1 1 1; }
    #lengths-suite { height: 1fr; border: round $panel-lighten-2; border-title-color: $text-muted; }
    #lengths-suite:focus { border: round $primary; }
    """
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("escape,h", "close", "back", tooltip="back to the prompts"),
        Binding("left", "bar(-1)", "bar", show=False, tooltip="previous bar"),
        Binding("right", "bar(1)", "bar", show=False, tooltip="next bar"),
        Binding("enter", "jump", "longest sample", tooltip="jump to the longest sample in the selected bar"),
        Binding("l", "group(1)", "turn/label", tooltip="next distribution: per turn or per label"),
        Binding("L", "group(-1)", "prev turn/label", show=False),
        Binding("d", "dataset(1)", "dataset", tooltip="next dataset"),
        Binding("D", "dataset(-1)", "prev dataset", show=False),
    ]

    def __init__(self, loaded: Any, selection: Selection, palette: Palette = DEFAULT_PALETTE,
                 memo: dict[Key, PairLengths] | None = None) -> None:
        super().__init__()
        self.loaded = loaded
        self.dataset = selection.dataset
        self.palette = palette
        self.summaries: dict[Key, PairLengths] = memo if memo is not None else {}
        self.group: tuple[str, str] | None = None
        self.generation = 0
        self.measuring = False
        self.plots: dict[str | None, tuple[LengthsPlot, Static]] = {}  # the dataset's models, in order

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="lengths-head")
        yield ProgressBar(id="lengths-progress", show_eta=False)
        yield VerticalScroll(id="lengths-plots")
        table: DataTable = DataTable(id="lengths-suite", cursor_type="row", zebra_stripes=True)
        table.border_title = "Suite · worst first by share truncated (enter: show that dataset)"
        yield table
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*SUITE_COLUMNS)
        self._build_plots()
        self.start()

    @property
    def catalog(self) -> Any:
        return self.loaded.catalog

    def models(self) -> list[str | None]:
        return self.catalog.models_for(self.dataset) if self.catalog is not None else []

    def _build_plots(self) -> None:
        box = self.query_one("#lengths-plots", VerticalScroll)
        box.remove_children()  # the old widgets go when Textual gets to it: no ids to clash with
        self.plots = {}
        widgets: list[Any] = []
        for model in self.models():
            plot = LengthsPlot((self.dataset or "", model))
            words = Static(Text("waiting…", style="italic"), classes="lengths-summary")
            self.plots[model] = (plot, words)
            widgets += [plot, words]
        box.mount_all(widgets)
        self.call_after_refresh(self._focus_first_plot)
        for key, summary in self.summaries.items():
            if key[0] == self.dataset:
                self._show(key, summary)
        self._update_head()

    def _focus_first_plot(self) -> None:
        if self.plots:
            next(iter(self.plots.values()))[0].focus()

    def _update_head(self) -> None:
        head = Text()
        head.append("Lengths · ", style="bold")
        head.append(self.dataset or "(no dataset)", style="bold")
        head.append(f" · {group_title(self.group)}")
        head.append(" · tokens of what each model gets", style=self.palette.faint)
        self.query_one("#lengths-head", Static).update(head)

    # -- measuring ------------------------------------------------------------------------------
    def start(self) -> None:
        """Measure every pair not measured yet (the dataset on screen first)."""
        self.generation += 1
        done = {k for k, s in self.summaries.items() if s.done}
        jobs = plan_jobs(self.catalog, self.loaded.datasets, self.loaded.models, self.dataset,
                         skip=lambda key: key in done) if self.catalog is not None else []
        progress = self.query_one(ProgressBar)
        total = sum(job.total for job in jobs)
        progress.update(total=max(total, 1), progress=0)
        progress.set_class(not jobs, "-done")
        self.measuring = bool(jobs)
        self._refresh_table()
        if jobs:
            self._measure(self.generation, jobs)

    @work(thread=True, exclusive=True, group="lengths", exit_on_error=False)
    def _measure(self, generation: int, jobs: list) -> None:
        worker = get_current_worker()
        done = 0
        seen: dict[Key, int] = {}
        for key, summary in run_jobs(jobs, lambda: worker.is_cancelled):
            done += summary.handled - seen.get(key, 0)
            seen[key] = summary.handled
            self.post_message(Measured(generation, key, summary, done))
        if not worker.is_cancelled:
            self.post_message(MeasuringDone(generation))

    @on(Measured)
    def _measured(self, message: Measured) -> None:
        if message.generation != self.generation:
            return
        self.query_one(ProgressBar).update(progress=message.done)
        self.summaries[message.key] = message.summary
        if message.key[0] == self.dataset:
            self._show(message.key, message.summary)
        if message.summary.done:  # a row a pair, when it is complete (a big suite has thousands of chunks)
            self._refresh_table()

    @on(MeasuringDone)
    def _done(self, message: MeasuringDone) -> None:
        if message.generation == self.generation:
            self.measuring = False
            self.query_one(ProgressBar).add_class("-done")
            self._refresh_table()

    def reload_lengths(self, loaded: Any) -> None:
        """A new good load: measure it afresh (the memo the app passed is already cleared)."""
        self.workers.cancel_group(self, "lengths")
        self.loaded = loaded
        self.summaries.clear()
        datasets = self.catalog.datasets if self.catalog is not None else []
        if self.dataset not in datasets:
            self.dataset = datasets[0] if datasets else None
        self._build_plots()
        self.start()

    @property
    def is_settled(self) -> bool:
        """Every pair measured (tests wait for this)."""
        return not self.measuring

    # -- drawing -------------------------------------------------------------------------------
    def _show(self, key: Key, summary: PairLengths) -> None:
        if key[0] != self.dataset or key[1] not in self.plots:
            return
        plot, words = self.plots[key[1]]
        distribution = summary.group(self.group)
        plot.show(summary, distribution, self.palette)
        lines = Text()
        lines.append_text(legend(distribution[1], summary.max_seq_len, self.palette))
        lines.append("\n")
        lines.append_text(summary_text(summary, distribution[1], self.palette))
        for failure in failure_lines(summary):
            lines.append("\n")
            lines.append(f"✖ {failure}", style=self.palette.error)
        words.update(lines)

    def _refresh_table(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for item in by_share_truncated(self.summaries.values()):
            table.add_row(*suite_row(item), key=f"{item.dataset}\x00{item.model or ''}")

    # -- actions -------------------------------------------------------------------------------
    def _plot(self) -> LengthsPlot | None:
        focused = self.focused
        return focused if isinstance(focused, LengthsPlot) else None

    def action_bar(self, delta: int) -> None:
        plot = self._plot()
        if plot is None or not plot.move(delta):
            self.app.bell()

    def action_jump(self) -> None:
        plot = self._plot()
        chosen = plot.chosen() if plot is not None else None
        if plot is None or chosen is None:
            self.app.bell()
            return
        _, point = chosen
        dataset, model = plot.key
        self.workers.cancel_group(self, "lengths")
        self.dismiss(Selection(dataset, model, point.index, point.request))

    def action_close(self) -> None:
        self.workers.cancel_group(self, "lengths")
        self.dismiss(None)

    def action_group(self, delta: int) -> None:
        options: list[tuple[str, str] | None] = [None]
        for key in [k for k in self.summaries if k[0] == self.dataset]:
            for group in groups_of(self.summaries[key])[1:]:
                if group not in options:
                    options.append(group)
        if len(options) == 1:
            self.notify("one request a sample here: no turns or labels to pick from")
            return
        i = options.index(self.group) if self.group in options else 0
        self.group = options[(i + delta) % len(options)]
        self._update_head()
        for key, summary in self.summaries.items():
            if key[0] == self.dataset:
                self._show(key, summary)

    def action_dataset(self, delta: int) -> None:
        datasets = self.catalog.datasets if self.catalog is not None else []
        if not datasets:
            return
        i = datasets.index(self.dataset) if self.dataset in datasets else 0
        self.show_dataset(datasets[(i + delta) % len(datasets)])

    def show_dataset(self, dataset: str) -> None:
        self.dataset = dataset
        self.group = None
        self._build_plots()
        if self.measuring:  # put the dataset now on screen first in line
            self.workers.cancel_group(self, "lengths")
            self.start()

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        dataset = str(event.row_key.value).partition("\x00")[0]
        if dataset != self.dataset:
            self.show_dataset(dataset)
