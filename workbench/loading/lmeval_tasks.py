"""lm-eval task YAMLs to rendered tasks: the YAML and its include chain read here, the docs from
``--data`` (or the Hugging Face datasets cache), the task's code and Jinja run in the config
worker, the prompt rules of :mod:`workbench.core.lmeval` applied last.

Each task is loaded on its own: a task that fails (an include cycle, a ``!function`` that loops
or raises, Jinja failing on a row) is one located error, and the others still render.

May import: the core and every loading folder (config, rows, models, files); not views or a front
end.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, RenderError, WorkbenchError
from ..core.inferencers.lmeval_plan import task_inferencer
from ..core.lmeval.chat import ChatPath
from ..core.lmeval.prompt import Options, Sample, build_samples, shot_count
from ..core.lmeval.sampler import DEFAULT_SEED
from ..core.spec import DatasetSpec, RowsSource, Source
from .config import worker
from .config.lmeval_yaml import FUNCTION, TaskYaml, is_function, read_task
from .files.reading import real_path
from .models.model_assets import chat_template_override, read_model_folder
from .rows.data_files import read_rows

__all__ = ["LoadedTask", "chat_path", "render_choices", "render_tasks", "task_dataset"]


@dataclass
class LoadedTask:
    """One task's render: its samples in doc order, or the error that stopped it (with the
    samples before it), and what it was read from."""

    name: str
    file: str
    samples: list[Sample] = field(default_factory=list)
    error: WorkbenchError | None = None
    warnings: list[str] = field(default_factory=list)
    output_type: str | None = None
    rows_source: dict[str, Any] | None = None
    files: list[str] = field(default_factory=list)
    #: the merged YAML's fields (a ``!function`` as written) and the file:line each came from
    fields: dict[str, Any] = field(default_factory=dict)
    where: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: the file:line of each key inside a field (``("fewshot_config", "sampler")``)
    inner: dict[tuple[str, ...], tuple[str, int]] = field(default_factory=dict)
    #: the include chain in reading order: each file and the ``include:`` line that reached it
    chain: list[tuple[str, tuple[str, int] | None]] = field(default_factory=list)
    #: each ``!function`` the render called: the file and line it is defined at
    functions: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    #: the file each split's docs were read from (``--data``, the YAML's data_files, the cache)
    split_files: dict[str, str] = field(default_factory=dict)
    #: what the render used beside the fields: shots, the pool, delimiters, until (the resolved
    #: task's, without its docs)
    resolved: dict[str, Any] = field(default_factory=dict)
    #: the test docs as the render read them (after ``process_docs``), by doc id: what ``compare``
    #: aligns rows by
    docs: list[Any] = field(default_factory=list)
    #: the global random state (Python's, numpy's) the task's code left, for the next task of the
    #: same run (None: untouched)
    random_state: dict[str, Any] | None = None


def chat_path(value: str, cwd: str | os.PathLike | None = None) -> ChatPath:
    """``--chat-template DIR|FILE|NAME``: a tokenizer folder (its template and special tokens),
    a Jinja file, or a built-in name."""
    # lazy: built-in names are looked up only here
    from ..core.tokens.chat_template import builtin_template

    path = Path(cwd or ".") / value if not Path(value).is_absolute() else Path(value)
    if path.is_dir():
        folder = read_model_folder(path)
        if folder.problem is not None:
            raise folder.problem
        template = folder.chat_template()
        if template is None:
            raise ConfigError(f"{path} has no chat template (chat_template.jinja or "
                              "tokenizer_config.json's chat_template)", file=str(path))
        return ChatPath(template, dict(folder.special_tokens.named), clock=datetime.now)
    found = chat_template_override(value, cwd)
    if isinstance(found, str):
        builtin = builtin_template(found)
        if builtin is None:
            raise ConfigError(f"--chat-template {value}: not a folder, a file or a built-in template name")
        return ChatPath(builtin, dict(builtin.default_tokens), clock=datetime.now)
    return ChatPath(found, dict(found.default_tokens), clock=datetime.now)


def _split_data(data: list[str]) -> dict[str | None, dict[str, str]]:
    """``--data [TASK:]SPLIT=FILE`` by task (None: every task)."""
    out: dict[str | None, dict[str, str]] = {}
    for item in data:
        left, sep, file = item.partition("=")
        if not sep:
            out.setdefault(None, {})["*"] = item
            continue
        task, colon, split = left.rpartition(":")
        out.setdefault(task if colon else None, {})[split] = file
    return out


def _read_split_file(file: str) -> list[Any] | dict[str, list[Any]]:
    if file.endswith(".parquet"):
        try:
            # lazy: the parquet extra
            import pyarrow.parquet as pq
        except ImportError as exc:
            raise ConfigError("reading a .parquet file needs pyarrow", file=file,
                              hint="pip install pyarrow (the parquet extra)") from exc
        return pq.read_table(file).to_pylist()
    return read_rows(file)


def _docs(cfg: dict[str, Any], given: dict[str, str], task: LoadedTask) -> dict[str, list[Any]]:
    splits: dict[str, list[Any]] = {}
    for split, file in given.items():
        rows = _read_split_file(file)
        task.files.append(str(real_path(file)))
        if isinstance(rows, dict):
            named = rows if split == "*" else {split: rows.get(split) or []}
            splits.update(named)
            task.split_files.update(dict.fromkeys(named, file))
        elif split == "*":
            for key in ("test_split", "validation_split", "training_split", "fewshot_split"):
                if isinstance(cfg.get(key), str) and cfg[key] not in splits:
                    splits[cfg[key]] = rows
                    task.split_files[cfg[key]] = file
        else:
            splits[split] = rows
            task.split_files[split] = file
        task.rows_source = {"kind": "file", "path": file, "data_id": None, "reader": None}
    if not splits:
        splits = _local_data_files(cfg, task)
    if not splits:
        cached = _hf_cache_splits(cfg)
        if cached:
            splits, folder = cached
            task.rows_source = {"kind": "hf-cache", "path": folder, "data_id": cfg.get("dataset_path"),
                                "reader": None}
            task.split_files = dict.fromkeys(splits, folder)
    return splits


def _local_data_files(cfg: dict[str, Any], task: LoadedTask) -> dict[str, list[Any]]:
    """``dataset_path: json`` (or csv, parquet) with ``dataset_kwargs.data_files``: the local files
    ``datasets.load_dataset`` would read (a path or list is the ``train`` split, as there)."""
    if cfg.get("dataset_path") not in ("json", "csv", "parquet"):
        return {}
    files = (cfg.get("dataset_kwargs") or {}).get("data_files")
    if isinstance(files, (str, list)):
        files = {"train": files}
    if not isinstance(files, dict):
        return {}
    splits: dict[str, list[Any]] = {}
    for split, named in files.items():
        for file in [named] if isinstance(named, str) else list(named or ()):
            rows = _read_split_file(str(file))
            task.files.append(str(real_path(file)))
            splits.setdefault(str(split), []).extend(rows if isinstance(rows, list) else [])
            task.split_files.setdefault(str(split), str(file))
        task.rows_source = {"kind": "file", "path": str(named), "data_id": None, "reader": None}
    return splits


_TEMPLATE_FIELDS = ("doc_to_text", "doc_to_target", "doc_to_choice", "description", "gen_prefix")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _columns(cfg: dict[str, Any]) -> list[str]:
    """The columns a task's templates and column fields name, in the order they are named."""
    # lazy: jinja2's parser, only for a task without docs
    import jinja2
    import jinja2.meta

    env = jinja2.Environment()
    names: dict[str, None] = {}
    specs = [cfg.get(key) for key in _TEMPLATE_FIELDS]
    specs += [(cfg.get("fewshot_config") or {}).get(key) for key in _TEMPLATE_FIELDS]
    for spec in specs:
        if not isinstance(spec, str) or not spec:
            continue
        if _IDENTIFIER.match(spec):
            names[spec] = None
            continue
        try:
            parsed = env.parse(spec)
        except jinja2.TemplateSyntaxError:
            continue
        # sorted: the set's order would differ between runs
        names.update(dict.fromkeys(sorted(jinja2.meta.find_undeclared_variables(parsed))))
    return list(names)


