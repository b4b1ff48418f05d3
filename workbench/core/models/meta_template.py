"""Model-side meta templates: a PromptList to the model's final input.

``LMParser`` gives one string (OpenCompass/AISBench ``LMTemplateParser``);
``APIParser`` gives role messages ``[{role, prompt}]`` (``APITemplateParser``).
Both walk the PromptList's sections; a round/ice section is split into rounds and
each round is laid out in the meta template's own role order.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Hashable, Mapping
from typing import Any

from ..errors import RenderError
from ..provenance import META, Origin, PStr, concat
from ..reference import reference
from ..render_notes import OC_VERSION, Notes
from ..templates.prompt_list import PromptList, PromptType, is_section_marker


def _tag_meta(value: Any, detail: str) -> Any:
    if isinstance(value, str):
        return PStr(value, Origin(META, detail=detail))
    return value


UNSENT_PROMPT = "PW201"


def is_bare_marker(item: Any) -> bool:
    return isinstance(item, dict) and set(item) == {"section", "pos"}


def join_without_meta(prompt: PromptList) -> str:
    """No meta template: every non-empty string or role prompt, joined by '\\n'.

    The separator is set after *every* item but bare section markers, so an empty
    first item still puts a '\\n' before the next one (as the frameworks do).
    """
    out = ""
    sep = ""
    newline = "\n"
    for item in prompt:
        if is_bare_marker(item):
            continue
        if isinstance(item, str):
            if item:
                out += sep + item
        elif item.get("prompt", ""):
            out += sep + item.get("prompt", "")
        sep = newline
    return out


#: Where the meta template is in a model config (errors about it point there).
META_KEY = ("meta_template",)


class _RoleTable:
    """Roles of a meta template (round + reserved_roles), and round splitting."""

    def __init__(self, meta: Mapping[str, Any], provenance: bool) -> None:
        if not isinstance(meta, Mapping):
            raise RenderError(f"meta_template must be a dict, got {type(meta).__name__}",
                              key_path=META_KEY, in_model=True)
        if "round" not in meta:
            raise RenderError("round is required in meta template",
                              hint="meta_template=dict(round=[dict(role='HUMAN', ...), ...])",
                              key_path=META_KEY, in_model=True)
        if not isinstance(meta["round"], list):
            raise RenderError("meta_template round must be a list", key_path=(*META_KEY, "round"),
                              in_model=True)
        self.meta = meta
        self.roles: dict[Any, dict] = {}
        keys = ["round"]
        if "reserved_roles" in meta:
            if not isinstance(meta["reserved_roles"], list):
                raise RenderError("meta_template reserved_roles must be a list",
                                  key_path=(*META_KEY, "reserved_roles"), in_model=True)
            keys.append("reserved_roles")
        for key in keys:
            for i, item in enumerate(meta[key]):
                where = (*META_KEY, key, i)
                if not isinstance(item, (str, dict)):
                    raise RenderError(f"meta_template {key} items must be str or dict, got {item!r}",
                                      key_path=where, in_model=True)
                if isinstance(item, dict):
                    if "role" not in item:
                        raise RenderError(f"meta_template {key} item has no role: {item!r}",
                                          key_path=where, in_model=True)
                    if not isinstance(item["role"], str):
                        raise RenderError(f"meta_template {key} item's role must be a str, "
                                          f"got {item['role']!r}", key_path=where, in_model=True)
                    if item["role"] in self.roles:
                        raise RenderError(f"role {item['role']} in meta prompt must be unique!",
                                          hint="each role appears once across round and reserved_roles",
                                          key_path=where, in_model=True)
                    role = dict(item)
                    for part in ("begin", "end"):
                        if isinstance(role.get(part), list):
                            raise RenderError(
                                "Using List[str|int] is as the begin or end of a prompt is not "
                                "supported yet.",
                                hint=f"write meta_template role {item['role']}'s {part} as a string",
                                key_path=where, in_model=True,
                            )
                    for part in ("begin", "end", "prompt", "api_role"):
                        if part in role and not isinstance(role[part], str):
                            raise RenderError(
                                f"meta_template role {item['role']}'s {part} must be a str, "
                                f"got {role[part]!r}", key_path=(*where, part), in_model=True,
                            )
                    if provenance:
                        for part in ("begin", "end", "prompt"):
                            if part in role:
                                role[part] = _tag_meta(role[part], f"{item['role']}.{part}")
                    self.roles[item["role"]] = role
        self.round = [
            _tag_meta(r, "round") if provenance and isinstance(r, str) else r for r in meta["round"]
        ]
        self.round_index = {r["role"]: i for i, r in enumerate(meta["round"]) if isinstance(r, dict)}
        begin, end = meta.get("begin", ""), meta.get("end", "")
        self.begin = _tag_meta(begin, "begin") if provenance else begin
        self.end = _tag_meta(end, "end") if provenance else end

    def updated(self, items: list[Any] | dict) -> dict[Any, dict]:
        """The role table with a round's (or one item's) fields merged in."""
        roles = self.roles
        table = dict(roles)  # a role is copied where an item changes it (callers only read)
        copied = set()
        if isinstance(items, dict):
            items = [items]
        for item in items:
            if not isinstance(item, dict):
                continue
            role = item.get("role")
            if role not in roles:
                role = item.get("fallback_role")
                if not role:
                    raise RenderError(
                        f"role {item.get('role')!r} is not in the model's meta template and the "
                        "item has no fallback_role (the framework raises KeyError: None)",
                        hint="add fallback_role='HUMAN' to the item, or the role to the meta "
                        "template's reserved_roles", key_path=META_KEY, in_model=True,
                        role=item.get("role"),
                    )
                if role not in table:
                    raise RenderError(
                        f"fallback_role {role!r} of {item.get('role')!r} is not in the model's "
                        f"meta template either (KeyError: {role!r})", key_path=META_KEY, in_model=True,
                        role=item.get("role"),
                    )
            if role not in copied:
                copied.add(role)
                table[role] = dict(table[role])
            table[role].update(item)
        return table

    def merged(self, item: dict, table: dict[Any, dict]) -> dict:
        got = table.get(item["role"], table.get(item.get("fallback_role")))
        if got is None:
            raise RenderError(f"role {item['role']!r} is not in the model's meta template",
                              key_path=META_KEY, in_model=True, role=item["role"])
        return got

    def split_rounds(self, dialogue: list[Any], use_fallback: bool) -> list[int]:
        cut = [0]
        last = -1
        for i, item in enumerate(dialogue):
            if isinstance(item, str):
                continue
            role = item.get("role")
            idx = self.round_index.get(role)
            if idx is None and use_fallback:
                idx = self.round_index.get(item.get("fallback_role"))
            if idx is None:
                raise RenderError(
                    f"role {role!r} of a dialogue round is not in the meta template's round "
                    f"(KeyError: {role!r})",
                    hint=f"the model's meta template round has {', '.join(map(str, self.round_index))}: "
                    "use those roles inside round; put SYSTEM turns in begin",
                    key_path=(*META_KEY, "round"), in_model=True, role=role,
                )
            if idx <= last:
                cut.append(i)
            last = idx
        cut.append(len(dialogue))
        return cut


class _SectionWalker:
    """Shared walk over a PromptList's sections; subclasses lay out each piece."""

    framework = OC_VERSION

    def __init__(self, meta: Mapping[str, Any] | None, notes: Notes, provenance: bool = False,
                 framework: str = OC_VERSION) -> None:
        self.meta = meta or None
        self.framework = framework
        self.provenance = provenance
        # None without a meta template: the walks read the table only when there is one
        self.table: _RoleTable = _RoleTable(meta, provenance) if meta else None  # type: ignore[assignment]
        self.notes = notes
        # A walk keeps its output on the parser; a pair may be rendered from two threads
        # (the panes and a search), so one walk at a time.
        self._walk_lock = threading.RLock()
        #: compiled layouts by (id of the prepared template, mode): [template, layout, compiled]
        self._layouts: dict[tuple[int, str], list] = {}

    def walk(self, prompt: PromptList, mode: str) -> bool:
        """Returns whether generation went on to the end (meta ``end`` applies)."""
        stack: list[tuple[str, int]] = []
        for i, item in enumerate(prompt):
            kind = type(item)
            if kind is str or (kind is not dict and isinstance(item, str)):
                self.on_string(item)
                continue
            if kind is not dict and not isinstance(item, dict):
                raise RenderError(f"Invalid type in prompt list: {item!r}")
            if "section" not in item:
                if not stack:
                    raise RenderError(f"a role item outside any section: {item!r}")
                for key in ("role", "fallback_role"):
                    value = item.get(key)
                    if type(value) is not str and not isinstance(value, Hashable):
                        raise RenderError(f"a dialogue item's {key} must be a str, got {item[key]!r} "
                                          "(TypeError: unhashable type in the framework)")
                if stack[-1][0] in ("begin", "end") and not self.on_single(item, mode):
                    return False
                continue
            pos, section = item.get("pos"), item.get("section")
            if pos == "begin":
                if section not in ("begin", "round", "end", "ice"):
                    raise RenderError(f"unknown section {section!r} in prompt")
                stack.append((section, i + 1))
            elif pos != "end":
                raise RenderError(f"Invalid pos {pos}")
            elif section == "end" and (not stack or stack[-1][0] != "end"):
                # PromptTemplate emits end/end where end/begin was meant, and the
                # framework pops an empty stack; the docs render the end section.
                self.notes.framework_fails(
                    self.framework,
                    "IndexError: pop from empty list (a dialogue `end` section under a "
                    "meta template: PromptTemplate emits two end/end markers)",
                    "the `end` section follows the rounds",
                )
                stack.append(("end", i + 1))
            elif not stack or stack[-1][0] != section:
                raise RenderError(f"section markers do not match at item {i}: {item!r}")
            else:
                name, start = stack.pop()
                if name in ("round", "ice"):
                    dialogue = list.__getitem__(prompt, slice(start, i))
                    cuts = self.table.split_rounds(dialogue, self.use_fallback_in_split)
                    last = len(cuts) - 2
                    for r in range(last + 1):
                        for_gen = mode == "gen" and name == "round" and r == last
                        if not self.on_round(dialogue[cuts[r]:cuts[r + 1]], for_gen):
                            return False
        return True

    use_fallback_in_split = False

    def _compiled(self, source: PromptList, mode: str) -> Any:
        """The layout of a prepared template, compiled on its second use (None: keep walking).

        The output's shape depends only on the items' roles and sections, never on their text
        (see :class:`_Layout`), so the walk is done once with a numbered slot in place of each
        text, and every row after that only fills the slots.
        """
        if reference():  # every prompt walked (core/reference.py)
            return None
        layouts = self._layouts
        key = (id(source), mode)
        entry = layouts.get(key)
        if entry is None or entry[0] is not source:
            if len(layouts) > 256:
                layouts.clear()
            layouts[key] = [source, None, False]
            return None
        if not entry[2]:
            entry[2] = True
            entry[1] = self._compile(source, mode)
        return entry[1]

    def _compile(self, source: PromptList, mode: str) -> Any:
        return None

    def on_string(self, item: str) -> None: ...

    def on_round(self, round_items: list[Any], for_gen: bool) -> bool: ...

    def on_single(self, item: dict, mode: str) -> bool: ...


