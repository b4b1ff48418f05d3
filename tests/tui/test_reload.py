"""Live reload with the real watcher and real files: writes, broken saves, deletes, renames."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import make_app, pane_text, plain, wait_for

pytestmark = pytest.mark.anyio

OLD = "Answer briefly."
NEW = "Answer in one word."


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


def shows(app, pane: str, text: str) -> bool:
    return text in pane_text(app, pane)


def stale(app) -> bool:
    return app.query_one("#final-input").has_class("-stale")


def banner(app) -> str:
    widget = app.query_one("#banner")
    return plain(widget.content) if widget.has_class("-shown") else ""


async def test_reload_after_a_real_file_write(workspace):
    app = make_app(workspace / "eval_fixture.py", watch=True)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        edit(workspace / "datasets" / "qa_gen.py", OLD, NEW)
        await wait_for(pilot, lambda: shows(app, "final-input", NEW))
        assert not stale(app) and not banner(app)


async def test_broken_save_keeps_the_last_render_dimmed_then_recovers(workspace):
    app = make_app(workspace / "eval_fixture.py", watch=True)
    target = workspace / "datasets" / "qa_gen.py"
    good = target.read_text()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        target.write_text(good + "\nbroken = dict(\n")
        await wait_for(pilot, lambda: "SyntaxError" in banner(app))
        assert "datasets/qa_gen.py:" in banner(app)
        assert stale(app), "the last good render stays, dimmed"
        assert shows(app, "final-input", OLD)
        assert "last good render" in banner(app)
        target.write_text(good.replace(OLD, NEW))
        await wait_for(pilot, lambda: shows(app, "final-input", NEW))
        assert not stale(app) and not banner(app)


async def test_deleted_file_shows_missing_and_comes_back(workspace):
    app = make_app(workspace / "eval_fixture.py", watch=True)
    target = workspace / "datasets" / "choice_ppl.py"
    content = target.read_text()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        target.unlink()
        await wait_for(pilot, lambda: "choice_ppl" in banner(app))
        assert stale(app)
        target.write_text(content)
        await wait_for(pilot, lambda: not banner(app) and not stale(app))
        assert "choice" in app.good.catalog.datasets


async def test_deleted_data_file_does_not_fall_back_to_placeholders(workspace):
    app = make_app(workspace / "eval_fixture.py", watch=True)
    rows = workspace / "data" / "qa.jsonl"
    content = rows.read_text()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", "What is 2 + 2?"))
        rows.unlink()
        await wait_for(pilot, lambda: "missing" in banner(app))
        assert stale(app) and shows(app, "final-input", "What is 2 + 2?")
        rows.write_text(content.replace("What is 2 + 2?", "What is 3 + 3?"))
        await wait_for(pilot, lambda: shows(app, "final-input", "What is 3 + 3?"))
        assert not banner(app)


async def test_rename_style_save_is_seen_every_time(workspace):
    """Editors write a temp file and rename it over the original; the watch must survive it."""
    app = make_app(workspace / "eval_fixture.py", watch=True)
    target = workspace / "datasets" / "qa_gen.py"
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        for n in range(3):
            tmp = target.with_name(f".qa_gen.py.swp{n}")
            tmp.write_text(target.read_text().replace(OLD if n == 0 else f"Say it {n - 1}.", f"Say it {n}."))
            os.replace(tmp, target)
            await wait_for(pilot, lambda n=n: shows(app, "final-input", f"Say it {n}."))


async def test_a_burst_of_saves_coalesces_and_the_newest_wins(workspace):
    app = make_app(workspace / "eval_fixture.py", watch=True)
    target = workspace / "datasets" / "qa_gen.py"
    good = target.read_text()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        loads = app.loads
        for n in range(60):
            target.write_text(good.replace(OLD, f"Version {n}."))
        await wait_for(pilot, lambda: shows(app, "final-input", "Version 59."))
        await pilot.pause(0.5)
        assert shows(app, "final-input", "Version 59.")
        assert app.loads - loads < 20, f"{app.loads - loads} loads for 60 saves"


async def test_first_load_broken_shows_the_error_and_recovers(workspace):
    target = workspace / "datasets" / "qa_gen.py"
    good = target.read_text()
    target.write_text(good + "\nbroken = (\n")
    app = make_app(workspace / "eval_fixture.py", watch=True)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "SyntaxError" in banner(app))
        assert shows(app, "prompt-list", "nothing rendered yet")
        target.write_text(good)
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        assert not banner(app)


async def test_mixed_save_styles_under_stress_end_on_the_final_content(workspace):
    """Write-in-place, rename-over, delete-then-create, truncate-then-write, fast: the last wins."""
    app = make_app(workspace / "eval_fixture.py", watch=True)
    target = workspace / "datasets" / "qa_gen.py"
    good = target.read_text()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        for n in range(200):
            text = good.replace(OLD, f"Stress {n}.")
            style = n % 4
            if style == 0:
                target.write_text(text)
            elif style == 1:
                tmp = target.with_name(f".qa_gen.{n}.tmp")
                tmp.write_text(text)
                os.replace(tmp, target)
            elif style == 2:
                target.unlink()
                target.write_text(text)
            else:
                with target.open("w") as out:
                    out.truncate()
                    out.flush()
                    out.write(text)
            if n % 50 == 0:
                await pilot.pause()
        await wait_for(pilot, lambda: shows(app, "final-input", "Stress 199.") and not banner(app), timeout=15)
        assert not stale(app)


async def test_creating_a_settings_file_reloads(workspace):
    """workbench.toml does not exist yet, but its creation changes the rows: it is watched."""
    (workspace / "data" / "alt.jsonl").write_text('{"question": "What colour is the sky?", "answer": "Blue"}\n'
                                                  '{"question": "What is 1 + 1?", "answer": "2"}\n')
    app = make_app(workspace / "eval_fixture.py", watch=True)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", "What is 2 + 2?"))
        assert workspace / "workbench.toml" in app.latest.absent
        (workspace / "workbench.toml").write_text('[data]\nqa = "data/alt.jsonl"\n')
        await wait_for(pilot, lambda: shows(app, "final-input", "What colour is the sky?"))
        assert not banner(app)


async def test_a_newer_change_cancels_the_running_load(workspace):
    from workbench.loading.workspace import Loader

    class Counting(Loader):
        cancels = 0

        def cancel(self) -> None:
            Counting.cancels += 1
            super().cancel()

    with Counting() as loader:
        app = make_app(workspace / "eval_fixture.py", loader=loader)
        async with app.run_test() as pilot:
            await wait_for(pilot, lambda: shows(app, "final-input", OLD))
            edit(workspace / "datasets" / "qa_gen.py", OLD, NEW)
            app.request_load()
            app.request_load()  # supersedes the first while it runs
            assert Counting.cancels == 1
            await wait_for(pilot, lambda: shows(app, "final-input", NEW))
            assert not banner(app) and not stale(app)


async def test_a_config_emptied_then_written_again_is_never_lost(workspace):
    """Truncate, then write (a save that a load can read half-way): the load of the empty
    file fails and knows fewer files, which changes what is watched; the write that follows
    must still be seen. A watch of the same folders is told the new files instead of being
    stopped and started again (a save in between was lost: the app stayed on the error)."""
    app = make_app(workspace / "eval_fixture.py", watch=True)
    target = workspace / "datasets" / "qa_gen.py"
    good = target.read_text()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        watch, relevance = app._stop_watch, app._relevance
        target.write_text("")
        await wait_for(pilot, lambda: "qa_gen.py defines: nothing" in banner(app), timeout=30)
        assert app._watching and app._stop_watch is watch and app._relevance is relevance
        target.write_text(good.replace(OLD, NEW))  # at once, as an editor would
        await wait_for(pilot, lambda: shows(app, "final-input", NEW) and not banner(app), timeout=30)
        assert app._stop_watch is watch  # one watch all along


async def test_a_watch_of_other_folders_starts_beside_the_old_one(workspace, monkeypatch):
    """When the folders change, the new watch starts while the old one still runs (it stops
    WATCH_OVERLAP seconds later), so a save while the new one gets going is seen."""
    from workbench.tui import app as app_module

    monkeypatch.setattr(app_module, "WATCH_OVERLAP", 0.5)
    app = make_app(workspace / "eval_fixture.py", watch=True)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: shows(app, "final-input", OLD))
        old = app._stop_watch
        extra = workspace / "elsewhere" / "notes.py"
        extra.parent.mkdir()
        app._absent_files.add(extra)  # a file in another folder, as a load might name one
        app._restart_watcher()
        assert app._stop_watch is not old and not old.is_set() and old in app._retiring
        edit(workspace / "datasets" / "qa_gen.py", OLD, NEW)
        await wait_for(pilot, lambda: shows(app, "final-input", NEW))
        await wait_for(pilot, lambda: old.is_set() and not app._retiring, timeout=5)


async def test_a_save_stops_the_frames_being_built_around_the_last_one(workspace, monkeypatch):
    """The frames one key away are built from the pairs a load replaces (and dropped when it
    lands): a save stops that work, and none starts while the load is in flight, so the load
    and its frame have the interpreter to themselves."""
    import time

    import workbench.tui.app as app_module

    calls: list[dict] = []

    def slow_prefetch(catalog, frame, opts, widths, cache, cancelled, render_lines):
        call = {"pending_load": app._pending_load, "stopped": None}
        calls.append(call)
        deadline = time.monotonic() + 20  # (only a guard against a hang)
        while not cancelled() and time.monotonic() < deadline:
            time.sleep(0.005)
        call["stopped"] = cancelled()
        call["loads"] = app.loads  # how many loads had landed when it stopped
        return 0

    async def until(pilot, condition) -> None:  # (not settled: the check gives way to the prefetch)
        deadline = time.monotonic() + 20
        while not condition() and time.monotonic() < deadline:
            await pilot.pause(0.01)
        assert condition()

    monkeypatch.setattr(app_module, "prefetch", slow_prefetch)
    app = make_app(workspace / "eval_fixture.py", watch=True)
    async with app.run_test() as pilot:
        await until(pilot, lambda: shows(app, "final-input", OLD) and calls)
        first = calls[0]
        assert first["stopped"] is None  # still building
        edit(workspace / "datasets" / "qa_gen.py", OLD, NEW)
        await until(pilot, lambda: first["stopped"] is not None)
        assert first["stopped"] is True and first["loads"] == 1  # the save stopped it, not the next frame
        await until(pilot, lambda: shows(app, "final-input", NEW))
        assert all(not call["pending_load"] for call in calls)
        # a frame shown while a load is in flight (a check's repaint) builds no frames around it
        before = len(calls)
        app._pending_load = True
        app._prefetch_around(app.frame)
        await pilot.pause(0.1)
        app._pending_load = False
        assert len(calls) == before
