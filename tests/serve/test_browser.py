"""``workbench serve`` in a real browser: headless Chromium (the system's, never downloaded) driven by
Playwright, reading what the app draws from the websocket the page receives.

Skips only where no Chromium is installed (Debian: ``apt-get install chromium``; ``.ci/run``
installs it), and says so. The screenshot is kept under ``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import http.server
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from .helpers import Served, alive, descendants, free_port, served, wait_for, wait_port

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=$ ]*[A-Za-z~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9]|[=>78DEHMNOZc])")

CONFIG = '''\
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr='qa', path='rows.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template='Question: {question}\\nAnswer:'),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    ),
)]
'''
ROWS = "".join(f'{{"question": "What is {n} plus {n}?", "answer": "{2 * n}"}}\n' for n in range(3))


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("no Chromium on this machine (Debian: apt-get install chromium): the browser test "
                    "of `workbench serve` cannot run here")
    return found


class Screen:
    """Everything the app has drawn, as text: the websocket's frames with the escape codes taken out."""

    def __init__(self) -> None:
        self.text = ""
        self._decode = codecs.getincrementaldecoder("utf-8")("replace").decode

    def feed(self, payload: bytes | str) -> None:
        chunk = self._decode(payload) if isinstance(payload, bytes) else payload
        self.text += ESCAPES.sub("", chunk)

    def since(self, mark: int) -> str:
        return self.text[mark:]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "eval.py").write_text(CONFIG)
    (tmp_path / "rows.jsonl").write_text(ROWS)
    return tmp_path


@pytest.fixture
def server(workspace: Path):
    port = free_port()
    log = open(workspace / "serve.log", "w+b")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "eval.py", "--port", str(port)],
                            cwd=workspace, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        if not wait_port(port, proc):
            log.seek(0)
            pytest.fail(f"workbench serve did not start: {log.read().decode(errors='replace')}")
        yield proc, port
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        log.close()


def test_the_app_runs_in_a_browser_and_leaves_nothing_behind(workspace, server):
    executable = chromium()
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    proc, port = server
    screen = Screen()
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "serve.png"
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(workspace / "profile"), executable_path=executable, headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            page.on("websocket", lambda ws: ws.on("framereceived", screen.feed))
            page.goto(f"http://127.0.0.1:{port}/")
            patient = _patience(page)
            assert patient(lambda: "sample 0 (1/3)" in screen.text and "What is 0 plus 0?" in screen.text), \
                f"the panes never showed sample 0; the page got: {screen.text[-2000:]!r}"
            apps = descendants(proc.pid)
            assert apps, "no app process was started for the browser"

            page.locator("#terminal").click()
            mark = len(screen.text)
            page.keyboard.press("n")
            assert patient(lambda: "sample 1 (2/3)" in screen.since(mark)
                            and "What is 1 plus 1?" in screen.since(mark)), \
                f"n did not move to sample 1: {screen.since(mark)[-2000:]!r}"

            mark = len(screen.text)
            config = workspace / "eval.py"
            config.write_text(config.read_text().replace("Question: {question}", "Query for the browser: {question}"))
            assert patient(lambda: "Query for the browser:" in screen.since(mark)), \
                f"the panes did not follow the saved config: {screen.since(mark)[-2000:]!r}"
            page.screenshot(path=str(shot))

            mark = len(screen.text)
            page.keyboard.press("t")  # themes switch as in the terminal
            assert patient(lambda: "theme: workbench-" in screen.since(mark))
            mark = len(screen.text)
            page.keyboard.press("e")  # no editor on the server for a browser's user
            assert patient(lambda: "edit the config on the server" in screen.since(mark))
            with page.expect_download() as download:
                page.keyboard.press("x")  # the snapshot goes to the browser, not the server's disk
            saved = download.value.path()
            assert download.value.suggested_filename.endswith(".svg")
            assert Path(saved).read_text(encoding="utf-8").lstrip().startswith("<svg")
            assert not list(workspace.glob("*.svg"))
        finally:
            context.close()  # the browser goes away: its app must too
    print(f"\nscreenshot of the served app: {shot}")
    assert shot.stat().st_size > 10_000

    assert wait_for(lambda: not descendants(proc.pid)), \
        f"processes left behind after the browser disconnected: {descendants(proc.pid)}"
    assert proc.poll() is None, "the server itself must keep serving after a tab closes"

    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 0


def test_a_server_that_dies_takes_its_apps_with_it(workspace, server):
    """Killed outright (no chance to quit its apps), the server's app processes still end."""
    executable = chromium()
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    proc, port = server
    screen = Screen()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(workspace / "profile"), executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            page = context.new_page()
            page.on("websocket", lambda ws: ws.on("framereceived", screen.feed))
            page.goto(f"http://127.0.0.1:{port}/")
            assert _patience(page)(lambda: "sample 0 (1/3)" in screen.text)
            apps = descendants(proc.pid)
            assert apps
            proc.kill()  # SIGKILL: the server's own cleanup never runs
            proc.wait()
            assert wait_for(lambda: not any(alive(pid) for pid in apps)), \
                f"app processes outlived their server: {[p for p in apps if alive(p)]}"
        finally:
            context.close()


def _patience(page):
    """``wait_for`` that lets Playwright deliver the page's events while it waits."""
    return lambda condition: wait_for(condition, sleep=lambda s: page.wait_for_timeout(s * 1000))


def test_a_port_in_use_is_a_one_line_error(workspace):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "workbench", "serve", "eval.py", "--port", str(port)],
                                cwd=workspace, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == f"workbench serve: error: port {port} on 127.0.0.1 is in use (hint: --port N picks another)\n"
    assert result.stdout == ""


