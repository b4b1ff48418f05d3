"""Dev-only: real OpenCompass runs of shipped dataset configs, then ``workbench verify`` on them.

Two steps, two venvs (nothing is written under ``tests/``; DIR is a scratch folder):

    $FWENV/bin/python tools/sweep_real_runs.py make DIR [--count N] [--seed S] [--framework F]
    .venv/bin/python tools/sweep_real_runs.py check DIR

``make`` takes the OpenCompass reader cases (``tests/loading/readers/cases/``: a dataset
class, its ``load()`` arguments and data files in the layout that class reads; the cases
whose load fails are left out) and, for each, a shipped dataset config of that class picked
at random (seeded). It writes ``DIR/<case>/eval.py``: that config's first dataset of the
class with the case's arguments (the data where the case has it), an OpenAI model on
``tools/make_real_runs.py``'s loopback server (127.0.0.1, bounded in time) and that script's
weightless local model (PPL and local prompts), then runs ``opencompass eval.py -m infer``
there as a user would. ``--framework aisbench`` does the same with AISBench's reader cases,
configs and ``ais_bench``, with a ``VLLMCustomAPIChat`` model on the server. The run folder
(``outputs/<time>/``), the request bodies the server got (``requests.jsonl``) and the log stay
in the case folder.

``check`` runs ``workbench verify RUN --strict`` on each run folder, from the case folder (the
config's relative paths resolve as in the run): a run whose tasks all wrote predictions must be
green (every recorded prompt matches), a run with a failed task must not be; a line per run,
exit 1 on any verdict that disagrees with its run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

from _shared import REPO, check_step

READER_CASES = REPO / "tests" / "loading" / "readers" / "cases"
RUN_TIMEOUT = 300  # seconds one run may take

RUN_IMPORTS = ("from opencompass.models import HuggingFaceCausalLM, OpenAI\n"
               "from opencompass.partitioners import NaivePartitioner\n"
               "from opencompass.runners import LocalRunner\n"
               "from opencompass.tasks import OpenICLInferTask\n")
AIS_MODEL = '''
from ais_bench.benchmark.models import VLLMCustomAPIChat
from ais_bench.benchmark.summarizers import DefaultSummarizer

models = [
    dict(attr='service', type=VLLMCustomAPIChat, abbr='sweep-chat', path='', model='fake-chat',
         stream=False, request_rate=0, retry=1, api_key='', host_ip='127.0.0.1', host_port=8000,
         url='', max_out_len=16, batch_size=1, trust_remote_code=False,
         generation_kwargs=dict(temperature=0.01)),
]
summarizer = dict(attr='accuracy', type=DefaultSummarizer)  # ais_bench refuses a config without one
'''
MODEL = '''
api_meta = dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                       dict(role='BOT', api_role='BOT', generate=True)])
models = [
    dict(type=OpenAI, abbr='sweep-api', path='gpt-4', key='ENV',
         openai_api_base='http://127.0.0.1:8000/v1/chat/completions', meta_template=api_meta,
         max_out_len=16, max_seq_len=4096, batch_size=4),
    # make_real_runs.py's stand-in (no weights): PPL and local-model prompts, as OpenCompass builds them
    dict(type=HuggingFaceCausalLM, abbr='sweep-lm', path='stand-in/lm', max_out_len=16, max_seq_len=4096,
         batch_size=4, run_cfg=dict(num_gpus=0)),
]
infer = dict(
    partitioner=dict(type=NaivePartitioner),
    runner=dict(type=LocalRunner, max_num_workers=1, task=dict(type=OpenICLInferTask)),
)
'''


def _reader_cases(framework: str) -> list[tuple[str, dict]]:
    found = []
    for folder in sorted(READER_CASES.iterdir()):
        case_file, expected = folder / "case.json", folder / "expected.json"
        if not case_file.is_file() or not expected.is_file():
            continue
        case = json.loads(case_file.read_text(encoding="utf-8"))
        failed = "error" in json.loads(expected.read_text(encoding="utf-8"))
        if case.get("framework", "opencompass") != framework or failed:  # (a case names ais_bench)
            continue
        found.append((folder.name, case))
    return found


def _configs_by_class(root: Path) -> dict[str, list[Path]]:
    by_class: dict[str, list[Path]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.name.startswith("_"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in set(re.findall(r"\btype\s*=\s*(\w+)", text)):
            by_class.setdefault(name, []).append(path)
    return by_class


def _dataset_of(config_path: Path, class_name: str) -> dict | None:
    import make_parity_cases as cases
    from mmengine.config import Config

    with cases.quiet():
        cfg = Config.fromfile(str(config_path))
    for key, value in cfg.items():
        if key.endswith("_datasets") and isinstance(value, list):
            for dataset in value:
                kind = dataset.get("type") if isinstance(dataset, dict) else None
                if getattr(kind, "__name__", kind) == class_name and "infer_cfg" in dataset:
                    return cases.plain(dataset)
    return None


def make(out: Path, count: int, seed: int, framework: str = "opencompass") -> int:
    import make_parity_cases as cases
    from make_real_runs import Recorder, environment, start_server

    rnd = random.Random(seed)
    fw = cases.OPENCOMPASS if framework == "opencompass" else cases.AISBENCH
    by_class = _configs_by_class(cases.configs_root(fw))
    cases_of = "opencompass" if framework == "opencompass" else "ais_bench"
    todo = [(name, case) for name, case in _reader_cases(cases_of) if by_class.get(case["class"])]
    rnd.shuffle(todo)
    print(f"{len(todo)} reader cases have a shipped config of their class; running up to {count}", flush=True)
    made = 0
    server = None
    try:
        for name, case in todo:
            if server is not None:  # a server a run: make_real_runs' stops itself after SERVER_LIFETIME
                server.shutdown()
                server.server_close()
            server = start_server()
            port = server.server_address[1]
            if made >= count:
                break
            target = out / name
            if (target / "eval.py").exists():
                continue
            config_path = rnd.choice(by_class[case["class"]])
            try:
                dataset = _dataset_of(config_path, case["class"])
            except Exception as exc:  # a config that does not load is skipped, loudly
                print(f"skip {name}: {config_path.name} does not load ({type(exc).__name__})", flush=True)
                continue
            if dataset is None:
                continue
            data = READER_CASES / name
            kwargs = json.loads(json.dumps(case["kwargs"]).replace("{case}", str(data)))
            dataset.update(kwargs)
            writer = cases.PyWriter(fw.public_modules)
            try:
                body = f"datasets = [{writer.lit(dataset)}]\n"
            except cases.Unserialisable as exc:
                print(f"skip {name}: {exc}", flush=True)
                continue
            imports = "".join(line + "\n" for line in writer.import_lines())
            header = (f"# {config_path.relative_to(cases.configs_root(fw))}'s {case['class']} "
                      f"dataset on tests/loading/readers/cases/{name}, written by tools/sweep_real_runs.py\n"
                      + (RUN_IMPORTS if framework == "opencompass" else ""))
            target.mkdir(parents=True, exist_ok=True)
            text = header + imports + "\n" + body + (MODEL if framework == "opencompass" else AIS_MODEL)
            (target / "eval.py").write_text(text, encoding="utf-8")
            run = target / "run.py"  # the copy that runs: the server's port in place of 8000
            run.write_text(text.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
                           .replace("host_port=8000", f"host_port={port}"), encoding="utf-8")
            with Recorder.lock:
                Recorder.records.clear()
            cli = "ais_bench" if framework == "aisbench" else "opencompass"
            command = str(Path(sys.executable).parent / cli)
            argv = [command, "run.py", "-m", "infer", "-w", "outputs"]
            if framework == "opencompass":
                argv += ["--max-num-workers", "1"]
            (out / "_scratch").mkdir(exist_ok=True)
            # a session of its own: on a timeout the run's task processes go with it (else they
            # would go on sending requests into the next run's record)
            running = subprocess.Popen(argv, cwd=target, env=environment(out / "_scratch", target),
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                       start_new_session=True)
            try:
                log, _ = running.communicate(timeout=RUN_TIMEOUT)
                code = running.returncode
            except subprocess.TimeoutExpired:
                os.killpg(running.pid, signal.SIGKILL)
                log, _ = running.communicate()
                log, code = f"timed out after {RUN_TIMEOUT} s\n{log}", -1
            (target / "run.log").write_text(str(log), encoding="utf-8")
            with Recorder.lock:
                records = sorted(Recorder.records, key=lambda r: (r["path"], r["body"]))
            lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
            (target / "requests.jsonl").write_text("".join(lines), encoding="utf-8")
            made += 1
            print(f"ran {name} ({config_path.name}): exit {code}, {len(records)} requests", flush=True)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    print(f"ran {made} configs in {out}")
    return 0


def check(folder: Path) -> int:
    """A verdict agrees with its run when the run wrote predictions and no task failed and verify
    is green, or some task failed and verify is not; any other pairing is a difference."""
    agree = differ = 0
    for case in sorted(p for p in folder.iterdir() if (p / "eval.py").is_file()):
        runs = sorted(p for p in (case / "outputs").glob("*") if p.is_dir())
        if not runs:
            print(f"none {case.name}: the run wrote no run folder (see run.log)")
            continue
        run_log = case / "run.log"
        log = run_log.read_text(encoding="utf-8", errors="replace") if run_log.is_file() else ""
        written = [f for f in (runs[-1] / "predictions").glob("*/*.json*") if not f.name.startswith("tmp_")]
        failed = "failed with code" in log or log.startswith("timed out") or not written
        argv = [sys.executable, "-m", "workbench", "verify", str(runs[-1]), "--strict", "-f", "json"]
        done = subprocess.run(argv, cwd=case, capture_output=True, text=True, timeout=600)
        sent = case / "requests.jsonl"
        requests = len(sent.read_text(encoding="utf-8").splitlines()) if sent.is_file() else 0
        line = (f"{case.name}: the run {'failed' if failed else 'ran'} ({requests} requests), verify exit "
                f"{done.returncode} ({_summary(done.stdout)})")
        if (done.returncode == 0) != failed:
            agree += 1
            print(f"ok   {line}")
        else:
            differ += 1
            first = (done.stderr.strip().splitlines() or [""])[0]
            print(f"FAIL {line}: {first[:300]}")
    print(f"{agree} verdicts agree with their runs, {differ} do not")
    return 1 if differ else 0


def _summary(text: str) -> str:
    try:
        document = json.loads(text)
    except ValueError:
        return "no JSON"
    pairs = document.get("pairs") or []
    counts = {key: sum(pair.get(key, 0) for pair in pairs) for key in ("matched", "differing", "missing")}
    statuses = sorted({pair["status"] for pair in pairs if pair.get("status") != "compared"})
    return ", ".join(f"{v} {k}" for k, v in counts.items()) + "".join(f", a pair {s}" for s in statuses)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    made = sub.add_parser("make", help="real runs of shipped configs on the reader cases' data "
                          "(framework venv)")
    made.add_argument("dir", type=Path)
    made.add_argument("--count", type=int, default=40)
    made.add_argument("--seed", type=int, default=0)
    made.add_argument("--framework", choices=("opencompass", "aisbench"), default="opencompass")
    checked = sub.add_parser("check", help="workbench verify --strict on each run (project venv)")
    checked.add_argument("dir", type=Path)
    args = parser.parse_args(argv)
    if args.step == "make":
        args.dir.mkdir(parents=True, exist_ok=True)
        return make(args.dir.resolve(), args.count, args.seed, args.framework)
    return check_step(args.dir, check)


if __name__ == "__main__":
    sys.exit(main())