def placeholder_splits(cfg: dict[str, Any], num_fewshot: int | None,
                       task: LoadedTask) -> dict[str, list[Any]]:
    """Stand-in docs when none are found: each column the templates name holds ``‹column›``
    (a few-shot pool's docs ``‹column #n›``, two more than the shots asked for), said once."""
    columns = _columns(cfg)
    if not columns:
        return {}
    own = cfg.get("num_fewshot")
    shots = num_fewshot if num_fewshot is not None and own != 0 else (own or 0)
    splits: dict[str, list[Any]] = {}
    names = [cfg.get(k) for k in ("test_split", "validation_split", "training_split", "fewshot_split")]
    names.append((cfg.get("fewshot_config") or {}).get("split"))
    eval_split = cfg.get("test_split") or cfg.get("validation_split")
    pool_split = (cfg.get("fewshot_config") or {}).get("split") or cfg.get("fewshot_split") or \
        cfg.get("training_split") or cfg.get("validation_split") or cfg.get("test_split")
    for split in dict.fromkeys(n for n in names if isinstance(n, str)):
        # the evaluated doc alone; a pool one more than the shots (two: the doc may be left out)
        count = int(shots) + 2 if split == pool_split and isinstance(shots, int) and shots > 0 else 1
        if split != eval_split and split != pool_split:
            count = 1
        splits[split] = [{c: f"‹{c}›" if i == 0 else f"‹{c} #{i}›" for c in columns} for i in range(count)]
    task.warnings.append(f"no docs found for {task.name}: placeholder docs made from the columns its "
                         f"templates name ({', '.join(columns)}); give --data SPLIT=FILE for real ones")
    task.rows_source = {"kind": "placeholder", "path": None, "data_id": cfg.get("dataset_path"),
                        "reader": None}
    return splits


