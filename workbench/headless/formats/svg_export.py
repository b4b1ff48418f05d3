"""``render --format svg``: the app's panes, recorded by rich.

Each selected request is drawn with the same view functions the TUI panes use
(:func:`workbench.views.build_frame` and :func:`~workbench.views.frame_panels`:
PromptList, final input with provenance colours, timeline), preceded once by the
template tree, so an export looks like the screen.  The views make untrusted text inert
(``␛[31m`` instead of an escape sequence) and rich escapes what is left for HTML/XML.

An SVG is one picture whose size is known only at the end: it holds the whole selection,
so keep it to a few samples (``--sample``/``--limit``).  (``--format html`` lays the same
views out as a page: :mod:`workbench.headless.formats.html_report`.)
Samples render with provenance here, in this process (``--jobs`` does not apply).
Each text longer than ``LONG_TEXT`` characters shows its head and tail with the cut marked,
as the app does, so a 20 MB row or template costs what a 24,000-character one does;
``full_text`` (``--all-text``) draws every character.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from rich.console import RenderableType
from rich.text import Text

from ...core.errors import RenderError
from ...core.inert_text import visible
from ...core.result import RenderResult
from ...views.errors import Problem, error_banner
from ...views.frame import build_frame, frame_panels
from ...views.options import LONG_TEXT, ViewOptions
from ...views.recording import svg_of
from ...views.selection import Catalog, Selection
from ...views.template_tree import template_tree, tree_view
from ..render_filter import RenderFilter, label_text
from .json_export import collect_warnings, stopped_error


def _specs(result: RenderResult) -> tuple[list[Any], list[Any]]:
    datasets: dict[int, Any] = {}
    models: dict[int, Any] = {}
    for pair in result.pairs:
        datasets.setdefault(id(pair.dataset), pair.dataset)
        if pair.model_spec is not None:
            models.setdefault(id(pair.model_spec), pair.model_spec)
    return list(datasets.values()), list(models.values())


#: What the cut mark of an export says about the characters it hides.
CUT_NOTE = "all of them are sent; --all-text exports them all"


def frames(result: RenderResult, entries: Iterable[Any], selection: RenderFilter, whitespace: bool,
           progress: Any = None, full_text: bool = False) -> Iterable[RenderableType]:
    """The header, the template tree, then every selected request's panes, in order."""
    opts = ViewOptions(whitespace=whitespace, provenance=True, root=Path.cwd(),
                       max_chars=None if full_text else LONG_TEXT, cut_note=CUT_NOTE)
    catalog = Catalog(result)
    yield Text(visible(f"Prompt Workbench · {result.config}"), style="bold")
    if result.errors:
        yield error_banner([Problem.of(e) for e in result.errors], opts, limit=len(result.errors))
    datasets, models = _specs(result)
    if datasets:
        yield tree_view(template_tree(datasets, models, opts), opts)
    for entry in entries:
        pair = entry.pair
        label = f"{pair.dataset_abbr} × {pair.model_abbr or 'no model'}"
        for index in entry.indices:
            try:
                sample = catalog.sample(pair, index)
            except RenderError as exc:
                result.errors.append(stopped_error(pair, exc))
                break
            if progress is not None:
                progress.advance(1, label)
            for r, request in enumerate(sample.requests):
                if selection.labels and (request.label is None
                                         or label_text(request.label) not in selection.labels):
                    continue
                frame = build_frame(catalog, Selection(pair.dataset_abbr, pair.model_abbr, index, r),
                                    opts)
                yield frame_panels(frame, None, opts)


def write_render_recorded(result: RenderResult, out: TextIO, entries: Iterable[Any],
                          selection: RenderFilter, kind: str = "svg", width: int = 100,
                          whitespace: bool = False, progress: Any = None,
                          full_text: bool = False) -> RenderResult:
    """The selection as one SVG picture (``--format html`` is :mod:`.html_report`)."""
    if kind != "svg":
        raise ValueError(f"recorded exports are SVG; {kind!r} has its own writer")
    out.write(svg_of(frames(result, entries, selection, whitespace, progress, full_text=full_text),
                     width, "Prompt Workbench"))
    return collect_warnings(result)
