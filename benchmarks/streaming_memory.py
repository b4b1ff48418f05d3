"""Headless exports stream: memory stays flat however many requests a render has.

Run ``python benchmarks/streaming_memory.py`` (about a minute per format at the default
1,000,000 requests; ``--requests 100000`` for a quick look).  It writes a generated PPL
dataset (``requests / labels`` rows, one request per label) into a temporary folder,
then runs the installed ``workbench`` on it and samples the resident memory of the
process tree (workers included) while the output streams out:

- ``baseline``: the same command with ``--limit 1``: loading the rows and rendering one
  sample, which a render of every sample cannot avoid;
- the full export: peak memory, and memory when 10% / 50% / 100% of the output was written.

Memory is flat when the full export's peak exceeds its memory at 10% of the output by
less than ``--max-growth-mb`` (default 64 MB); the script exits 1 when it does not, so a
CI job can run it.  Linux only (it reads ``/proc``); stdlib only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

CONFIG = '''\
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

labels = {labels!r}
datasets = [dict(
    abbr='generated', path='rows.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='label'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate,
                             template={{l: f'Question: {{{{question}}}}\\nAnswer: {{l}}' for l in labels}}),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=PPLInferencer),
    ),
)]
'''


def write_workspace(folder: Path, requests: int, labels: int) -> Path:
    names = [chr(ord("A") + i) for i in range(labels)] if labels <= 26 else [f"L{i}" for i in range(labels)]
    (folder / "eval.py").write_text(CONFIG.format(labels=names), encoding="utf-8")
    rows = max(1, requests // labels)
    with open(folder / "rows.jsonl", "w", encoding="utf-8") as f:
        for i in range(rows):
            f.write(json.dumps({"question": f"Row {i}: which option fits best? " + "lorem ipsum " * 8,
                                "label": names[i % labels]}) + "\n")
    return folder / "eval.py"


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and all its descendants, in MB."""
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
        stack += _children(p)
    return total / 1024


@dataclass
class Run:
    seconds: float = 0.0
    output_bytes: int = 0
    samples: list[tuple[int, float]] = field(default_factory=list)  # (bytes written so far, MB)
    code: int = 0

    @property
    def peak(self) -> float:
        return max((mb for _, mb in self.samples), default=0.0)

    def at(self, fraction: float) -> float:
        """Memory when ``fraction`` of the output had been written."""
        goal = fraction * self.output_bytes
        for written, mb in self.samples:
            if written >= goal:
                return mb
        return self.samples[-1][1] if self.samples else 0.0


def folder_bytes(folder: Path) -> int:
    """Bytes under ``folder``, temp files of writes in progress included."""
    total = 0
    for p in folder.rglob("*"):
        with contextlib.suppress(OSError):
            total += p.stat().st_size if p.is_file() else 0
    return total


def measure(command: list[str], cwd: Path, interval: float = 0.05, written_to: Path | None = None) -> Run:
    """Run ``command``; sample (bytes written, tree memory) until it ends.

    Bytes are what it wrote on stdout, or under ``written_to`` when it writes files.
    """
    run = Run()
    started = time.monotonic()
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    counted = [0]

    def drain() -> None:
        assert proc.stdout is not None
        while chunk := proc.stdout.read(1 << 20):
            counted[0] += len(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    written = (lambda: folder_bytes(written_to)) if written_to is not None else (lambda: counted[0])
    while proc.poll() is None:
        run.samples.append((written(), tree_rss_mb(proc.pid)))
        time.sleep(interval)
    reader.join()
    run.code = proc.returncode
    run.seconds = time.monotonic() - started
    run.output_bytes = written()
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--labels", type=int, default=10, help="requests per row (PPL labels)")
    parser.add_argument("--format", action="append", choices=("json", "text", "markdown", "snapshot"),
                        help="repeatable; default: json and snapshot")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-growth-mb", type=float, default=64.0)
    parser.add_argument("--workbench", default=str(Path(sys.executable).with_name("workbench")),
                        help="the workbench command (default: beside this Python)")
    args = parser.parse_args(argv)
    if not Path("/proc/self/status").exists():
        print("streaming_memory: needs Linux /proc; skipped")
        return 0
    formats = args.format or ["json", "snapshot"]
    failed = False
    with tempfile.TemporaryDirectory(prefix="wb-bench-stream-") as tmp:
        folder = Path(tmp)
        started = time.monotonic()
        write_workspace(folder, args.requests, args.labels)
        print(f"generated {args.requests:,} requests ({args.requests // args.labels:,} rows × "
              f"{args.labels} labels) in {time.monotonic() - started:.1f}s")
        print(f"{'format':<9} {'requests':>10} {'output MB':>10} {'seconds':>8} {'baseline MB':>12} "
              f"{'at 10%':>8} {'at 50%':>8} {'at 100%':>8} {'peak':>8} {'growth':>8}")
        for fmt in formats:
            if fmt == "snapshot":
                base = [args.workbench, "snapshot", "eval.py", "--dir", "snaps", "--quiet"]
            else:
                base = [args.workbench, "render", "eval.py", "--format", fmt, "--quiet"]
            base += ["--jobs", str(args.jobs)]
            snaps = folder / "snaps" if fmt == "snapshot" else None
            baseline = measure([*base, "--limit", "1"], folder)
            if snaps is not None:
                shutil.rmtree(snaps, ignore_errors=True)
                snaps.mkdir()
            full = measure(base, folder, written_to=snaps)
            growth = full.peak - full.at(0.1)
            flat = growth < args.max_growth_mb and full.code == 0
            failed |= not flat
            print(f"{fmt:<9} {args.requests:>10,} {full.output_bytes / 2**20:>10.0f} {full.seconds:>8.1f} "
                  f"{baseline.peak:>12.0f} {full.at(0.1):>8.0f} {full.at(0.5):>8.0f} {full.at(1.0):>8.0f} "
                  f"{full.peak:>8.0f} {growth:>+7.0f}{'' if flat else '  NOT FLAT'}"
                  + (f"  (exit {full.code})" if full.code else ""))
    print("memory MB is the resident set of the workbench process and its workers; "
          f"flat = peak − (at 10%) < {args.max_growth_mb:g} MB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