def _hf_cache_splits(cfg: dict[str, Any]) -> tuple[dict[str, list[Any]], str] | None:
    """The task's ``dataset_path``/``dataset_name`` as the ``datasets`` cache holds them
    (``HF_DATASETS_CACHE`` or ``~/.cache/huggingface/datasets``): its Arrow files, read offline."""
    path = cfg.get("dataset_path")
    if not isinstance(path, str):
        return None
    root = Path(os.environ.get("HF_DATASETS_CACHE") or
                Path(os.environ.get("HF_HOME") or Path.home() / ".cache" / "huggingface") / "datasets")
    base = root / path.replace("/", "___")
    name = cfg.get("dataset_name") or "default"
    folder = base / str(name)
    if not folder.is_dir():
        return None
    arrows = sorted(folder.glob("*/*/*.arrow"))
    if not arrows:
        return None
    try:
        # lazy: the parquet extra (pyarrow) reads the cache's Arrow files
        import pyarrow as pa
    except ImportError:
        return None
    newest = max(arrows, key=lambda p: p.stat().st_mtime).parent
    splits: dict[str, list[Any]] = {}
    for arrow in sorted(newest.glob("*.arrow")):
        split = cache_split(arrow.stem)
        if split is None:
            continue
        with pa.memory_map(str(arrow)) as source:
            try:
                table = pa.ipc.open_stream(source).read_all()
            except pa.ArrowInvalid:
                continue
        splits.setdefault(split, []).extend(table.to_pylist())
    return (splits, str(newest)) if splits else None


_SHARD = re.compile(r"-\d{5}-of-\d{5}$")


def cache_split(stem: str) -> str | None:
    """The split of a datasets cache file: ``<builder>-<split>`` or
    ``<builder>-<split>-00000-of-00002`` (a builder's name may hold dashes: the split is the last
    part); None for a file that is not a split's (``cache-<hash>`` files of ``.map``)."""
    if stem.startswith("cache-"):
        return None
    head = _SHARD.sub("", stem)
    builder, dash, split = head.rpartition("-")
    return split if dash and builder else None


