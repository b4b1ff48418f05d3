"""Token counts by section without a second render of every sample.

The text format says how many of a request's tokens are the meta template's, the in-context
examples' and the test row's, which needs to know where each character came from: a render
with provenance. But a prepared template (the examples inserted, before a row fills it) is the
same for every row that uses those examples, and so is the meta-template layout around it. So
the provenance render runs once per prepared template (the first sample that uses it), and the
prepared template it filled is kept as the fast one's *twin*: each item's text with a parallel
string of section codes, one a character. Every later row replays only its own fill on the
codes (``str.split`` and ``join`` where a column's ``{field}`` is, the row's values coded as the
test row) and lays them out as the model's parser does, from the twin's compiled layout: no
template building, example list, ``max_seq_len`` loop or provenance runs a second time.

A replay that does not give exactly the fast render's model input (another plan's fill, a
value that is not the row's, a mode the guess got wrong) returns ``None``, and the caller
takes the provenance render: a replay can be missing, never different.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from typing import Any

from ..errors import RenderError
from ..result import Request
from ..templates.prompt_list import FillPairs, PromptList, is_section_marker, safe_format_coded
from ..tokens.counting import SectionCoded, codes_of
from .meta_template import CHAT_ROLES, APIParser, LMParser, _Layout, _MessagesLayout, is_bare_marker
from .model_input import CHAT, ModelAdapter

#: Twins kept per pair (a pair has one prepared template per example set and label).
MAX_TWINS = 1024


def _text(item: Any) -> str | None:
    """The text a parser reads of a PromptList item (None: a marker, or not text)."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and "section" not in item:
        prompt = item.get("prompt", "")
        return prompt if isinstance(prompt, str) else None
    return None


class _Twin:
    """A prepared template's provenance, as texts and section codes per item; its layouts."""

    __slots__ = ("changing", "layouts", "source", "texts", "twin")

    def __init__(self, source: PromptList, twin: PromptList, texts: dict[int, tuple[str, str]]) -> None:
        self.source = source  # the fast render's prepared template (held: its id names it)
        self.twin = twin  # the provenance render's, item for item the same text
        self.texts = texts  # item index -> its text (plain) and the codes of its text
        self.changing = frozenset(source.fill_plan())  # the items a row's fill may change
        self.layouts: dict[str, Any] = {}  # mode -> the parser's compiled layout, or None

    def fixed(self, i: int) -> tuple[str, str] | None:
        """The text and codes of item ``i`` when no row changes them (None: ask each row)."""
        return None if i in self.changing else self.texts.get(i)


class SectionReplay:
    """The twins of one pair's prepared templates, and the replay of a row's fill on them."""

    def __init__(self) -> None:
        self._twins: dict[int, _Twin] = {}
        #: requests whose sections came from a replay (the rest took the provenance render)
        self.replayed = 0

    def learn(self, fast: Request, traced: Request) -> None:
        """Keep the twin of ``fast``'s prepared template, from its provenance render ``traced``."""
        source = getattr(fast.prompt_list, "filled_from", None)
        twin = getattr(traced.prompt_list, "filled_from", None)
        if source is None or twin is None or len(source) != len(twin):
            return
        known = self._twins.get(id(source))
        if known is not None and known.source is source:
            return
        texts: dict[int, tuple[str, str]] = {}
        for i, (a, b) in enumerate(zip(source, twin)):
            if a != b:  # a dict compares its values: PStr == str as text
                return
            text = _text(b)
            if text is not None:
                texts[i] = (str.__str__(text), codes_of(text))
                if len(texts[i][1]) != len(text):
                    return
        if len(self._twins) >= MAX_TWINS:
            self._twins.clear()
        self._twins[id(source)] = _Twin(source, twin, texts)

    def replay(self, request: Request, row_pairs: FillPairs, adapter: ModelAdapter,
               mode: str) -> Request | None:
        """``request`` with a model input that carries its sections, or None (render it again).

        ``row_pairs`` are the fast render's pairs of the test row: a fill value must be one of
        them (the same object, or an equal text: a spliced sample makes its own ``str`` of a
        number) or the masked output column's stand-in, as in the provenance
        render, where the row's values carry the test row's origin and the stand-in none.
        ``adapter`` is the provenance render's model (its parser's layouts).
        """
        filled = request.prompt_list
        if not isinstance(filled, PromptList) or filled.fill_pairs is None:
            return None
        source = filled.filled_from
        twin = self._twins.get(id(source))
        if twin is None or twin.source is not source:
            return None
        row = dict(row_pairs)
        masked = filled.fill_masked
        pairs = []
        for token, value in filled.fill_pairs:
            if token == masked:
                pairs.append((token, value, "o"))
            elif row.get(token) == value:
                pairs.append((token, value, "t"))
            else:
                return None
        changing = twin.changing

        def item(i: int) -> tuple[str, str] | None:
            got = twin.texts.get(i)
            if got is None or i not in changing:
                return got
            text, codes = safe_format_coded(*got, pairs)
            return (text, codes) if text == _text(list.__getitem__(filled, i)) else None

        try:
            model_input = self._lay_out(twin, item, adapter, mode)
        except RenderError:
            return None
        if model_input is None or model_input != request.model_input:
            return None
        self.replayed += 1
        return Request(prompt_list=filled, model_input=model_input, label=request.label, turn=request.turn)

    def _lay_out(self, twin: _Twin, item: Any, adapter: ModelAdapter, mode: str) -> Any:
        """The model input as the provenance parser would make it, each text with its codes."""
        parser = adapter.parser
        if not parser.meta:
            joined = _joined(twin.twin, item)
            if joined is None or (not joined and isinstance(parser, APIParser)):
                return None  # (an empty prompt is a multimodal one for AISBench API models)
            parsed: Any = joined
        else:
            if mode not in twin.layouts:
                twin.layouts[mode] = _coded_layout(parser, twin, mode)
            layout = twin.layouts[mode]
            if layout is None:
                return None
            parsed = _through(layout, item) if isinstance(layout, _Coded) else _messages(layout, item)
            if parsed is None:
                return None
        return _chat_messages(parsed) if adapter.kind == CHAT else parsed