class _Layout:
    """A compiled meta-template layout: constant text and numbered slots for item texts."""

    __slots__ = ("constants", "provenance", "slots")

    def __init__(self, constants: list[str], slots: list[int], provenance: bool = False) -> None:
        self.constants = constants  # len(slots) + 1 pieces around the slots
        self.slots = slots
        self.provenance = provenance  # constants carry their runs; apply keeps the items'

    @classmethod
    def compile(cls, parser: LMParser, source: PromptList, mode: str) -> _Layout | None:
        symbolic = _symbolic(source)
        if symbolic is None:
            return None
        text = parser._walk_to_text(symbolic, mode)
        pieces, found_slots = _split_slots(text)
        if any("\x00" in c for c in pieces):
            return None  # a meta-template string holds NUL itself: keep walking
        # Items no row can change (no `{` in them) are folded into the constant text.
        changing = set(source.fill_plan())
        constants, slots = [pieces[0]], []
        for slot, piece in zip(found_slots, pieces[1:]):
            if slot in changing:
                slots.append(slot)
                constants.append(piece)
            else:
                item = list.__getitem__(source, slot)
                constants[-1] += (item if isinstance(item, str) else item["prompt"]) + piece
        return cls(constants, slots, parser.provenance)

    def apply(self, prompt: PromptList) -> str:
        constants = self.constants
        parts = [constants[0]]
        get = list.__getitem__
        for k, slot in enumerate(self.slots):
            item = get(prompt, slot)
            parts.append(item if isinstance(item, str) else item["prompt"])
            parts.append(constants[k + 1])
        # concat keeps provenance: the runs the walk's '+' would make, merged the same way
        return concat(parts) if self.provenance else "".join(parts)