def _typed_docs(docs: list[Any], where: str) -> list[Any]:
    """One split's docs as ``load_dataset("json")`` (datasets 5) holds them at the top level:
    every column in every doc (None where missing, in order of first appearance), and a column
    of ints beside floats as floats. Nested values stay as written (datasets 5 keeps dicts whose
    keys differ as JSON; unifying inside a nested struct is not reproduced)."""
    if not docs:
        return docs
    columns: dict[str, None] = {}
    for i, doc in enumerate(docs):
        if not isinstance(doc, dict):
            raise ConfigError(f"{where}: doc {i} is a {type(doc).__name__}, not an object",
                              hint="each doc must be a JSON object mapping columns to values")
        columns.update(dict.fromkeys(doc))
    floats = set()
    for column in columns:
        kinds = {type(doc.get(column)) for doc in docs} - {type(None)}
        if float in kinds and kinds <= {int, float}:
            floats.add(column)
    out = []
    for doc in docs:
        row = {c: doc.get(c) for c in columns}
        for c in floats:
            if type(row[c]) is int:
                row[c] = float(row[c])
        out.append(row)
    return out


def _typed(splits: dict[str, list[Any]], task: LoadedTask) -> dict[str, list[Any]]:
    return {split: _typed_docs(docs, f"{task.file}: split {split!r}") for split, docs in splits.items()}


def render_tasks(paths: list[str], data: list[str], options: Options, num_fewshot: int | None,
                 timeout: float = worker.DEFAULT_TIMEOUT, isolate: bool = True,
                 config_worker: worker.ConfigWorker | None = None,
                 random_state: dict[str, Any] | None = None) -> list[LoadedTask]:
    """Every task of ``paths`` rendered (see the module docstring). ``config_worker``: a worker
    to use and leave running (default: one for this call); ``isolate=False`` runs the tasks'
    code in this process (debugging only: their ``datasets`` stand-in stays in ``sys.modules``).

    The tasks are one lm-eval run: the global random state ``options`` seeds (or
    ``random_state``, the one an earlier task of the same run left) passes from each task's code
    to the next task's, in order, as lm-eval builds them."""
    by_task = _split_data(data)
    out: list[LoadedTask] = []
    running = config_worker
    if isolate and running is None:
        running = worker.adopt_prestarted(worker.DEFAULT_MEMORY_LIMIT) or worker.ConfigWorker()
    try:
        for path in paths:
            task = _render_one(path, by_task, options, num_fewshot, timeout,
                               running if isolate else None, random_state)
            random_state = task.random_state
            out.append(task)
    finally:
        if running is not None and running is not config_worker:
            running.close()
    return out


