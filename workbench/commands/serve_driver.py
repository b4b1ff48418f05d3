"""The driver of a served app: Textual's web driver, plus a deadline once the app is asked to end.

However the browser's tab goes, its app is asked to quit: textual-serve sends ``quit`` when the
websocket closes, the app's stdin ends when the server dies, a signal (Ctrl+C reaches the whole
process group, the server sends SIGTERM) or the app's watch on its parent asks it to. Textual
turns each of these into a message for the app's event loop, which a busy loop never reads. So
each also starts a clock beside the loop: an app still running ``QUIT_GRACE`` seconds after it
was asked to end is ended by ``os._exit``.

May import: textual; not the rest of the workbench (it is imported by name, through ``TEXTUAL_DRIVER``).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading

from textual import messages
from textual.drivers.web_driver import WebDriver

QUIT_GRACE = 5.0  # seconds an app may take to quit before it is ended
_deadline_lock = threading.RLock()  # a signal handler may call end_soon inside end_soon
_deadline: threading.Timer | None = None


def end_soon(code: int = 0) -> None:
    """End this process in QUIT_GRACE seconds, whatever its event loop is doing (armed once)."""
    global _deadline
    with _deadline_lock:
        if _deadline is not None:
            return

        def end() -> None:
            try:
                sys.stdout.flush()
            finally:
                os._exit(code)

        _deadline = threading.Timer(QUIT_GRACE, end)
        _deadline.daemon = True
        _deadline.start()


class ServedDriver(WebDriver):
    """Textual's web driver, ending the app by deadline once anything asks it to quit."""

    def _ask_to_quit(self) -> None:
        end_soon()
        self._app.post_message(messages.ExitApp())  # thread-safe: it may come from the input thread

    def start_application_mode(self) -> None:
        # The web driver's handlers run on the event loop, so a busy loop never ran them (the
        # app "ignored SIGTERM"); a Python handler runs between any two lines of the busy code.
        # Installed before the web driver starts, and its own kept from replacing them (the
        # loop's method shadowed while it starts), no signal falls between the two.
        loop = asyncio.get_running_loop()

        def on_signal(number: int, frame: object) -> None:
            end_soon()
            if not loop.is_closed():  # after the app has ended, the deadline alone ends the process
                loop.call_soon_threadsafe(self._app.post_message, messages.ExitApp())

        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, on_signal)
        loop.add_signal_handler = lambda *args: None  # type: ignore[method-assign]
        try:
            super().start_application_mode()
        finally:
            del loop.add_signal_handler

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type == "quit":
            end_soon()
        super().on_meta(packet_type, payload)

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():  # stdin ended (the server is gone), not the app's own stop
            self._ask_to_quit()

