"""``workbench serve`` from a browser's side: pages of other sites, too many apps, huge terminals,
and apps that must end however their client goes.

A real server on a free port of 127.0.0.1, spoken to as a browser page would (aiohttp's client,
with the page's ``Origin``), or one app spoken to over its pipes as textual-serve does. Each case
asserts the status, the server's line, and that no process is left (the process tree walked).
The same classes in a real Chromium are in ``tests/serve/test_browser.py``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from workbench.commands.serve_limits import MAX_COLUMNS, MAX_ROWS
from workbench.commands.serve_server import full_message

from ..serve.helpers import PATIENCE, alive, read_until, served, wait_for, websocket
from .helpers import needs_fork, needs_proc

pytestmark = [needs_fork, needs_proc]

ARGS = ("good.py", "--data", "rows.jsonl")
DRAWN = b"What is 2+2?"  # the first sample, once the app has painted it


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from .helpers import GOOD_CONFIG, ROWS, write

    folder = tmp_path_factory.mktemp("serve")
    write(folder / "good.py", GOOD_CONFIG)
    write(folder / "rows.jsonl", ROWS)
    with served(folder, *ARGS) as running:
        yield running


def refusal(reason: str) -> str:
    return f"workbench serve: refused a websocket from 127.0.0.1: {reason}"


@pytest.mark.parametrize(("origin", "host", "reason"), [
    ("http://evil.example", None,
     "Origin 'http://evil.example' is not the origin of this server's page (http://127.0.0.1:{port})"),
    ("http://127.0.0.1:1", None,
     "Origin 'http://127.0.0.1:1' is not the origin of this server's page (http://127.0.0.1:{port})"),
    ("null", None, "Origin 'null' is not a web page's origin"),
    (None, None, "no Origin header (browsers send one; only the page this server served may connect)"),
    ("http://evil.example:{port}", "evil.example:{port}",  # DNS rebinding: the same origin, not loopback
     "Host 'evil.example:{port}' is not a loopback name, and this server is for this machine only "
     "(a site pointing its name at 127.0.0.1?)"),
], ids=["other-site", "other-port", "null", "no-origin", "dns-rebinding"])
def test_a_page_of_another_site_gets_no_app(server, origin, host, reason):
    port = server.port
    fill = {"port": port}
    status, _ = websocket(port, origin=origin and origin.format(**fill), host=host and host.format(**fill))
    assert status == 403
    assert wait_for(lambda: server.said(refusal(reason.format(**fill)))), server.lines()[-5:]
    assert server.apps() == [], "an app was started for a refused page"


def test_the_served_page_through_a_forwarded_port_gets_its_app_and_it_ends_with_the_page(server):
    """``ssh -L 9999:127.0.0.1:PORT``: the page's origin and Host are the forwarded address."""

    async def draw(ws):
        drawn = await read_until(ws, lambda got: DRAWN in got)
        return server.apps(), drawn  # once drawn: the app surely runs

    status, (apps, drawn) = websocket(server.port, origin="http://localhost:9999", host="localhost:9999",
                                      then=draw)
    assert status == 101 and apps and DRAWN in drawn
    assert wait_for(lambda: not server.left()), f"left behind: {server.left()}"


def test_a_huge_terminal_is_clamped(server):
    """The page chooses the size: 3000×3000 at the start and 5000×5000 later get at most 1000×400."""

    async def resize(ws):
        await read_until(ws, lambda got: DRAWN in got)
        apps = server.apps()
        await ws.send_str(json.dumps(["resize", {"width": 5000, "height": 5000}]))
        await ws.send_str(json.dumps(["stdin", "n"]))  # drawn after the resize: the next sample
        frame = await read_until(ws, lambda got: b"Capital of France?" in got)
        return apps, frame

    status, (apps, frame) = websocket(server.port, origin=f"http://127.0.0.1:{server.port}",
                                      query="width=3000&height=3000", then=resize)
    assert status == 101
    app = apps[0]
    moves = [(int(row), int(col)) for row, col in re.findall(rb"\x1b\[(\d+);(\d+)H", frame)]
    assert moves and max(row for row, _ in moves) <= MAX_ROWS and max(col for _, col in moves) <= MAX_COLUMNS
    assert max(row for row, _ in moves) > 300  # the resize did arrive, clamped
    assert wait_for(lambda: not server.left()), f"left behind: {server.left()}"
    assert not alive(app)