class _Coded:
    """One compiled text of a layout, for one twin: constant texts (with their codes) around
    numbered slots, where the slots no row changes are joined in with the constants once, so
    a row lays out only its own items. ``whole``: the text when no slot is left."""

    __slots__ = ("parts", "whole")

    def __init__(self, constants: list[str], slots: list[int], twin: _Twin) -> None:
        texts, codes = [str.__str__(constants[0])], [codes_of(constants[0])]
        parts: list[tuple[str, str] | int] = []
        for k, slot in enumerate(slots):
            got = twin.fixed(slot)
            if got is None:
                parts += (("".join(texts), "".join(codes)), slot)
                texts, codes = [], []
            else:
                texts.append(got[0])
                codes.append(got[1])
            texts.append(str.__str__(constants[k + 1]))
            codes.append(codes_of(constants[k + 1]))
        parts.append(("".join(texts), "".join(codes)))
        self.parts = parts
        self.whole = SectionCoded(*parts[0]) if len(parts) == 1 else None  # type: ignore[misc]


def _coded_layout(parser: Any, twin: _Twin, mode: str) -> Any:
    """The parser's compiled layout of the twin, coded once (None: the parser walks it)."""
    if isinstance(parser, LMParser):
        layout = _Layout.compile(parser, twin.twin, mode)
        return None if layout is None else _Coded(layout.constants, layout.slots, twin)
    messages = _MessagesLayout.compile(parser, twin.twin, mode)
    if messages is None:
        return None
    return [entry if not isinstance(entry, tuple) else (entry[0], _Coded(entry[1], entry[2], twin))
            for entry in messages.entries]


def _through(layout: _Coded, item: Any) -> SectionCoded | None:
    """The layout's text with the row's items in its slots, as a compiled layout applies them."""
    if layout.whole is not None:
        return layout.whole
    texts, coded = [], []
    for part in layout.parts:
        if type(part) is int:
            got = item(part)
            if got is None:
                return None
            part = got
        texts.append(part[0])  # type: ignore[index]
        coded.append(part[1])  # type: ignore[index]
    return SectionCoded("".join(texts), "".join(coded))


def _messages(entries: list[Any], item: Any) -> PromptList | None:
    """``_MessagesLayout.apply`` on texts with codes (strings it drops are said by the fast render)."""
    out: list[Any] = []
    for entry in entries:
        if not isinstance(entry, tuple):
            out.append(entry)
            continue
        base, layout = entry
        prompt = _through(layout, item)
        if prompt is None:
            return None
        out.append({**base, "prompt": prompt})
    return PromptList(out)


def _joined(twin: PromptList, item: Any) -> SectionCoded | None:
    """``join_without_meta`` on texts with codes: non-empty texts, '\\n' after every item but
    bare markers."""
    texts: list[str] = []
    codes: list[str] = []
    sep = False
    for i, entry in enumerate(twin):
        if is_bare_marker(entry):
            continue
        if isinstance(entry, dict) and "prompt" not in entry:
            got: tuple[str, str] | None = ("", "")
        else:
            got = item(i)
        if got is None:
            return None
        if got[0]:
            if sep:
                texts.append("\n")
                codes.append("o")
            texts.append(got[0])
            codes.append(got[1])
        sep = True
    return SectionCoded("".join(texts), "".join(codes))


def _chat_messages(parsed: Any) -> list[dict] | None:
    """``to_chat_messages`` on texts with codes: the '\\n' that joins two messages of one role is
    the framework's (section "other"). None where it would fail: the provenance render says why."""
    if isinstance(parsed, str):
        return [{"role": "user", "content": parsed}]
    messages: list[dict] = []
    for item in parsed:
        if not isinstance(item, dict) or is_section_marker(item):
            return None
        prompt = item.get("prompt")
        if not prompt:
            continue
        role = CHAT_ROLES.get(item.get("role"))  # type: ignore[arg-type]
        if role is None or not isinstance(prompt, str):
            return None
        if not isinstance(prompt, SectionCoded):
            prompt = SectionCoded(prompt, codes_of(prompt))
        if messages and messages[-1]["role"] == role:
            last = messages[-1]["content"]
            messages[-1]["content"] = SectionCoded(f"{last}\n{prompt}", f"{last.codes}o{prompt.codes}")
        else:
            messages.append({"role": role, "content": prompt})
    return messages
