"""The hostile-input suite: the real ``workbench`` command against inputs written to break it.

Every case runs the command in a subprocess of its own session (a regression that lets a
config signal "its group" kills that subprocess, never pytest), under an address-space
limit (a regression in a memory bound fails the case with a MemoryError or a kill instead
of taking the machine) and a timeout (a hang fails instead of stalling the suite).  Each
case asserts the exact error line, the exit status, and that nothing was left behind: no
process, no changed output file.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

#: The address space each process of a case may use: the command, its config worker and
#: every process they start (the limit is inherited), each on its own.
MEMORY = 3 * 1024**3
TIMEOUT = 90

GOOD_CONFIG = """\
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr='qa',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template='Q: {question}\\nA: {answer}'),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    ),
)]
"""

ROWS = '{"question": "What is 2+2?", "answer": "4"}\n{"question": "Capital of France?", "answer": "Paris"}\n'


@dataclass
class Done:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.err.splitlines()


def _limits(memory: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(*args: str, cwd: Path, memory: int = MEMORY, timeout: float = TIMEOUT, stdout=None,
        env: dict[str, str] | None = None) -> Done:
    """``workbench ARGS`` in ``cwd``, bounded; stdout captured unless ``stdout`` is given."""
    environment = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", **(env or {})}
    environment.pop("WORKBENCH_DEBUG_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "workbench", *args], cwd=cwd, env=environment,
        stdin=subprocess.DEVNULL, stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE, timeout=timeout, start_new_session=True,
        preexec_fn=lambda: _limits(memory),
    )
    out = done.stdout.decode("utf-8", "replace") if done.stdout is not None else ""
    return Done(done.returncode, out, done.stderr.decode("utf-8", "replace"))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def gone_soon(pid: int, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the config worker needs fork()")
