"""textual-serve's server, made to fit the workbench: offline page, truthful addresses, a short banner.

* The page textual-serve ships asks Google Fonts for a font: a browser on an offline GPU
  box would wait on it, and every viewer would tell Google they opened it. The link is
  taken out (the font falls back to the system's monospace).
* The page's websocket address is built from the address the browser used, so a server
  listening on 0.0.0.0 works from other machines (textual-serve would write 0.0.0.0).

May import: the front ends (tui, headless), views, loading, bundled, the core and the other command
modules, plus textual-serve and aiohttp (the ``serve`` extra); not ``cli`` or ``__main__``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import web
from textual_serve.server import Server

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


class WorkbenchServer(Server):
    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        aiohttp_jinja2.setup(app, loader=jinja2.FunctionLoader(_offline_template))
        return app

    async def on_startup(self, app: web.Application) -> None:
        self.console.print(f"Prompt Workbench on {self.public_url} (Ctrl+C stops it)", highlight=False)

    async def handle_index(self, request: web.Request) -> web.Response:  # type: ignore[override]
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


def _int(value: str, default: int) -> int:
    try:
        return max(6, min(int(value), 64))
    except ValueError:
        return default
