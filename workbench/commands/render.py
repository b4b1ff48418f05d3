"""``workbench render``: the selected dataset × model pairs and samples, headless, in any format.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import EXIT_CONFIG, EXIT_OK, EXIT_USAGE
from .common import (
    HelpFormatter,
    add_inputs,
    add_lint,
    add_strict,
    counted,
    data_file_problem,
    demo_config,
    lmeval_problem,
    lmeval_settings,
    load,
    open_pitfalls,
    out_file,
    render_options,
)

if TYPE_CHECKING:  # (the types of what the command imports when it runs)
    from ..core.lazy_pairs import LazyPairs
    from ..core.render import PredictionLookup
    from ..core.result import PairError, RenderResult
    from ..headless.render_filter import RenderFilter
    from ..loading.workspace import Workspace

FORMATS = ("json", "text", "markdown", "html", "svg", "tokens")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """--jobs, --quiet and --reference: how the render runs, never what it outputs."""
    parser.add_argument("--jobs", "-j", type=counted(1), default=1, metavar="N",
                        help="render in N worker processes (same output, in the same order; at most "
                        "one per CPU)")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress bar and no warnings on stderr (errors still shown)")
    parser.add_argument("--reference", action="store_true",
                        help="every cache and compiled path off: each sample rendered by the plain "
                        "interpreter (slower; the same bytes, or a bug to report with both outputs)")


def parse_run_args(parser: argparse.ArgumentParser, argv: Sequence[str],
                   first_config: bool = False) -> argparse.Namespace:
    """The arguments of a command with ``add_run_options``; the config worker starts booting
    while the rest of the workbench is imported, and, with ``first_config`` (a command that
    loads its configs as given), is asked for the first config at once: it runs it on the
    other CPU meanwhile (a suite's config, a fifth of a second)."""
    args = parser.parse_args(argv)
    problem = open_pitfalls(args) or lmeval_problem(args)
    if problem:
        parser.error(problem)
    from ..core.reference import set_reference  # (the standard library only)
    from ..loading.config.lmeval_yaml import looks_like_task

    set_reference(args.reference)  # read by every RenderOptions made after (core/reference.py)
    from ..loading.config.worker import prestart, prestart_for

    first = (args.configs or [str(demo_config())])[0]
    if first_config and not looks_like_task(first):
        prestart_for(first, args.config_root, getattr(args, "timeout", None))
    else:
        prestart()
    return args


def build_parser() -> argparse.ArgumentParser:
    from ..headless.render_filter import add_selection_args

    parser = argparse.ArgumentParser(
        prog="workbench render",
        description="Render configs headless: every dataset × model pair, every sample "
        "(or the ones selected).",
        epilog="exit status: 0 ok, 2 usage error, 3 config errors (each on stderr as "
        "file:line: message, and in the JSON errors list), or with --strict a warning that the real "
        "run differs or fails, or with --lint a lint finding\n"
        "environment: WORKBENCH_NUMPY_SORT=auto|baseline|avx512, the CPU whose numpy orders tied "
        "BM25/VoteK scores (auto: this machine's)\n"
        "example: workbench render configs/eval.py --dataset 'gsm8k*' --limit 3 -f text",
        formatter_class=HelpFormatter,
    )
    add_inputs(parser)
    add_selection_args(parser)
    out = parser.add_argument_group("output")
    out.add_argument("--format", "-f", choices=FORMATS, default="json",
                     help="json: the render-json contract (default); text: what each model "
                     "receives; markdown: a report; html: a page of the app's panes for every pair (the "
                     "first sample of each unless --sample/--limit); svg: the app's panes, recorded; "
                     "tokens: the token pieces and ids around every seam (docs/tokens.md)")
    out.add_argument("--out", "-o", metavar="FILE", type=out_file,
                     help="write here (atomically: the old file stays whole until the new one "
                     "is complete) instead of stdout (- is stdout)")
    out.add_argument("--whitespace", "-w", action="store_true",
                     help="text/markdown/html/svg: show newlines, tabs and trailing spaces (↵ → ·)")
    out.add_argument("--raw", action="store_true",
                     help="text: write the exact characters, escape sequences included (for "
                     "piping into other tools; never to a terminal)")
    out.add_argument("--token-sections", action="store_true",
                     help="count tokens by section (meta template, examples, test row) in json too; "
                     "text, markdown, html and svg always do")
    out.add_argument("--tokenizer", metavar="PATH",
                     help="tokens: show the seams with this tokenizer (a tokenizer.json, a model folder, or "
                     "cl100k_base) instead of each model's own; nothing is downloaded")
    out.add_argument("--width", type=counted(20, 1000), default=100, metavar="COLUMNS",
                     help="svg: the width of the recorded panes (default 100)")
    out.add_argument("--all-text", action="store_true",
                     help="html/svg: draw every character of long texts (default: the head and tail of "
                     "each text over 24,000 characters, the cut marked, as the app shows them)")
    add_run_options(parser)
    add_strict(parser)
    add_lint(parser)
    return parser


def load_and_render(args: argparse.Namespace,
                    predictions: PredictionLookup | None = None) -> tuple[Workspace, RenderResult]:
    """The Workspace of the inputs and its full RenderResult (load errors and warnings first);
    ``predictions``, a recorded run's answers (``verify`` passes the run it checks), else ``--run``'s."""
    from ..core.lazy_pairs import render_workspace
    from ..core.result import PairError, PairWarning

    workspace = load(args)
    result = render_workspace(workspace.datasets, workspace.models,
                              config=" ".join(args.configs) or str(demo_config()),
                              options=render_options(args, predictions), judges=workspace.judges)
    # a dataset whose rows failed keeps its name, so --dataset narrows its error away or in
    for error in reversed(workspace.errors):
        result.errors.insert(0, PairError(workspace.failed_dataset_of(error), None, error.message,
                                          error.file, error.line, error.hint))
    if not result.pairs and not result.errors:
        # one cause, one line: the error says what the load's "defines no ..." warnings would
        result.errors.append(nothing_to_render(workspace, args.configs or [str(demo_config())]))
    else:
        result.warnings[:0] = [PairWarning(None, None, message) for message in workspace.warnings]
    return workspace, result


def nothing_to_render(workspace: Workspace, configs: list[str]) -> PairError:
    """The error of configs that load but define nothing to render (exit 3, not a silent 0)."""
    from ..core.result import PairError

    what = "datasets" if workspace.models else "datasets or models"
    found = f" (it defines {len(workspace.models)} model{'s' * (len(workspace.models) != 1)})" \
        if workspace.models else ""
    subject = "defines" if len(configs) == 1 else f"{', '.join(configs)} define"
    return PairError(None, None, f"{subject} no {what}{found}, so there is nothing to render",
                     os.path.abspath(configs[0]) if len(configs) == 1 else None, None,
                     "a config lists its datasets in `datasets = [...]` or `*_datasets` lists; a file of "
                     "models only goes with --models")


def lazy_inputs(args: argparse.Namespace) -> LazyPairs:
    """What ``--jobs`` workers render from: the workspace loaded, each pair built the first time
    a worker is given its samples (a worker never builds the pairs it does not render)."""
    from ..core.lazy_pairs import LazyPairs

    workspace = load(args)
    config = " ".join(args.configs) or str(demo_config())
    return LazyPairs(workspace.datasets, workspace.models, config=config, options=render_options(args),
                     judges=workspace.judges)


def recipe_for(args: argparse.Namespace) -> functools.partial[LazyPairs]:
    return functools.partial(lazy_inputs, args)


#: Samples of each pair ``--format html`` shows unless --sample or --limit says otherwise.
HTML_SAMPLES = 1
#: Below this many samples a render is faster in one process: a worker first loads the
#: whole workspace again, which costs about what rendering this many samples does.
SERIAL_BELOW = 2000


def usage_error(prog: str, message: str) -> int:
    from ..core.inert_text import visible

    print(f"{prog}: error: {visible(message)}", file=sys.stderr)
    return EXIT_USAGE


def render_selected(prog: str, args: argparse.Namespace,
                    answer_formats: bool = False) -> tuple[Any, Any, Any] | int:
    """(selection, result, entries): the inputs' render narrowed to the selection; or the
    exit status of a selection that matches nothing. ``answer_formats``: with the selected
    pairs' PW213 warnings (the extraction self-test, each dataset in a child forked here,
    before anything is written)."""
    from ..headless.render_filter import RenderFilter
    from ..headless.stream import select

    problem = data_file_problem(args.data)
    if problem:
        return usage_error(prog, problem)
    selection = RenderFilter.from_args(args)
    with _collector_paused():
        workspace, full = load_and_render(args)
    out = getattr(args, "out", None)
    if out and own_input(out, workspace.files):
        return usage_error(prog, f"--out {out}: the render reads this file, so it cannot also write it "
                           f"(hint: give --out another file)")
    # the workspace and its pairs live until the end: the collector need not walk them again and
    # again while samples stream (a fifth of a suite's render went there)
    gc.freeze()
    # an lm-eval task's --data names its splits, not a dataset abbr
    data = [] if args.configs and all(looks_like_lmeval(c) for c in args.configs) else args.data
    failed = check_selection(prog, full, selection, data, [m.abbr for m in workspace.models])
    if failed is not None:
        return failed
    narrowed, entries = select(full, selection)
    if answer_formats:
        narrowed.warnings.extend(answer_format_problems(narrowed.pairs))
    return selection, narrowed, entries


def answer_format_problems(pairs: Sequence[Any]) -> list[Any]:
    """The pairs' PW213 warnings, and one warning per dataset whose self-test ran past its time
    or crashed (a dataset not checked otherwise, without rows, eval_cfg or a rewritten
    postprocessor, is left out quietly: ``lint`` and ``extract --self-test`` say why)."""
    from ..core.findings import tag
    from ..core.result import PairWarning
    from ..headless.extract_self_test import answer_format_warnings

    found, skipped = answer_format_warnings(pairs)
    return found + [PairWarning(dataset, None, f"{tag('PW213')} not checked: {why}")
                    for dataset, kind, why in skipped if kind == "bounded"]


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No collections while the workspace and its pairs are built: what they make is kept to
    the end (then frozen), so each one walked the growing heap in vain (a suite: 0.1 s)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def check_selection(prog: str, result: RenderResult, selection: RenderFilter, data: Sequence[str] = (),
                    models: Sequence[str] = ()) -> int | None:
    """A glob that matches nothing, rows given for a dataset that does not exist, a sample or
    label past what the selected pairs have: a usage error, exit 2. Errors outrank it: when the
    selection keeps an error that left pairs unmade (a config, a model or a dataset's rows that
    failed to load; not one pair's own error, which names both), a name or sample the filter
    misses may be one the failed load would have made, so the errors are what the command
    reports (exit 3), and each complaint is said beside them as a note. ``models``: the
    workspace's, which a --model glob is matched against also when no pair was made."""
    problems = selection_problems(result, selection, data, models)
    if not problems:
        return None
    from ..core.inert_text import visible
    from ..headless.stream import select

    kept = select(result, selection)[0].errors
    if not any(error.dataset is None or error.model is None for error in kept):
        return usage_error(prog, "; ".join(problems))
    for problem in problems:
        print(f"{prog}: note: {visible(problem)}, where the load had errors (reported below)",
              file=sys.stderr)
    return None


def selection_problems(result: RenderResult, selection: RenderFilter, data: Sequence[str] = (),
                       models: Sequence[str] = ()) -> list[str]:
    """What is wrong with the selection, the first kind found: ``--data ABBR=FILE`` naming no
    dataset, a glob that matches nothing, ``--sample`` out of range, ``--label`` not there."""
    from ..loading.rows.sample_rows import unknown_data_abbrs

    unused = unknown_data_abbrs(data, [p.dataset_abbr for p in result.pairs]
                                + [e.dataset for e in result.errors if e.dataset is not None])
    if unused:
        return unused
    found = [*((p.dataset_abbr, p.model_abbr) for p in result.pairs),
             *((e.dataset, e.model) for e in result.errors)]
    unmatched = selection.unmatched([d for d, _ in found if d is not None], [*models, *(m for _, m in found)])
    if unmatched:
        return unmatched
    problem = _samples_out_of_range(result, selection) or _unknown_labels(result, selection)
    return [problem] if problem else []


def _unknown_labels(result: RenderResult, selection: RenderFilter) -> str | None:
    """``--label`` naming no label of the selected pairs, as a message naming the labels there
    are (a pair's labels are the same for every sample, so its first sample has them all)."""
    if not selection.labels:
        return None
    from ..core.errors import RenderError
    from ..headless.render_filter import label_text

    seen: set[str] = set()
    for pair in result.pairs:
        if not selection.wants_pair(pair.dataset_abbr, pair.model_abbr) or not len(pair):
            continue
        try:
            sample = pair.sample(0)
        except RenderError:
            continue  # the pair's own error is reported by the render
        seen.update(label_text(r.label) for r in sample.requests if r.label is not None)
    missing = [label for label in selection.labels if label not in seen]
    if not missing or not result.pairs:
        return None
    there = f"labels: {', '.join(sorted(seen))}" if seen else \
        "they have none: only PPL and LL inferencers label their requests"
    names = ", ".join(repr(label) for label in missing)
    return f"--label {names}: no such label in the selected pairs ({there})"


def _samples_out_of_range(result: RenderResult, selection: RenderFilter) -> str | None:
    """``--sample N`` past every selected pair's last sample, as a message naming the range."""
    if selection.samples is None:
        return None
    counts = {p.dataset_abbr: len(p) for p in result.pairs
              if selection.wants_pair(p.dataset_abbr, p.model_abbr)}
    if not counts:
        return None
    most = max(counts.values())
    beyond = [lo for lo, _ in selection.samples if lo >= most]
    if not beyond:
        return None
    ranges = ", ".join(f"{abbr}: {f'0-{n - 1}' if n else 'none'}" for abbr, n in sorted(counts.items())[:8])
    more = f" and {len(counts) - 8} more" if len(counts) > 8 else ""
    return (f"--sample {beyond[0]} is out of range: the selected datasets have samples "
            f"{ranges}{more}")


def utf8_stdout() -> None:
    """Exports are UTF-8 whatever the locale (a C locale would choke on ↵ and ×)."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and (sys.stdout.encoding or "").lower().replace("-", "") != "utf8":
        with contextlib.suppress(ValueError, OSError):
            reconfigure(encoding="utf-8")


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parse_run_args(parser, argv, first_config=True)
    args.configs = [named_task(c, args.config_root) for c in args.configs]
    if args.format == "json" and args.configs and all(looks_like_lmeval(c) for c in args.configs):
        return run_lmeval(parser, args)
    if args.raw and args.format != "text":
        parser.error("--raw applies to --format text only")
    if args.tokenizer is not None and args.format != "tokens":
        parser.error("--tokenizer applies to --format tokens only")
    tokenizer = None
    if args.tokenizer is not None:
        from ..loading.models.model_assets import tokenizer_at

        tokenizer, problem = tokenizer_at(args.tokenizer)
        if problem is not None:
            return usage_error(parser.prog, problem)
    if args.raw and not args.out and sys.stdout.isatty():
        return usage_error(parser.prog, "--raw writes escape sequences as they are, so never to a "
                           "terminal: pipe it into a tool, or give --out FILE")
    from ..core.inert_text import visible
    from ..headless.formats.json_export import collect_warnings
    from ..headless.lint_report import LintGate
    from ..headless.progress import Progress
    from ..headless.stderr_report import differing, report_problems
    from ..headless.stream import SampleStream, Workers
    from ..loading.files.atomic import atomic_write, terminate_as_exit

    if args.out:
        problem = out_problem(args.out)
        if problem:
            return usage_error(parser.prog, f"--out {args.out}: {problem}")
    recorded = args.format in ("html", "svg", "tokens")  # rendered with provenance, in this process
    html_note = None
    if args.format == "html" and args.sample is None and args.limit is None:
        # a page for a person: every request of a suite would be hundreds of MB
        args.limit = HTML_SAMPLES
        html_note = (f"The first {'sample' if HTML_SAMPLES == 1 else f'{HTML_SAMPLES} samples'} of each "
                     "pair; render --limit N or --sample LIST for others")
        if not args.quiet:
            print(f"workbench render: --format html: {html_note[0].lower()}{html_note[1:]}", file=sys.stderr)
    # workers start now, loading the workspace while this process does
    workers = Workers(args.jobs, recipe_for(args)) if args.jobs > 1 and not recorded else None
    selected = render_selected(parser.prog, args, answer_formats=True)
    if isinstance(selected, int):
        if workers is not None:
            workers.close()
        return selected
    selection, result, entries = selected
    gate = LintGate(result) if args.lint else None
    total = sum(len(e.indices) for e in entries)
    progress = Progress.for_terminal(total, args.quiet)
    jobs = 1 if recorded else args.jobs
    why = serial_reason(total, jobs) if jobs > 1 else None
    if why is not None:
        jobs = 1
        if not args.quiet:
            print(f"workbench render: --jobs {args.jobs}: {why}: rendered serially", file=sys.stderr)
    serialize = _serializer(args) if jobs > 1 else None
    try:
        # json and text write a stamp from its form (core/inferencers/sample_form.py)
        stamps = args.format == "json" or (args.format == "text" and not args.whitespace)
        with terminate_as_exit(), SampleStream(entries, selection, jobs, recipe_for(args), progress,
                                               serialize, workers, stamps) as stream:
            plan = (entries, selection, progress, html_note, tokenizer) if recorded else None
            if args.out:
                with atomic_write(args.out) as out:
                    write(result, out, stream, args, plan)
                    # never over the old file: leaving the block discards the new one
                    if result.errors or (args.strict and differing(collect_warnings(result))) \
                            or (gate is not None and gate.failing):
                        raise _NotWritten
            else:
                utf8_stdout()
                write(result, sys.stdout, stream, args, plan)
                sys.stdout.flush()
    except _NotWritten:
        linted = gate.report(sys.stderr) if gate is not None else 0
        report_problems(result, warnings=not args.quiet, strict=args.strict, prog=parser.prog)
        kept = "the old file is kept as it was" if Path(args.out).exists() else "no file written"
        why = "errors" if result.errors else "lint findings --lint makes errors" if linted else \
            "warnings --strict makes errors"
        print(f"{parser.prog}: --out {visible(args.out)} not written: the render has {why} ({kept})",
              file=sys.stderr)
        return EXIT_CONFIG
    except OSError as exc:
        if isinstance(exc, BrokenPipeError) or not args.out:
            raise
        return usage_error(parser.prog, f"cannot write {args.out}: {exc.strerror or exc}")
    collect_warnings(result)
    linted = gate.report(sys.stderr) if gate is not None else 0
    found = report_problems(result, warnings=not args.quiet, strict=args.strict, prog=parser.prog)
    return EXIT_CONFIG if result.errors or (args.strict and found) or linted else EXIT_OK


class _NotWritten(Exception):
    """A render with errors: its --out file is not written (the old one stays as it was)."""


def out_problem(out: str) -> str | None:
    """Why ``--out`` cannot be written, before anything is rendered (None: it can be tried)."""
    try:
        os.stat(out)
    except FileNotFoundError:
        pass
    except OSError as exc:
        return "a symlink loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
    if os.path.isdir(out):
        return "is a folder"
    if not os.path.isdir(os.path.dirname(os.path.realpath(out))):
        return "no such folder"
    return None


def own_input(out: str, inputs: Sequence[Path]) -> bool:
    """Whether ``--out`` is (or links to) a file the render was built from: a config, a rows
    file, a model-folder file. Compared as files (device and inode), so a hard link counts."""
    try:
        target = os.stat(out)
    except OSError:
        return False  # (nothing there yet: nothing read from it)
    for path in inputs:
        with contextlib.suppress(OSError):
            found = os.stat(path)
            if (found.st_dev, found.st_ino) == (target.st_dev, target.st_ino):
                return True
    return False


def serial_reason(total: int, jobs: int) -> str | None:
    """Why splitting this render over ``jobs`` processes cannot pay (None: it can)."""
    if total < SERIAL_BELOW:
        return f"{total:,} samples render faster in one process (splitting pays from about {SERIAL_BELOW:,})"
    affinity = getattr(os, "sched_getaffinity", None)
    cpus = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    if cpus < 2:
        return "this process may use one CPU only"
    # the workers render while the main process writes what they send: on 2 CPUs, 2 workers
    # and the writer took 8.9 s for the suite's JSON that one process writes in 7.4 s
    needed = jobs + 1
    if cpus < needed:
        return (f"{jobs} workers and the main process writing what they render need {needed} CPUs, and "
                f"this process may use {cpus}" + (f" (--jobs {cpus - 1} fits)" if cpus > 2 else ""))
    busy = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if cpus - busy < needed - 0.5:  # a worker would wait for a CPU the machine is already using
        return f"the machine's {cpus} CPUs are busy (load average {busy:.1f})"
    return None


def _serializer(args: argparse.Namespace) -> Any:
    """How a worker writes out one sample in this format (None: the main process writes it)."""
    if args.format == "json":
        from ..headless.formats.json_encoding import JsonSample

        return JsonSample()
    if args.format == "text":
        from ..headless.formats.text_export import TextOptions, TextSample

        return TextSample(TextOptions(whitespace=args.whitespace, raw=args.raw))
    return None


def write(result: Any, out: Any, samples_of: Any, args: argparse.Namespace, plan: Any = None) -> None:
    """One format; html/svg/tokens take the ``plan`` (entries, selection, progress, html's note,
    --tokenizer's tokenizer) instead of samples."""
    if args.format == "json":
        from ..headless.formats.json_export import write_render_json

        write_render_json(result, out, samples_of)
    elif args.format == "text":
        from ..headless.formats.text_export import TextOptions, write_render_text

        write_render_text(result, out, samples_of, TextOptions(whitespace=args.whitespace, raw=args.raw))
    elif args.format == "markdown":
        from ..headless.formats.markdown_export import write_render_markdown

        write_render_markdown(result, out, samples_of, whitespace=args.whitespace)
    elif args.format == "html":
        from ..headless.formats.html_report import write_html_report

        entries, selection, progress, note, _ = plan
        write_html_report(result, out, entries, selection, whitespace=args.whitespace, progress=progress,
                          note=note, full_text=args.all_text)
    elif args.format == "tokens":
        from ..headless.formats.tokens_export import write_render_tokens

        entries, selection, progress, _, tokenizer = plan
        write_render_tokens(result, out, entries, selection, tokenizer, progress)
    else:
        from ..headless.formats.svg_export import write_render_recorded

        entries, selection, progress, _, _ = plan
        write_render_recorded(result, out, entries, selection, kind=args.format, width=args.width,
                              whitespace=args.whitespace, progress=progress, full_text=args.all_text)


def looks_like_lmeval(config: str) -> bool:
    from ..loading.config.lmeval_yaml import looks_like_task

    return looks_like_task(config)


def named_task(config: str, roots: list[str]) -> str:
    """A CONFIG that is no file but an lm-eval task's name: the YAML under a config root
    (``--config-root``, ``WORKBENCH_CONFIG_ROOT``) whose ``task:`` it is; else as given."""
    if os.path.exists(config) or config.endswith((".py", ".yaml", ".yml", ".json", ".toml")):
        return config
    from ..loading.config.lmeval_yaml import find_task
    from ..loading.config.roots import config_roots

    found = find_task(config, config_roots(roots))
    return str(found) if found is not None else config


def lmeval_models(args: argparse.Namespace, tasks: list) -> list[dict]:
    """``--models`` beside lm-eval tasks in the render JSON: the models' own load errors and each
    task a model cannot take (``--model GLOB`` narrows the models)."""
    # lazy: imported when the command runs, so --help stays quick
    from fnmatch import fnmatchcase

    from ..headless import lmeval_json
    from ..loading.workspace import load_workspace

    workspace = load_workspace([], model_files=args.models, roots=args.config_root, timeout=args.timeout)
    models = [m for m in workspace.models
              if not args.model or any(fnmatchcase(m.abbr, glob) for glob in args.model)]
    errors = [{"dataset": None, "model": None, "file": e.file, "line": e.line, "message": e.message,
               **({"hint": e.hint} if e.hint else {})} for e in workspace.errors]
    return errors + lmeval_json.refused_pairs(tasks, models)


def run_lmeval(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``render TASK.yaml ...``: lm-eval tasks in the render JSON (docs/lm-eval.md)."""
    from ..core.errors import WorkbenchError
    from ..headless import lmeval_json
    from ..loading.files.atomic import atomic_write
    from ..loading.lmeval_tasks import render_tasks

    settings = lmeval_settings(args)
    try:
        options = settings.options(args.chat_template)
    except WorkbenchError as exc:
        print(f"workbench render: {exc.located()}", file=sys.stderr)
        return EXIT_CONFIG
    chat = options.chat
    tasks = render_tasks(args.configs, args.data, options, settings.num_fewshot,
                         timeout=args.timeout or 10.0)
    unapplied = settings.unapplied_chat(args.chat_template, [t.name for t in tasks])
    tasks = lmeval_json.select(tasks, args.dataset, args.sample, args.limit, args.label)
    doc = lmeval_json.document(" ".join(args.configs), tasks, chat is not None)
    if unapplied:
        doc["warnings"].insert(0, lmeval_json.warning(None, unapplied))
    if args.models:
        doc["errors"] += lmeval_models(args, tasks)
        doc["warnings"].append(lmeval_json.warning(None, lmeval_json.MODELS_IN_JSON))
    text = lmeval_json.write(doc)
    if args.out:
        with atomic_write(args.out) as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    from ..core.inert_text import visible

    for error in doc["errors"]:
        where = error["file"] or "<task>"
        if error["line"]:
            where += f":{error['line']}"
        print(f"workbench render: {visible(where)}: {visible(error['message'])}", file=sys.stderr)
    if not args.quiet:
        for warning in doc["warnings"]:
            task = f"{warning['dataset']}: " if warning["dataset"] else ""
            print(visible(f"warning: {task}{warning['message']}").replace("\n", " "), file=sys.stderr)
    return EXIT_CONFIG if doc["errors"] else EXIT_OK
