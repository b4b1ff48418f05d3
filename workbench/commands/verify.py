"""``workbench verify RUN_DIR``: did a finished (or partial) run send the reviewed prompts?

Renders the config the run saved (or ``--config FILE``) with the same rows and compares every
prompt the run recorded with the render, per dataset × model: matched, differing, missing.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import EXIT_CONFIG, EXIT_DIFF, EXIT_OK
from .common import HelpFormatter, add_inputs, add_strict, counted, data_file_problem

SCHEMA = "prompt-workbench/verify@1"
#: A pair the config renders and the run has no predictions of.
NOT_RUN = "no predictions in the run: its task did not run, or crashed"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench verify",
        usage="workbench verify RUN_DIR [--config FILE] [options]",
        description="Compare the prompts an OpenCompass run recorded (predictions/<model>/<dataset>"
        ".json, origin_prompt) with a render of the config the run saved (configs/*.py), or of "
        "--config FILE: per dataset × model, how many match, differ, or are missing.",
        epilog="A run folder is untrusted input: its configs/*.py is a program, run (bounded in time and "
        "memory, in a process of its own, but with your user's rights) to render it. For a colleague's "
        "run, verify against your own reviewed config: --config FILE.\n"
        "exit status: 0 every recorded prompt matches, 1 a prompt differs (or none could be "
        "compared), 2 usage error, 3 the run or its config cannot be read, or with --strict a warning "
        "that the real run differs from the render or failed (a model task that did not run, "
        "placeholder rows...; 3 outranks 1)\n"
        "example: workbench verify outputs/default/20241124_120000 --strict "
        "--data gsm8k=data/gsm8k/test.jsonl",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", help="the run's timestamped folder")
    add_inputs(parser, configs=False, run=False)
    # a config given as a second positional: taken here (not listed) to say where it belongs
    parser.add_argument("stray", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="render this config instead of the one the run saved (your reviewed "
                        "config: the run's own is code from whoever made the run)")
    parser.add_argument("--format", "-f", choices=("text", "json"), default="text",
                        help="text: a summary and the first differences (default); json: for machines")
    parser.add_argument("--max-diffs", type=counted(0), default=3, metavar="N",
                        help="differences shown per dataset × model (default 3)")
    add_strict(parser)
    return parser


@dataclass
class PairReport:
    dataset: str
    model: str
    matched: int = 0
    differing: int = 0
    missing: int = 0
    not_checked: int = 0
    note: str | None = None
    differences: list[dict[str, Any]] = field(default_factory=list)
    #: The error that kept the pair from rendering (its config, its rows, its model).
    error: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "model": self.model, "matched": self.matched,
                "differing": self.differing, "missing": self.missing, "not_checked": self.not_checked,
                "note": self.note, "differences": self.differences}


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.stray:
        parser.error(f"unrecognized arguments: {' '.join(args.stray)} (RUN_DIR is the only positional "
                     "argument: give a config with --config FILE)")
    problem = data_file_problem(args.data)
    if problem:
        # lazy: imported when the command runs, so --help stays quick
        from .render import usage_error

        return usage_error(parser.prog, problem)
    # lazy: imported when the command runs, so --help stays quick
    from ..core.errors import ConfigError
    from ..headless.stderr_report import error_line
    from ..loading.run_folder import read_run

    try:
        recorded = read_run(Path(args.run_dir))
    except ConfigError as exc:
        print(error_line(exc), file=sys.stderr)
        return EXIT_CONFIG
    config = Path(args.config) if args.config else recorded.config
    if config is None:
        print(f"{args.run_dir}: the run saved no config (configs/*.py) (hint: give --config FILE)",
              file=sys.stderr)
        return EXIT_CONFIG
    args.configs = [str(config)]
    # lazy: imported when the command runs, so --help stays quick
    from .render import load_and_render

    _, result = load_and_render(args)
    load_errors = [e for e in result.errors if e.dataset is None and e.model is None]
    if load_errors:
        for error in load_errors:
            print(error_line(error), file=sys.stderr)
        return EXIT_CONFIG
    reports = compare(recorded, result, args.max_diffs)
    # errors outrank differences: a recorded pair the config could not render is an error, said
    # at its line, not "no recorded prompt could be compared"
    failed = list({id(r.error): r.error for r in reports if r.error is not None}.values())
    # lazy: imported when the command runs, so --help stays quick
    from ..headless.formats.json_export import collect_warnings
    from ..headless.stderr_report import report_problems

    collect_warnings(result)
    absent = not_run(recorded, result)
    result.warnings += absent
    # in the reports too: every sample of such a pair is missing from the run
    lengths = {(p.dataset_abbr, p.model_abbr): len(p) for p in result.pairs}
    reports += [PairReport(w.dataset, w.model, missing=lengths[(w.dataset, w.model)], note=NOT_RUN)
                for w in absent]
    if args.format == "json":
        document = {"schema": SCHEMA, "run": str(recorded.folder), "config": str(config),
                    "pairs": [r.to_json() for r in reports]}
        print(json.dumps(document, ensure_ascii=False, indent=1))
    else:
        print_reports(reports, recorded.folder, config)
    for error in failed:
        print(error_line(error), file=sys.stderr)
    # the warnings that say the run differs from the render (--strict: errors); the rest are the
    # render's business
    strict = report_problems(_without_errors(result), strict=args.strict, prog=parser.prog, others=False)
    if failed or (args.strict and strict):  # errors outrank differences
        return EXIT_CONFIG
    compared = sum(r.matched + r.differing for r in reports)
    if any(r.differing for r in reports) or compared == 0:
        return EXIT_DIFF
    return EXIT_OK


def _without_errors(result: Any) -> Any:
    """The result's warnings only: its pair errors are in the reports already."""
    # lazy: imported when the command runs, so --help stays quick
    from ..core.result import RenderResult

    return RenderResult(result.config, warnings=result.warnings)