def _symbolic(source: PromptList) -> PromptList | None:
    """``source`` with a numbered slot in place of each string item and each role prompt
    (None when an item is neither text nor a dict with a text prompt: the walk says why)."""
    symbolic = PromptList()
    for i, item in enumerate(source):
        if isinstance(item, str):
            symbolic.append(f"\x00{i}\x00")
        elif not isinstance(item, dict):
            return None
        elif "section" not in item and "prompt" in item:
            if not isinstance(item["prompt"], str):
                return None
            symbolic.append({**item, "prompt": f"\x00{i}\x00"})
        else:
            symbolic.append(item)
    return symbolic


def _split_slots(text: str) -> tuple[list[str], list[int]]:
    """The text around each numbered slot, and the slots' numbers; sliced, not split, so that
    with provenance the pieces keep their runs."""
    pieces, slots, at = [], [], 0
    for found in _SLOT.finditer(text):
        pieces.append(text[at:found.start()])
        slots.append(int(found.group(1)))
        at = found.end()
    pieces.append(text[at:])
    return pieces, slots


_SLOT = re.compile(r"\x00(\d+)\x00")


class _MessagesLayout:
    """A compiled API-style layout: the messages, each a role and its text's constants and slots.

    Which messages an API parser makes, their roles, and where each item's prompt lands in
    them depend only on the items' roles and sections: like :class:`_Layout`, a walk with a
    numbered slot in place of each prompt, done once. Plain string items are dropped (with a
    warning when they hold text): the layout keeps which ones the walk reaches, to say so per
    row. Templates with non-text prompts keep walking.
    """

    __slots__ = ("entries", "strings")

    def __init__(self, entries: list[Any], strings: list[int]) -> None:
        self.entries = entries  # a constant, or (message without its prompt, constants, slots)
        self.strings = strings  # the string items the walk reaches, in order

    @classmethod
    def compile(cls, parser: APIParser, source: PromptList, mode: str) -> _MessagesLayout | None:
        symbolic = _symbolic(source)
        if symbolic is None:
            return None
        strings: list[str] = []
        with parser._walk_lock:  # no other walk may see the borrowed notes and string list
            notes, parser.notes = parser.notes, Notes()  # the first walk said what there was to say
            parser._strings_reached = strings
            try:
                parsed = parser._parse(symbolic, mode)
            except RenderError:
                return None
            finally:
                parser.notes = notes
                parser._strings_reached = None
        if not isinstance(parsed, list):
            return None
        entries: list[Any] = []
        for message in parsed:
            if not isinstance(message, dict):
                if isinstance(message, str) and "\x00" in message:
                    return None
                entries.append(message)
                continue
            text = message.get("prompt")
            if not isinstance(text, str):
                return None
            constants, slots = _split_slots(text)
            if any("\x00" in c for c in constants):
                return None  # a meta-template string holds NUL itself: keep walking
            entries.append(({**message, "prompt": None}, constants, slots))
        return cls(entries, [int(_SLOT.fullmatch(item).group(1)) for item in strings])  # type: ignore[union-attr]

    def apply(self, prompt: PromptList, parser: APIParser) -> PromptList:
        get = list.__getitem__
        for slot in self.strings:
            parser.on_string(get(prompt, slot))
        out: list[Any] = []
        for entry in self.entries:
            if not isinstance(entry, tuple):
                out.append(entry)
                continue
            base, constants, slots = entry
            parts = [constants[0]]
            for k, slot in enumerate(slots):
                parts.append(get(prompt, slot)["prompt"])
                parts.append(constants[k + 1])
            message = dict(base)
            # concat keeps provenance (the runs of the walk's '+', merged the same way)
            message["prompt"] = concat(parts) if parser.provenance else "".join(parts)
            out.append(message)
        return PromptList(out)


