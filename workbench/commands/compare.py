"""``workbench compare``: the same rows of one benchmark through an OpenCompass/AISBench config and
an lm-eval task for one model, side by side, the differences classed (docs/compare.md).

``workbench compare mmlu --chat-template DIR`` takes the configs the workbench ships for the
benchmark (``shipped_configs/benchmarks.json``); ``workbench compare CONFIG TASK.yaml`` takes
any two or three. Each side is rendered by its framework's renderer, as ``render`` renders it.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import EXIT_CONFIG, EXIT_DIFF, EXIT_OK
from .common import HelpFormatter, add_inputs, counted, data_file_problem, lmeval_settings, out_file
from .render import usage_error

FORMATS = ("text", "json", "markdown")
#: ``--data`` left sides that name an lm-eval split (else an OpenCompass dataset abbr).
LMEVAL_SPLITS = ("train", "test", "dev", "validation", "val")
#: The model ``compare`` renders an OpenCompass side with, from ``--chat-template`` (or none).
MODEL_ABBR = "compare-model"
#: The help of the options compare shares with render, in compare's words.
COMPARE_WORDS = {
    "--data": "rows: [TASK:]SPLIT=FILE (SPLIT train, test, dev, validation or val) for the lm-eval side, "
              "ABBR=FILE for the OpenCompass/AISBench side, a plain FILE for both; repeatable",
    "--chat-template": "the one model every side renders for: a tokenizer folder, a Jinja file or a built-in "
                       "(chatml, llama3, mistral, gemma); without it, plain text on every side",
    "--models": "a config file whose first model the OpenCompass/AISBench side renders with, instead of "
                "one made from --chat-template",
    "--apply-chat-template": "(implied: compare applies --chat-template to the lm-eval side as "
                             "--apply_chat_template does)",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench compare",
        usage="workbench compare BENCHMARK [--subject NAME] [options]\n"
        "       workbench compare CONFIG TASK.yaml [CONFIG3] [--key COLUMN ...] [options]",
        description="Put the same rows of one benchmark through an OpenCompass/AISBench config and an "
        "lm-eval task for one model (--chat-template DIR: a tokenizer folder, a Jinja file or a "
        "built-in; without it, plain text on every side), aligned by row, with a character diff of "
        "the final inputs and the differences classed: continuation vs generation, shots, system "
        "prompt, chat template, choice formatting, delimiters and whitespace, wording, generation "
        "settings, answer extraction.",
        epilog="exit status: 0 the same requests, 1 differences, 2 usage error, 3 a side failed to "
        "render (each error on stderr as file:line: message)\n"
        "example: workbench compare gsm8k --chat-template ~/models/Qwen2.5-7B-Instruct "
        "--data gsm8k=oc/gsm8k/test.jsonl --data test=hf/gsm8k_test.jsonl --data train=hf/gsm8k_train.jsonl",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("targets", nargs="*", metavar="BENCHMARK|CONFIG",
                        help="a shipped benchmark (--list names them), or two or three configs: "
                        "OpenCompass/AISBench .py files and lm-eval task YAMLs")
    parser.add_argument("--list", action="store_true", help="name the shipped benchmarks and exit")
    add_inputs(parser, configs=False, run=False)
    from .common import add_lmeval_options

    add_lmeval_options(parser)
    # the shared options, as compare uses them
    for option, words in COMPARE_WORDS.items():
        parser._option_string_actions[option].help = words
    parser._option_string_actions["--data"].metavar = "[NAME=]FILE"
    parser._option_string_actions["--chat-template"].metavar = "DIR|FILE|NAME"
    group = parser.add_argument_group("compare")
    group.add_argument("--subject", metavar="NAME",
                       help="the subject of a benchmark that has several (MMLU's anatomy; default: the "
                       "mapping's first)")
    group.add_argument("--key", action="append", default=[], metavar="COLUMN",
                       help="with CONFIGs: the column each side's rows are aligned by, once per side in "
                       "order (default: rows by position)")
    group.add_argument("--dataset", metavar="ABBR",
                       help="with CONFIGs: the dataset abbr of an OpenCompass side that defines several")
    group.add_argument("--limit", type=counted(1), metavar="N", help="compare the first N rows of each side")
    group.add_argument("--show", type=counted(0), default=1, metavar="N",
                       help="text/markdown: the rows shown in full, with their diff (default 1)")
    group.add_argument("--format", "-f", choices=FORMATS, default="text",
                       help="text (default), json (prompt-workbench/compare@1) or markdown (for an issue)")
    group.add_argument("--out", "-o", metavar="FILE", type=out_file,
                       help="write here instead of stdout (- is stdout)")
    group.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="text: colour the diff (default: when stdout is a terminal)")
    group.add_argument("--app", action="store_true",
                       help="show the sides next to each other in the app, one row at a time (n/p rows, o "
                       "the other side, w whitespace, q quit), instead of writing a report")
    group.add_argument("--quiet", "-q", action="store_true",
                       help="no warnings on stderr (errors still shown)")
    return parser


def _list_text() -> str:
    from ..headless.side_by_side import benchmarks

    lines = []
    for name, bench in benchmarks().items():
        subjects = (f" ({len(bench.subjects)} subject{'s' * (len(bench.subjects) != 1)}: --subject "
                    f"{bench.subjects[0]}, ...)") if bench.subjects else ""
        sides = " vs ".join(f"{s.framework} {Path(s.config).name}" for s in bench.sides)
        lines.append(f"  {name:<10} {bench.title}: {sides}{subjects}")
    return "shipped benchmarks:\n" + "\n".join(lines)


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list:
        print(_list_text())
        return EXIT_OK
    if not args.targets:
        parser.error("give a shipped benchmark (workbench compare --list names them), or two or three "
                     "configs")
    problem = data_file_problem(args.data)
    if problem:
        return usage_error(parser.prog, problem)
    if args.app and not (sys.stdin.isatty() and sys.stdout.isatty()):
        # the app would wait for keys that never come (`workbench compare ... --app > log` in a job)
        return usage_error(parser.prog, "--app needs a terminal (stdin and stdout); without one, write a "
                           "report: --format text, json or markdown")
    settings = lmeval_settings(args)
    if settings.fewshot_as_multiturn and not args.chat_template:
        return usage_error(parser.prog, "--fewshot-as-multiturn needs --chat-template (lm-eval raises "
                           "ValueError: `apply_chat_template` must be set)")
    comparison = build(parser, args)
    if isinstance(comparison, int):
        return comparison
    return _write(parser, args, comparison)


def build(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The Comparison the arguments ask for (each side rendered, or its located error), or the
    exit status of a usage error."""
    sides = _sides(parser, args)
    if isinstance(sides, int):
        return sides
    from ..headless.side_by_side_report import Comparison

    comparison = Comparison(benchmark=sides[0], subject=sides[1], model=args.chat_template or
                            "none (plain text: no chat template on any side)", sides=[], notes=list(sides[3]))
    with tempfile.TemporaryDirectory(prefix="workbench-compare-") as scratch:
        for spec in sides[2]:
            _render_side(args, spec, comparison, scratch)
    return comparison


