"""One aligned row of ``workbench compare`` drawn: each side's final input with what only it sends
marked (the character diff against the first side), and the classes of difference between them.
The app's compare mode shows these; it formats nothing itself.

May import: the core, rich and the other view modules; not loading, textual or a front end.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..core.inert_text import visible
from ..core.side_by_side import KINDS, Difference, Side, SideRow, char_diff
from .palette import DEFAULT_PALETTE, Palette

__all__ = ["differences_text", "final_texts"]


def final_texts(first: SideRow, other: SideRow, whitespace: bool = True,
                palette: Palette = DEFAULT_PALETTE) -> tuple[Text, Text]:
    """The two final inputs, each with the stretches only it has marked (``removed`` on the first,
    ``added`` on the other); newlines and tabs made visible with ``whitespace``."""
    left, right = Text(no_wrap=False), Text(no_wrap=False)
    removed, added, marks = palette.style("removed"), palette.style("added"), palette.style("whitespace")
    for op, piece in char_diff(first.final, other.final):
        for target, mine, style in ((left, "-", removed), (right, "+", added)):
            if op == "=":
                _append(target, piece, None, whitespace, marks)
            elif op == mine:
                _append(target, piece, style, whitespace, marks)
    return left, right


def _append(text: Text, piece: str, style, whitespace: bool, marks) -> None:
    shown = visible(piece, whitespace=whitespace)
    if style is not None:
        text.append(shown, style)
    elif whitespace:  # the ↵ → · markers faint, the rest as written
        for char in shown:
            text.append(char, marks if char in "↵→·" else None)
    else:
        text.append(shown)


def differences_text(sides: Sequence[Side], found: Sequence[Difference] | None,
                     palette: Palette = DEFAULT_PALETTE) -> Text:
    """The classes of difference between the first side and another on one row, a line each."""
    out = Text()
    if found is None:
        out.append("this row is on one side only", palette.style("warning"))
        return out
    if not found:
        out.append("the same request, the same settings", palette.style("faint"))
        return out
    for i, d in enumerate(found):
        if i:
            out.append("\n")
        out.append(f"{KINDS[d.kind]}: ", palette.style("label"))
        out.append(visible(d.left), palette.style("removed"))
        out.append(" → ")
        out.append(visible(d.right), palette.style("added"))
        out.append(f"  {visible(d.why)}", palette.style("faint"))
    return out
