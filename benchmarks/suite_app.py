"""The app on a whole suite: first frame, navigation keys, a save, memory.

Run by ``python -m benchmarks --only suite`` in a process of its own (so its memory is the
app's): ``python -m benchmarks.suite_app CONFIG`` prints one JSON object. The app runs
headless (``App.run_test``) at 160×48 with its real watcher and workers; a key is timed
from the moment it reaches the app (as a terminal sends it) until the first screen update
after the final-input pane has been handed the new frame (a pane-focus key: after the
focus has moved), both stamped when they happen: the app usually paints in the same turn of
its event loop, and a harness that noticed the change only when it next looked timed the
update after that one. Keys are pressed one at a time, as a reader steps through: before
each, the app is given the time a reader would take (at most 2 s) to build the frames one
key away. Each key's process CPU time is recorded too: on a machine shared with other jobs
the wall time includes waiting for a CPU, the CPU time does not.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

#: (key, times pressed): the navigation keys of the issue's table
NAV_KEYS = (("n", 12), ("p", 12), ("d", 12), ("D", 12), ("m", 8), ("M", 8), ("l", 8), ("L", 8))
FOCUS_KEYS = (("2", 1), ("3", 1), ("4", 1), ("1", 1)) * 3 + (("tab", 1),) * 8


def tree_rss_mb(pid: int) -> float:
    from benchmarks.streaming_memory import tree_rss_mb as measure

    return measure(pid)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


async def measure(config: Path, save_target: Path | None, marker: str | None, saves: int,
                  keys_scale: float = 1.0) -> dict:
    from textual.screen import Screen

    from workbench.tui.app import WorkbenchApp, create_app
    from workbench.tui.driving import wait_for
    from workbench.tui.session import Inputs
    from workbench.tui.widgets.main.view_pane import ViewPane

    shown: dict[str, float] = {}
    paints: list[float] = []  # when each screen update was written, in order
    arrived = asyncio.Event()
    painted = asyncio.Event()
    original_show, original_display = ViewPane.show, WorkbenchApp._display
    original_focus = Screen.set_focus

    def show(self, *args, **kwargs):
        result = original_show(self, *args, **kwargs)
        if self.id == "final-input":
            shown["at"] = time.monotonic()
            arrived.set()
        return result

    def display(self, *args, **kwargs):
        result = original_display(self, *args, **kwargs)
        paints.append(time.monotonic())
        painted.set()
        return result

    def set_focus(self, *args, **kwargs):
        before = self.focused
        result = original_focus(self, *args, **kwargs)
        if self.focused is not before:
            shown["focused_at"] = time.monotonic()
        return result

    ViewPane.show = show  # type: ignore[method-assign]
    WorkbenchApp._display = display  # type: ignore[method-assign]
    Screen.set_focus = set_focus  # type: ignore[method-assign]
    out: dict = {"keys": {}, "cpu": {}}
    try:
        started = time.monotonic()
        app = create_app(Inputs(configs=(str(config),)), watch=True, deterministic=True)
        async with app.run_test(size=(160, 48)) as pilot:
            while app.frame is None:  # the first frame of the suite (a sample, or why there is none)
                await asyncio.wait_for(arrived.wait(), timeout=120)
                arrived.clear()
            out["first_frame_s"] = shown["at"] - started
            await wait_for(pilot, lambda: app.is_settled, timeout=120)
            out["datasets"] = len(app.good.catalog.datasets) if app.good and app.good.catalog else 0
            tree = app.query_one("#tree")
            out["failed_in_tree"] = sum("✖ not loaded" in str(node.label) for node in tree.root.children)

            async def timed(key: str, done, changed_at: str) -> None:
                """From the key reaching the app to the first screen update after the change it
                makes (the final-input pane handed its new frame, or the focus moved): stamped
                when it happens, not when this loop next looks, since the app often paints it
                in the same turn of the event loop, before this coroutine runs again."""
                await _reading(pilot, app)
                arrived.clear()
                shown.pop(changed_at, None)
                t0, c0 = time.monotonic(), time.process_time()
                _send_key(app, key)
                deadline = t0 + 60
                while not done() and time.monotonic() < deadline:
                    await asyncio.sleep(0.0005)
                ready = shown.get(changed_at, time.monotonic())
                painted.clear()
                try:
                    while not paints or paints[-1] < ready:
                        await asyncio.wait_for(painted.wait(), timeout=0.5)
                        painted.clear()
                    end = next(t for t in paints if t >= ready)
                except TimeoutError:  # nothing on screen changed (a label key on one request)
                    end = ready
                out["keys"].setdefault(name, []).append(end - t0)
                out["cpu"].setdefault(name, []).append(time.process_time() - c0)

            for key, times in NAV_KEYS:
                name = key
                for _ in range(max(2, round(times * keys_scale))):
                    await timed(key, arrived.is_set, "at")
            for key, times in FOCUS_KEYS:
                name = f"focus {key}"
                for _ in range(times):  # a pane key twice in a row moves nothing the second time
                    before = app.focused
                    await timed(key, lambda before=before: app.focused is not before, "focused_at")
            if save_target is not None and marker is not None:
                out["saves"] = await _saves(app, pilot, save_target, marker, saves, arrived, shown)
                out["save_resent"] = _resent(app)
            out["rss_mb"] = tree_rss_mb(os.getpid())
    finally:
        ViewPane.show = original_show  # type: ignore[method-assign]
        WorkbenchApp._display = original_display  # type: ignore[method-assign]
        Screen.set_focus = original_focus  # type: ignore[method-assign]
    return out


def _send_key(app, key: str) -> None:
    """The key as a terminal sends it (Pilot.press also waits for the whole process to idle,
    background workers included, which is not what a reader waits for)."""
    from textual import events

    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    app._driver.send_message(event)


async def _reading(pilot, app) -> None:
    """A reader looks at the screen before the next key: the frames one key away are built
    meanwhile (up to 2 s), as they would be while a person reads."""
    await pilot.pause(0.05)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(
            w.group == "prefetch" and not w.is_finished for w in app.workers):
        await asyncio.sleep(0.01)


async def _saves(app, pilot, target: Path, marker: str, runs: int, arrived: asyncio.Event,
                 shown: dict) -> list[float]:
    """Select the target's dataset, then save it ``runs`` times as editors do (temp + rename)."""
    from benchmarks.reload import timed_saves
    from workbench.views.selection import Selection

    catalog = app.good.catalog
    dataset = next(d for d in catalog.datasets if marker in _first_prompt(app, d))
    app.selection = Selection(dataset, catalog.models[0])
    arrived.clear()
    app.request_frame()
    await asyncio.wait_for(arrived.wait(), timeout=60)
    await asyncio.sleep(3.2)  # rows files this fresh are parsed again on every load (RACY_NS)
    return await timed_saves(app, pilot, target, marker, runs, arrived, shown)