def _sides(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """(benchmark, subject, [(framework, config path, name, key, shown)], the mapping's notes), or a
    usage error's status."""
    from ..headless.side_by_side import benchmarks
    from ..loading.config.lmeval_yaml import looks_like_task

    targets = args.targets
    if len(targets) == 1 and not os.path.exists(targets[0]):
        shipped = benchmarks()
        bench = shipped.get(targets[0].lower())
        if bench is None:
            return usage_error(parser.prog, f"{targets[0]!r} is no shipped benchmark and no file: the "
                               f"benchmarks are {', '.join(shipped)} (or give two or three configs)")
        if args.key or args.dataset:
            return usage_error(parser.prog, "--key and --dataset go with CONFIGs; a shipped benchmark "
                               "names its own")
        subject = args.subject or bench.default_subject
        if bench.subjects and subject not in bench.subjects:
            return usage_error(parser.prog, f"--subject {subject}: {bench.title} has no such subject (it "
                               f"has {', '.join(bench.subjects)})")
        if not bench.subjects and args.subject:
            return usage_error(parser.prog, f"--subject: {bench.title} has no subjects")
        specs = [(s.framework, str(s.for_subject(subject).path()), s.for_subject(subject).name, s.key,
                  f"{s.for_subject(subject).config} (shipped)") for s in bench.sides]
        return bench.name, subject, specs, [bench.note] if bench.note else []
    if not 2 <= len(targets) <= 3:
        return usage_error(parser.prog, "give a shipped benchmark, or two or three configs")
    missing = [t for t in targets if not os.path.exists(t)]
    if missing:
        return usage_error(parser.prog, f"{missing[0]}: no such file (a shipped benchmark goes alone: "
                           "workbench compare --list)")
    if args.subject:
        return usage_error(parser.prog, "--subject goes with a shipped benchmark")
    if args.key and len(args.key) != len(targets):
        return usage_error(parser.prog, f"--key: give one per side ({len(targets)}), in order")
    specs = []
    for i, target in enumerate(targets):
        framework = "lm-eval" if looks_like_task(target) else "opencompass"
        specs.append((framework, target, args.dataset if framework != "lm-eval" else None,
                      args.key[i] if args.key else None, target))
    return None, None, specs, []


def _data_for(data: Sequence[str], framework: str) -> list[str]:
    """The ``--data`` values a side takes: ``[TASK:]SPLIT=FILE`` for lm-eval, ``ABBR=FILE`` for an
    OpenCompass config, a plain FILE for both."""
    out = []
    for text in data:
        name, eq, _ = text.partition("=")
        if not eq or os.path.exists(text):
            out.append(text)
            continue
        lmeval = ":" in name or name in LMEVAL_SPLITS
        if lmeval == (framework == "lm-eval"):
            out.append(text)
    return out


def _render_side(args: argparse.Namespace, spec: tuple[str, str, str | None, str | None, str],
                 comparison: Any, scratch: str) -> None:
    """One side rendered and added to ``comparison`` (or its located error); ``spec``: (framework,
    config path, dataset abbr or None, key column or None, the config as reports name it)."""
    framework, config, name, key, shown = spec
    if framework == "lm-eval":
        _lmeval(args, config, key, shown, comparison)
    else:
        _opencompass(args, config, name, key, shown, comparison, scratch)


def _error(comparison: Any, side: str, exc_or_error: Any) -> None:
    """A WorkbenchError or a render's PairError, located, as the JSON lists errors."""
    found = {k: getattr(exc_or_error, k, None) for k in ("file", "line", "message", "hint")}
    comparison.errors.append({"side": side, "file": found["file"], "line": found["line"],
                              "message": found["message"] or str(exc_or_error), "hint": found["hint"]})


def _lmeval(args: argparse.Namespace, config: str, key: str | None, shown: str, comparison: Any) -> None:
    from ..core.errors import WorkbenchError
    from ..headless.side_by_side import lmeval_side
    from ..loading.lmeval_settings import TaskSettings
    from ..loading.lmeval_tasks import render_tasks

    given = lmeval_settings(args)
    # one model on every side: its chat template is applied to the task as --apply_chat_template does
    settings = TaskSettings(given.num_fewshot, given.seed, given.system_instruction,
                            apply_chat_template=bool(args.chat_template),
                            fewshot_as_multiturn=given.fewshot_as_multiturn, seeds=given.seeds)
    try:
        options = settings.options(args.chat_template)
    except WorkbenchError as exc:
        _error(comparison, "lm-eval", exc)
        return
    (task,) = render_tasks([config], _data_for(args.data, "lm-eval"), options, settings.num_fewshot,
                           timeout=args.timeout or 10.0)
    for warning in task.warnings:
        comparison.warnings.append({"side": task.name, "message": warning})
    if task.error is not None:
        _error(comparison, task.name, task.error)
        if not task.samples:
            return
    if (task.rows_source or {}).get("kind") == "placeholder":
        comparison.errors.append({
            "side": task.name, "file": task.file, "line": None,
            "message": f"no docs for {task.name}: a comparison of placeholder rows says nothing",
            "hint": f"give its splits with --data SPLIT=FILE (test=..., and the few-shot split), or have "
                    f"{task.fields.get('dataset_path')!r} in the Hugging Face datasets cache"})
        return
    if key is None and comparison.benchmark is None:  # a shipped mapping's own note says why
        comparison.notes.append(f"{task.name}: rows aligned by position (no --key)")
    side = lmeval_side(task, shown, key or "", _chat_name(args.chat_template), args.limit)
    comparison.sides.append(_keyed(side, key, comparison))


def _chat_name(value: str | None) -> str | None:
    return None if value is None else Path(value).name or value


def _keyed(side: Any, key: str | None, comparison: Any) -> Any:
    """The side keyed by ``key``, or by position when there is none or its rows lack that column
    (said in the notes: rows by position align only when both sides hold them in one order)."""
    if key is not None and side.rows and all(not row.key for row in side.rows):
        comparison.notes.append(f"{side.dataset}: its rows have no {key!r} column: rows aligned by position")
        return _by_position(side)
    return side if key is not None else _by_position(side)


def _by_position(side: Any) -> Any:
    import dataclasses

    return dataclasses.replace(side, rows=tuple(dataclasses.replace(r, key=f"row {n}")
                                                for n, r in enumerate(side.rows)))


#: Where each framework's model classes are imported from, in a model config.
MODEL_MODULES = {"opencompass": "opencompass.models", "ais_bench": "ais_bench.benchmark.models"}


def _models_file(args: argparse.Namespace, scratch: str, framework: str = "opencompass") -> str:
    """The one model as a model config of ``framework``: a chat-template model with
    --chat-template (its folder as the path, or the template named), else a base model with no
    meta template."""
    chat = args.chat_template
    path = str(Path(chat).resolve()) if chat and Path(chat).is_dir() else "/nonexistent/compare-model"
    kind = "HuggingFacewithChatTemplate" if chat else "HuggingFaceCausalLM"
    file = Path(scratch) / f"compare_model_{framework}.py"
    local = ", attr='local'" if framework == "ais_bench" else ""
    model = f"dict(abbr={MODEL_ABBR!r}, type={kind}, path={path!r}, batch_size=1{local})"
    file.write_text(f"from {MODEL_MODULES[framework]} import {kind}\n\nmodels = [{model}]\n",
                    encoding="utf-8")
    return str(file)


def _opencompass(args: argparse.Namespace, config: str, name: str | None, key: str | None, shown: str,
                 comparison: Any, scratch: str) -> None:
    from ..core.errors import RenderError
    from ..headless.side_by_side import opencompass_side
    from .render import load_and_render

    side_args = copy.copy(args)
    side_args.configs = [config]
    side_args.data = _data_for(args.data, "opencompass")
    side_args.models = args.models or [_models_file(args, scratch)]
    chat = args.chat_template
    side_args.chat_template = chat if chat and not Path(chat).is_dir() else None
    side_args.judge, side_args.judge_model, side_args.run = False, [], None
    side_args.num_fewshot = side_args.fewshot_seed = side_args.system_instruction = None
    side_args.apply_chat_template, side_args.fewshot_as_multiturn = False, None
    workspace, result = load_and_render(side_args)
    framework = workspace.datasets[0].framework if workspace.datasets else "opencompass"
    if not args.models and framework in MODEL_MODULES and framework != "opencompass":
        # an AISBench config: the model is AISBench's class, as an AISBench run builds it
        side_args.models = [_models_file(args, scratch, framework)]
        workspace, result = load_and_render(side_args)
    # the one model: compare's own, or the first of --models (never a model the config defines)
    own = {os.path.realpath(m) for m in side_args.models}
    pairs = [p for p in result.pairs if (name is None or p.dataset_abbr == name) and p.model_spec is not None
             and os.path.realpath(p.model_spec.source.file or "") in own]
    models = {p.model_abbr for p in pairs} | {None}
    errors = [e for e in result.errors if (name is None or e.dataset in (None, name))
              and (e.model in models or e.dataset is None)]
    for error in errors:
        _error(comparison, name or config, error)
    for warning in result.warnings:  # the load's, and the compared pair's (not the config's own models')
        load_wide = (warning.model, warning.dataset) == (None, None)
        if (name is None or warning.dataset in (None, name)) and (warning.model in models or load_wide):
            comparison.warnings.append({"side": name or config, "message": warning.message})
    if not pairs:
        if not errors:
            there = ", ".join(sorted({p.dataset_abbr for p in result.pairs})[:8])
            comparison.errors.append({"side": config, "file": config, "line": None, "hint": None,
                                      "message": f"no dataset {name!r} in the config (it defines {there})"})
        return
    pair = pairs[0]
    source = pair.dataset.rows_source
    if source is not None and source.kind == "placeholder":
        comparison.errors.append({
            "side": pair.dataset_abbr, "file": config, "line": None,
            "message": f"no rows for {pair.dataset_abbr}: a comparison of placeholder rows says nothing",
            "hint": f"give them with --data {pair.dataset_abbr}=FILE, or set COMPASS_DATA_CACHE to the "
                    "folder holding OpenCompass's data/ (docs/data.md)"})
        return
    if name is None and len({p.dataset_abbr for p in result.pairs}) > 1:
        comparison.notes.append(f"{shown}: the first dataset, {pair.dataset_abbr} (--dataset ABBR for "
                                "another)")
    if key is None and comparison.benchmark is None:  # a shipped mapping's own note says why
        comparison.notes.append(f"{pair.dataset_abbr}: rows aligned by position (no --key)")
    try:
        side = opencompass_side(pair, shown, key or "", framework, _chat_name(args.chat_template), args.limit)
    except RenderError as exc:
        _error(comparison, pair.dataset_abbr, exc)
        return
    comparison.sides.append(_keyed(side, key, comparison))


def _write(parser: argparse.ArgumentParser, args: argparse.Namespace, comparison: Any) -> int:
    from ..core.inert_text import visible
    from ..headless import side_by_side_report as report
    from ..loading.files.atomic import atomic_write
    from .render import utf8_stdout

    if args.app and len(comparison.sides) >= 2:
        from ..tui.side_by_side_app import SideBySideApp

        title = comparison.benchmark or comparison.sides[0].dataset
        if comparison.subject:
            title += f" ({comparison.subject})"
        SideBySideApp(comparison.sides, title).run()
        output = ""
    elif args.format == "json":
        output = report.write_json(report.document(comparison, args.limit))
    elif len(comparison.sides) < 2:
        output = ""
    elif args.format == "markdown":
        output = report.markdown(comparison, args.show)
    else:
        color = args.color == "always" or (args.color == "auto" and not args.out and sys.stdout.isatty())
        output = report.text(comparison, args.show, color)
    if args.app:
        pass
    elif args.out:
        with atomic_write(args.out) as out:
            out.write(output)
    else:
        utf8_stdout()
        sys.stdout.write(output)
    for error in comparison.errors:
        where = error["file"] or "<config>"
        if error.get("line"):
            where += f":{error['line']}"
        hint = f" (hint: {error['hint']})" if error.get("hint") else ""
        print(visible(f"{where}: {error['message']}{hint}"), file=sys.stderr)
    if not args.quiet:
        for warning in comparison.warnings:
            print(visible(f"warning: {warning['side']}: {warning['message']}").replace("\n", " "),
                  file=sys.stderr)
    if comparison.errors or len(comparison.sides) < 2:
        return EXIT_CONFIG
    if args.app:  # the app exits 0 when stopped, as the main app does
        return EXIT_OK
    return EXIT_DIFF if comparison.differs() else EXIT_OK
