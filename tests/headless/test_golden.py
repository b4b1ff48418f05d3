"""Golden files per export format, from one small workspace.

Regenerate after an intended change with ``WORKBENCH_UPDATE_GOLDENS=1 pytest tests/headless``
and review the diff of ``tests/headless/golden/`` like any other change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import run_cli, write_workspace

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("WORKBENCH_UPDATE_GOLDENS") == "1"


def check_golden(name: str, text: str, root: Path) -> None:
    text = text.replace(str(root.resolve()), "<ROOT>").replace(str(root), "<ROOT>")
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
        return
    assert path.is_file(), f"no golden {name}: run with WORKBENCH_UPDATE_GOLDENS=1"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden (WORKBENCH_UPDATE_GOLDENS=1 to accept)"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("golden")
    write_workspace(root)
    return root


@pytest.mark.parametrize(("fmt", "name", "extra"), [
    ("json", "render.json", ()),
    ("text", "render.txt", ()),
    ("text", "render-whitespace.txt", ("--whitespace",)),
    ("markdown", "render.md", ()),
    ("html", "render.html", ("--sample", "2", "--model", "chat-lm")),
    ("svg", "render.svg", ("--sample", "0", "--dataset", "qa", "--width", "80")),
])
def test_render_format_matches_its_golden(workspace, fmt, name, extra):
    result = run_cli("render", "eval.py", "--format", fmt, *extra, cwd=workspace)
    if extra[-2:] in (("--model", "chat-lm"), ("--width", "80")):
        assert result.code == 0, result.err  # the selection leaves out the refused pair
    else:
        assert result.code == 3  # choice × api is refused: PPL needs token losses
        assert "[choice × api]" in result.err
    check_golden(name, result.out, workspace)


def test_snapshot_files_match_their_goldens(workspace, tmp_path):
    result = run_cli("snapshot", "eval.py", "--dir", str(tmp_path / "snaps"), "-q", cwd=workspace)
    assert result.code == 3
    files = sorted((tmp_path / "snaps").rglob("*.snap"))
    assert [f.relative_to(tmp_path / "snaps").as_posix() for f in files] == [
        "choice/chat-lm.snap", "qa/api.snap", "qa/chat-lm.snap"]
    for f in files:
        check_golden(f"snapshots/{f.relative_to(tmp_path / 'snaps').as_posix()}",
                     f.read_text(encoding="utf-8"), workspace)
