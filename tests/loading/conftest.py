"""Shared fixtures: one warm Loader for the loading tests, and error helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.loading.workspace import Loader, Workspace


@pytest.fixture(scope="session")
def loader():
    with Loader() as shared:
        yield shared


@pytest.fixture
def chdir(tmp_path):
    old = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(old)


def all_errors(workspace: Workspace) -> list:
    """Load errors, else the render errors of every pair (each with file/line/message/hint)."""
    if workspace.errors:
        return list(workspace.errors)
    return list(render_workspace(workspace.datasets, workspace.models).errors)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