def _render_one(path: str, by_task: dict[str | None, dict[str, str]], options: Options,
                num_fewshot: int | None, timeout: float, running: Any,
                random_state: dict[str, Any] | None) -> LoadedTask:
    task = LoadedTask(name=Path(path).stem, file=os.path.abspath(path), random_state=random_state)
    try:
        parsed: TaskYaml = read_task(path)
    except ConfigError as exc:
        task.error = exc
        return task
    task.files = [str(p) for p in parsed.files]
    cfg = parsed.config
    task.fields = {k: _as_written(v) for k, v in cfg.items()}
    task.where = dict(parsed.where)
    task.inner = dict(parsed.inner)
    task.chain = [(str(file), reached) for file, reached in parsed.chain]
    if isinstance(cfg.get("task"), str):
        task.name = cfg["task"]
    elif "group" in cfg or isinstance(cfg.get("task"), list):
        task.error = ConfigError(f"{parsed.path.name} is an lm-eval group (it lists tasks): groups are not "
                                 "rendered; render its tasks' YAMLs", file=str(parsed.path),
                                 line=parsed.where.get("group", parsed.where.get("task", ("", 1)))[1])
        return task
    task.output_type = cfg.get("output_type", "generate_until")
    given = {**by_task.get(None, {}), **by_task.get(task.name, {})}
    try:
        splits = _docs(cfg, given, task)
    except ConfigError as exc:
        task.error = exc
        return task
    try:
        splits = _typed(splits, task)
    except ConfigError as exc:
        task.error = exc
        return task
    if not splits:
        splits = placeholder_splits(cfg, num_fewshot, task)
    if not splits:
        task.error = ConfigError(f"no docs for task {task.name}: give its splits with --data SPLIT=FILE "
                                 f"(or TASK:SPLIT=FILE), or have {cfg.get('dataset_path')!r} in the "
                                 "Hugging Face datasets cache", file=str(parsed.path))
        return task
    request = {"path": str(parsed.path), "config": cfg, "splits": splits,
               "where": {k: list(v) for k, v in parsed.where.items()}, "num_fewshot": num_fewshot,
               "seed": options.seed, "random_seed": options.random_seed, "numpy_seed": options.numpy_seed,
               "random_state": random_state}
    if running is None:
        # lazy: in-process (isolate=False) only, for debugging
        from .config import lmeval_child

        answer = lmeval_child.run(request, lambda _: None)
    else:
        answer = running.run_task(request, timeout)
    task.files += [f for f in answer.get("files") or () if f not in task.files]
    task.warnings += list(answer.get("warnings") or ())
    task.functions = {name: (file, line) for name, (file, line) in (answer.get("functions") or {}).items()}
    task.random_state = answer.get("random_state", random_state)
    error = answer.get("error")
    if error:
        task.error = ConfigError(error["message"], file=error.get("file"), line=error.get("line"),
                                 hint=error.get("hint"))
        return task
    resolved = answer["task"]
    options = replace(options, num_fewshot=num_fewshot)
    task.resolved = {k: v for k, v in resolved.items() if k not in ("docs", "pool")}
    task.docs = list(resolved.get("docs") or ())
    task.resolved["shots"] = shot_count(resolved, options)
    if num_fewshot and cfg.get("num_fewshot") == 0:  # lm-eval says so too (evaluator.py, at info)
        task.warnings.append(f"num_fewshot has been set to 0 for {task.name} in its config: --num-fewshot "
                             f"{num_fewshot} is ignored, as lm-eval ignores it (\"Manual configuration will "
                             "be ignored.\")")
    retried_before = options.chat.retried if options.chat else 0
    try:
        for sample in build_samples(resolved, options):
            task.samples.append(sample)
    except RenderError as exc:
        if exc.file is None:
            exc.file = str(parsed.path)
        task.error = exc
    odd = [(i, type(entry["choices"]).__name__) for i, entry in enumerate(task.docs)
           if isinstance(entry.get("choices"), str | dict)]
    if odd and task.output_type == "multiple_choice":
        kinds = " or ".join(sorted({kind for _, kind in odd}))
        task.warnings.append(
            f"doc_to_choice gave a {kinds}, not a list, for {len(odd)} of the {len(task.docs)} docs (the "
            f"first: doc {odd[0][0]}): lm-eval logs \"doc_to_choice must return list\" and goes on, scoring "
            "each character of a string (each key of a dict) as a choice, as shown; make doc_to_choice "
            "give a list")
    if options.chat is not None and options.chat.retried > retried_before:
        task.warnings.append(f"the chat template failed with a system message for "
                             f"{options.chat.retried - retried_before} context(s); as lm-eval does, they "
                             "were built again without it (the description and system instruction "
                             "are not in them)")
    return task


