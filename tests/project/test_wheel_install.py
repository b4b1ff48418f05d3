"""``pip install .`` (not editable), as pipx or ``uv tool install`` do, works on its own: the
wheel carries the demo, the themes and the configs ``compare`` ships. Built and installed into a fresh venv outside the
checkout; nothing is imported from the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THEMES = ("workbench-dark", "workbench-light", "workbench-high-contrast")

FIRST_PAINT = '''
import asyncio, sys
import workbench
from workbench.tui.app import create_app
from workbench.tui.driving import pane_text, wait_for
from workbench.tui.session import Inputs
from workbench.commands.common import demo_config

assert "site-packages" in workbench.__file__, workbench.__file__

async def main(theme):
    app = create_app(Inputs(configs=(str(demo_config()),)), watch=False, deterministic=True, theme=theme)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.loads > 0, timeout=60)
        assert app.theme == theme, (app.theme, theme)
        assert app.theme_problems == [], app.theme_problems
        print(theme, "|", pane_text(app, "final-input").splitlines()[0][:40])

for theme in sys.argv[1:]:
    asyncio.run(main(theme))
'''


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    wheels = work / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("prompt_workbench-*.whl")
    target = work / "venv"
    venv.create(target, with_pip=True)
    install = subprocess.run([str(target / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
                             capture_output=True, text=True, timeout=900)
    if install.returncode != 0 and "Could not find a version" in install.stderr:
        pytest.skip("the package index cannot be reached for the wheel's dependencies")
    assert install.returncode == 0, install.stderr
    return target


def _run(venv_dir: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def test_the_installed_workbench_renders_its_bundled_demo(installed: Path, tmp_path: Path) -> None:
    run = _run(installed, str(installed / "bin" / "workbench"), "render", "-f", "text", "--limit", "1",
               cwd=tmp_path)
    assert (run.returncode, run.stderr) == (0, "")  # the demo renders cleanly
    assert "=== gsm8k-like · internlm2-chat-7b-demo · sample 0 ===" in run.stdout
    version = _run(installed, str(installed / "bin" / "workbench"), "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("prompt-workbench ")


def test_the_installed_app_paints_with_every_bundled_theme(installed: Path, tmp_path: Path) -> None:
    run = _run(installed, str(installed / "bin" / "python"), "-c", FIRST_PAINT, *THEMES, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    painted = run.stdout.splitlines()
    assert [line.split(" |")[0] for line in painted] == list(THEMES)
    assert all("|" in line and line.split("|", 1)[1].strip() for line in painted)


def test_the_installed_workbench_has_the_configs_compare_ships(installed: Path, tmp_path: Path) -> None:
    """``compare`` reads its configs from the wheel's ``workbench/shipped_configs``: the mapping, and
    a shipped benchmark whose sides are read from there (here: no rows, so the OpenCompass side says
    what to pass; the lm-eval side needs the yaml extra, which a bare install lacks, and says so)."""
    listed = _run(installed, str(installed / "bin" / "workbench"), "compare", "--list", cwd=tmp_path)
    assert listed.returncode == 0 and "  gsm8k      GSM8K: opencompass gsm8k_gen.py vs lm-eval gsm8k.yaml" in listed.stdout
    bare = _run(installed, str(installed / "bin" / "workbench"), "compare", "gsm8k", "-q", cwd=tmp_path)
    assert bare.returncode == 3 and "Traceback" not in bare.stderr
    oc, lm = bare.stderr.splitlines()
    assert "site-packages/workbench/shipped_configs/opencompass/configs/datasets/gsm8k/gsm8k_gen.py: no rows" in oc
    assert "site-packages/workbench/shipped_configs/lm_eval/tasks/gsm8k/gsm8k.yaml: reading an lm-eval task " \
        "needs PyYAML (hint: pip install 'pyyaml>=6'" in lm
