"""Reload latency: from a config file's save to the new render in the panes.

The app runs headless (``App.run_test``) with its real watcher; each run saves a config
the way editors do (write a temp file, rename it over) and times until the final-input
pane has been handed the changed text. Two workspaces: the bundled demo, and a generated
one of 50 datasets × 3 models.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data"

DATASET = '''from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever
from opencompass.openicl.icl_inferencer import GenInferencer

ds{n}_datasets = [dict(
    abbr="ds{n:02d}",
    path="rows.json",
    reader_cfg=dict(input_columns=["question"], output_column="answer"),
    infer_cfg=dict(
        ice_template=dict(type=PromptTemplate, template=dict(round=[
            dict(role="HUMAN", prompt="Q{n}: {{question}}"), dict(role="BOT", prompt="{{answer}}")])),
        prompt_template=dict(type=PromptTemplate, ice_token="</E>", template=dict(
            begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="MARKER{n}"), "</E>"],
            round=[dict(role="HUMAN", prompt="Q{n}: {{question}}"), dict(role="BOT", prompt="{{answer}}")])),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
        inferencer=dict(type=GenInferencer)))]
'''
MODELS = '''from opencompass.models import HuggingFaceCausalLM, OpenAI, HuggingFacewithChatTemplate

_meta = dict(round=[dict(role="HUMAN", begin="<|user|>", end="\\n"),
                    dict(role="BOT", begin="<|bot|>", end="\\n", generate=True)],
             reserved_roles=[dict(role="SYSTEM", begin="<|sys|>", end="\\n")])
models = [
    dict(abbr="local", type=HuggingFaceCausalLM, path="m/local", meta_template=_meta),
    dict(abbr="api", type=OpenAI, path="gpt", meta_template=dict(round=[
        dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)])),
    dict(abbr="chat", type=HuggingFacewithChatTemplate, path="m/chat"),
]
'''


def make_big_workspace(folder: Path, datasets: int = 50) -> tuple[Path, Path, str]:
    """50 dataset files, a models file and an eval config importing them through read_base."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = ('{"train": [' + ", ".join(f'{{"question": "q{i}", "answer": "a{i}"}}' for i in range(5))
            + '], "test": [' + ", ".join(f'{{"question": "t{i}", "answer": "b{i}"}}' for i in range(20))
            + "]}")
    (folder / "rows.json").write_text(rows)
    for n in range(datasets):
        (folder / f"ds{n:02d}.py").write_text(DATASET.format(n=n))
    (folder / "models.py").write_text(MODELS)
    imports = "\n".join(f"    from .ds{n:02d} import ds{n}_datasets" for n in range(datasets))
    (folder / "eval_big.py").write_text(
        "from mmengine.config import read_base\n\nwith read_base():\n" + imports
        + "\n    from .models import models\n\n"
        "datasets = sum((v for k, v in locals().items() if k.endswith('_datasets')), [])\n")
    return folder / "eval_big.py", folder / "ds00.py", "MARKER0"


def _demo_workspace(folder: Path) -> tuple[Path, Path, str]:
    shutil.copytree(DEMO, folder)
    target = folder / "datasets" / "gsm8k_like_gen.py"
    text = target.read_text()
    marker = "Solve the math word problem"
    if marker not in text:  # the demo's system prompt, whatever it says
        import re
        marker = re.search(r"prompt=['\"]([^'\"]{8,})['\"]", text).group(1)
    return folder / "eval_demo.py", target, marker


async def timed_saves(app, pilot, target: Path, marker: str, runs: int, arrived: asyncio.Event,
                      shown: dict[str, float]) -> list[float]:
    """Save ``target`` ``runs`` times as editors do (a temp file renamed over it), each time
    changing ``marker``; seconds from each save until the final-input pane shows it.
    ``arrived`` is set and ``shown["at"]`` stamped each time that pane is handed new lines."""
    from workbench.tui.driving import pane_text

    times: list[float] = []
    previous = marker
    for n in range(runs):
        await pilot.pause(0.25)
        text = f"{marker} v{n}"
        staged = target.with_name(f".{target.name}.tmp")
        staged.write_text(target.read_text(encoding="utf-8").replace(previous, text), encoding="utf-8")
        arrived.clear()
        started = time.monotonic()
        os.replace(staged, target)
        # wait for the pane without polling it (polling would take the UI thread's time)
        while True:
            await asyncio.wait_for(arrived.wait(), timeout=60)
            if text in pane_text(app, "final-input"):
                break
            arrived.clear()
        times.append(shown["at"] - started)
        previous = text
    return times


async def _measure(config: Path, target: Path, marker: str, runs: int) -> list[float]:
    from workbench.loading.rows.data_files import RACY_NS
    from workbench.tui.app import create_app
    from workbench.tui.driving import pane_text, wait_for
    from workbench.tui.session import Inputs
    from workbench.tui.widgets.main.view_pane import ViewPane

    shown: dict[str, float] = {}
    arrived = asyncio.Event()
    original = ViewPane.show

    def show(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        if self.id == "final-input":
            shown["at"] = time.monotonic()
            arrived.set()
        return result

    ViewPane.show = show  # type: ignore[method-assign]
    copied = time.monotonic()
    times: list[float] = []
    try:
        app = create_app(Inputs(configs=(str(config),)), watch=True, deterministic=True)
        async with app.run_test(size=(160, 48)) as pilot:
            await wait_for(pilot, lambda: marker in pane_text(app, "final-input"), timeout=60)
            # Rows files written moments ago are parsed again on every load, by design (see
            # workbench/loading/rows/data_files.py, RACY_NS); time the steady state of an editing
            # session, whose rows files are older than that.
            await asyncio.sleep(max(0.0, RACY_NS / 1e9 - (time.monotonic() - copied)))
            times = await timed_saves(app, pilot, target, marker, runs, arrived, shown)
    finally:
        ViewPane.show = original  # type: ignore[method-assign]
    return times


def measure(runs: int = 20) -> dict[str, list[float]]:
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        out["demo"] = asyncio.run(_measure(*_demo_workspace(Path(tmp) / "demo"), runs))
        out["50 datasets x 3 models"] = asyncio.run(
            _measure(*make_big_workspace(Path(tmp) / "big"), max(5, runs // 2)))
    return out
