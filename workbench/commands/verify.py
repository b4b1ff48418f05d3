"""``workbench verify RUN_DIR``: did a finished (or partial) run send the reviewed prompts?

Renders the config the run saved (or ``--config FILE``) with the same rows and the run's own
answers (a multi-turn history holds what the model said) and compares every prompt the run
recorded (OpenCompass or AISBench, turn by turn) with the render, per dataset × model: matched,
differing, missing; and says what was not compared and why (a pair the run wrote nothing for,
placeholder rows, inputs the model class cut, a file of the run it could not read).

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
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
        description="Compare the prompts an OpenCompass or AISBench run recorded (predictions/<model>/"
        "<dataset>.json or .jsonl, origin_prompt, every turn) with a render of the config the run saved "
        "(configs/*.py), or of --config FILE: per dataset × model, how many match, differ, or are missing.",
        epilog="A run folder is untrusted input: its configs/*.py is a program, run (bounded in time and "
        "memory, in a process of its own, but with your user's rights) to render it. For a colleague's "
        "run, verify against your own reviewed config: --config FILE.\n"
        "exit status: 0 every recorded prompt matches, 1 a prompt differs (or none could be "
        "compared, or a pair of the config has no predictions or only placeholder rows), 2 usage error, "
        "3 the run, a prediction file or line of it, or its config cannot be read, or with --strict a "
        "warning that the real run differs from the render or failed (a model task that did not run, "
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


#: ``status`` of a pair whose records were compared (see PairReport.status for the others).
COMPARED = "compared"


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
    #: ``compared``; ``no predictions`` (the config has the pair, the run wrote nothing for it: its
    #: task did not run or crashed); ``placeholder rows`` (no data: nothing can be compared);
    #: ``not in the config``; ``not rendered``
    status: str = COMPARED
    #: rendered turns the run has no record of (a failed turn ends AISBench's conversation)
    unrecorded_turns: int = 0
    #: matched samples whose input the model class cut before sending (a truncation ``mode``):
    #: the run recorded them uncut, so the match is not of what the model got
    cut_by_class: int = 0
    #: The error that kept the pair from rendering (its config, its rows, its model).
    error: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "model": self.model, "status": self.status, "matched": self.matched,
                "differing": self.differing, "missing": self.missing, "not_checked": self.not_checked,
                "unrecorded_turns": self.unrecorded_turns, "cut_by_class": self.cut_by_class,
                "note": self.note, "differences": self.differences}

    @property
    def fails(self) -> bool:
        """A pair that makes verify exit 1: a prompt differs, or the config's pair was not checked."""
        return bool(self.differing) or self.status in ("no predictions", "placeholder rows")


