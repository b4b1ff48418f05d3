"""textual-serve's server, made to fit the workbench: offline page, truthful addresses, bounded apps.

* The page textual-serve ships asks Google Fonts for a font: a browser on an offline GPU
  box would wait on it, and every viewer would tell Google they opened it. The link is
  taken out (the font falls back to the system's monospace).
* The page's websocket address is built from the address the browser used, so a server
  listening on 0.0.0.0 works from other machines (textual-serve would write 0.0.0.0).
* Its websocket handler is this module's own: an app only for the page this server served
  (``serve_limits.origin_refusal``: 403 and a log line otherwise), at most ``max_apps`` of
  them (a page saying so beyond), terminal sizes clamped, malformed messages ignored, and
  every app's process waited for: one that has not ended ``QUIT_GRACE`` seconds after its
  tab went (or after the server was asked to stop) is killed.

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules, plus textual-serve and aiohttp (the ``serve`` extra); not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import signal
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .serve_driver import QUIT_GRACE
from .serve_limits import clamp_size, origin_refusal

_REMOTE_FONT = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>\s*", re.IGNORECASE)
TEMPLATES = Path(textual_serve.__file__).parent / "templates"
_HOST_HEADER = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")


def host_header_ok(host: str) -> bool:
    """A Host header safe to write into the page as the websocket's address."""
    return bool(_HOST_HEADER.match(host))


def _offline_template(name: str) -> str | None:
    path = TEMPLATES / name
    if not path.is_file():
        return None
    return _REMOTE_FONT.sub("", path.read_text(encoding="utf-8"))


#: The server's wait for an app beyond the app's own deadline, before it kills it.
REAP_GRACE = QUIT_GRACE + 2.0
FULL_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>{title}: no free app</title></head>
<body style="font-family: monospace; margin: 3em">
<h1>{title}</h1>
<p>This server runs at most {apps} at once (<code>workbench serve --max-apps {limit}</code>), one per
open tab, and all were taken when this tab asked for one. Close a tab of it, then
<a href="/">open the workbench again</a>.</p>
</body></html>
"""


def full_message(limit: int) -> str:
    """What a page whose websocket came over the limit shows in its terminal."""
    return (f"workbench serve: this server already runs {_apps(limit)}, its limit (--max-apps {limit}): "
            "close another tab of it, then reload this page.")


class WorkbenchServer(Server):
    def __init__(self, command: str, *, max_apps: int, local_only: bool, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.max_apps = max_apps
        self.local_only = local_only
        self.apps: dict[asyncio.subprocess.Process, web.WebSocketResponse] = {}  # live, until waited for
        self.places = 0  # apps live or starting: taken before a start's first await, so never over max_apps
        self._reapers: dict[asyncio.subprocess.Process, asyncio.Future[None]] = {}

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        aiohttp_jinja2.setup(app, loader=jinja2.FunctionLoader(_offline_template))
        return app

    def say(self, line: str) -> None:
        """One line on the server's console, never wrapped (tests and logs read it whole)."""
        self.console.print(line, highlight=False, markup=False, soft_wrap=True)

    async def on_startup(self, app: web.Application) -> None:
        self.say(f"Prompt Workbench on {self.public_url} (Ctrl+C stops it)")

    async def on_shutdown(self, app: web.Application) -> None:
        """Stop every app: asked to quit (SIGTERM), killed if still there after REAP_GRACE."""
        for process in list(self.apps):
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        # the pages are told too, so that their handlers end instead of waiting for the browser
        closing = [asyncio.ensure_future(websocket.close()) for websocket in self.apps.values()]
        await asyncio.gather(*(self._reap(process) for process in list(self.apps)))
        if closing:
            await asyncio.wait(closing, timeout=1.0)

    def _reap(self, process: asyncio.subprocess.Process) -> asyncio.Future[None]:
        """Wait for an app's process, killing it after REAP_GRACE (one waiter per process)."""
        reaper = self._reapers.get(process)
        if reaper is None:
            reaper = self._reapers[process] = asyncio.ensure_future(self._wait_or_kill(process))
        return asyncio.shield(reaper)

    async def _wait_or_kill(self, process: asyncio.subprocess.Process) -> None:
        try:
            await asyncio.wait_for(process.wait(), REAP_GRACE)
        except TimeoutError:
            self.say(f"workbench serve: app {process.pid} did not quit in {REAP_GRACE:g} s: killed")
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        if self.apps.pop(process, None) is not None:
            self.places -= 1
        self._reapers.pop(process, None)

    async def handle_index(self, request: web.Request) -> web.Response:
        if self.places >= self.max_apps or "full" in request.query:
            title = html.escape(self.title)
            page = FULL_PAGE.format(title=title, apps=_apps(self.max_apps), limit=self.max_apps)
            return web.Response(status=503, text=page, content_type="text/html")
        host = request.host if host_header_ok(request.host) else f"{self.host}:{self.port}"
        base = f"{request.scheme}://{host}"
        socket_base = ("wss" if request.scheme == "https" else "ws") + f"://{host}"
        router = request.app.router
        statics = base + str(router["static"].url_for(filename="/")).rstrip("/") + "/"
        context: dict[str, Any] = {
            "font_size": _int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": socket_base + str(router["websocket"].url_for()),
            "config": {"static": {"url": statics}},
            "application": {"name": self.title},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """An app for the page this server served, while fewer than max_apps run; ended with its tab."""
        refusal = origin_refusal(request.headers.get("Origin"), request.host, self.local_only)
        if refusal is not None:
            self.say(f"workbench serve: refused a websocket from {request.remote}: {refusal}")
            raise web.HTTPForbidden(text=f"workbench serve: {refusal}\n")
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        if self.places >= self.max_apps:
            self.say(f"workbench serve: refused an app to {request.remote}: {_apps(self.max_apps)} "
                     f"already, the limit (--max-apps {self.max_apps})")
            await websocket.send_bytes(("\r\n" + full_message(self.max_apps) + "\r\n").encode())
            # the page's script would cover that line with "Session ended": the tab is sent to
            # the page that says why instead (FULL_PAGE; its own address, so never in a loop)
            await websocket.send_json(["open_url", {"url": "/?full", "new_tab": False}])
            await websocket.close()
            return websocket
        size = clamp_size(request.query.get("width", "80"), request.query.get("height", "24")) or (80, 24)
        service = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                             close=websocket.close, download_manager=self.download_manager)
        self.places += 1
        try:
            await service.start(*size)
        except BaseException:
            self.places -= 1
            raise
        process = service._process
        assert process is not None
        self.apps[process] = websocket  # its place is given back once the process has been waited for
        try:
            await self._process_messages(websocket, service)
        finally:
            # shielded: a cancelled handler (the server stopping) still ends its app
            await asyncio.shield(self._end_app(service, process))
        return websocket

    async def _end_app(self, service: AppService, process: asyncio.subprocess.Process) -> None:
        await self.download_manager.cancel_app_downloads(app_service_id=service.app_service_id)
        if process.returncode is None:
            await service.send_meta({"type": "quit"})
        await self._reap(process)
        task = service._task
        if task is not None:  # its pipe may stay open in a process the app started: stop reading
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """The page's messages to its app, as textual-serve's, minus what a page cannot be trusted with."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await app_service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                size = clamp_size(data.get("width"), data.get("height"))
                if size is not None:
                    await app_service.set_terminal_size(*size)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()


def _apps(count: int) -> str:
    return f"{count} app" if count == 1 else f"{count} apps"


def _int(value: str, default: int) -> int:
    try:
        return max(6, min(int(value), 64))
    except ValueError:
        return default
