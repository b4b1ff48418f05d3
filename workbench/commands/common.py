"""Options and helpers every command shares (inputs, error reporting).

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules; not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

TYPE_CHECKING = False  # (not typing's: `workbench --help` loads this module, and no more than it)
if TYPE_CHECKING:  # the types of what the commands import when they run
    from ..core.render import PredictionLookup, RenderOptions
    from ..loading.lmeval_settings import TaskSettings
    from ..loading.workspace import Workspace


class HelpFormatter(argparse.HelpFormatter):
    """Wraps each line of a description or epilog on its own, so an epilog can end with an
    ``example:`` line of its own; example lines and indented lines (a table of commands) are
    kept as written, so a command can be copied whole and columns stay aligned."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(self._fill_line(line, width, indent) for line in text.split("\n"))

    def _fill_line(self, line: str, width: int, indent: str) -> str:
        if not line:
            return ""
        if line.startswith(("example:", " ")):
            return indent + line
        return super()._fill_text(line, width, indent)


#: The longest --timeout accepted: a day (a config that needs more is not being edited live).
MAX_TIMEOUT = 86_400.0


def seconds(text: str) -> float:
    """``--timeout``: a finite number of seconds above 0, at most a day."""
    import math  # lazy: only --timeout needs it, so --help does not load it

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0 and at most "
                                         f"{MAX_TIMEOUT:g} (a day)")
    return value


def out_file(text: str) -> str | None:
    """``--out``: a file to write, or ``-`` for stdout (as the option's absence)."""
    return None if text == "-" else text


def counted(low: int, high: int | None = None):
    """An argparse type: a whole number from ``low`` (to ``high``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise argparse.ArgumentTypeError(f"{text!r}: give a whole number {span}")
        return value

    return parse


def add_strict(parser: argparse.ArgumentParser) -> None:
    """--strict: the warnings that mean the real run differs from what is shown, or fails, are
    errors (exit 3, which outranks a difference's 1); the way to run in CI (docs/ci.md)."""
    parser.add_argument("--strict", action="store_true",
                        help="make every warning that means the real run differs from what is shown, "
                        "or fails (a framework failure, placeholder rows, an unfilled {field}, a "
                        "config the framework cannot load...) an error: exit 3 (the way to run in CI)")


def add_lint(parser: argparse.ArgumentParser) -> None:
    """--lint: every lint finding of the rendered pairs (an error or a warning of ``workbench
    lint``'s default rules) is an error: exit 3, as --strict's are (docs/lint.md)."""
    parser.add_argument("--lint", action="store_true",
                        help="make every finding of `workbench lint` (its default rules: errors and "
                        "warnings) an error: exit 3")


def demo_config() -> Path:
    """The bundled demo (inside the package in a wheel, ``demo_data/`` in a checkout)."""
    from ..bundled import bundled

    return bundled("demo_data") / "eval_demo.py"


def pitfalls_config() -> Path:
    """The demo's second example set: one instructive mistake per dataset (``--pitfalls``)."""
    return demo_config().parent / "pitfalls" / "eval_pitfalls.py"


def open_pitfalls(args: argparse.Namespace) -> str | None:
    """With ``--pitfalls``, the configs become the bundled pitfalls; the problem (a usage error)
    when configs were given too."""
    if not getattr(args, "pitfalls", False):
        return None
    if args.configs:
        return "--pitfalls opens the bundled pitfalls config: give it without a CONFIG"
    args.configs = [str(pitfalls_config())]
    return None


def add_inputs(parser: argparse.ArgumentParser, configs: bool = True, run: bool = True) -> None:
    """The options every command that loads configs shares (``configs``/``run`` False: a
    command whose RUN_DIR names both, as ``verify``'s does)."""
    if configs:
        parser.add_argument("configs", nargs="*", metavar="CONFIG",
                            help="OpenCompass/AISBench config files (default: the bundled demo)")
        parser.add_argument("--pitfalls", action="store_true",
                            help="open the demo's pitfalls instead: one common mistake per dataset, "
                            "each with the message it gets (no CONFIG with it)")
    else:
        parser.set_defaults(configs=[])
    parser.add_argument("--data", action="append", default=[], metavar="[ABBR=]FILE",
                        help="sample rows (.jsonl/.json/.csv) for every dataset, or for dataset "
                        "ABBR; repeatable")
    parser.add_argument("--models", action="append", default=[], metavar="FILE",
                        help="a config file whose `models` are rendered too; repeatable")
    parser.add_argument("--config-root", action="append", default=[], metavar="DIR",
                        help="a folder holding the opencompass/ or ais_bench/ package tree, for "
                        "read_base imports by package; repeatable (also WORKBENCH_CONFIG_ROOT)")
    parser.add_argument("--chat-template", metavar="FILE|NAME", default=None,
                        help="render chat-template models with this Jinja file, a named template of "
                        "the model, or a built-in: chatml, llama3, mistral, gemma")
    parser.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                        help="time limit for running each Python config (default: 10)")
    if run:
        parser.add_argument("--run", metavar="RUN_DIR", default=None,
                            help="an OpenCompass run folder: its recorded model outputs feed "
                            "multi-turn `every` mode and show beside each request (JSON recorded_output; "
                            "`v` in the app)")
    else:
        parser.set_defaults(run=None)
    if run:
        parser.add_argument("--judge", action="store_true",
                            help="also render the LLM judge's request of every dataset scored by "
                            "GenericLLMEvaluator, CascadeEvaluator or LMEvaluator (a pair DATASET@judge × "
                            "the judge model; with --run, DATASET@judge+MODEL filled with MODEL's "
                            "predictions)")
        parser.add_argument("--judge-model", action="append", default=[], metavar="FILE",
                            help="(implies --judge) a config file whose `models` are the judge, instead of "
                            "each evaluator's judge_cfg (or, when that is empty, the OpenAISDK judge "
                            "OpenCompass builds from OC_JUDGE_MODEL / OC_JUDGE_API_KEY / OC_JUDGE_API_BASE)")
    else:
        parser.set_defaults(judge=False, judge_model=[])
    parser.add_argument("--framework-python", metavar="PATH", default=None,
                        help="a Python that has OpenCompass or AISBench installed: datasets with no "
                        "native reader get their rows from their class's own load() run there (default: "
                        "this Python, when it has the framework)")
    parser.add_argument("--embedding-model", metavar="DIR", default=None,
                        help="a local sentence-transformers model folder for TopkRetriever and "
                        "VotekRetriever (default: the config's sentence_transformers_model_name when "
                        "it is a folder; needs the embeddings extra, pip install '.[embeddings]' in "
                        "a checkout of the workbench; never downloads)")
    if configs:
        add_lmeval_options(parser)


