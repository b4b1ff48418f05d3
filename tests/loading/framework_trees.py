"""The OpenCompass and AISBench config trees, from their PyPI wheels (downloaded, never installed).

Wheels are fetched with ``pip download --no-deps`` into a cache reused between runs
(``$XDG_CACHE_HOME/prompt-workbench``, else ``~/.cache/prompt-workbench``), and only the
config files are extracted, once.  A pre-seeded cache (the wheel files copied into
``<cache>/wheels``) works offline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Distribution:
    name: str  # as pip knows it
    version: str
    wheel: str
    members: tuple[str, ...]  # what to extract (prefixes inside the wheel)


OPENCOMPASS = Distribution("opencompass", "0.5.4", "opencompass-0.5.4-py3-none-any.whl",
                           ("opencompass/configs/", "autotest/"))
AISBENCH = Distribution("ais-bench-benchmark", "3.1.20260630",
                        "ais_bench_benchmark-3.1.20260630-py3-none-any.whl",
                        ("ais_bench/benchmark/configs/", "ais_bench/datasets/"))

# pip's words when the index cannot be reached at all
NETWORK_TROUBLE = ("NewConnectionError", "Failed to establish a new connection", "Name or service not known",
                   "Temporary failure in name resolution", "Network is unreachable", "ConnectTimeout",
                   "ReadTimeout", "ProxyError", "Connection refused", "No route to host",
                   "nodename nor servname", "SSLError", "ConnectionError")


class Unreachable(Exception):
    """PyPI could not be reached (the tests that need the trees skip)."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "prompt-workbench"


def _download(dist: Distribution, wheels: Path) -> Path:
    wheel = wheels / dist.wheel
    if wheel.is_file():
        return wheel
    wheels.mkdir(parents=True, exist_ok=True)
    staging = wheels / f".download-{os.getpid()}"
    staging.mkdir(exist_ok=True)
    try:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                   "--disable-pip-version-check", "--no-input", "--timeout", "20", "--retries", "1",
                   "--dest", str(staging), f"{dist.name}=={dist.version}"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired as exc:
            raise Unreachable(f"pip download {dist.name}=={dist.version} timed out") from exc
        if done.returncode != 0:
            output = done.stdout + done.stderr
            if any(word in output for word in NETWORK_TROUBLE):
                raise Unreachable(f"PyPI is unreachable (pip download {dist.name}=={dist.version}): "
                                  f"{output.strip().splitlines()[-1]}")
            raise RuntimeError(f"pip download {dist.name}=={dist.version} failed:\n{output}")
        fetched = staging / dist.wheel
        if not fetched.is_file():
            raise RuntimeError(f"pip download did not produce {dist.wheel}: {os.listdir(staging)}")
        os.replace(fetched, wheel)
        return wheel
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def tree(dist: Distribution) -> Path:
    """A folder holding the distribution's config packages (e.g. ``opencompass/configs``)."""
    cache = cache_dir()
    root = cache / "trees" / f"{dist.name}-{dist.version}"
    if (root / ".complete").is_file():
        return root
    wheel = _download(dist, cache / "wheels")
    staging = root.with_name(f"{root.name}.partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            if member.startswith(dist.members) and not member.endswith("/"):
                archive.extract(member, staging)
    (staging / ".complete").write_text(f"{dist.wheel}\n")
    if root.exists():  # left half-made by an interrupted run
        shutil.rmtree(root, ignore_errors=True)
    try:
        os.replace(staging, root)
    except OSError:  # another run finished first
        shutil.rmtree(staging, ignore_errors=True)
    return root