def not_run(recorded: Any, result: Any) -> list[Any]:
    """A warning for each pair the config renders and the run has no predictions of: its model
    task did not run, or crashed (the run folder keeps no predictions of a task that failed)."""
    # lazy: imported when the command runs, so --help stays quick
    from ..core.result import PairWarning

    return [PairWarning(p.dataset_abbr, p.model_abbr, f"has {NOT_RUN}; nothing of it is verified")
            for p in result.pairs if (p.model_abbr, p.dataset_abbr) not in recorded.pairs]


def compare(recorded: Any, result: Any, max_diffs: int) -> list[PairReport]:
    """A report per recorded model × dataset, in the run's order."""
    # lazy: imported when the command runs, so --help stays quick
    from ..core.errors import RenderError
    from ..core.verify import DIFFERING, MATCHED, verdict

    pairs = {(p.model_abbr, p.dataset_abbr): p for p in result.pairs}
    failed = {(e.model, e.dataset): e for e in result.errors}
    reports = []
    for (model, dataset), pair_records in recorded.pairs.items():
        report = PairReport(dataset, model)
        reports.append(report)
        pair = pairs.get((model, dataset))
        if pair is None:
            # a dataset whose rows failed (or a model that failed) made no pair: its own error says why
            error = failed.get((model, dataset)) or failed.get((None, dataset)) or failed.get((model, None))
            report.error = error
            report.note = (f"not rendered: {error.message}" if error else
                           "not in the config: no dataset × model of that name")
            report.not_checked = len(pair_records.records)
            continue
        if pair_records.shard_gaps:
            report.note = f"shards missing from the run: {', '.join(map(str, pair_records.shard_gaps))}"
        for index in range(len(pair)):
            record = pair_records.records.get(index)
            if record is None:
                report.missing += 1
                continue
            try:
                sample = pair.sample(index)
            except RenderError as exc:
                report.differing += 1
                report.differences.append({"sample": index, "label": None, "recorded": "",
                                           "rendered": f"(render failed: {exc.message})"})
                continue
            found = verdict(record, sample.requests, pair.model_kind)
            if found.outcome == MATCHED:
                report.matched += 1
            elif found.outcome == DIFFERING:
                report.differing += 1
                if len(report.differences) < max_diffs:
                    report.differences += [{"sample": index, "label": d.label, "recorded": d.recorded,
                                            "rendered": d.rendered} for d in found.differences]
            else:
                report.not_checked += 1
                report.note = report.note or f"not checked: {found.why}"
        extra = sorted(i for i in pair_records.records if i >= len(pair))
        if extra:
            report.not_checked += len(extra)
            report.note = (f"{len(extra)} recorded sample(s) beyond the {len(pair)} the render has "
                           "(other rows than the run's?)")
    return reports


def print_reports(reports: Sequence[PairReport], folder: Path, config: Path) -> None:
    # lazy: imported when the command runs, so --help stays quick
    from ..core.inert_text import visible
    from ..headless.compare import line_diff

    print(f"verify {visible(str(folder))} against {visible(str(config))}")
    for report in reports:
        counts = (f"{report.matched} matched, {report.differing} differing, {report.missing} missing"
                  + (f", {report.not_checked} not checked" if report.not_checked else ""))
        note = f" ({visible(report.note)})" if report.note else ""
        print(f"  {visible(report.dataset)} × {visible(report.model)}: {counts}{note}")
    for report in reports:
        for difference in report.differences:
            label = f" · label {difference['label']}" if difference["label"] is not None else ""
            print(f"\n--- {visible(report.dataset)} × {visible(report.model)} · sample "
                  f"{difference['sample']}{visible(label)}: - recorded by the run, + rendered now ---")
            recorded = visible(difference["recorded"], whitespace=True).split("\n")
            rendered = visible(difference["rendered"], whitespace=True).split("\n")
            for line in line_diff(recorded, rendered):
                print(line)
    matched = sum(r.matched for r in reports)
    differing = sum(r.differing for r in reports)
    missing = sum(r.missing for r in reports)
    unchecked = sum(r.not_checked for r in reports)
    tail = f", {missing} missing" + (f", {unchecked} not checked" if unchecked else "")
    if differing:
        print(f"\nverify: {differing} of {matched + differing} compared samples differ{tail}")
    elif matched:
        print(f"\nverify: all {matched} compared samples match{tail}")
    else:
        print(f"\nverify: no recorded prompt could be compared{tail}")
