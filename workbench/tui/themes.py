"""Themes are data: ``themes/*.toml`` (and a user folder) become Textual ``Theme``s.

A theme file holds Textual's colours at the top level and the workbench's own colours
(provenance, role badges, special tokens; see :data:`workbench.views.palette.VARIABLES`)
under ``[variables]``, so one file themes both the chrome and the panes.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path

from textual.theme import Theme

from ..bundled import bundled
from ..views.palette import DEFAULT_PALETTE, LIGHT_PALETTE, VARIABLES, Palette

THEME_FIELDS = {f.name for f in fields(Theme)} - {"name", "variables"}
DEFAULT_THEME = "workbench-dark"


def bundled_themes_dir() -> Path:
    """The themes the workbench ships (inside the package in a wheel, ``themes/`` in a checkout)."""
    return bundled("themes")


def user_themes_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "prompt-workbench" / "themes"


@dataclass(frozen=True)
class ThemeProblem:
    file: Path
    message: str


def theme_from_file(path: Path) -> Theme:
    """One theme file to a Theme; ValueError says what is wrong with it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"cannot read theme: {exc}") from exc
    name = data.pop("name", path.stem)
    variables = data.pop("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ValueError("[variables] must map names to strings")
    unknown = sorted(set(data) - THEME_FIELDS)
    if unknown:
        raise ValueError(f"unknown keys {', '.join(unknown)} (known: {', '.join(sorted(THEME_FIELDS))})")
    if "primary" not in data:
        raise ValueError("a theme needs at least `primary`")
    bad_vars = sorted(k for k in variables if k.startswith("wb-") and k not in VARIABLES)
    if bad_vars:
        raise ValueError(f"unknown workbench variables {', '.join(bad_vars)}")
    return Theme(name=str(name), variables=dict(variables), **data)


def load_themes(folders: Iterable[Path]) -> tuple[dict[str, Theme], list[ThemeProblem]]:
    """Every ``*.toml`` theme in ``folders``; later folders override earlier ones by name."""
    themes: dict[str, Theme] = {}
    problems: list[ThemeProblem] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme = theme_from_file(path)
            except ValueError as exc:
                problems.append(ThemeProblem(path, str(exc)))
                continue
            themes[theme.name] = theme
    return themes, problems


def palette_for(theme: Theme | None) -> Palette:
    """The views' colours for a theme: its ``wb-*`` variables over a dark or light base."""
    if theme is None:
        return DEFAULT_PALETTE
    base = DEFAULT_PALETTE if theme.dark else LIGHT_PALETTE
    return Palette.from_variables(theme.variables, base)
