"""Config files as they were at a git revision, copied into a temporary tree.

``workbench diff CONFIG --rev REV`` renders the config as committed at REV.  Every input
inside the repository is read at that revision: the config, the files it pulls in with
``read_base()`` (found by reading the import statements of each file at REV, relative
or under a ``--config-root`` inside the repository), the files the working-tree render
read (data files, model folders, ``workbench.toml``), and ``--data``/``--models`` files.
They are written at their repository paths under a temporary folder, so relative
imports resolve exactly as in a checkout.  Inputs outside the repository are read as
they are now.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MAX_FILES = 5000


class RevisionError(Exception):
    """A revision or repository problem the user can fix (a usage error)."""


def _git(repo: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise RevisionError("git is not installed (needed for --rev)") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RevisionError(message[-1] if message else f"git {' '.join(args)} failed")
    return done.stdout


def repo_root(path: Path) -> Path:
    folder = path if path.is_dir() else path.parent
    if not folder.exists():
        folder = Path.cwd()
    try:
        out = _git(folder, "rev-parse", "--show-toplevel")
    except RevisionError:
        raise RevisionError(f"{path} is not inside a git repository (needed for --rev)") from None
    return Path(out.decode().strip()).resolve()


@dataclass
class RevisionTree:
    """The files of one revision under ``folder``; ``map`` turns an input path into its copy."""

    repo: Path
    rev: str
    commit: str
    folder: Path
    files: list[str] = field(default_factory=list)  # repository paths copied

    def relative(self, path: str | os.PathLike) -> str | None:
        """The repository path of ``path`` (None when it lies outside the repository)."""
        try:
            return Path(path).resolve().relative_to(self.repo).as_posix()
        except ValueError:
            return None

    def map(self, path: str | os.PathLike) -> str:
        rel = self.relative(path)
        if rel is None or rel not in self.files:
            return str(path)
        return str(self.folder / rel)

    def map_folder(self, path: str | os.PathLike) -> str:
        """A folder inside the repository (a config root) as its copy in the tree."""
        rel = self.relative(path)
        if rel is None:
            return str(path)
        target = self.folder / rel
        target.mkdir(parents=True, exist_ok=True)
        return str(target)

    def display(self, path: str | None) -> str | None:
        """A path inside the temporary tree as ``REV:repo/path``, for messages."""
        if not path:
            return path
        try:
            rel = Path(path).resolve().relative_to(self.folder.resolve()).as_posix()
        except ValueError:
            return path
        return f"{self.rev}:{rel}"

    def cleanup(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _imports(source: bytes, rel: str, roots: list[str]) -> set[str]:
    """Repository paths that the Python file ``rel`` may import as config files."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    here = PurePosixPath(rel).parent
    out: set[str] = set()

    def module_files(base: PurePosixPath, dotted: str) -> None:
        target = base.joinpath(*dotted.split(".")) if dotted else base
        out.add(str(target.with_suffix(".py")) if dotted else str(target / "__init__.py"))
        out.add(str(target / "__init__.py"))

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here
                for _ in range(node.level - 1):
                    base = base.parent
                module_files(base, node.module or "")
                for alias in node.names:  # `from . import a`: a is a sibling file
                    module_files(base, f"{node.module}.{alias.name}" if node.module else alias.name)
            elif node.module:
                for root in roots:
                    module_files(PurePosixPath(root), node.module)
                    for alias in node.names:
                        module_files(PurePosixPath(root), f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                for root in roots:
                    module_files(PurePosixPath(root), alias.name)
    return {os.path.normpath(p).replace(os.sep, "/") for p in out}


def materialize(rev: str, configs: Iterable[str | os.PathLike], extra: Iterable[str | os.PathLike] = (),
                roots: Iterable[str | os.PathLike] = ()) -> RevisionTree:
    """Copy ``configs`` at ``rev``, their imports, and ``extra`` files into a temporary tree."""
    configs = [Path(c) for c in configs]
    repo = repo_root(configs[0])
    try:
        commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    except RevisionError:
        commit = ""
    if not commit:
        raise RevisionError(f"unknown revision {rev!r} in {repo}")
    listing = _git(repo, "ls-tree", "-r", "-z", "--name-only", commit).decode("utf-8", "surrogateescape")
    tracked = set(filter(None, listing.split("\0")))
    tree = RevisionTree(repo, rev, commit, Path(tempfile.mkdtemp(prefix="workbench-rev-")))
    root_rels = []
    for root in roots:
        rel = tree.relative(root)
        if rel is not None:
            root_rels.append("" if rel == "." else rel)
    wanted: list[str] = []
    for config in configs:
        rel = tree.relative(config)
        if rel is None:
            tree.cleanup()
            raise RevisionError(f"{config} is outside the repository at {repo}")
        if rel not in tracked:
            tree.cleanup()
            raise RevisionError(f"{rel} does not exist at {rev}")
        wanted.append(rel)
    wanted += [r for r in (tree.relative(p) for p in extra) if r is not None and r in tracked]
    seen: set[str] = set()
    try:
        while wanted:
            rel = wanted.pop()
            if rel in seen:
                continue
            seen.add(rel)
            if len(seen) > MAX_FILES:
                raise RevisionError(f"more than {MAX_FILES} files imported at {rev}")
            data = _git(repo, "show", f"{commit}:{rel}")
            target = tree.folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            tree.files.append(rel)
            if rel.endswith(".py"):
                wanted += [p for p in _imports(data, rel, root_rels) if p in tracked and p not in seen]
    except BaseException:
        tree.cleanup()
        raise
    return tree
