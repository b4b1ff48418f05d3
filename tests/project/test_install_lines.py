"""Every install line the documentation gives works as written, in a fresh venv, from a copy of
the checkout (or a project that vendors the workbench as its docs say); hints name packages
that exist. The torch-heavy embeddings lines are checked with ``--dry-run``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from workbench.core.extras import EXTRAS, install_hint

ROOT = Path(__file__).resolve().parents[2]
USER_DOCS = [ROOT / "README.md", ROOT / "demo_data" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: what building the package reads (setup.py maps demo_data/ and themes/ into it)
SOURCE = ("pyproject.toml", "setup.py", "README.md", "workbench", "demo_data", "themes", "shipped_configs")
#: `pip install` named in prose that is not an instruction to install the workbench
NOT_INSTRUCTIONS = {"pip install anthropic"}
HEAVY = ("embeddings",)


def documented_lines() -> list[str]:
    """Each distinct `pip install ...` command of the user docs, without its comment."""
    found: list[str] = []
    for doc in USER_DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(r"(?:^|`|&& )((?:\.venv/bin/)?pip install [^`\n#]*?)\s*(?:`|#|&&|$)", text, re.M):
            line = match.group(1).strip()
            if line not in NOT_INSTRUCTIONS and line not in found:
                found.append(line)
    return found


def test_the_extras_table_is_pyprojects() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert {name: tuple(extras[name]) for name in EXTRAS} == EXTRAS
    assert set(extras) - set(EXTRAS) == {"test", "test-embeddings"}


def test_no_doc_or_hint_names_the_package_on_an_index() -> None:
    texts = [p.read_text(encoding="utf-8") for p in [*USER_DOCS, *ROOT.joinpath("workbench").rglob("*.py")]
             if p.name != "extras.py"]
    assert not [t for t in texts if "install 'prompt-workbench[" in t or "install prompt-workbench" in t]
    assert install_hint("serve") == ("pip install 'textual-serve>=1.1' 'aiohttp>=3.8' 'aiohttp-jinja2>=1.5' "
                                     "(the serve extra; in a checkout of the workbench: pip install '.[serve]')")


def test_the_documented_lines_are_the_known_forms() -> None:
    lines = documented_lines()
    assert "pip install '.[serve]'" in lines and "pip install ./tools/prompt-workbench" in lines
    assert "pip install vendor/prompt_workbench-*.whl" in lines
    for line in lines:
        target = line.split("pip install", 1)[1].split()
        assert target, line


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A copy of the checkout, a project with it as a submodule and a vendored wheel, a venv."""
    work = tmp_path_factory.mktemp("install-lines")
    checkout = work / "checkout"
    for name in SOURCE:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, checkout / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            checkout.mkdir(exist_ok=True)
            shutil.copy2(source, checkout / name)
    project = work / "project"
    shutil.copytree(checkout, project / "tools" / "prompt-workbench")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(project / "vendor"),
                            str(checkout)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    venv.create(work / "venv", with_pip=True)
    return {"checkout": checkout, "project": project, "venv": work / "venv"}


def run_line(line: str, places: dict[str, Path]) -> subprocess.CompletedProcess[str]:
    pip = str(places["venv"] / "bin" / "pip")
    command = re.sub(r"^(?:\.venv/bin/)?pip install", f"{pip} install", line)
    if any(extra in line for extra in HEAVY):
        command = command.replace(" install ", " install --dry-run ", 1)
    cwd = places["project"] if ("tools/" in line or "vendor/" in line) else places["checkout"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(command, shell=True, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_every_documented_install_line_works_as_written(places: dict[str, Path]) -> None:
    failed = []
    # the README's two set-up commands are what CI itself runs, verbatim (test_readme.py)
    readme = set(re.findall(r"\.venv/bin/pip install [^&]*?(?= &&)", (ROOT / "README.md").read_text(encoding="utf-8")))
    for line in [line for line in documented_lines() if line not in readme]:
        done = run_line(line, places)
        if done.returncode != 0:
            failed.append((line, done.stderr[-1500:]))
    assert failed == []
    python = str(places["venv"] / "bin" / "python")
    imports = "import workbench, textual_serve, yaml, pyarrow, tiktoken, tiktoken_ext, wonderwords, tokenizers"
    done = subprocess.run([python, "-c", imports], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    workbench = subprocess.run([str(places["venv"] / "bin" / "workbench"), "--version"], capture_output=True,
                               text=True, timeout=120)
    assert workbench.returncode == 0 and workbench.stdout.startswith("prompt-workbench ")
