"""What ``workbench serve`` lets a browser do: which pages may drive an app, how many apps, how big.

Pure functions (no aiohttp), so ``serve``'s command line and its tests use them without the
``serve`` extra.

* **Origin.** A page open in the user's browser on any site may open a websocket to
  ``ws://127.0.0.1:PORT/ws``: the browser sends the page's ``Origin`` but lets the connection
  through. Only a websocket whose Origin is the address the request itself was sent to (its
  ``Host``) comes from the page this server served, so only that one gets an app. Comparing
  with the Host rather than with the address the server listens on keeps SSH port forwarding
  working (``ssh -L 9000:127.0.0.1:8000`` sends ``Host: 127.0.0.1:9000``).
* **Loopback names.** A server on this machine only also wants its Host to be a loopback name:
  a site whose name an attacker points at 127.0.0.1 (DNS rebinding) is then refused though its
  page and its websocket share their origin.
* **Sizes.** The browser chooses the terminal's size; an app's memory grows with its cells
  (3000×3000 made a 360 MB app), so the size an app is started or resized with is clamped.

May import: the standard library only.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

#: The largest terminal an app is given: a 4K screen at a 7-pixel font is ~550×150 cells.
MAX_COLUMNS, MAX_ROWS = 1000, 400
DEFAULT_MAX_APPS = 8  # live apps of one server (each is a process with its config worker)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def is_local(host: str) -> bool:
    """Whether only this machine can reach ``host`` (a loopback address, or ``localhost``)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.path:
        return None
    return parts.hostname.lower().rstrip("."), port if port is not None else _DEFAULT_PORTS[scheme]


def origin_refusal(origin: str | None, host: str, local_only: bool) -> str | None:
    """Why a websocket with this ``Origin``, sent to ``Host``, gets no app (None: it gets one).

    ``local_only``: the server listens on a loopback address, so its Host must be a loopback name.
    """
    if not origin:
        return "no Origin header (browsers send one; only the page this server served may connect)"
    try:
        parts = urlsplit(origin)
    except ValueError:
        parts = None
    scheme = parts.scheme.lower() if parts is not None else ""
    if parts is None or scheme not in _DEFAULT_PORTS or parts.path or parts.query:
        return f"Origin {origin!r} is not a web page's origin"
    theirs, ours = _host_port(parts.netloc, scheme), _host_port(host, scheme)
    if ours is None:
        return f"Host {host!r} is not an address"
    if theirs != ours:
        return f"Origin {origin!r} is not the origin of this server's page ({scheme}://{host})"
    if local_only and not is_local(ours[0]):
        return (f"Host {host!r} is not a loopback name, and this server is for this machine only "
                "(a site pointing its name at 127.0.0.1?)")
    return None


def clamp_size(width: object, height: object) -> tuple[int, int] | None:
    """A terminal size a client asked for, within 1..MAX_COLUMNS × 1..MAX_ROWS; None if not numbers."""
    if isinstance(width, str) and width.isdigit() and len(width) < 10:
        width = int(width)
    if isinstance(height, str) and height.isdigit() and len(height) < 10:
        height = int(height)
    if type(width) is not int or type(height) is not int:  # not bool, float or text
        return None
    return max(1, min(width, MAX_COLUMNS)), max(1, min(height, MAX_ROWS))
