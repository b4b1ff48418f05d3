"""Dev-only: run folders made by the REAL OpenCompass inference task, for ``workbench verify``.

Loads ``tests/verify/fixture/eval_fixture.py`` with mmengine, dumps it into
``<run>/configs/`` as ``opencompass run`` does, and runs ``OpenICLInferTask`` for every
dataset × model pair with stand-in models (a local model and an API model that answer with
fixed text: no weights, no network), so ``<run>/predictions/<model>/<dataset>.json`` are
written by OpenCompass's own inferencers and output handlers. A second run is split into
shards (``gsm8k_0.json``, ``gsm8k_1.json``) the way the size partitioner splits a dataset.

    $FWENV/bin/python tools/make_run_fixtures.py
"""

from __future__ import annotations

import os
import shutil
import sys
import traceback
from pathlib import Path
from typing import Any

from _shared import REPO

FIXTURE = REPO / "tests" / "verify" / "fixture"
RUNS = FIXTURE / "runs"


def stand_ins() -> dict[str, Any]:
    from opencompass.models.base import BaseModel
    from opencompass.models.base_api import BaseAPIModel

    class StandInLM(BaseModel):
        def generate(self, inputs: list[str], max_out_len: int) -> list[str]:
            return [f"answer {len(text)}" for text in inputs]

        def get_ppl(self, inputs: list[str], mask_length: Any = None) -> Any:
            import numpy as np

            return np.array([float(len(text) % 7) for text in inputs])

        def get_token_len(self, prompt: str) -> int:
            return len(prompt.split())

    class StandInAPI(BaseAPIModel):
        def generate(self, inputs: list[Any], max_out_len: int = 512, **kwargs: Any) -> list[str]:
            return [f"api answer {i}" for i, _ in enumerate(inputs)]

        def get_token_len(self, prompt: str) -> int:
            return len(prompt.split())

    return {"fake-lm": StandInLM, "fake-api": StandInAPI}


def run(run_dir: Path, shards: int = 1) -> None:
    from mmengine.config import Config
    from opencompass.tasks.openicl_infer import OpenICLInferTask

    cfg = Config.fromfile(str(FIXTURE / "eval_fixture.py"))
    (run_dir / "configs").mkdir(parents=True)
    cfg.dump(str(run_dir / "configs" / "20261124_000000_1.py"))
    models = stand_ins()
    for model_cfg in cfg["models"]:
        abbr = model_cfg["abbr"]
        model = models[abbr](path=model_cfg["path"], max_seq_len=model_cfg["max_seq_len"],
                             meta_template=model_cfg["meta_template"])
        for dataset_cfg in cfg["datasets"]:
            parts = [dataset_cfg] if shards == 1 else _shards(dataset_cfg, shards)
            for part in parts:
                task_cfg = Config(dict(models=[model_cfg], datasets=[[part]], work_dir=str(run_dir)))
                try:
                    OpenICLInferTask(task_cfg).run(cur_model=model, cur_model_abbr=abbr)
                except NotImplementedError:
                    # an API model asked for PPL (fake-api × boolq): the task fails, as in every real
                    # run, and its runner keeps the traceback in the task's log
                    log = run_dir / "logs" / "infer" / abbr / f"{part['abbr']}.out"
                    log.parent.mkdir(parents=True, exist_ok=True)
                    log.write_text(traceback.format_exc(), encoding="utf-8")


def _shards(dataset_cfg: Any, count: int) -> list[Any]:
    # SizePartitioner: abbr_<k> with test_range [start:end] (4 test rows: 2 a shard)
    import copy

    out = []
    for k in range(count):
        part = copy.deepcopy(dataset_cfg)
        part["abbr"] = f"{dataset_cfg['abbr']}_{k}"
        part["reader_cfg"]["test_range"] = f"[{k * 2}:{(k + 1) * 2}]"
        out.append(part)
    return out


def main() -> int:
    os.environ.setdefault("OPENAI_API_KEY", "sk-never-used")
    os.chdir(FIXTURE)  # the config's ./data paths are relative to the run's working directory
    shutil.rmtree(RUNS, ignore_errors=True)
    run(RUNS / "20261124_000000")
    run(RUNS / "sharded", shards=2)
    print(f"runs written under {RUNS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
