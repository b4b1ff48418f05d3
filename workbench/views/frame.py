"""One moment of the screen: every pane's renderable and title for a selection.

The TUI builds a :class:`Frame` in a worker and hands each pane its part; a headless
export builds the same Frame and records :func:`frame_panels`, so both show the same.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from ..core.errors import WorkbenchError
from ..core.findings import tag
from ..core.models.wire import model_wire_warnings
from ..core.result import PairError, PairWarning, Request, Sample
from ..core.warning_groups import elsewhere
from .answers import RunAnswers, verdict_view
from .errors import Problem, problem_text
from .final_input import (
    final_input_body,
    final_input_view,
    input_length,
    judge_view,
    legend,
    recorded_output,
    side_by_side_view,
)
from .fragments import faint
from .options import ViewOptions, located
from .prompt_list import prompt_list_view
from .safe import one_line
from .selection import Catalog, Selection
from .timeline import request_tag, timeline_view
from .tokens import model_tokens

PROMPT_LIST = "PromptList"  # the PromptList pane's name, at the head of its title


@dataclass(frozen=True)
class Frame:
    selection: Selection  # normalised: what the panes actually show
    prompt_list: RenderableType
    prompt_list_title: str
    final_input: RenderableType
    final_input_title: str
    timeline: RenderableType
    timeline_title: str
    samples: int = 0  # in the selected dataset
    requests: int = 0  # in the selected sample
    final_text: str | None = None  # the exact final input, for the clipboard
    problems: tuple[Problem, ...] = ()  # why the selected pair or sample did not render

    @property
    def heading(self) -> str:
        """What is shown (dataset, sample, label or turn), without a pane's name: a page's
        heading over all three panes."""
        return self.prompt_list_title.removeprefix(f"{PROMPT_LIST} · ")


def exact_text(request: Request) -> str:
    """What the model receives, as one string: the prompt, or the messages as JSON."""
    if request.model_text is not None:
        return str(request.model_text)
    value = request.model_input
    if isinstance(value, str):
        return str(value)
    return json.dumps(_plain(value), ensure_ascii=False, indent=2)


def _plain(value: Any) -> Any:
    if isinstance(value, str):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _render_sample(catalog: Catalog, pair, index: int) -> tuple[Sample | None, Problem | None]:
    try:
        return catalog.sample(pair, index), None
    except WorkbenchError as exc:
        return None, Problem.of(exc, scope=f"{pair.dataset_abbr} × {pair.model_abbr or 'no model'}")
    except Exception as exc:  # a bug in the core must not take the screen down
        return None, Problem(f"internal error while rendering sample {index}: {type(exc).__name__}: {exc}",
                             hint="please report this with the config")


def _judge_part(catalog: Catalog, sel: Selection, opts: ViewOptions) -> RenderableType | None:
    """The judge's prompt for the selected sample, when the dataset has an LLM judge."""
    judge = catalog.judge_for(sel.dataset, sel.model)
    if judge is None:
        return None
    if isinstance(judge, PairError):
        return judge_view(None, judge.model or "?", opts, f"no judge request: {judge.message}")
    if sel.sample >= len(judge):
        return judge_view(None, judge.model_abbr, opts, f"the judge has {len(judge)} samples")
    sample, problem = _render_sample(catalog, judge, sel.sample)
    if sample is None or not sample.requests:
        return judge_view(None, judge.model_abbr, opts, problem.message if problem else None)
    spec = judge.model_spec
    tokens = (*opts.tokens, *model_tokens(spec.cfg)) if spec is not None else opts.tokens
    jopts = replace(opts, tokens=tuple(dict.fromkeys(tokens)))
    title = f"{judge.model_abbr} · {judge.dataset_abbr} · {input_length(sample.requests[0]):,} chars"
    return judge_view(sample.requests[0], title, jopts, notes=judge.notes.messages)


def answer_marks(answers: RunAnswers | None, sel: Selection, request: Request) -> tuple[tuple[int, int], ...]:
    """The span of the recorded answer the evaluator's rule read (``extract``'s ``match``)."""
    pair = answers.of(sel.dataset, sel.model) if answers is not None else None
    found = pair.samples.get(sel.sample) if pair is not None else None
    return found.marks(recorded_output(request)) if found is not None else ()


def model_options(catalog: Catalog, model: str | None, opts: ViewOptions) -> ViewOptions:
    """``opts`` with the model's own special tokens added."""
    spec = catalog.model_spec(model)
    if spec is None:
        return opts
    tokens = (*opts.tokens, *model_tokens(spec.cfg))
    return replace(opts, tokens=tuple(dict.fromkeys(tokens)))