def _multiturn(text: str) -> bool:
    from ..loading.lmeval_settings import parse_bool

    try:
        return parse_bool(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seed(text: str) -> tuple[int | None, ...]:
    from ..loading.lmeval_settings import parse_seed

    try:
        return parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_lmeval_options(parser: argparse.ArgumentParser) -> None:
    """What lm-eval's command line decides about an lm-eval task's prompts: one set for every
    command that loads configs (docs/lm-eval.md)."""
    group = parser.add_argument_group(
        "lm-eval tasks (a CONFIG that is a task YAML; --data [TASK:]SPLIT=FILE names its splits)")
    group.add_argument("--num-fewshot", type=counted(0), default=None, metavar="K",
                       help="shots per doc (lm-eval's --num_fewshot; a task YAML's num_fewshot: 0 wins, "
                       "as in lm-eval; default: the YAML's, else 0)")
    group.add_argument("--fewshot-seed", type=int, default=None, metavar="N",
                       help="the few-shot sampler's seed (lm-eval's fewshot_random_seed; default 1234)")
    group.add_argument("--seed", type=_seed, default=None, metavar="PYTHON,NUMPY,TORCH,FEWSHOT",
                       help="lm-eval's --seed: the global seeds a task's process_docs draws from and the "
                       "few-shot seed; one integer for all four, or 3-4 values, None leaving one unseeded "
                       "(default: 0,1234,1234,1234)")
    group.add_argument("--system-instruction", default=None, metavar="TEXT",
                       help="a system message before the task's description (lm-eval's --system_instruction)")
    group.add_argument("--apply-chat-template", action="store_true",
                       help="apply --chat-template (a tokenizer folder, a Jinja file or a built-in) as "
                       "lm-eval's --apply_chat_template applies the model's; without it a task gets none")
    group.add_argument("--fewshot-as-multiturn", nargs="?", type=_multiturn, const=True, default=None,
                       metavar="BOOL",
                       help="shots as user/assistant turns, or with 'false' folded into one user message "
                       "(default: on with --apply-chat-template, as lm-eval 0.4.13's command line has it)")


def lmeval_settings(args: argparse.Namespace) -> TaskSettings:
    """The lm-eval options as the loading layer takes them (a command without them: defaults)."""
    from ..loading.lmeval_settings import TaskSettings

    return TaskSettings(num_fewshot=getattr(args, "num_fewshot", None),
                        seed=getattr(args, "fewshot_seed", None),
                        system_instruction=getattr(args, "system_instruction", None),
                        apply_chat_template=bool(getattr(args, "apply_chat_template", False)),
                        fewshot_as_multiturn=getattr(args, "fewshot_as_multiturn", None),
                        seeds=getattr(args, "seed", None))


def lmeval_problem(args: argparse.Namespace) -> str | None:
    """Why the lm-eval options cannot be used as given (a usage error): as lm-eval refuses
    them, or given where no CONFIG is an lm-eval task (they would change nothing)."""
    settings = lmeval_settings(args)
    given = settings.given()
    if not given:
        return None
    from ..loading.config.lmeval_yaml import looks_like_task

    configs = list(args.configs or [])
    # a CONFIG that is no file may be a task's name, found under a config root
    if all(os.path.isfile(c) for c in configs) and not any(looks_like_task(c) for c in configs):
        what = ("the bundled demo is not one" if not configs else
                f"{configs[0]} is not one" if len(configs) == 1 else "no CONFIG is one")
        return (f"{', '.join(given)}: for lm-eval task YAMLs, and {what} (an OpenCompass or AISBench "
                "config sets its shots and chat template in the config)")
    return settings.problem(args.chat_template)


def load(args: argparse.Namespace) -> Workspace:
    """The Workspace the inputs describe (the demo when no config is given)."""
    from ..loading.workspace import load_workspace, shared_loader

    configs = args.configs or [str(demo_config())]
    workspace = load_workspace(configs, data=args.data, model_files=args.models, roots=args.config_root,
                               timeout=getattr(args, "timeout", None),
                               chat_template=getattr(args, "chat_template", None),
                               framework_python=getattr(args, "framework_python", None),
                               lmeval=lmeval_settings(args))
    if getattr(args, "judge", False) or getattr(args, "judge_model", None):  # --judge-model implies --judge
        shared_loader().add_judges(workspace, args.judge_model, run_outputs(getattr(args, "run", None)),
                                   args.data, args.config_root, getattr(args, "timeout", None))
    return workspace


def render_options(args: argparse.Namespace, predictions: PredictionLookup | None = None) -> RenderOptions:
    """The RenderOptions the inputs ask for (the embedding model TopK/VoteK rank with; the
    answers of ``predictions``, else of ``--run``)."""
    from ..core.render import RenderOptions
    from ..loading.models.embeddings import embedding_lookup

    # Token counts by section cost a second render per sample: on where a person reads
    # them (text, markdown, html, svg), or when asked for.
    sections = getattr(args, "token_sections", False) or getattr(args, "format", None) in (
        "text", "markdown", "html", "svg")
    return RenderOptions(embeddings=embedding_lookup(getattr(args, "embedding_model", None)),
                         token_sections=bool(sections),
                         predictions=predictions or run_outputs(getattr(args, "run", None)))


def run_outputs(run_dir: str | None) -> PredictionLookup | None:
    """The prediction lookup of ``--run RUN_DIR`` (None without one); a run that cannot be read
    is a usage error, said once; a file, line or record of it that cannot be read is a warning
    (one located line each) and the rest is used."""
    if not run_dir:
        return None
    from ..core.errors import ConfigError
    from ..core.inert_text import visible
    from ..loading.run_folder import problem_text
    from ..loading.run_folder import run_outputs as outputs_of

    try:
        lookup, problems = outputs_of(Path(run_dir))
    except ConfigError as exc:
        from ..headless.stderr_report import error_line

        print(f"workbench: --run: {error_line(exc)}", file=sys.stderr)
        raise SystemExit(2) from None
    import multiprocessing

    if multiprocessing.parent_process() is None:  # (a --jobs worker loading again says nothing)
        for problem in problems:
            print(visible(f"warning: {problem_text(problem)}").replace("\n", " "), file=sys.stderr)
    return lookup


def data_file_problem(data: list[str]) -> str | None:
    """A ``--data`` file that does not exist (a usage mistake, said before anything loads)."""
    from ..loading.rows.sample_rows import DataArg

    for text in data:
        arg = DataArg.parse(text)
        given = text.partition("=")[2] if arg.abbr is not None else text
        # lexists: a symlink loop or a FIFO is there, and the loader says what it is (exit 3)
        if not given or not os.path.lexists(arg.path):
            return f"--data {text}: no such file (hint: --data FILE for every dataset, or ABBR=FILE for one)"
    return None
