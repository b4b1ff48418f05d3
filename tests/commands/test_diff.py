"""``workbench diff``: two configs, or one config at git revisions, request by request."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.headless.helpers import edit, run_cli, write_workspace

GIT = shutil.which("git")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t",
                           "-c", "commit.gpgsign=false", *args],
                          capture_output=True, text=True, check=True)
    return done.stdout


def diff(cwd: Path, *args: str):
    return run_cli("diff", *args, "--model", "chat-lm", "--color", "never", cwd=cwd)


def test_two_configs(tmp_path):
    write_workspace(tmp_path / "a")
    write_workspace(tmp_path / "b", system="Answer in one word.")
    result = diff(tmp_path, "a/eval.py", "b/eval.py")
    assert result.code == 1
    assert "- | Answer briefly.<|end|>" in result.out
    assert "+ | Answer in one word.<|end|>" in result.out
    assert result.out.splitlines()[-1].startswith("3 requests changed, 0 added, 0 removed")
    same = diff(tmp_path, "a/eval.py", "a/eval.py")
    assert same.code == 0
    assert same.out.startswith("0 requests changed, 0 added, 0 removed")


def test_added_removed_samples_and_pairs(tmp_path):
    write_workspace(tmp_path / "a")
    write_workspace(tmp_path / "b")
    edit(tmp_path / "b" / "data" / "choice.jsonl", '{"statement": "Fire is cold.", "label": "no"}\n', "")
    edit(tmp_path / "b" / "models" / "lm.py", "abbr='chat-lm'", "abbr='chat-lm-2'")
    result = run_cli("diff", "a/eval.py", "b/eval.py", "--dataset", "choice", "--model", "chat-*",
                     "--color", "never", cwd=tmp_path)
    assert result.code == 1
    assert "choice × chat-lm: only in a/eval.py (4 requests removed)" in result.out
    assert "choice × chat-lm-2: only in b/eval.py (2 requests added)" in result.out
    assert "0 requests changed, 2 added, 4 removed" in result.out.splitlines()[-1]


def test_only_the_changed_requests_are_named(tmp_path):
    write_workspace(tmp_path / "a")
    write_workspace(tmp_path / "b")
    edit(tmp_path / "b" / "data" / "qa.json", "Name a colour.", "Name a color.")
    result = diff(tmp_path, "a/eval.py", "b/eval.py", "--dataset", "qa")
    assert result.code == 1
    titles = [line for line in result.out.splitlines() if line.startswith("@@")]
    assert titles == ["@@ sample 1 @@ changed"]
    assert "1 request changed, 0 added, 0 removed" in result.out


def test_max_diffs_still_names_every_request(tmp_path):
    write_workspace(tmp_path / "a")
    write_workspace(tmp_path / "b", system="Be brief.")
    result = diff(tmp_path, "a/eval.py", "b/eval.py", "--max-diffs", "1")
    titles = [line for line in result.out.splitlines() if line.startswith("@@")]
    assert titles == ["@@ sample 0 @@ changed", "@@ sample 1 @@ changed", "@@ sample 2 @@ changed"]
    assert result.out.count("+ | Be brief.<|end|>") == 1


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_between_two_revisions_in_a_git_repo(tmp_path):
    repo = tmp_path / "repo"
    write_workspace(repo / "configs")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "first")
    # revision 2: a trailing space after the test question's "A:", and a new row
    edit(repo / "configs" / "datasets" / "qa_gen.py", "                dict(role='HUMAN', prompt='Q: {question}\\nA:'),",
         "                dict(role='HUMAN', prompt='Q: {question}\\nA: '),")
    git(repo, "commit", "-qam", "second")
    # the working tree: a changed dataset file imported through read_base
    edit(repo / "configs" / "datasets" / "choice_ppl.py", "True? yes", "Is it true? yes")

    temp_trees = set(Path(tempfile.gettempdir()).glob("workbench-rev-*"))
    two = diff(repo, "configs/eval.py", "--rev", "HEAD~1", "--rev", "HEAD")
    assert two.code == 1, two.err
    titles = [line for line in two.out.splitlines() if line.startswith("@@")]
    assert titles == ["@@ sample 0 @@ changed", "@@ sample 1 @@ changed", "@@ sample 2 @@ changed"]
    assert "- | A:<|end|>" in two.out and "+ | A: <|end|>" in two.out
    assert two.out.splitlines()[-1].startswith("3 requests changed, 0 added, 0 removed (HEAD~1 → HEAD")

    one = diff(repo, "configs/eval.py", "--rev", "HEAD", "--dataset", "choice")
    assert one.code == 1
    titles = [line for line in one.out.splitlines() if line.startswith("@@")]
    assert titles == ["@@ sample 0 · label yes @@ changed", "@@ sample 1 · label yes @@ changed"]
    assert "(HEAD → working tree" in one.out

    same = diff(repo, "configs/eval.py", "--rev", "HEAD", "--rev", "HEAD")
    assert same.code == 0 and same.out.startswith("0 requests changed")
    assert set(Path(tempfile.gettempdir()).glob("workbench-rev-*")) <= temp_trees  # cleaned up


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_revision_errors_point_at_the_revision(tmp_path):
    repo = tmp_path / "repo"
    write_workspace(repo)
    edit(repo / "datasets" / "qa_gen.py", "fix_id_list=[0]", "fix_id_list=[0],,")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "broken")
    write_workspace(repo)  # fixed in the working tree
    result = diff(repo, "eval.py", "--rev", "HEAD")
    assert result.code == 3
    assert "HEAD:datasets/qa_gen.py:" in result.err


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_revision_usage_errors(tmp_path):
    write_workspace(tmp_path / "plain")
    outside = diff(tmp_path / "plain", "eval.py", "--rev", "HEAD")
    assert outside.code == 2 and "not inside a git repository" in outside.err
    repo = tmp_path / "repo"
    write_workspace(repo)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    assert "unknown revision 'nope'" in diff(repo, "eval.py", "--rev", "nope").err
    (repo / "new.py").write_text("datasets = []\n")
    missing = diff(repo, "new.py", "--rev", "HEAD")
    assert missing.code == 2 and "does not exist at HEAD" in missing.err
    assert diff(repo, "eval.py", "--rev", "a", "--rev", "b", "--rev", "c").code == 2
    assert diff(repo, "eval.py").code == 2  # one config and no --rev


def test_a_side_that_fails_to_load_is_an_error_not_removed_pairs(tmp_path):
    write_workspace(tmp_path / "a")
    write_workspace(tmp_path / "b")
    (tmp_path / "b" / "eval.py").write_text("datasets = [\n")
    result = diff(tmp_path, "a/eval.py", "b/eval.py")
    assert result.code == 3
    assert "only in" not in result.out
    assert "SyntaxError" in result.err


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_revision_reads_package_imports_under_a_config_root_in_the_repo(tmp_path):
    from tests.headless.helpers import QA_GEN

    repo = tmp_path / "repo"
    package = repo / "root" / "opencompass" / "configs" / "datasets"
    package.mkdir(parents=True)
    (package / "qa_gen.py").write_text(QA_GEN.replace("SYSTEM_PROMPT", "Old.").replace(
        "path='../data/qa.json'", "path='data/qa.json'"))
    write_workspace(repo / "w")
    (repo / "w" / "top.py").write_text(
        "from mmengine.config import read_base\n\nwith read_base():\n"
        "    from opencompass.configs.datasets.qa_gen import qa_datasets\n"
        "    from .models.lm import models\n\ndatasets = qa_datasets\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    edit(package / "qa_gen.py", "Old.", "New.")
    result = run_cli("diff", "w/top.py", "--rev", "HEAD", "--config-root", "root", "--data", "qa=w/data/qa.json",
                     "--color", "never", cwd=repo)
    assert result.code == 1, result.err
    assert "- | Old.<|end|>" in result.out and "+ | New.<|end|>" in result.out
    assert "3 requests changed" in result.out