def run(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.stray:
        parser.error(f"unrecognized arguments: {' '.join(args.stray)} (RUN_DIR is the only positional "
                     "argument: give a config with --config FILE)")
    problem = data_file_problem(args.data)
    if problem:
        from .render import usage_error

        return usage_error(parser.prog, problem)
    from ..core.errors import ConfigError
    from ..headless.stderr_report import error_line
    from ..loading.run_folder import read_run, recorded_outputs

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
    from .render import load_and_render

    # rendered with the run's own answers: a multi-turn history holds what the model answered
    workspace, result = load_and_render(args, predictions=recorded_outputs(recorded))
    load_errors = [e for e in result.errors if e.dataset is None and e.model is None]
    if load_errors:
        for error in load_errors:
            print(error_line(error), file=sys.stderr)
        return EXIT_CONFIG
    placeholders = {spec.abbr: spec.rows_source for spec in workspace.datasets
                    if spec.rows_source is not None and spec.rows_source.kind == "placeholder"}
    reports = compare(recorded, result, args.max_diffs, placeholders)
    for unreadable in recorded.problems:  # what of the run could not be read: one located line each
        print(error_line(unreadable), file=sys.stderr)
    result.warnings += not_run(reports)
    # the warnings that say the run differs from the render are errors under --strict
    strict = _say_warnings(result, set(placeholders), args.strict, parser.prog)
    if args.format == "json":
        document = {"schema": SCHEMA, "run": str(recorded.folder), "config": str(config),
                    "unreadable": [error_line(p) for p in recorded.problems],
                    "pairs": [r.to_json() for r in reports]}
        print(json.dumps(document, ensure_ascii=False, indent=1))
    else:
        print_reports(reports, recorded.folder, config, len(recorded.problems))
    # errors outrank differences: a recorded pair the config could not render is an error, said
    # at its line, not "no recorded prompt could be compared"
    failed = list({id(r.error): r.error for r in reports if r.error is not None}.values())
    for error in failed:
        print(error_line(error), file=sys.stderr)
    if recorded.problems or failed or (args.strict and strict):
        return EXIT_CONFIG
    compared = sum(r.matched + r.differing for r in reports)
    if any(r.fails for r in reports) or compared == 0:
        return EXIT_DIFF
    return EXIT_OK


def not_run(reports: list[PairReport]) -> list[Any]:
    """A warning for each pair the config renders and the run has no predictions of: its model
    task did not run, or crashed (the run folder keeps no predictions of a task that failed)."""
    from ..core.result import PairWarning

    return [PairWarning(r.dataset, r.model, f"has {NOT_RUN}; nothing of it is verified")
            for r in reports if r.status == "no predictions"]


def _say_warnings(result: Any, placeholders: set[str], strict: bool = False, prog: str = "workbench verify"
                  ) -> int:
    """The render's own warnings on stderr, once per cause, as ``render`` says them (rows, the
    wire, the run's answers), with those its samples said while compared; not what the reports
    say already (a sample the run has no record of, records that mix samples, the rows of the
    ``placeholders`` datasets), nor the pairs that failed (each report says so)."""
    from ..core.inferencers.common_plans import EVERY_WITH_GT_MIXED
    from ..core.inferencers.plan import UNRECORDED_SAMPLE
    from ..core.result import PairWarning
    from ..headless.stderr_report import report_problems

    def reported(message: str) -> bool:
        return message == UNRECORDED_SAMPLE or message.startswith(EVERY_WITH_GT_MIXED)

    said = {(w.dataset, w.model, w.message) for w in result.warnings}
    warnings = [w for w in result.warnings if not reported(w.message)
                and not (w.model is None and w.dataset in placeholders and not strict)]
    warnings += [PairWarning(p.dataset_abbr, p.model_abbr, m) for p in result.pairs for m in p.notes.messages
                 if (p.dataset_abbr, p.model_abbr, m) not in said and not reported(m)]
    return report_problems(replace(result, errors=[], warnings=warnings), strict=strict, prog=prog)


def compare(recorded: Any, result: Any, max_diffs: int, placeholders: Mapping[str, Any] | None = None
            ) -> list[PairReport]:
    """A report per recorded model × dataset, in the run's order, then one per pair of the
    config the run wrote no predictions for. ``placeholders``: the datasets whose rows are
    placeholders (no data found), by abbr, with where rows were looked for."""
    placeholders = placeholders or {}
    pairs = {(p.model_abbr, p.dataset_abbr): p for p in result.pairs}
    failed = {(e.model, e.dataset): e for e in result.errors}
    reports = []
    for (model, dataset), pair_records in recorded.pairs.items():
        report = PairReport(dataset, model)
        reports.append(report)
        pair = pairs.get((model, dataset))
        if pair is None and dataset in placeholders:
            # no data: the placeholder rows may not even render (a list column the template
            # indexes); the cause to fix is the data, not the template
            error = failed.get((model, dataset)) or failed.get((None, dataset))
            _placeholder_rows(report, placeholders[dataset], len(pair_records.records),
                              f" (on them the render fails: {error.message})" if error else "")
            continue
        if pair is None:
            # a dataset whose rows failed made no pair with any model: its own error says why
            error = failed.get((model, dataset)) or failed.get((None, dataset))
            report.error = error
            report.status = "not rendered" if error else "not in the config"
            where = ", ".join(str(f) for f in pair_records.files)
            report.note = (f"not rendered: {error.message}" if error else
                           f"not in the config: no dataset × model of that name ({where})")
            report.not_checked = len(pair_records.records)
            continue
        _compare_pair(report, pair, pair_records, max_diffs)
    for (model, dataset), error in failed.items():
        # a pair the render fails and the run wrote nothing for: both fail (the log says how)
        if model is not None and dataset is not None and (model, dataset) not in recorded.pairs \
                and (model, dataset) not in pairs:
            failure = _task_failure(recorded.folder, model, dataset)
            reports.append(PairReport(dataset, model, status="no predictions", note=(
                f"no predictions: the render fails this pair of the config ({error.message}), and the run "
                f"wrote none for it either{': ' + failure if failure else ''}")))
    strangers = sum(r.status == "not in the config" for r in reports)
    for pair in result.pairs:
        if (pair.model_abbr, pair.dataset_abbr) not in recorded.pairs and pair.model_abbr is not None:
            report = _unrecorded(recorded.folder, pair)
            if strangers:  # the other likely story: a dataset or model renamed since the run
                report.note = (f"{report.note}; or it is named otherwise in the run, which has {strangers} "
                               "pair(s) this config lacks")
            reports.append(report)
    return reports


def _unrecorded(folder: Path, pair: Any) -> PairReport:
    """A pair of the config the run has no predictions for: its task did not run, or crashed."""
    logs = folder / "logs" / "infer" / pair.model_abbr
    why = _task_failure(folder, pair.model_abbr, pair.dataset_abbr) or \
        "its inference task did not run, or crashed" + (f" (its log: {logs})" if logs.is_dir() else "")
    partial = folder / "predictions" / pair.model_abbr / f"tmp_{pair.dataset_abbr}.json"
    if partial.is_file():  # OpenCompass's answers so far, kept to resume from
        why += f" ({partial.name} holds the samples answered before it stopped)"
    return PairReport(pair.dataset_abbr, pair.model_abbr, missing=len(pair), status="no predictions",
                      note=f"no predictions: the config has this pair, and the run wrote none for it: {why}")


def _task_failure(folder: Path, model: str, dataset: str) -> str | None:
    """What the pair's inference task's log ends with: "its task failed: <exception> (its log: ...)"."""
    from ..loading.run_folder import task_failure

    found = task_failure(folder, model, dataset)
    return f"its inference task failed with {found[1]} (its log: {found[0]})" if found else None


def _placeholder_rows(report: PairReport, source: Any, recorded: int, failure: str = "") -> None:
    """A pair not compared because no rows were found: what the render shows are placeholders."""
    report.status = "placeholder rows"
    report.not_checked = recorded
    why = f"looked for {source.looked_for}" if source.looked_for else source.note
    looked = f" ({why})" if why else ""
    report.note = (f"not compared: no rows found{looked}, so the render shows placeholder rows built "
                   f"from reader_cfg and every prompt would differ from the run's{failure} (hint: --data "
                   "FILE, or set COMPASS_DATA_CACHE to the folder holding data/)")


def _compare_pair(report: PairReport, pair: Any, pair_records: Any, max_diffs: int) -> None:
    """Every rendered sample of one pair against its records."""
    from ..core.errors import RenderError
    from ..core.verify import DIFFERING, MATCHED, RecordShape, verdict

    source = getattr(pair.dataset, "rows_source", None)
    if source is not None and source.kind == "placeholder":
        _placeholder_rows(report, source, len(pair_records.records))
        return
    notes: list[str] = []
    if pair_records.shard_gaps:
        notes.append(f"shards missing from the run: {', '.join(map(str, pair_records.shard_gaps))}")
    plan_cfg = pair.plan.cfg if getattr(pair, "plan", None) is not None else {}
    shape = RecordShape(pair.model_kind, getattr(pair, "inferencer", ""), plan_cfg.get("infer_mode"),
                        pair_records.per_request, bool(plan_cfg.get("multiround")))
    unchecked: dict[str, list[int]] = {}
    for index in range(len(pair)):
        records = pair_records.records.get(index)
        if not records:
            report.missing += 1
            continue
        try:
            sample = pair.sample(index)
        except RenderError as exc:
            report.differing += 1
            report.differences.append({"sample": index, "label": None, "turn": None, "recorded": "",
                                       "rendered": f"(render failed: {exc.message})"})
            continue
        found = verdict(records, sample.requests, shape)
        report.unrecorded_turns += found.unrecorded_turns
        if found.outcome == MATCHED:
            report.matched += 1
            report.cut_by_class += index in getattr(pair, "cut_inputs", ())
        elif found.outcome == DIFFERING:
            report.differing += 1
            if len(report.differences) < max_diffs:
                report.differences += [{"sample": index, "label": d.label, "turn": d.turn,
                                        "recorded": d.recorded, "rendered": d.rendered}
                                       for d in found.differences]
        else:
            report.not_checked += 1
            unchecked.setdefault(found.why or "", []).append(index)
    for why, samples in unchecked.items():
        first = f"sample {samples[0]}" + (f" and {len(samples) - 1} more" if len(samples) > 1 else "")
        notes.append(f"not checked ({first} of {_files(pair_records)}): {why}")
    if report.unrecorded_turns:
        notes.append(f"{report.unrecorded_turns} rendered turn(s) have no record: a failed request ends "
                     "its conversation (see <dataset>_failed.jsonl), so later turns were never sent")
    if report.cut_by_class:
        notes.append(f"{report.cut_by_class} matched sample(s) compared uncut: the model class cut their "
                     "input before sending it (its truncation mode), so the model got less than the run "
                     "recorded and the workbench shows")
    extra = sorted(i for i in pair_records.records if i >= len(pair))
    if extra:
        report.not_checked += len(extra)
        notes.append(f"{len(extra)} recorded sample(s) beyond the {len(pair)} the render has "
                     "(other rows than the run's?)")
    report.note = "; ".join(notes) or None


def _files(pair_records: Any) -> str:
    files = [Path(f).name for f in pair_records.files]
    return files[0] if len(files) == 1 else f"{len(files)} files"


def print_reports(reports: Sequence[PairReport], folder: Path, config: Path, unreadable: int = 0) -> None:
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
            turn = f" · turn {difference['turn']}" if difference.get("turn") is not None else ""
            print(f"\n--- {visible(report.dataset)} × {visible(report.model)} · sample "
                  f"{difference['sample']}{visible(label)}{turn}: - recorded by the run, + rendered now ---")
            recorded = visible(_bounded(difference["recorded"]), whitespace=True).split("\n")
            rendered = visible(_bounded(difference["rendered"]), whitespace=True).split("\n")
            for line in line_diff(recorded, rendered):
                print(line)
    print("\n" + summary(reports, unreadable))


#: The most of one prompt a text diff shows: a run's record is untrusted, and difflib's line
#: compare grows with the square of a changed line's length.
MAX_DIFF_CHARS = 20_000


def _bounded(text: str) -> str:
    if len(text) <= MAX_DIFF_CHARS:
        return text
    more = len(text) - MAX_DIFF_CHARS
    return f"{text[:MAX_DIFF_CHARS]}\n[… {more:,} more characters not shown; --format json has them]"


def summary(reports: Sequence[PairReport], unreadable: int = 0) -> str:
    """The last line: the verdict, then everything that keeps it from being the whole story."""
    matched = sum(r.matched for r in reports)
    differing = sum(r.differing for r in reports)
    missing = sum(r.missing for r in reports if r.status == COMPARED)
    unchecked = sum(r.not_checked for r in reports)
    tail = f", {missing} missing" + (f", {unchecked} not checked" if unchecked else "")
    if differing:
        line = f"verify: {differing} of {matched + differing} compared samples differ{tail}"
    elif matched:
        line = f"verify: all {matched} compared samples match{tail}"
    else:
        line = f"verify: no recorded prompt could be compared{tail}"
    extra = []
    crashed = [r for r in reports if r.status == "no predictions"]
    if crashed:
        extra.append(f"{_pairs(len(crashed))} of the config with no predictions (the task did not run or "
                     "crashed)")
    placeholders = [r for r in reports if r.status == "placeholder rows"]
    if placeholders:
        extra.append(f"{_pairs(len(placeholders))} not compared: placeholder rows, no data found")
    cut = sum(r.cut_by_class for r in reports)
    if cut:
        extra.append(f"{cut} matched sample(s) compared uncut: the model class cut them before sending")
    if unreadable:
        extra.append(f"{unreadable} part(s) of the run could not be read (said above)")
    return line + "".join(f"; {e}" for e in extra)


def _pairs(n: int) -> str:
    return f"{n} pair{'s' if n != 1 else ''}"
