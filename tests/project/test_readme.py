"""The README's set-up commands stay true (CI runs the test command exactly as written), the
README stays a short front page, and every relative link in the documentation resolves inside
the repository."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "tools" / "README.md"]
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```bash\n(.+?)\n```", text, flags=re.S)[:2]


def test_readme_opens_with_run_and_test_commands():
    run, test = readme_commands()
    assert "pip install -e ." in run and run.endswith("workbench")
    assert "pip install -e '.[test]'" in test
    # ruff first, then the whole suite, as a contributor runs it
    assert re.search(r"\.venv/bin/ruff check \. && \.venv/bin/python -m pytest -q$", test), test


def test_ci_runs_the_readme_test_command_verbatim():
    _, test = readme_commands()
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test in ci_lines


def test_the_readme_is_a_front_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 10_240, "README.md is over 10 KB: move details to docs/"
    assert "](docs/screenshot.svg)" in text and (ROOT / "docs" / "screenshot.svg").stat().st_size > 10_000
    for command in ("render", "snapshot", "diff", "verify"):
        assert f"### `workbench {command}`" in text, f"the tour has no `workbench {command}`"


def slug(heading: str) -> str:
    """The anchor GitHub makes of a heading."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading.strip()).lower()
    text = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, flags=re.M)}


def relative_links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t, flags=re.I)]


def test_every_relative_link_resolves_inside_the_repository():
    checked = 0
    for doc in DOCS:
        for target in relative_links(doc):
            checked += 1
            file, _, anchor = target.partition("#")
            resolved = (doc.parent / file).resolve() if file else doc
            where = f"{doc.relative_to(ROOT)} links to {target}"
            assert resolved.is_relative_to(ROOT), f"{where}, outside the repository"
            assert resolved.exists(), f"{where}, which does not exist"
            if anchor and resolved.suffix == ".md":
                assert anchor in anchors(resolved), f"{where}: no such heading"
    assert checked > 40


def test_the_docs_name_no_file_outside_the_project():
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert "shared/spec" not in text and "/work/" not in text, doc.relative_to(ROOT)


def test_the_link_check_catches_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A page\n[ok](#a-page) [gone](nowhere.md) [web](https://x.org) ![img](a.svg)\n"
                    "```\n[in code](not-a-link.md)\n```\n", encoding="utf-8")
    assert relative_links(page) == ["#a-page", "nowhere.md", "a.svg"]
    assert anchors(page) == {"a-page"}
    assert slug("Exit status and messages") == "exit-status-and-messages"
    assert slug("`workbench render`: headless, in any format") == "workbench-render-headless-in-any-format"


def test_the_readme_counts_the_native_readers_there_are():
    from workbench.loading.rows.readers import reader_names

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    (count,) = re.findall(r"native readers for (\d+) dataset classes", text)
    assert int(count) == len(reader_names())