def _resent(app) -> list[int] | None:
    """Work a save cost, counted: [entries the config worker sent again, entries in all] for the
    last save (the others were the parent's own, see loading/config/answers.py)."""
    worker = getattr(app._loader(), "_worker", None)
    if worker is None or app.good is None:
        return None
    entries = len(app.good.datasets) + len(app.good.models)
    return [entries - worker.reused, entries]


def _first_prompt(app, dataset: str) -> str:
    spec = next((d for d in app.good.datasets if d.abbr == dataset), None)
    return repr(spec.cfg) if spec is not None else ""


def summary(result: dict) -> dict:
    nav = [t for k, v in result["keys"].items() for t in v]
    cpu = [t for k, v in result["cpu"].items() for t in v]
    return {"first_frame_s": result["first_frame_s"], "nav_p50_s": _p(nav, 0.5), "nav_p95_s": _p(nav, 0.95),
            "nav_cpu_p50_s": _p(cpu, 0.5), "nav_cpu_p95_s": _p(cpu, 0.95),
            "per_key_p95_s": {k: _p(v, 0.95) for k, v in result["keys"].items()},
            "save_p50_s": _p(result.get("saves", []), 0.5), "save_resent": result.get("save_resent"),
            "rss_mb": result["rss_mb"],
            "datasets": result.get("datasets", 0), "failed_in_tree": result.get("failed_in_tree", 0)}


def main(argv: list[str]) -> int:
    config = Path(argv[0]).absolute()
    target = Path(argv[1]) if len(argv) > 1 and argv[1] else None
    marker = argv[2] if len(argv) > 2 else None
    saves = int(argv[3]) if len(argv) > 3 else 10
    scale = float(argv[4]) if len(argv) > 4 else 1.0
    os.chdir(config.parent)
    result = asyncio.run(measure(config, target, marker, saves, scale))
    print(json.dumps(summary(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