# -- how a tab goes, what another site's page can do, a server over its limit ---------------------


def _browser(playwright, workspace: Path, **options):
    return playwright.chromium.launch_persistent_context(
        str(workspace / "profile"), executable_path=chromium(), headless=True, args=CHROMIUM_FLAGS, **options)


def _open_app(context, port: int, served: Served) -> tuple[object, list[int]]:
    """A tab on the served page, once it shows sample 0; the processes its app runs in."""
    screen = Screen()
    page = context.new_page()
    page.on("websocket", lambda ws: ws.on("framereceived", screen.feed))
    page.goto(f"http://127.0.0.1:{port}/")
    assert _patience(page)(lambda: "sample 0 (1/3)" in screen.text), screen.text[-2000:]
    apps = served.apps()
    assert apps, "no app process was started for the tab"
    return page, apps


def test_a_tab_its_user_closes_leaves_no_process(workspace):
    """Closing the tab (the browser stays open) ends its app and the app's config worker."""
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with served(workspace, "eval.py") as server, sync_playwright() as playwright:
        context = _browser(playwright, workspace)
        try:
            page, apps = _open_app(context, server.port, server)
            page.close()
            assert wait_for(lambda: not server.left()), f"left behind after the tab closed: {server.left()}"
            assert all(not alive(pid) for pid in apps)
        finally:
            context.close()


def test_chromium_loading_the_page_once_leaves_no_process(workspace):
    """``chromium --headless --screenshot URL`` loads the page and exits before the app has drawn:
    the app used to spin a CPU for good, outlive the server and ignore SIGTERM (3 times of 3)."""
    executable = chromium()
    with served(workspace, "eval.py") as server:
        started = 0
        for attempt in range(6):  # three loads that started an app (a busy machine may shoot first)
            shot = workspace / f"once-{attempt}.png"
            subprocess.run([executable, *CHROMIUM_FLAGS, f"--screenshot={shot}", "--window-size=1280,800",
                            "--virtual-time-budget=5000", f"http://127.0.0.1:{server.port}/"],
                           capture_output=True, timeout=120, check=True)
            assert shot.is_file()
            assert wait_for(lambda: not server.left()), f"left behind by load {attempt}: {server.left()}"
            started = sum("GET /ws?" in line for line in server.lines())
            if started >= 3:
                break
        assert started >= 3  # three loads did start an app, and each left nothing behind


@contextlib.contextmanager
def another_local_server(folder: Path):
    """A plain web server on another port of 127.0.0.1: the origin of a page the user has open."""
    folder.mkdir()
    (folder / "index.html").write_text("<html><body>another local server</body></html>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as other:
        thread = threading.Thread(target=other.serve_forever, daemon=True)
        thread.start()
        try:
            yield other.server_address[1]
        finally:
            other.shutdown()
            thread.join()


def test_a_page_of_another_local_server_cannot_open_the_websocket(workspace):
    """A page the user has open on another server of this machine tries the server's websocket:
    refused, no app. (Chromium itself keeps public sites from loopback addresses, not this.)"""
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with served(workspace, "eval.py") as server, another_local_server(workspace / "other") as other, \
            sync_playwright() as playwright:
        context = _browser(playwright, workspace)
        try:
            page = context.new_page()
            page.goto(f"http://localhost:{other}/")
            outcome = page.evaluate("""port => new Promise(done => {
                const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?width=80&height=24`);
                ws.onopen = () => done("open");
                ws.onclose = event => done(`closed ${event.code}`);
            })""", server.port)
            assert outcome == "closed 1006"  # the handshake was refused (a page is not told why)
            assert wait_for(lambda: server.said(
                f"workbench serve: refused a websocket from 127.0.0.1: Origin 'http://localhost:{other}' is not "
                f"the origin of this server's page (http://127.0.0.1:{server.port})"))
            assert server.apps() == []
        finally:
            context.close()


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_stopping_the_server_with_a_tab_open_leaves_no_process(workspace, how):
    """Ctrl+C in the server's terminal (SIGINT to its whole group) or SIGTERM to the server alone."""
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with served(workspace, "eval.py") as server, sync_playwright() as playwright:
        context = _browser(playwright, workspace)
        try:
            _open_app(context, server.port, server)
            if how == "ctrl-c":
                os.killpg(server.proc.pid, signal.SIGINT)
            else:
                server.proc.send_signal(signal.SIGTERM)
            assert server.proc.wait(timeout=60) == 0
            assert wait_for(lambda: not server.left()), f"left behind by the stopped server: {server.left()}"
        finally:
            context.close()


def test_a_tab_over_max_apps_gets_a_page_saying_so(workspace):
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "serve-full.png"
    with served(workspace, "eval.py", "--max-apps", "1") as server, sync_playwright() as playwright:
        context = _browser(playwright, workspace, viewport={"width": 1000, "height": 400})
        try:
            _open_app(context, server.port, server)
            roots = server.app_roots()
            assert len(roots) == 1, roots  # the one app --max-apps 1 allows
            second = context.new_page()
            response = second.goto(f"http://127.0.0.1:{server.port}/")
            assert response is not None and response.status == 503
            text = second.inner_text("body")
            assert " ".join(text.split()) == (
                "Prompt Workbench · eval.py This server runs at most 1 app at once (workbench serve --max-apps 1), "
                "one per open tab, and all were taken when this tab asked for one. Close a tab of it, then open the "
                "workbench again.")
            second.screenshot(path=str(shot))
            assert server.app_roots() == roots  # the second tab started nothing
        finally:
            context.close()
    print(f"\nscreenshot of the page over the limit: {shot}")
