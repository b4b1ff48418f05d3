"""Rows from the dataset class's own ``load()``, when a framework is installed (never required).

For a class with no native reader, the workbench can ask the framework itself: a separate
Python process (the current interpreter when it can import the framework, or the one named
by ``--framework-python``) imports the class, calls ``load()`` with the config's arguments,
and prints the first rows of each split as JSON. It runs in its own session under a time
and a memory limit, with the Hugging Face hub switched off (nothing is downloaded), and
what it printed is cached on disk, keyed by the interpreter, the class, the arguments and
the data files' stat, so a reload does not load again.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import resource
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ...core.spec import AISBENCH
from .data_files import file_version

MAX_ROWS = 1000  # per split: a render shows samples, it does not evaluate
MAX_OUTPUT = 256 * 1024**2
TIMEOUT = 60.0
MEMORY_LIMIT = 4 * 1024**3
PACKAGES = {"opencompass": "opencompass.datasets", AISBENCH: "ais_bench.benchmark.datasets"}
TOP_PACKAGES = {"opencompass": "opencompass", AISBENCH: "ais_bench"}

# Runs in the framework's interpreter: no workbench import there.
_SCRIPT = r"""
import json, sys, importlib
spec = json.loads(sys.stdin.read())
cls = None
# the module the config imports the class from first (NeedleBench v1 and v2 share class names,
# RULER's classes are not in the package's namespace), then the package
for name in (spec.get("module"), spec["package"]):
    if name and cls is None:
        try:
            cls = getattr(importlib.import_module(name), spec["class"], None)
        except ImportError:
            cls = None
if cls is None:
    print(json.dumps({"error": "no class %s in %s" % (spec["class"], spec.get("module") or spec["package"])}))
    sys.exit(0)
try:
    result = cls.load(**spec["kwargs"])
except Exception as exc:
    print(json.dumps({"error": "%s: %s" % (type(exc).__name__, exc)}))
    sys.exit(0)
def rows(part):
    if hasattr(part, "select") and hasattr(part, "__len__"):
        part = part.select(range(min(len(part), spec["max_rows"])))
    if hasattr(part, "to_list"):
        return part.to_list()
    return list(part)[: spec["max_rows"]]
if hasattr(result, "keys") and not isinstance(result, list):
    out = {str(name): rows(result[name]) for name in result.keys()}
else:
    out = rows(result)
print(json.dumps({"rows": out}, default=repr))
"""


def framework_python(framework: str, named: str | None) -> str | None:
    """The interpreter to ask: ``--framework-python``, else this one when it has the framework."""
    if named:
        return named
    top = TOP_PACKAGES.get(framework, "opencompass")
    try:
        return sys.executable if importlib.util.find_spec(top) is not None else None
    except (ImportError, ValueError):
        return None


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "prompt-workbench" / "framework-rows"


def _key(python: str, framework: str, class_name: str, kwargs: Mapping[str, Any],
         files: Sequence[Path]) -> str:
    versions = [(str(f), file_version(f)) for f in files]
    text = json.dumps([python, framework, class_name, kwargs, versions], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _limits() -> None:  # in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def framework_rows(python: str, framework: str, class_name: str, kwargs: Mapping[str, Any],
                   files: Sequence[Path], timeout: float | None = None, module: str = "") -> Any:
    """What ``class_name.load(**kwargs)`` returns, as rows (the first MAX_ROWS of each split);
    ConfigError when the framework refuses, fails or runs out of time. ``module`` is where the
    config imports the class from, used when it is inside the framework's own package."""
    top = TOP_PACKAGES.get(framework, "opencompass")
    module = module if module.startswith(top + ".") else ""
    try:
        request = json.dumps({"package": PACKAGES.get(framework, PACKAGES["opencompass"]), "module": module,
                              "class": class_name, "kwargs": dict(kwargs), "max_rows": MAX_ROWS})
    except TypeError:
        raise ConfigError(f"{class_name}'s load() arguments are not plain data, so the framework "
                          "cannot be asked for its rows", hint="give the rows with --data FILE") from None
    timeout = TIMEOUT if timeout is None else timeout
    key = _key(python, framework, f"{module}:{class_name}" if module else class_name, kwargs, files)
    cached = cache_dir() / f"{key}.json"
    if cached.is_file():
        try:
            return json.loads(cached.read_text(encoding="utf-8"))["rows"]
        except (OSError, ValueError, KeyError):
            pass
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    try:
        done = subprocess.run([python, "-c", _SCRIPT], input=request, capture_output=True, text=True,
                              timeout=timeout, env=env, start_new_session=True, preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        raise ConfigError(f"{class_name}.load() ran past {timeout:g} s in {python}",
                          hint="give the rows with --data FILE") from None
    except OSError as exc:
        raise ConfigError(f"cannot run --framework-python {python}: {exc.strerror or exc}",
                          hint="give the path of a Python that has OpenCompass or AISBench") from None
    if len(done.stdout) > MAX_OUTPUT:
        raise ConfigError(f"{class_name}.load() gave more than {MAX_OUTPUT // 1024**2} MiB of rows")
    lines = done.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ConfigError(f"{class_name}.load() failed in {python} (exit {done.returncode}): {last[:300]}",
                          hint="give the rows with --data FILE")
    if "error" in answer:
        raise ConfigError(f"{class_name}.load() failed: {str(answer['error'])[:300]}",
                          hint="check the dataset's path and files, or give the rows with --data FILE")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        temporary = cached.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(answer), encoding="utf-8")
        temporary.replace(cached)
    except OSError:
        pass  # a cache that cannot be written only costs the next load its time
    return answer["rows"]
