"""Untrusted text to a rich ``Text``: safe, optionally whitespace-visible, coloured by origin.

This is the one place prompt text becomes styled output; every view calls it.  The
string is cut at every boundary that changes how a piece looks (a provenance run, a
special token, a trailing-space run), and each piece is written with its characters
made safe (:mod:`workbench.views.safe`).

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from rich.style import Style
from rich.text import Text

from ..core.provenance import spans_of
from .options import ViewOptions
from .safe import (
    NBSP_MARK,
    NEWLINE_MARK,
    SPACE_MARK,
    SPECIAL,
    TAB_MARK,
    TRAILING_SPACES,
    escape_char,
)
from .tokens import find_tokens


def styled(value: str, opts: ViewOptions, base: Style | str | None = None,
           marks: Sequence[tuple[int, int]] = ()) -> Text:
    """``value`` as a rich Text; with ``opts.provenance``, coloured by where each run came from;
    ``marks`` (``[start, end)`` spans of ``value``) drawn in the palette's ``matched`` style."""
    out = Text(overflow="fold")
    if not value:
        return out
    limit = opts.max_chars
    if limit is not None and len(value) > limit:
        head, tail = value[: limit * 3 // 4], value[len(value) - limit // 4:]  # PStr slices keep origins
        out = styled(head, opts, base, marks)
        hidden = len(value) - len(head) - len(tail)
        out.append(f"\n┄┄ {hidden:,} more characters not shown here ({opts.cut_note}) ┄┄\n",
                   style=opts.palette.style("faint"))
        shift = len(value) - len(tail)
        return out.append_text(styled(tail, opts, base, [(a - shift, b - shift) for a, b in marks]))
    palette = opts.palette
    base_style = Style.parse(base) if isinstance(base, str) else (base or Style.null())
    cuts = {0, len(value)}
    runs: list[tuple[int, int, Style]] = []
    if opts.provenance:
        pos = 0
        for length, origin in spans_of(value):
            runs.append((pos, pos + length, palette.origin_style(origin)))
            cuts.add(pos)
            pos += length
        cuts.add(pos)
    tokens = find_tokens(value, opts.tokens)
    for start, end in tokens:
        cuts.update((start, end))
    marked = sorted((max(a, 0), min(b, len(value))) for a, b in marks if b > 0 and a < len(value) and b > a)
    for start, end in marked:
        cuts.update((start, end))
    trailing: list[tuple[int, int]] = []
    if opts.whitespace:
        trailing = [m.span() for m in TRAILING_SPACES.finditer(value)]
        for start, end in trailing:
            cuts.update((start, end))
    token_style = palette.style("token")
    marker = palette.style("whitespace")
    escape = palette.style("escape")
    highlight = palette.style("matched")
    bounds = sorted(c for c in cuts if 0 <= c <= len(value))
    text = str.__str__(value)  # the characters alone: slicing a PStr would re-slice its origins
    run_i = tok_i = trail_i = 0
    for a, b in pairwise(bounds):
        if a == b:
            continue
        style = base_style
        if any(start <= a < end for start, end in marked):
            style = style + highlight
        while run_i < len(runs) and runs[run_i][1] <= a:
            run_i += 1
        if run_i < len(runs) and runs[run_i][0] <= a:
            style = style + runs[run_i][2]
        while tok_i < len(tokens) and tokens[tok_i][1] <= a:
            tok_i += 1
        if tok_i < len(tokens) and tokens[tok_i][0] <= a:
            style = style + token_style
        while trail_i < len(trailing) and trailing[trail_i][1] <= a:
            trail_i += 1
        if trail_i < len(trailing) and trailing[trail_i][0] <= a:
            out.append(SPACE_MARK * (b - a), style + marker)
            continue
        _append_piece(out, text[a:b], style, opts.whitespace, marker, escape)
    return out


def _append_piece(out: Text, piece: str, style: Style, whitespace: bool, marker: Style,
                  escape: Style) -> None:
    pos = 0
    for m in SPECIAL.finditer(piece):
        if m.start() > pos:
            out.append(piece[pos:m.start()], style)
        ch = m.group()
        if ch == "\n":
            if whitespace:
                out.append(NEWLINE_MARK, style + marker)
            out.append("\n")
        elif ch == "\t":
            out.append(TAB_MARK if whitespace else "\t", style + marker if whitespace else style)
        elif ch == "\u00a0":
            out.append(NBSP_MARK if whitespace else ch, style + marker if whitespace else style)
        else:
            out.append(escape_char(ch), escape)
        pos = m.end()
    if pos < len(piece):
        out.append(piece[pos:], style)


def plain(value: str, opts: ViewOptions, style: Style | str | None = None) -> Text:
    """Safe text with no provenance colours (labels, messages, paths)."""
    return styled(str(value), ViewOptions(whitespace=opts.whitespace, provenance=False,
                                          palette=opts.palette, tokens=opts.tokens), style)
