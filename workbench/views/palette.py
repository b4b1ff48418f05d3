"""Colours the views use, as rich style strings.

A theme file (``themes/*.toml``) may override any field through its ``variables``
table (``prov-row = "#87d787"``, see :data:`VARIABLES`), so the TUI and a headless
export given the same theme draw the same colours.  Defaults use colours of the
xterm 256-colour cube, so a 256-colour terminal shows them unchanged.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache

from rich.style import Style

from ..core.provenance import GLUE, ICE, META, PREDICTION, ROW, TEMPLATE, Origin


@dataclass(frozen=True)
class Palette:
    # provenance: where a character came from
    template: str = ""
    row: str = "#87d787"
    ice: tuple[str, ...] = ("#87afff", "#5fd7d7")  # alternates between examples
    meta: str = "#d787d7"
    glue: str = "#d7af5f"
    prediction: str = "italic #ffaf5f"
    unknown: str = ""
    # marks
    token: str = "bold underline"  # special tokens (<|im_start|>, [INST], <s>)
    escape: str = "bold #ffffff on #af0000"  # a stand-in for an unsafe character
    whitespace: str = "#808080"  # ↵ · → markers
    faint: str = "#808080"  # section markers, empty items, hints
    label: str = "bold"  # field names and headings
    # role badges
    role_human: str = "bold #000000 on #87afd7"
    role_bot: str = "bold #000000 on #afd787"
    role_system: str = "bold #000000 on #d7af87"
    role_other: str = "bold #000000 on #afafaf"
    # states
    error: str = "bold #ff5f5f"
    warning: str = "#ffaf00"
    hint: str = "#d7af5f"
    location: str = "underline"
    selected: str = "bold #ffaf00"
    matched: str = "bold #000000 on #ffd75f"  # the span of a model's answer the evaluator's rule read
    # compare's character diff: what only the first side sends, what only the other side sends
    removed: str = "#000000 on #ff8787"
    added: str = "#000000 on #87d787"

    @classmethod
    def from_variables(cls, variables: Mapping[str, str], base: Palette | None = None) -> Palette:
        """A palette with the theme's ``wb-*`` variables applied over ``base``."""
        changes: dict[str, object] = {}
        for name, field_name in VARIABLES.items():
            if name in variables:
                value = variables[name]
                if field_name == "ice":
                    changes[field_name] = tuple(v.strip() for v in value.split(","))
                else:
                    changes[field_name] = value
        return replace(base or cls(), **changes)

    def style(self, name: str) -> Style:
        return _parse(getattr(self, name))

    def origin_style(self, origin: Origin | None) -> Style:
        if origin is None:
            return Style.null()
        kind = origin.kind
        if kind == ICE:
            return _parse(self.ice[(origin.example or 0) % len(self.ice)] if self.ice else "")
        name = _ORIGIN_FIELDS.get(kind, "unknown")
        return _parse(getattr(self, name))

    def role_style(self, role: str | None) -> Style:
        key = (role or "").lower()
        if key in ("human", "user"):
            return _parse(self.role_human)
        if key in ("bot", "assistant", "gpt"):
            return _parse(self.role_bot)
        if key == "system":
            return _parse(self.role_system)
        return _parse(self.role_other)


_ORIGIN_FIELDS = {TEMPLATE: "template", ROW: "row", META: "meta", GLUE: "glue",
                  PREDICTION: "prediction"}

# theme variable name -> Palette field ("wb-" keeps them apart from Textual's own)
VARIABLES: dict[str, str] = {f"wb-{f.name.replace('_', '-')}": f.name for f in fields(Palette)}


@lru_cache(maxsize=256)
def _parse(spec: str) -> Style:
    return Style.parse(spec) if spec else Style.null()


DEFAULT_PALETTE = Palette()

# For light backgrounds: the same roles, darker inks.
LIGHT_PALETTE = Palette(
    row="#005f00", ice=("#005faf", "#008787"), meta="#870087", glue="#875f00",
    prediction="italic #af5f00", whitespace="#8a8a8a", faint="#6c6c6c",
    role_human="bold #ffffff on #005f87", role_bot="bold #ffffff on #005f00",
    role_system="bold #ffffff on #875f00", role_other="bold #ffffff on #585858",
    error="bold #af0000", warning="#af5f00", hint="#875f00", selected="bold #af5f00",
)
