"""A run folder is untrusted input: ``verify --help`` says its saved config runs, and what to do."""

from __future__ import annotations

import os
import subprocess
import sys


def test_verify_help_says_a_run_folder_runs_code_and_points_to_config():
    done = subprocess.run([sys.executable, "-m", "workbench", "verify", "--help"], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "COLUMNS": "400"})
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert ("A run folder is untrusted input: its configs/*.py is a program, run (bounded in time and memory, "
            "in a process of its own, but with your user's rights) to render it. For a colleague's run, verify "
            "against your own reviewed config: --config FILE.") in text