def build_frame(catalog: Catalog, selection: Selection, opts: ViewOptions) -> Frame:
    sel = catalog.normalize(selection)
    count = catalog.sample_count(sel.dataset)
    model_name = sel.model or "(no model)"
    dataset_name = one_line(sel.dataset or "(no dataset)", 40)
    sample_bit = f"sample {sel.sample} ({sel.sample + 1}/{count})" if count else "no samples"
    pair = catalog.pair(sel.dataset, sel.model)
    mopts = model_options(catalog, sel.model, opts)
    problem: Problem | None = None
    if pair is None:
        error = catalog.error(sel.dataset, sel.model)
        problem = Problem.of(error) if error is not None else Problem(
            "nothing to render: no dataset loaded" if sel.dataset is None else "no render for this pair")
        text = problem_text(problem, opts)
        return Frame(sel, text, f"{PROMPT_LIST} · {dataset_name}", text,
                     f"Final input · {one_line(model_name, 40)}", faint("—", opts), "Timeline",
                     samples=count, problems=(problem,))
    sample, problem = (None, None)
    if count:
        sample, problem = _render_sample(catalog, pair, sel.sample)
    if sample is None:
        problem = problem or Problem("this dataset has no test rows",
                                     hint="check reader_cfg test_range/test_split")
        text = problem_text(problem, opts)
        return Frame(sel, text, f"{PROMPT_LIST} · {dataset_name} · {sample_bit}", text,
                     f"Final input · {one_line(model_name, 40)}", faint("—", opts), "Timeline",
                     samples=count, problems=(problem,))
    requests = len(sample.requests)
    if not requests:
        text = faint("this sample sends no request", opts)
        return Frame(sel, text, f"{PROMPT_LIST} · {dataset_name} · {sample_bit}", text,
                     f"Final input · {one_line(model_name, 40)}", text, "Timeline · 0 requests",
                     samples=count)
    sel = replace(sel, request=min(sel.request, requests - 1))
    request = sample.requests[sel.request]
    which = f" · {request_tag(request, sel.request + 1)}" if requests > 1 else ""
    unsent = pair.unsent_item(request) if hasattr(pair, "unsent_item") else None
    pl = prompt_list_view(request, mopts, sample, unsent)
    notes = [_with_places(w, catalog.warning_places, opts)
             for w in (pair.warnings() if hasattr(pair, "warnings") else ())]
    if notes:  # one line on top, so the prompt stays in view; all of them at the end
        head = Text(f"⚠ {len(notes)} warning{'s' if len(notes) != 1 else ''} (at the end): ",
                    style=opts.palette.style("warning"), no_wrap=True, overflow="ellipsis")
        head.append(one_line(notes[0]), style=opts.palette.style("faint"))
        pl = Group(head, pl, Text(""), warnings_view(notes, opts))
    if opts.side_by_side:
        final, final_title = _side_by_side(catalog, sel, opts)
    else:
        wire_notes = model_wire_warnings(pair.model_spec) if opts.wire and pair.model_spec else []
        marks = answer_marks(catalog.answers, sel, request) if opts.answers else ()
        final = final_input_view(request, mopts, wire_notes, marks)
        if opts.answers:
            parts = [verdict_view(catalog.answers, sel.dataset, sel.model, sel.sample, opts),
                     _judge_part(catalog, sel, opts)]
            final = Group(final, *(p for p in parts if p is not None))
        final_title = (f"Final input · {one_line(model_name, 40)} · {pair.model_kind} · "
                       f"{input_length(request):,} chars{which}")
    timeline = timeline_view(sample, sel.request, mopts)
    return Frame(
        selection=sel, prompt_list=pl,
        prompt_list_title=f"{PROMPT_LIST} · {dataset_name} · {sample_bit}{which}",
        final_input=final, final_input_title=final_title,
        timeline=timeline, timeline_title=f"Timeline · {requests} request{'s' if requests != 1 else ''}",
        samples=count, requests=requests, final_text=exact_text(request),
    )


def _with_places(warning: PairWarning, places: Mapping[str, Any] | None, opts: ViewOptions) -> str:
    """The message (a finding's with its id first and its place after), and where else it
    applies once every pair has been checked."""
    message = warning.message
    more = elsewhere(places[message]) if places and message in places else ""
    if warning.rule:
        at = f" at {located(warning.file, warning.line, opts.root)}" if warning.file else ""
        message = f"{tag(warning.rule)}: {message}{at}"
    return f"{message} ({more})" if more else message


def warnings_view(messages: list[str], opts: ViewOptions) -> Text:
    """The render's warnings for this pair (framework quirks, unfilled fields), one a line."""
    out = Text()
    for i, message in enumerate(messages):
        if i:
            out.append("\n")
        out.append("⚠ ", style=opts.palette.style("warning"))
        out.append(one_line(message), style=opts.palette.style("warning"))
    return out


def _side_by_side(catalog: Catalog, sel: Selection, opts: ViewOptions) -> tuple[RenderableType, str]:
    plain = replace(opts, side_by_side=False)
    columns: list[tuple[str, RenderableType]] = []
    for model in catalog.models_for(sel.dataset):
        pair = catalog.pair(sel.dataset, model)
        title = model or "(no model)"
        if pair is None:
            error = catalog.error(sel.dataset, model)
            columns.append((title, problem_text(Problem.of(error), opts) if error else faint("—", opts)))
            continue
        title = f"{title} · {pair.model_kind}"
        sample, problem = _render_sample(catalog, pair, sel.sample)
        if sample is None or not sample.requests:
            columns.append((title, problem_text(problem, opts) if problem else faint("no request", opts)))
            continue
        request = sample.requests[min(sel.request, len(sample.requests) - 1)]
        columns.append((title, final_input_body(request, model_options(catalog, model, plain))))
    return side_by_side_view(columns, opts), f"Final input · every model · sample {sel.sample}"


def frame_panels(frame: Frame, tree: RenderableType | None, opts: ViewOptions,
                 banner: RenderableType | None = None) -> RenderableType:
    """The panes stacked as titled panels, for a headless recording of the screen."""
    parts: list[RenderableType] = []
    if banner is not None:
        parts.append(Panel(banner, title="Problems", title_align="left",
                           border_style=opts.palette.style("error")))
    if tree is not None:
        parts.append(Panel(tree, title="Templates", title_align="left"))
    for title, body in ((frame.prompt_list_title, frame.prompt_list),
                        (frame.final_input_title, frame.final_input),
                        (frame.timeline_title, frame.timeline)):
        parts.append(Panel(body, title=Text(one_line(title)), title_align="left"))
    return Group(*parts)


__all__ = ["Frame", "build_frame", "exact_text", "frame_panels", "legend"]