class LMParser(_SectionWalker):
    """A PromptList to the one string a local model receives."""

    def __init__(self, meta: Mapping[str, Any] | None, notes: Notes, provenance: bool = False,
                 framework: str = OC_VERSION) -> None:
        super().__init__(meta, notes, provenance, framework)
        for part in ("begin", "end"):
            if self.table is not None and not isinstance(getattr(self.table, part), str):
                raise RenderError(f"meta_template {part} must be a str for a local model, "
                                  f"got {getattr(self.table, part)!r}", key_path=(*META_KEY, part),
                                  in_model=True)

    def parse(self, prompt: PromptType, mode: str) -> str:
        if isinstance(prompt, str):
            return prompt
        if not self.meta:
            return join_without_meta(prompt)
        source = prompt.filled_from if isinstance(prompt, PromptList) else None
        if source is not None and len(source) == len(prompt):
            last = self._last
            if last is not None and last[0] is prompt and last[1] == mode:
                return last[2]
            layout = self._compiled(source, mode)
            if layout is not None:
                text = layout.apply(prompt)
                self._last = (prompt, mode, text)
                return text
        return self._walk_to_text(prompt, mode)

    #: the last filled prompt laid out, its mode and text: the max_seq_len loop measures the
    #: prompt it keeps, and the request then parses that same prompt (a filled prepared
    #: template is never changed after its fill)
    _last: tuple[PromptList, str, str] | None = None

    def _compile(self, source: PromptList, mode: str) -> _Layout | None:
        # With a meta template a local model's string is a pure concatenation: meta-template
        # text, and each item's (filled) prompt or string.
        return _Layout.compile(self, source, mode)

    def _walk_to_text(self, prompt: PromptList, mode: str) -> str:
        # The pieces are joined once at the end: with provenance, each ``+`` would copy
        # every run laid out so far (quadratic in a few-shot prompt's runs).
        with self._walk_lock:
            self._out: list[str] = [self.table.begin]
            generate = self.walk(prompt, mode)
            parts = self._out
        if generate:
            parts.append(self.table.end)
        return concat(parts)

    def on_string(self, item: str) -> None:
        self._out.append(item)

    def _layout(self, items: list[Any], table: dict, for_gen: bool) -> bool:
        out = self._out
        for entry in items:
            if isinstance(entry, str):
                out.append(entry)
                continue
            merged = self.table.merged(entry, table)
            out.append(merged.get("begin", ""))
            if for_gen and merged.get("generate", False):
                return False
            out.append(merged.get("prompt", ""))
            out.append(merged.get("end", ""))
        return True

    def on_round(self, round_items: list[Any], for_gen: bool) -> bool:
        return self._layout(self.table.round, self.table.updated(round_items), for_gen)

    def on_single(self, item: dict, mode: str) -> bool:
        return self._layout([item], self.table.updated(item), False)