def test_beyond_max_apps_a_page_says_so_and_starts_nothing(tmp_path):
    from .helpers import GOOD_CONFIG, ROWS, write

    write(tmp_path / "good.py", GOOD_CONFIG)
    write(tmp_path / "rows.jsonl", ROWS)
    with served(tmp_path, *ARGS, "--max-apps", "1") as server:
        origin = f"http://127.0.0.1:{server.port}"

        async def second_tab(ws):
            await read_until(ws, lambda got: DRAWN in got)
            apps = server.apps()
            refused = websocket_in_thread(server.port, origin)
            page = _get(server.port)
            return apps, refused, page

        status, (apps, refused, page) = websocket(server.port, origin=origin, then=second_tab)
        assert status == 101 and len(apps) >= 1
        # the line for a client without the page's script, then the page over the limit for the tab
        assert refused == (101, [("\r\n" + full_message(1) + "\r\n").encode(),
                                 '["open_url", {"url": "/?full", "new_tab": false}]'])
        assert full_message(1) == ("workbench serve: this server already runs 1 app, its limit (--max-apps 1): "
                                   "close another tab of it, then reload this page.")
        assert page[0] == 503 and ("This server runs at most 1 app at once (<code>workbench serve --max-apps 1"
                                   "</code>)") in page[1]
        assert server.said("workbench serve: refused an app to 127.0.0.1: 1 app already, the limit "
                           "(--max-apps 1)")
        assert wait_for(lambda: not server.left()), f"left behind: {server.left()}"
        # its tab closed: a new one gets an app again, once the server has reaped the app's
        # process (its place is given back then, a moment after the process is seen gone)
        assert wait_for(lambda: _get(server.port)[0] == 200)
        assert _get(server.port, "/?full")[0] == 503  # where a refused tab is sent: never an app (no loop)


def test_many_pages_at_once_start_no_more_than_max_apps(tmp_path):
    """Twelve clients started 22 processes: six pages at once against --max-apps 2 start two apps."""
    import asyncio

    import aiohttp

    from .helpers import GOOD_CONFIG, ROWS, write

    write(tmp_path / "good.py", GOOD_CONFIG)
    write(tmp_path / "rows.jsonl", ROWS)
    with served(tmp_path, *ARGS, "--max-apps", "2") as server:
        origin = f"http://127.0.0.1:{server.port}"
        url = f"http://127.0.0.1:{server.port}/ws?width=80&height=24"
        drawn: list[bytes] = []

        async def page(session, everyone_drawn):
            async with session.ws_connect(url, headers={"Origin": origin}) as ws:
                got = await read_until(ws, lambda got: DRAWN in got or b"--max-apps" in got)
                if DRAWN in got:
                    drawn.append(got)
                    await everyone_drawn.wait()  # stay open until every page has its answer
                return got

        async def pages():
            everyone_drawn = asyncio.Event()
            async with aiohttp.ClientSession() as session:
                tasks = [asyncio.ensure_future(page(session, everyone_drawn)) for _ in range(6)]
                while sum(task.done() for task in tasks) < 4:  # the four refused answer first
                    await asyncio.sleep(0.1)
                await asyncio.to_thread(wait_for, lambda: len(drawn) == 2)
                everyone_drawn.set()
                return await asyncio.gather(*tasks)

        answers = asyncio.run(asyncio.wait_for(pages(), 3 * PATIENCE))
        assert sum(DRAWN in got for got in answers) == 2
        assert sum(got == ("\r\n" + full_message(2) + "\r\n").encode() for got in answers) == 4
        assert server.said("workbench serve: refused an app to 127.0.0.1: 2 apps already, the limit (--max-apps 2)")
        assert sum(line.startswith("workbench serve: refused an app") for line in server.lines()) == 4
        assert wait_for(lambda: not server.left()), f"left behind: {server.left()}"


