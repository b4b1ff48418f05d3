"""--version, and help a newcomer can use: every command listed on a line of its own, and each
command's help ending with an example that can be copied whole."""

from __future__ import annotations

import importlib
import re

import pytest

from tests.headless.helpers import run_cli
from workbench.commands import COMMANDS


def test_version():
    result = run_cli("--version")
    assert result.code == 0 and re.fullmatch(r"prompt-workbench \S+\n", result.out)


def test_help_lists_every_command_on_one_aligned_line(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    result = run_cli("--help")
    assert result.code == 0
    listed = [line for line in result.out.splitlines() if line.startswith("  ") and
              line.split()[0] in COMMANDS and "  " in line.strip()]
    assert [line.split()[0] for line in listed] == list(COMMANDS)
    columns = {line.index(summary) for line, (_, summary) in zip(listed, COMMANDS.values(), strict=True)}
    assert len(columns) == 1  # the summaries start in one column


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_ends_with_a_whole_example(command, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")  # narrower than every example: none may wrap
    result = run_cli(*([command] if command else []), "--help")
    module = importlib.import_module(f"workbench.commands.{COMMANDS[command][0] if command else 'open'}")
    example = module.build_parser().epilog.splitlines()[-1]
    assert result.code == 0
    assert example.startswith(f"example: workbench {command or ''}".rstrip()) and len(example) > 40
    assert result.out.rstrip("\n").splitlines()[-1] == example