class APIParser(_SectionWalker):
    """A PromptList to role messages ``[{role, prompt}]`` (API and chat-template models)."""

    use_fallback_in_split = True

    def parse(self, prompt: PromptType, mode: str) -> Any:
        if isinstance(prompt, str):
            return prompt
        source = prompt.filled_from if isinstance(prompt, PromptList) and self.meta else None
        if source is not None and len(source) == len(prompt):
            layout = self._compiled(source, mode)
            if layout is not None:
                return layout.apply(prompt, self)
        return self._parse(prompt, mode)

    def _compile(self, source: PromptList, mode: str) -> _MessagesLayout | None:
        return _MessagesLayout.compile(self, source, mode)

    def _parse(self, prompt: PromptType, mode: str) -> Any:
        if isinstance(prompt, str):
            return prompt
        if not self.meta:
            text = join_without_meta(prompt)
            if not text and self.framework != OC_VERSION:
                # AISBench: a multimodal prompt with no meta template is its parts.
                parts: list[Any] = []
                for item in prompt:
                    if isinstance(item, dict) and not is_bare_marker(item) and not item.get("prompt"):
                        parts += item.get("prompt_mm") or []
                return parts if parts else text
            return text
        with self._walk_lock:
            self._out: list[dict] = []
            self.walk(prompt, mode)
            messages = self._out
        if not messages:
            raise RenderError(
                "the model would be sent no messages (IndexError in APITemplateParser)",
                hint="the template's first turn stops generation; check the meta template roles",
            )
        merged = [dict(messages[0])]
        for item in messages[1:]:
            if item["role"] == merged[-1]["role"]:
                merged[-1]["prompt"] = merged[-1]["prompt"] + "\n" + item["prompt"]
            else:
                merged.append(dict(item))
        out: list[Any] = list(merged)
        if self.meta.get("begin"):
            out.insert(0, self.meta["begin"])
        return PromptList(out)

    #: while a layout is compiled: the string items the walk reaches (see _MessagesLayout)
    _strings_reached: list[str] | None = None

    def on_string(self, item: str) -> None:
        if self._strings_reached is not None:
            self._strings_reached.append(item)
        elif item.strip():
            self.notes.warn(
                f"a non-empty string item {str(item)[:40]!r} is dropped for API-style models "
                "(the framework ignores strings without a role)"
            )

    def _message(self, item: dict, table: dict, for_gen: bool) -> tuple[dict | None, bool]:
        merged = self.table.merged(item, table)
        if for_gen and merged.get("generate", False):
            return None, False
        if "api_role" not in merged:
            raise RenderError(
                f"meta template role {merged.get('role')!r} has no api_role (KeyError: 'api_role')",
                hint="API-style meta templates give every role an api_role, e.g. "
                "dict(role='HUMAN', api_role='HUMAN')",
            )
        if self.framework != OC_VERSION and "prompt" not in merged:
            if "prompt_mm" in merged:
                return {"role": merged["api_role"], "prompt": merged["prompt_mm"]}, True
            raise RenderError("Invalid prompt content: without 'prompt' or 'prompt_mm' param!")
        text = merged.get("begin", "") + merged.get("prompt", "") + merged.get("end", "")
        return {"role": merged["api_role"], "prompt": text}, True

    def on_round(self, round_items: list[Any], for_gen: bool) -> bool:
        table = self.table.updated(round_items)
        for entry in self.table.round:
            if isinstance(entry, str):
                raise RenderError(
                    "Mixing str without explicit role is not allowed in API models!",
                    hint="remove plain strings from the meta template's round",
                )
            message, cont = self._message(entry, table, for_gen)
            if message:
                self._out.append(message)
            if not cont:
                return False
        return True

    def on_single(self, item: dict, mode: str) -> bool:
        message, cont = self._message(item, self.table.updated(item), mode == "gen")
        if message is None:
            raise RenderError(
                f"a {item.get('role')} item in begin/end stops generation for API models "
                "(the framework then fails on None)",
            )
        self._out.append(message)
        return cont


