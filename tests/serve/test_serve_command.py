"""``workbench serve`` without a browser: its options, its refusals, the page it serves."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.commands.serve import app_argv, is_local, run
from workbench.commands.serve_server import host_header_ok
from workbench.core.extras import install_hint

from .helpers import free_port, wait_port


def test_the_app_gets_every_argument_but_serves_own():
    argv = ["eval.py", "--host", "0.0.0.0", "--data", "qa=rows.jsonl", "--port=9000", "--allow-remote",
            "--theme", "workbench-light", "--port", "9001"]
    assert app_argv(argv) == ["eval.py", "--data", "qa=rows.jsonl", "--theme", "workbench-light"]


@pytest.mark.parametrize(("host", "local"), [
    ("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True), ("[::1]", True),
    ("0.0.0.0", False), ("::", False), ("192.168.1.5", False), ("gpu-box", False),
])
def test_only_loopback_addresses_are_local(host, local):
    assert is_local(host) is local


def test_a_host_other_machines_reach_needs_allow_remote(capsys):
    assert run(["--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert err == ("workbench serve: error: --host 0.0.0.0 can be reached from other machines, and anyone who "
                   "reaches the port can read the configs (hint: add --allow-remote to serve it anyway)\n")


def test_a_port_out_of_range_is_a_usage_error(capsys):
    assert run(["--port", "70000"]) == 2
    assert capsys.readouterr().err == "workbench serve: error: --port 70000: a port is 1 to 65535\n"


def test_serve_options_cannot_be_abbreviated(capsys):
    with pytest.raises(SystemExit) as stopped:
        run(["--ho", "0.0.0.0"])
    assert stopped.value.code == 2


@pytest.mark.parametrize(("header", "ok"), [
    ("127.0.0.1:8000", True), ("gpu-box.lab:8080", True), ("[::1]:8000", True), ("example.org", True),
    ('x"><script>alert(1)</script>', False), ("a b", False), ("host:99999999", False), ("", False),
])
def test_only_plain_host_headers_reach_the_page(header, ok):
    assert host_header_ok(header) is ok


def _get(port: int, host_header: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("GET", "/", skip_host=True)
    conn.putheader("Host", host_header)
    conn.endheaders()
    body = conn.getresponse().read().decode()
    conn.close()
    return body


def test_a_remote_server_warns_and_its_page_follows_the_address_the_browser_used(tmp_path: Path):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "--host", "0.0.0.0", "--allow-remote",
                             "--port", str(port)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert wait_port(port, proc)
        page = _get(port, f"gpu-box.lab:{port}")
        assert f'data-session-websocket-url="ws://gpu-box.lab:{port}/ws"' in page
        assert f'src="http://gpu-box.lab:{port}/static/js/textual.js"' in page
        assert "fonts.googleapis.com" not in page  # the page loads nothing from outside
        hostile = _get(port, 'x"><script>alert(1)</script>')
        assert "<script>alert(1)" not in hostile
        assert f'data-session-websocket-url="ws://0.0.0.0:{port}/ws"' in hostile
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert err.startswith(f"workbench serve: warning: listening on 0.0.0.0:{port}: anyone who can reach this "
                          "port can read the configs")
    assert proc.returncode == 0


def test_without_the_serve_extra_it_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "workbench.commands.serve_server", None)  # as if textual-serve were absent
    assert run(["--port", str(free_port())]) == 2
    assert capsys.readouterr().err == ("workbench serve: error: serving needs the textual-serve package (hint: "
                                       f"{install_hint('serve')})\n")
