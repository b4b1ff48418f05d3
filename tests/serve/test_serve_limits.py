"""Which pages get an app, and the sizes they may ask for (``serve_limits``, no server needed)."""

from __future__ import annotations

import pytest

from workbench.commands.serve_limits import MAX_COLUMNS, MAX_ROWS, clamp_size, origin_refusal


@pytest.mark.parametrize(("origin", "host", "local_only"), [
    ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
    ("http://localhost:9000", "localhost:9000", True),  # ssh -L 9000:127.0.0.1:8000
    ("http://[::1]:8000", "[::1]:8000", True),
    ("HTTP://LocalHost:8000", "localhost:8000", True),
    ("http://gpu-box.lab:8080", "gpu-box.lab:8080", False),  # --allow-remote
    ("https://gpu-box.lab", "gpu-box.lab", False),  # behind a TLS proxy: the default port on both sides
    ("https://gpu-box.lab", "gpu-box.lab:443", False),
])
def test_the_served_page_gets_an_app(origin, host, local_only):
    assert origin_refusal(origin, host, local_only) is None


@pytest.mark.parametrize(("origin", "host", "local_only", "reason"), [
    ("http://evil.example", "127.0.0.1:8000", True,
     "Origin 'http://evil.example' is not the origin of this server's page (http://127.0.0.1:8000)"),
    ("http://127.0.0.1:3000", "127.0.0.1:8000", True,
     "Origin 'http://127.0.0.1:3000' is not the origin of this server's page (http://127.0.0.1:8000)"),
    ("http://localhost:8000", "127.0.0.1:8000", True,
     "Origin 'http://localhost:8000' is not the origin of this server's page (http://127.0.0.1:8000)"),
    ("https://127.0.0.1:8000", "127.0.0.1:8000", True, None),  # same host and port: one listener there
    ("http://evil.example:8000", "evil.example:8000", True,
     "Host 'evil.example:8000' is not a loopback name, and this server is for this machine only "
     "(a site pointing its name at 127.0.0.1?)"),
    ("null", "127.0.0.1:8000", True, "Origin 'null' is not a web page's origin"),
    ("file://", "127.0.0.1:8000", True, "Origin 'file://' is not a web page's origin"),
    ("http://127.0.0.1:8000/x", "127.0.0.1:8000", True, "Origin 'http://127.0.0.1:8000/x' is not a web page's origin"),
    ("http://u@127.0.0.1:8000", "127.0.0.1:8000", True,
     "Origin 'http://u@127.0.0.1:8000' is not the origin of this server's page (http://127.0.0.1:8000)"),
    ("http://127.0.0.1:99999", "127.0.0.1:8000", True,
     "Origin 'http://127.0.0.1:99999' is not the origin of this server's page (http://127.0.0.1:8000)"),
    ("http://127.0.0.1:8000", "127.0.0.1:x", True, "Host '127.0.0.1:x' is not an address"),
    (None, "127.0.0.1:8000", True,
     "no Origin header (browsers send one; only the page this server served may connect)"),
    ("", "127.0.0.1:8000", True,
     "no Origin header (browsers send one; only the page this server served may connect)"),
])
def test_other_pages_are_refused_with_the_reason(origin, host, local_only, reason):
    assert origin_refusal(origin, host, local_only) == reason


@pytest.mark.parametrize(("width", "height", "size"), [
    ("80", "24", (80, 24)), (142, 39, (142, 39)),
    (3000, 3000, (MAX_COLUMNS, MAX_ROWS)), ("5000", "5000", (MAX_COLUMNS, MAX_ROWS)),
    (0, -5, (1, 1)), ("99999999999999999999", "24", None),
    (True, 24, None), (80.5, 24, None), ("80x", "24", None), (None, 24, None), ([80], 24, None),
])
def test_terminal_sizes_are_clamped_or_ignored(width, height, size):
    assert clamp_size(width, height) == size
