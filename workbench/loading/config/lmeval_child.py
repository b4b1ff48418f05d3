"""In the config worker's child: an lm-eval task's code and Jinja run over its docs.

A task's ``!function`` utilities are code and its Jinja may fail on any row, so both run here,
bounded like a config (time, memory, a process of its own): the utilities are imported from the
task's folder, ``process_docs`` is applied to each split, and ``doc_to_text`` /
``doc_to_target`` / ``doc_to_choice`` / ``gen_prefix`` / ``description`` are resolved for every
doc as lm-eval 0.4.13 resolves them (a column name, else a Jinja template in lm-eval's
environment: ``StrictUndefined``, ``keep_trailing_newline``, ``regex_replace``; a digit string
read as a number when the task has choices; a ``[...]`` target read as a list). What goes back
is plain data; a doc that fails carries its located error, raised by the core only if lm-eval
would reach it.

The global random state is lm-eval's: ``simple_evaluate`` seeds Python's ``random`` (0) and
numpy's (1234) before it builds the tasks, and each task's ``__init__`` calls the few-shot pool's
``process_docs`` (or ``fewshot_config.samples``), then the evaluated split's, so a utility that
shuffles (GPQA's ``random.shuffle``) draws from that sequence. The request carries the state the
previous task of the same render left (or the seeds), the answer the state this task leaves. A
``process_docs`` runs once per split: lm-eval calls it again on the same split (the evaluated split
again when it builds the requests, the pool when it is the evaluated split), and ``Dataset.map``
serves those calls from the cache file the first call wrote, drawing nothing.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import ast
import random
import re
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...core.errors import RenderError
from ...core.extras import install_hint
from ...core.lmeval.sampler import DEFAULT_SEED, Sampler
from .executor import ConfigTimeout
from .lmeval_yaml import FUNCTION, is_function

FIELDS = ("doc_to_text", "doc_to_target", "doc_to_choice")


class TaskFailed(Exception):
    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["message"])
        self.error = error


def _error(message: str, file: str | None, line: int | None, hint: str | None = None) -> dict[str, Any]:
    return {"message": message, "file": file, "line": line, "hint": hint}


class _Task:
    def __init__(self, request: dict[str, Any], progress: Callable[[str], None]) -> None:
        self.request = request
        self.config: dict[str, Any] = request["config"]
        self.where: dict[str, list] = request.get("where") or {}
        self.progress = progress
        self.modules: dict[str, Any] = {}
        self.files: list[str] = []
        self.defined: dict[str, list[Any]] = {}  # each !function's own file and line
        self.warnings: list[str] = []
        self.features: list[str] = []
        self.has_choice = False
        # lazy: jinja2 is needed only when a task is rendered, in the child
        import jinja2

        self.jinja = jinja2
        env = jinja2.Environment(loader=jinja2.BaseLoader(), undefined=jinja2.StrictUndefined,
                                 keep_trailing_newline=True)
        env.filters["regex_replace"] = lambda s, pattern, repl, count=0: re.sub(pattern, repl, s,
                                                                                count=count)
        self.env = env
        self.templates: dict[str, Any] = {}
        self._datasets: Any = None
        self.seeded = False
        self.numpy_seeded = False
        self.processed: dict[tuple[str, str, str], list[dict[str, Any]]] = {}

    # -- the global random state ----------------------------------------------------------

    def seed_globals(self) -> None:
        """Before the task's first code runs: Python's global random state as lm-eval's code would
        find it (the previous task's, else ``simple_evaluate``'s seed; a seed of None is an
        unseeded process's: fresh from the system's entropy, as lm-eval's then is)."""
        if self.seeded:
            return
        self.seeded = True
        state = (self.request.get("random_state") or {}).get("python")
        if state is not None:
            version, internal, gauss = state
            random.setstate((version, tuple(internal), gauss))
            return
        random.seed(self.request.get("random_seed"))
        if self.request.get("random_seed") is None:
            self._unseeded("Python's random")

    def seed_numpy(self) -> None:
        """numpy's global state likewise, once numpy is imported (by a utility, or by ``datasets``)
        and before the task's code runs on: importing numpy for a task that never does would cost
        every render a tenth of a second."""
        if self.numpy_seeded or "numpy" not in sys.modules:
            return
        self.numpy_seeded = True
        np = sys.modules["numpy"]
        state = (self.request.get("random_state") or {}).get("numpy")
        if state is not None:
            kind, keys, pos, has_gauss, cached = state
            np.random.set_state((kind, np.array(keys, dtype=np.uint32), pos, has_gauss, cached))
            return
        np.random.seed(self.request.get("numpy_seed"))
        if self.request.get("numpy_seed") is None:
            self._unseeded("numpy's global random state")

    def _unseeded(self, what: str) -> None:
        self.warnings.append(f"{what} is not seeded (--seed None): what the task's code draws from it "
                             "differs on every render, as in lm-eval's runs")

    def random_state(self) -> dict[str, Any] | None:
        """The global random state the task's code left (what it did not touch, as it came)."""
        out = dict(self.request.get("random_state") or {"python": None, "numpy": None})
        if self.seeded:
            version, internal, gauss = random.getstate()
            out["python"] = [version, list(internal), gauss]
        if self.numpy_seeded:
            kind, keys, pos, has_gauss, cached = sys.modules["numpy"].random.get_state()
            out["numpy"] = [kind, [int(k) for k in keys], int(pos), int(has_gauss), float(cached)]
        return out if self.seeded or self.numpy_seeded else self.request.get("random_state")

    # -- functions ------------------------------------------------------------------------

    def function(self, marker: dict[str, Any]) -> Callable[..., Any]:
        qual = marker[FUNCTION]
        mod_path, _, name = str(qual).rpartition(".")
        where = (marker.get("file"), marker.get("line"))
        if not mod_path:
            raise TaskFailed(_error(f"!function {qual}: no module path: lm-eval raises ValueError", *where))
        file = (Path(marker["base"]) / f"{mod_path.replace('.', '/')}.py").resolve()
        if not file.is_file():
            raise TaskFailed(_error(f"!function {qual}: there is no {file.name} beside the task YAML "
                                    "(lm-eval then tries an installed module, which the workbench "
                                    "does not import)", *where))
        module = self.modules.get(str(file))
        if module is None:
            self.seed_globals()
            self.progress(str(file))
            self.files.append(str(file))
            namespace: dict[str, Any] = {"__name__": str(file.with_suffix("")), "__file__": str(file)}
            try:
                source = file.read_text(encoding="utf-8")
                if re.search(r"^\s*(import|from)\s+datasets\b", source, re.M):
                    self.datasets(f"{file.name} imports datasets")
                if re.search(r"^\s*(import|from)\s+numpy\b", source, re.M):
                    # lazy: seeded before the utility's own import of it can draw
                    import numpy  # noqa: F401
                self.seed_numpy()
                code = compile(source, str(file), "exec")
                exec(code, namespace)  # the task's own utility, in the isolated child
                self.seed_numpy()  # imported on the way (by a module the utility imports)
            except ConfigTimeout as exc:
                raise TaskFailed(self._timed_out(exc)) from None
            except Exception as exc:
                raise TaskFailed(self._raised(exc, f"importing {file.name} for !function {qual}",
                                              str(file))) from None
            module = self.modules[str(file)] = namespace
        if name not in module or not callable(module[name]):
            raise TaskFailed(_error(f"!function {qual}: {file.name} has no function {name!r}: "
                                    "lm-eval raises AttributeError", *where))
        code = getattr(module[name], "__code__", None)
        self.defined[str(qual)] = [getattr(code, "co_filename", str(file)),
                                   getattr(code, "co_firstlineno", None)]
        return module[name]

    def _raised(self, exc: BaseException, doing: str, fallback: str | None) -> dict[str, Any]:
        file, line = fallback, None
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename in self.files:
                file, line = frame.filename, frame.lineno
        hint = None
        if isinstance(exc, ImportError):
            hint = "install what the utility imports into the workbench's environment"
        return _error(f"{doing}: {type(exc).__name__}: {exc}", file, line, hint)

    def _timed_out(self, exc: ConfigTimeout) -> dict[str, Any]:
        """The time limit, located on the utility's line the alarm stopped (a loop's)."""
        error = self._raised(exc, "", self.request["path"])
        error["message"] = (f"the task's code did not finish within {float(self.request['timeout']):g} s "
                            "(the config worker's limit)")
        error["hint"] = "a utility that loops; raise the limit with --timeout"
        return error

    def call(self, fn: Callable[..., Any], doing: str, *args: Any) -> Any:
        self.seed_numpy()  # numpy imported since (by datasets, or lazily by the utility)
        try:
            return fn(*args)
        except ConfigTimeout as exc:
            raise TaskFailed(self._timed_out(exc)) from None
        except Exception as exc:
            raise TaskFailed(self._raised(exc, doing, None)) from None

    # -- docs -----------------------------------------------------------------------------

    def split(self, name: str, process: Any, pool: bool = False) -> list[dict[str, Any]]:
        splits = self.request["splits"]
        if name not in splits:
            why = " (the few-shot pool, which lm-eval reads when it builds the task, at 0 shots too)" \
                if pool else ""
            raise TaskFailed(_error(f"no docs for split {name!r}{why}: lm-eval raises KeyError",
                                    *self._at("test_split"), hint=f"give them with --data {name}=FILE"))
        docs = splits[name]
        if not is_function(process):
            return docs
        key = (name, str(process[FUNCTION]), str(process.get("base")))
        if key not in self.processed:
            fn = self.function(process)
            datasets = self.datasets("process_docs")
            out = self.call(fn, f"process_docs on split {name!r}", datasets.Dataset.from_list(docs))
            self.processed[key] = [_plain(doc) for doc in out]
        return self.processed[key]

    def datasets(self, why: str) -> Any:
        """The ``datasets`` package, or the workbench's stand-in put in its place (said once)."""
        if self._datasets is None:
            try:
                # lazy: the optional package (the lmeval extra), in the child only
                import datasets
            except ImportError:
                # lazy: the stand-in, only where the package is missing
                from . import lmeval_datasets as datasets

                sys.modules["datasets"] = datasets
                self.warnings.append(f"{why}, and the datasets package is not installed: the task's "
                                     "utilities ran on the workbench's stand-in for datasets.Dataset "
                                     "(map, filter, select ...; no Arrow typing). "
                                     f"For the real one: {install_hint('lmeval')}")
            self._datasets = datasets
        return self._datasets

    def _at(self, key: str) -> tuple[str | None, int | None]:
        found = self.where.get(key)
        return (found[0], found[1]) if found else (self.request["path"], None)

    def resolve(self, doc: dict[str, Any], spec: Any, key: str, kind: str) -> Any:
        """``doc_to_text`` (``kind`` text/target/choice/prefix) of one doc."""
        if isinstance(spec, (int, float)) and not isinstance(spec, bool) and kind != "choice":
            return spec
        if isinstance(spec, str):
            if spec in self.features:
                return doc[spec]
            rendered = self.template(spec, doc, key)
            if kind == "choice":
                try:
                    return ast.literal_eval(rendered)
                except (ValueError, SyntaxError) as exc:
                    raise TaskFailed(_error(f"{key}: the template gave {rendered[:80]!r}, which "
                                            f"ast.literal_eval refuses ({type(exc).__name__}): lm-eval "
                                            "raises", *self._at(key))) from None
            if kind in ("text", "target") and rendered.isdigit() and self.has_choice:
                return ast.literal_eval(rendered)
            if kind == "target" and len(rendered) >= 2 and rendered[0] == "[" and rendered[-1] == "]":
                try:
                    return ast.literal_eval(rendered)
                except (SyntaxError, ValueError):
                    return rendered
            return rendered
        if isinstance(spec, list) and kind in ("target", "choice"):
            return spec
        if isinstance(spec, dict) and kind == "choice" and not is_function(spec):
            return list(spec.values())
        if is_function(spec):
            return _plain(self.call(self.function(spec), f"{key} ({spec[FUNCTION]})", doc))
        raise TaskFailed(_error(f"{key} is {type(spec).__name__}: lm-eval raises TypeError",
                                *self._at(key)))

    def template(self, source: str, doc: dict[str, Any], key: str) -> str:
        compiled = self.templates.get(source)
        if compiled is None:
            try:
                compiled = self.templates[source] = self.env.from_string(source)
            except self.jinja.TemplateSyntaxError as exc:
                raise TaskFailed(_error(f"{key}: Jinja syntax error: {exc.message}",
                                        *self._at(key))) from None
        try:
            return compiled.render(**doc)
        except Exception as exc:
            raise TaskFailed(_error(f"{key}: {type(exc).__name__}: {exc} (lm-eval's Jinja is "
                                    "StrictUndefined)", *self._at(key))) from None

    def media(self, doc: dict[str, Any], spec: Any, key: str) -> None:
        """``doc_to_image`` / ``doc_to_audio`` of one doc, as lm-eval reads it (a list of them, a
        column, a template ``ast.literal_eval`` reads, a ``!function``: :meth:`resolve`'s ways of
        reading choices), for its errors only."""
        if isinstance(spec, list):
            for one in spec:
                self.media(doc, one, key)
        elif isinstance(spec, str) or is_function(spec):
            self.resolve(doc, spec, key, "choice")

    def field(self, entry: dict[str, Any], name: str, doc: dict[str, Any], spec: Any, key: str,
              kind: str) -> bool:
        try:
            entry[name] = self.resolve(doc, spec, key, kind)
        except TaskFailed as failed:
            entry["error"] = failed.error
            return False
        return True


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def run(request: dict[str, Any], progress: Callable[[str], None]) -> dict[str, Any]:
    """The resolved task (see the module docstring), or ``{"error": ...}``."""
    task = _Task(request, progress)
    try:
        out = _run(task)
    except TaskFailed as failed:
        return {"error": failed.error, "files": task.files, "warnings": task.warnings,
                "functions": task.defined, "random_state": task.random_state()}
    except RecursionError:
        return {"error": _error("a utility recursed too deep", request["path"], None),
                "files": task.files, "warnings": task.warnings, "functions": task.defined,
                "random_state": task.random_state()}
    return {"task": out, "error": None, "files": task.files, "warnings": task.warnings,
            "functions": task.defined, "random_state": task.random_state()}


def _run(task: _Task) -> dict[str, Any]:
    cfg = task.config
    process = cfg.get("process_docs")
    test, valid, train = cfg.get("test_split"), cfg.get("validation_split"), cfg.get("training_split")
    eval_split = test or valid
    if eval_split is None:
        raise TaskFailed(_error("the task has no test_split or validation_split: lm-eval raises "
                                "ValueError (must have valid or test docs)", task.request["path"], None))
    fewshot_cfg = cfg.get("fewshot_config") or {}
    fs = {
        "sampler": fewshot_cfg.get("sampler", "default"),
        "split": fewshot_cfg.get("split", cfg.get("fewshot_split")),
        "target_delimiter": fewshot_cfg.get("target_delimiter", cfg.get("target_delimiter", " ")),
        "fewshot_delimiter": fewshot_cfg.get("fewshot_delimiter", cfg.get("fewshot_delimiter", "\n\n")),
    }
    if fewshot_cfg.get("fewshot_indices"):
        task.warnings.append("fewshot_config.fewshot_indices is ignored, as lm-eval 0.4.13 ignores it "
                             "(its task builds the sampler without them): shots come from the whole pool")
    media = [f for f in ("doc_to_image", "doc_to_audio") if cfg.get(f) is not None]
    if media:
        task.warnings.append(
            f"{' and '.join(media)}: lm-eval hands the model each doc's {' and '.join(m[7:] for m in media)} "
            "beside the context (a third argument of every request); the render shows the context, as "
            "lm-eval builds it, without the media")
    fs_specs = {f: fewshot_cfg.get(f, cfg.get(f)) for f in (*FIELDS, "gen_prefix")}
    fs_process = fewshot_cfg.get("process_docs", process)
    # lm-eval builds the few-shot pool when it builds the task, at 0 shots too, before it reads the
    # evaluated split: its split must be there and its process_docs runs (first: it draws first
    # from the global random state); its docs' fields are resolved only when shots are drawn
    if fs["split"] is not None:
        pool_docs = task.split(fs["split"], fs_process, pool=True)
    elif fewshot_cfg.get("samples") is not None:
        samples = fewshot_cfg["samples"]
        pool_docs = [_plain(d) for d in (task.call(task.function(samples), "fewshot_config.samples")
                                         if is_function(samples) else samples)]
    else:
        pool_docs = task.split(train or valid or test, process, pool=True)
    docs = task.split(eval_split, process)
    if not docs:
        raise TaskFailed(_error(f"split {eval_split!r} has no docs: lm-eval raises", *task._at("test_split")))
    task.features = list(docs[0].keys())
    task.has_choice = cfg.get("doc_to_choice") is not None

    entries = []
    for doc in docs:
        entry: dict[str, Any] = {"doc": doc}
        ok = task.field(entry, "text", doc, cfg.get("doc_to_text"), "doc_to_text", "text") \
            and task.field(entry, "target", doc, cfg.get("doc_to_target"), "doc_to_target", "target")
        if ok and task.has_choice:
            ok = task.field(entry, "choices", doc, cfg["doc_to_choice"], "doc_to_choice", "choice")
        if ok and cfg.get("gen_prefix") is not None:
            ok = task.field(entry, "gen_prefix", doc, cfg["gen_prefix"], "gen_prefix", "prefix")
        if ok and cfg.get("description"):
            ok = task.field(entry, "description", doc, cfg["description"], "description", "prefix")
        for key in media if ok else ():
            # lm-eval reads each doc's media when it builds its requests: where that fails, so does
            # the render (the media themselves are not kept: the render shows no media)
            try:
                task.media(doc, cfg[key], key)
            except TaskFailed as failed:
                entry["error"], ok = failed.error, False
                break
        entries.append(entry)
        if not ok and len(entries) == 1:
            raise TaskFailed(entry["error"])  # lm-eval resolves the first doc when the task is built
    multiple_input = 0
    first = entries[0]
    if task.has_choice and isinstance(first.get("text"), int) and not isinstance(first.get("text"), bool):
        multiple_input = len(first["choices"]) if isinstance(first.get("choices"), list) else 0
    if task.has_choice:
        _check_first_doc(task, first)

    pool: list[dict[str, Any]] = []
    shots = request_shots(task)
    if shots > 0:
        same_split = fs["split"] == test
        drawn = _drawn(fs["sampler"], pool_docs, entries, shots, same_split, task.request.get("seed"))
        fs_choice = fs_specs["doc_to_choice"]
        for position, doc in enumerate(pool_docs):
            # a doc no shot draws is only counted (and, in the evaluated split, compared)
            shot: dict[str, Any] = {"doc": doc if same_split else {}}
            if position not in drawn:
                pool.append(shot)
                continue
            shot["doc"] = doc
            ok = task.field(shot, "text", doc, fs_specs["doc_to_text"], "doc_to_text", "text") \
                and task.field(shot, "target", doc, fs_specs["doc_to_target"], "doc_to_target", "target")
            if ok and fs_choice:
                ok = task.field(shot, "choices", doc, fs_choice, "doc_to_choice", "choice")
            if ok and fs_specs["gen_prefix"]:
                task.field(shot, "gen_prefix", doc, fs_specs["gen_prefix"], "gen_prefix", "prefix")
            pool.append(shot)

    gen = cfg.get("generation_kwargs")
    fewshot_delimiter = cfg.get("fewshot_delimiter", "\n\n")
    # as the Instance carries it: the YAML's own value (a string stays a string), else the
    # fewshot_delimiter in a list
    until = gen.get("until", [fewshot_delimiter]) if isinstance(gen, dict) else [fewshot_delimiter]
    metrics = [m.get("metric") for m in cfg.get("metric_list") or () if isinstance(m, dict)]
    return {
        "name": cfg.get("task"),
        "output_type": cfg.get("output_type", "generate_until"),
        "target_delimiter": cfg.get("target_delimiter", " "),
        "fewshot_delimiter": fewshot_delimiter,
        "num_fewshot": cfg.get("num_fewshot"),
        "test_split": test,
        "fewshot": fs,
        "until": until,
        "mutual_info": "acc_mutual_info" in metrics,
        "multiple_input": multiple_input,
        "has_choice": task.has_choice,
        "gen_prefix_config": cfg.get("gen_prefix") if isinstance(cfg.get("gen_prefix"), str) else None,
        "docs": entries,
        "pool": pool,
    }


def _check_first_doc(task: Any, first: dict[str, Any]) -> None:
    """lm-eval's look at the first doc when it builds a task with choices: its target taken as
    a choice (``choices[target]`` where the target is an int, a bool included), then each
    choice's first character (``choice[0].isspace()``). The docs' values are plain data, so
    Python's own indexing raises what lm-eval's does: a string's characters and a dict's keys
    are its choices, a number is none."""
    choices, target = first.get("choices"), first.get("target")
    if not isinstance(target, list):
        if isinstance(target, int) and choices is not None:
            try:
                target = choices[target]
            except (IndexError, KeyError, TypeError) as exc:
                raise TaskFailed(_error(
                    f"the first doc's target {target!r} does not pick one of its choices "
                    f"({_shown(choices)}): lm-eval raises {type(exc).__name__} when it builds the task",
                    *task._at("doc_to_target"))) from None
        else:
            target = str(target)
    try:
        for choice in choices if choices is not None else [target]:
            choice[0].isspace()
    except (IndexError, KeyError, TypeError, AttributeError) as exc:
        raise TaskFailed(_error(
            f"the first doc's choices ({_shown(choices)}) are not strings: lm-eval raises "
            f"{type(exc).__name__} ({exc}) when it builds the task",
            *task._at("doc_to_choice"))) from None


def _shown(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _drawn(sampler_name: str, pool_docs: list[dict[str, Any]], entries: list[dict[str, Any]], shots: int,
           same_split: bool, seed: Any) -> set[int]:
    """The pool positions the docs' shots will be drawn from (the core's sampler, run ahead
    with the same seed), so only those docs are resolved and sent: lm-eval, too, formats only
    the shots it draws. Draws stop where the core will stop (a doc that fails, too many shots)."""
    try:
        sampler = Sampler(sampler_name, pool_docs, DEFAULT_SEED if seed is None else int(seed))
    except RenderError:
        return set()
    drawn: set[int] = set()
    for entry in entries:
        if entry.get("error"):
            break
        try:
            drawn.update(sampler.draw(shots, entry["doc"] if same_split else None))
        except RenderError:
            break
    return drawn


def request_shots(task: _Task) -> int:
    own = task.config.get("num_fewshot")
    cli = task.request.get("num_fewshot")
    if cli is not None and own != 0:
        return int(cli)
    return int(own or 0)