class _UnsentProbe(_SectionWalker):
    """The parsers' walk, recording instead of laying out: which PromptList item a generation
    request drops at the generating role (finding PW201).

    At the role marked ``generate=True`` in the last round, ``_role2str`` (and
    ``_role2api_role`` for API models) returns the role's ``begin`` and stops (OpenCompass 0.5.4
    ``models/base.py`` and ``base_api.py``; AISBench 3.1's copies alike), so the role's own
    ``prompt`` (``A:`` in ``dict(role='BOT', prompt='A:')``) never reaches the model."""

    def __init__(self, parser: _SectionWalker, prompt: PromptList) -> None:
        super().__init__(parser.meta, Notes(), False, parser.framework)
        self.use_fallback_in_split = parser.use_fallback_in_split
        self.prompt = prompt
        self.found: int | None = None

    def on_string(self, item: str) -> None:
        return None

    def on_single(self, item: dict, mode: str) -> bool:
        return True

    def on_round(self, round_items: list[Any], for_gen: bool) -> bool:
        if not for_gen:
            return True
        table = self.table.updated(round_items)
        for entry in self.table.round:
            if not isinstance(entry, dict) or not self.table.merged(entry, table).get("generate", False):
                continue
            role = entry["role"]
            for item in round_items:
                # whitespace alone is no finding: '{answer}\n' serves the examples and the test
                # round alike, and only its line end is dropped, as the template means
                if isinstance(item, dict) and role in (item.get("role"), item.get("fallback_role")) \
                        and str(item.get("prompt") or "").strip():
                    self.found = next(i for i, x in enumerate(self.prompt) if x is item)
            return False
        return True


def unsent_item(parser: _SectionWalker, prompt: Any) -> int | None:
    """The index of the item a generation request's meta template never sends (None: none)."""
    if not parser.meta or not isinstance(prompt, PromptList):
        return None
    probe = _UnsentProbe(parser, prompt)
    try:
        probe.walk(prompt, "gen")
    except RenderError:
        return None
    return probe.found


CHAT_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}


def to_chat_messages(parsed: Any) -> list[dict]:
    """``_convert_chat_messages``: role messages to chat messages, empties skipped, same roles merged."""
    if isinstance(parsed, str):
        return [{"role": "user", "content": parsed}]
    messages: list[dict] = []
    for item in parsed:
        if not isinstance(item, dict) or is_section_marker(item):
            raise RenderError(f"cannot turn {item!r} into a chat message")
        if not item.get("prompt"):
            continue
        role = CHAT_ROLES.get(item.get("role"))  # type: ignore[arg-type]
        if role is None:
            raise RenderError(
                f"chat-template models know roles HUMAN, BOT and SYSTEM, not {item.get('role')!r} "
                "(KeyError in _convert_chat_messages)",
                hint="map the role with api_role='HUMAN'|'BOT'|'SYSTEM' in the meta template",
            )
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"] = messages[-1]["content"] + "\n" + item["prompt"]
        else:
            messages.append({"role": role, "content": item["prompt"]})
    return messages