def _as_written(value: Any) -> Any:
    """A YAML value for display: a ``!function`` marker as its tag."""
    if is_function(value):
        return f"!function {value[FUNCTION]}"
    if isinstance(value, dict):
        return {k: _as_written(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_written(v) for v in value]
    return value


def task_dataset(task: LoadedTask, options: Options | None = None, given: Sequence[str] = ()) -> DatasetSpec:
    """A rendered task as the Workspace's dataset shape, so the app's panes and every format show
    it: one row per doc (``doc_id``, ``shots``, and ``requests``: each ``Instance``'s ``context``
    exactly as lm-eval passes it, its ``continuation``, ``label``, ``until`` and the ``messages`` handed
    to the chat template), rendered by the
    task plan (``core/inferencers/lmeval_plan.py``), a request per Instance.
    The template tree draws the task from ``lm_eval`` (the fields as merged), ``lm_eval_chain``,
    ``lm_eval_functions``, ``lm_eval_render`` (what ``options``, the ones it was rendered with,
    and lm-eval's defaults decided; ``given``, the flags given on the command line) and
    ``lm_eval_rows``."""
    rows = [{"doc_id": sample.index, "shots": list(sample.shots),
             "requests": [{"context": r.model_input, "continuation": r.continuation, "label": r.label,
                           "until": r.until, "messages": r.messages} for r in sample.requests]}
            for sample in task.samples]
    # the template is never filled (the plan reads each request's context); the render checks
    # that a prompt template exists, as for every pair
    template: Any = "{requests}"
    cfg = {"abbr": task.name, "type": f"lm-eval task ({task.output_type})", "lm_eval": task.fields,
           "lm_eval_chain": [{"file": file, "included_at": list(at) if at else None}
                             for file, at in task.chain],
           "lm_eval_functions": {name: list(at) for name, at in task.functions.items()},
           "lm_eval_render": render_choices(task, options or Options(), given),
           "lm_eval_rows": dict(task.split_files),
           "reader_cfg": {"input_columns": ["requests"], "output_column": None},
           "infer_cfg": {"prompt_template": {"type": "PromptTemplate", "template": template},
                         "retriever": {"type": "ZeroRetriever"},
                         "inferencer": task_inferencer(task.output_type or "generate_until")}}
    source = task.rows_source or {}
    locations = {("lm_eval", key): Source(file, line) for key, (file, line) in task.where.items()}
    locations.update({("lm_eval", *path): Source(file, line) for path, (file, line) in task.inner.items()})
    locations.update({("lm_eval_chain", i): Source(file, 1) for i, (file, _) in enumerate(task.chain)})
    return DatasetSpec(abbr=task.name, cfg=cfg, rows={"train": [], "test": rows}, locations=locations,
                       source=Source(task.file, 1), rows_origin=source.get("path"),
                       rows_source=RowsSource(source.get("kind") or "file", source.get("path"),
                                              source.get("data_id")))


def render_choices(task: LoadedTask, options: Options, given: Sequence[str] = ()) -> dict[str, list[Any]]:
    """What decided the task's prompts beside its fields, each ``[value, where from]``: a YAML
    field's name (the tree locates it), a command-line flag (``given``: the ones given), or
    ``default`` (lm-eval 0.4.13's)."""
    resolved, fields = task.resolved, task.fields
    if not resolved:
        return {}
    own = fields.get("num_fewshot")
    if options.num_fewshot is not None:
        shots_from = "num_fewshot: 0 wins over --num-fewshot" if own == 0 else "--num-fewshot"
    else:
        shots_from = "num_fewshot" if own is not None else "default"
    out: dict[str, list[Any]] = {"shots": [resolved.get("shots", 0), shots_from]}
    fewshot = resolved.get("fewshot") or {}
    given_cfg = fields.get("fewshot_config")
    fewshot_cfg: dict[str, Any] = given_cfg if isinstance(given_cfg, dict) else {}
    if out["shots"][0]:
        seed_from = "default" if options.seed == DEFAULT_SEED else "--fewshot-seed"
        out["seed"] = [options.seed, "--seed" if "--seed" in given else seed_from]
        out["sampler"] = [fewshot.get("sampler"), "fewshot_config" if "sampler" in fewshot_cfg else "default"]
        pool = fewshot.get("split")
        pool_from = "fewshot_config" if "split" in fewshot_cfg else "fewshot_split"
        if pool is None and fewshot_cfg.get("samples") is not None:
            pool, pool_from = "fewshot_config.samples", "fewshot_config"
        elif pool is None:  # as lm-eval falls back: train, else validation, else test
            splits = ("training_split", "validation_split", "test_split")
            pool, pool_from = next(((fields[k], k) for k in splits if isinstance(fields.get(k), str)),
                                   (None, "default"))
        out["few-shot split"] = [pool, pool_from]
    for key in ("target_delimiter", "fewshot_delimiter"):
        out[key] = [resolved.get(key), key if key in fields else "default"]
    if resolved.get("output_type") == "generate_until":
        gen = fields.get("generation_kwargs")
        written = isinstance(gen, dict) and "until" in gen
        out["until"] = [resolved.get("until"),
                        "generation_kwargs" if written else "default: the fewshot_delimiter"]
    chat = options.chat
    out["chat template"] = [chat.template.origin if chat else None,
                            "--apply-chat-template" if chat else "default"]
    if chat is not None:
        flag = "--fewshot-as-multiturn"
        out["fewshot_as_multiturn"] = [options.fewshot_as_multiturn,
                                       flag if flag in given else "default: on with a chat template"]
    if options.system_instruction is not None:
        out["system instruction"] = [options.system_instruction, "--system-instruction"]
    return out