def test_max_apps_must_allow_one(tmp_path):
    done = subprocess.run([sys.executable, "-m", "workbench", "serve", "--max-apps", "0"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "workbench serve: error: --max-apps 0: at least one app must be able to run\n"


def websocket_in_thread(port: int, origin: str):
    """A second page's websocket, from a thread (the first one's event loop is busy)."""
    result = []

    async def everything(ws):
        return [message.data async for message in ws]

    thread = threading.Thread(target=lambda: result.append(websocket(port, origin=origin, then=everything)))
    thread.start()
    thread.join()
    return result[0]


def _get(port: int, path: str = "/") -> tuple[int, str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, body


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stopped_server_ends_every_app(tmp_path, how):
    from .helpers import GOOD_CONFIG, ROWS, write

    write(tmp_path / "good.py", GOOD_CONFIG)
    write(tmp_path / "rows.jsonl", ROWS)
    with served(tmp_path, *ARGS) as server:

        async def stop_the_server(ws):
            await read_until(ws, lambda got: DRAWN in got)
            apps = server.apps()
            server.proc.send_signal(how)  # the server alone (a terminal's Ctrl+C would reach the apps too)
            await read_until(ws, lambda got: False)  # until the server closes the page's socket
            return apps

        status, apps = websocket(server.port, origin=f"http://127.0.0.1:{server.port}", then=stop_the_server)
        assert status == 101 and apps
        assert server.proc.wait(timeout=60) == 0
        assert wait_for(lambda: not server.left()), f"left behind: {server.left()}"


# -- one app, spoken to over its pipes as textual-serve does ------------------------------------

#: The app with its event loop stuck for good once it has painted (as in a render that never ends).
STUCK = ("import os, sys, time\n"
         "from workbench.commands.serve import SERVED_DRIVER, child\n"
         "os.environ['TEXTUAL_DRIVER'] = SERVED_DRIVER  # as child() does, before Textual is imported\n"
         "from workbench.tui.screens.main import MainScreen\n"
         "def stuck(self, event):\n"
         "    while True:\n"
         "        time.sleep(0.01)\n"
         "MainScreen.on_screen_resume = stuck\n"
         "sys.exit(child(sys.argv[1:]))\n")


def start_app(folder: Path, stuck: bool = False) -> subprocess.Popen:
    env = {**os.environ, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver", "COLUMNS": "100",
           "ROWS": "30", "TEXTUAL_FPS": "60", "TEXTUAL_COLOR_SYSTEM": "truecolor"}
    program = ["-c", STUCK] if stuck else ["-m", "workbench.commands.serve"]
    return subprocess.Popen([sys.executable, *program, *ARGS], cwd=folder, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)


def meta(app: subprocess.Popen, payload: dict) -> None:
    data = json.dumps(payload).encode()
    app.stdin.write(b"M" + len(data).to_bytes(4, "big") + data)
    app.stdin.flush()


def packets(stream) -> list[tuple[bytes, bytes]]:
    """The app's output, as textual-serve reads it: its prelude line, then (type, payload) packets."""
    assert stream.readline() == b"__GANGLION__\n"
    out = []
    while (head := stream.read(5)) and len(head) == 5:
        out.append((head[:1], stream.read(int.from_bytes(head[1:], "big"))))
    return out


def test_an_app_told_to_quit_while_it_starts_after_a_resize_quits(ws):
    """Chromium's one-shot load: a resize, then quit, before the first frame. The app used to spin a
    CPU for good (Textual's screen bouncing between the two sizes); it now quits cleanly."""
    app = start_app(ws)
    try:
        meta(app, {"type": "resize", "width": 100, "height": 34})
        meta(app, {"type": "quit"})
        out = packets(app.stdout)
        assert app.wait(timeout=60) == 0
    finally:
        app.kill()
    # a clean quit says so last; the deadline (os._exit) would not
    assert out[-1] == (b"M", b'{"type": "exit"}')


@pytest.mark.parametrize("how", ["quit", "sigterm", "stdin-closed"])
def test_an_app_whose_event_loop_is_stuck_still_ends(ws, how):
    """Asked to end however its client goes, an app whose loop never reads the request still ends."""
    app = start_app(ws, stuck=True)
    try:
        assert app.stdout.readline() == b"__GANGLION__\n"
        if how == "quit":
            meta(app, {"type": "quit"})
        elif how == "sigterm":
            app.send_signal(signal.SIGTERM)
        else:
            app.stdin.close()
        assert app.wait(timeout=60) == 0
    finally:
        app.kill()
        app.wait()
