"""What the dev scripts under tools/ share; imported by them, never run on its own.

Standard library only, so a script can import it from any venv (the framework venv, the
project venv, a scratch one). A script run as ``python tools/<script>.py`` finds it because
Python puts the script's folder first on ``sys.path``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import logging
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

#: The checkout the scripts sit in: every path they read or write is relative to it, so they
#: work from any current directory and in any clone.
REPO = Path(__file__).resolve().parents[1]

#: The chat-template test data: the templates, their goldens and the test tokenizer.
CHAT_TEMPLATES_DIR = REPO / "tests" / "chat_templates"


def write_json(path: Path, document: Any, *, default: Callable[[Any], Any] | None = None) -> str:
    """Write a golden as every generator writes one (UTF-8, non-ASCII kept, one-space indent,
    final newline), so reruns diff line by line; returns the text written."""
    text = json.dumps(document, ensure_ascii=False, indent=1, default=default) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return text


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Silence the frameworks' prints, progress bars, log lines and warnings around a call
    whose results are recorded, not read."""
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(previous)


def builtin_chat_template(name: str) -> str:
    """The source of one of the workbench's built-in chat templates (``chatml``, ``llama3``...),
    read from the checkout (the framework venv does not have the workbench installed)."""
    path = REPO / "workbench" / "core" / "tokens" / "builtin_chat_templates" / f"{name}.jinja"
    return path.read_text(encoding="utf-8")


def tokenizer_fixture() -> ModuleType:
    """``tests/chat_templates/tokenizer_fixture.py``: the small tokenizer and model folders the
    chat-template goldens are made with (the tests build the same ones)."""
    path = CHAT_TEMPLATES_DIR / "tokenizer_fixture.py"
    spec = importlib.util.spec_from_file_location("tokenizer_fixture", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_step(path: Path, check: Callable[[Path], int]) -> int:
    """A sweep's ``check`` step on the scratch ``path`` its ``make`` step wrote (2 when there is none)."""
    if not path.exists():
        import sys

        print(f"{path}: not found (run the make step first)", file=sys.stderr)
        return 2
    return check(path)
