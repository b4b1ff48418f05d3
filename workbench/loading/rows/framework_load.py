"""Rows from the dataset class's own ``load()``, when a framework is installed (never required).

For a class with no native reader, the workbench can ask the framework itself: a separate
Python process (the current interpreter when it can import the framework, or the one named
by ``--framework-python``) imports the class, builds it as the framework does (its
``__init__`` calls ``self.load(...)``, so a static, class or instance ``load`` alike) and stops
once ``load()`` has returned, printing the first rows of each split as JSON. When the framework
cannot be asked (no such interpreter, an import that fails, a download, no answer in time), the
error says why and the next route gives the rows; a ``load()`` that raises is an error, as in a
run.
It runs in its own session under a time and a memory limit, in the folder the dataset's
relative path was found under, with the Hugging Face hub switched off (nothing is
downloaded), and what it printed is cached on disk, keyed by the interpreter, the class, the
arguments, that folder and the data files' stat, so a reload does not load again.

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
def say(kind, message):
    print(json.dumps({"error": message[:2000], "kind": kind}))
    sys.exit(0)
cls, failed = None, []
# the module the config imports the class from first (NeedleBench v1 and v2 share class names,
# RULER's classes are not in the package's namespace), then the package
for name in (spec.get("module"), spec["package"]):
    if name and cls is None:
        try:
            cls = getattr(importlib.import_module(name), spec["class"], None)
        except BaseException as exc:
            failed.append("cannot import %s: %s: %s" % (name, type(exc).__name__, exc))
if cls is None:
    say("unavailable", failed[-1] if failed else "no class %s in %s" % (spec["class"], spec["package"]))
# as the framework builds it: the class's __init__ calls self.load(**kwargs) (a static, class
# or instance method alike); the instance stops there, before the reader is set up
class Loaded(BaseException):
    pass
class Probe(cls):
    def load(self, *args, **kwargs):
        raise Loaded(super().load(*args, **kwargs))
Probe.__name__, Probe.__qualname__, Probe.__module__ = cls.__name__, cls.__qualname__, cls.__module__
try:
    Probe(**spec["init"])
    say("unavailable", "%s.__init__ never calls self.load()" % spec["class"])
except Loaded as done:
    result = done.args[0]
except Exception as exc:
    text = "%s: %s" % (type(exc).__name__, exc)
    # the hub is off here (nothing is downloaded): a download a run would make is no failure of it
    offline = isinstance(exc, ConnectionError) or "OfflineModeIsEnabled" in text
    say("unavailable" if offline else "load", ("it needs a download, which the workbench never makes: "
                                                if offline else "") + text)
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


class FrameworkUnavailable(ConfigError):
    """The framework could not be asked (the interpreter does not run, the framework or the
    class's module does not import, no answer in time): not what a run would do, so the next
    route gives the rows, with this said as a warning."""


def _key(python: str, framework: str, class_name: str, kwargs: Mapping[str, Any],
         files: Sequence[Path], cwd: Path | None) -> str:
    versions = [(str(f), file_version(f)) for f in files]
    text = json.dumps([_SCRIPT, python, framework, class_name, kwargs, versions, str(cwd or "")],
                      sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def _limit_memory() -> None:  # in the child, before exec (never above a lower limit already set)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard >= MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))


def run_framework_script(python: str, script: str, request: str, timeout: float | None,
                         cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``script`` run by the framework's ``python`` with ``request`` on stdin: offline (no hub),
    in a session of its own, under MEMORY_LIMIT. TimeoutExpired and OSError are the caller's to
    word (what it was asking the framework for)."""
    return subprocess.run([python, "-c", script], input=request, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **OFFLINE}, start_new_session=True,
                          preexec_fn=_limit_memory, cwd=cwd, check=False)


def framework_rows(python: str, framework: str, class_name: str, kwargs: Mapping[str, Any],
                   files: Sequence[Path], timeout: float | None = None, module: str = "",
                   cwd: Path | None = None) -> Any:
    """What the dataset class's ``load()`` returns, as rows (the first MAX_ROWS of each split).

    ``kwargs`` is the dataset's config less ``type``, ``infer_cfg`` and ``eval_cfg``: what
    ``build_dataset_from_cfg`` gives the class, whose ``__init__`` calls ``self.load(...)``.
    ``module`` is where the config imports the class from, used when it is inside the
    framework's own package; ``cwd`` the folder to run in (where a relative path was found).
    ConfigError when ``load()`` raises (the run would fail there too); FrameworkUnavailable
    when the framework could not be asked."""
    top = TOP_PACKAGES.get(framework, "opencompass")
    module = module if module.startswith(top + ".") else ""
    try:
        request = json.dumps({"package": PACKAGES.get(framework, PACKAGES["opencompass"]), "module": module,
                              "class": class_name, "init": dict(kwargs), "max_rows": MAX_ROWS})
    except TypeError:
        raise FrameworkUnavailable(f"{class_name}'s arguments are not plain data, so the framework "
                                   "cannot be asked for its rows") from None
    timeout = TIMEOUT if timeout is None else timeout
    key = _key(python, framework, f"{module}:{class_name}" if module else class_name, kwargs, files, cwd)
    cached = cache_dir() / f"{key}.json"
    if cached.is_file():
        try:
            return json.loads(cached.read_text(encoding="utf-8"))["rows"]
        except (OSError, ValueError, KeyError):
            pass
    try:
        done = run_framework_script(python, _SCRIPT, request, timeout, cwd)
    except subprocess.TimeoutExpired:
        raise FrameworkUnavailable(f"{class_name}.load() ran past {timeout:g} s in {python}") from None
    except OSError as exc:
        raise FrameworkUnavailable(f"cannot run --framework-python {python}: {exc.strerror or exc}") from None
    if len(done.stdout) > MAX_OUTPUT:
        raise ConfigError(f"{class_name}.load() gave more than {MAX_OUTPUT // 1024**2} MiB of rows")
    lines = done.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise FrameworkUnavailable(f"{class_name}.load() gave no answer in {python} "
                                   f"(exit {done.returncode}): {last[:300]}")
    if "error" in answer:
        message = str(answer["error"])[:300]
        if answer.get("kind") == "unavailable":
            raise FrameworkUnavailable(f"{python} cannot load {class_name}: {message}")
        raise ConfigError(f"{class_name}.load() failed: {message}",
                          hint="check the dataset's path and files, or give the rows with --data FILE")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        temporary = cached.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(answer), encoding="utf-8")
        temporary.replace(cached)
    except OSError:
        pass  # a cache that cannot be written only costs the next load its time
    return answer["rows"]
