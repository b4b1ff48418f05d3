"""PromptList: the frameworks' intermediate form of a prompt, and field filling.

Items are strings, role dicts (``{"role": .., "prompt": ..}`` plus whatever keys
the template wrote, e.g. ``fallback_role``) and section markers
(``{"section": .., "pos": ..}``), exactly as OpenCompass builds them, so the
JSON export can show them unchanged.

May import: the core's bottom layer (errors, provenance, render_notes ...) and the other
template modules; nothing above (models, retrievers, inferencers, render) and nothing outside
the core.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from ..errors import RenderError
from ..provenance import PStr, concat

FillPairs = list[tuple[str, str]]  # ("{column}", value text), in row column order

#: The longest text one fill may make.  Columns are filled in order, so a row value holding
#: a later column's ``{field}`` is filled again, once per copy: without a bound a hostile row
#: asks for gigabytes (the frameworks would try).  Far above any model's context.
MAX_FILLED_CHARS = 32 * 1024 * 1024


def fill_pairs(entry: Mapping[str, Any]) -> FillPairs:
    """The replacements a row makes, in the row's column order.

    OpenCompass fills with ``str.replace('{k}', str(v))`` once per column, in
    column order, so a value that itself contains ``{other}`` is filled by a
    later column: the order is part of the behaviour.
    """
    return [(fill_token(k), v if isinstance(v, str) else str(v)) for k, v in entry.items()]


@lru_cache(maxsize=4096, typed=True)  # typed: a column True is not a column 1
def fill_token(column: Any) -> str:
    """``{column}``: rows of a split share their columns, so each token is made once."""
    return "{" + str(column) + "}"


def safe_format(text: str, pairs: FillPairs) -> str:
    """Replace known ``{fields}``; unknown ones stay as written."""
    if "{" not in text:
        return text
    for token, value in pairs:
        if token not in text:
            continue
        # at most len(text) copies of the token, so under this bound no count is needed
        if len(value) > len(token) and len(text) * len(value) > MAX_FILLED_CHARS:
            size = len(text) + text.count(token) * (len(value) - len(token))
            if size > MAX_FILLED_CHARS:
                raise RenderError(
                    f"filling {token} would make a text of {size:,} characters (the limit is "
                    f"{MAX_FILLED_CHARS:,})",
                    hint="no model takes a prompt this long: check the rows for a huge value, or for "
                    "a value holding a {field} that a later column fills (once per copy)",
                )
        text = text.replace(token, value)
    return text


def is_section_marker(item: Any) -> bool:
    return isinstance(item, dict) and "section" in item


class PromptList(list):
    """A list of prompt items with the frameworks' string-like operations."""

    # The PromptList this one was filled from, when that template is a cached, prepared one
    # (see PromptTemplate.generate_item): a meta-template parser can then reuse its layout.
    # What is worked out from a prepared template once is kept on it (its fill plan, the JSON of
    # its items: headless/formats/json_encoding.prompt_list_text).
    filled_from: PromptList | None = None

    def format(self, pairs: FillPairs) -> PromptList:
        """Fill every string item and role prompt; items that do not change are shared."""
        out = PromptList()
        append = out.append
        for item in self:
            if isinstance(item, dict):
                prompt = item.get("prompt")
                if isinstance(prompt, str) and "{" in prompt:
                    filled = safe_format(prompt, pairs)
                    if filled is not prompt:
                        item = {**item, "prompt": filled}
                elif "prompt" in item and not isinstance(prompt, str):
                    item = {**item, "prompt": safe_format(prompt, pairs)}
                append(item)
            else:
                append(safe_format(item, pairs))
        return out

    def fill_plan(self) -> list[int]:
        """Positions of the items a fill can change (those holding a ``{``), worked out once."""
        plan = self.__dict__.get("_fill_plan")
        if plan is None:
            plan = []
            for i, item in enumerate(self):
                if isinstance(item, dict):
                    if "prompt" in item and (not isinstance(item["prompt"], str) or "{" in item["prompt"]):
                        plan.append(i)
                elif not isinstance(item, str) or "{" in item:
                    plan.append(i)
            self._fill_plan = plan
        return plan

    def fill_prepared(self, pairs: FillPairs) -> PromptList:
        """``format`` for a template filled once per row: only items holding a ``{`` are visited.

        Which items can change is decided once (the template does not change), so a row costs
        the replacements it needs, not a pass over every item.
        """
        out = PromptList(self)
        for i in self.fill_plan():
            item = list.__getitem__(self, i)
            if isinstance(item, dict):
                filled = safe_format(item["prompt"], pairs)
                if filled is not item["prompt"]:
                    out[i] = {**item, "prompt": filled}
            else:
                out[i] = safe_format(item, pairs)
        return out

    def replace(self, src: str, dst: str | PromptList) -> PromptList:
        """Replace ``src`` in every string item and role prompt.

        A string item is split around ``src`` and a PromptList spliced in;
        ``src`` inside a role dict's prompt can only take a string.
        """
        out = PromptList()
        for item in self:
            if isinstance(item, str):
                if isinstance(dst, str):
                    out.append(item.replace(src, dst))
                else:
                    if not src:
                        raise RenderError(
                            "the ice_token is empty, so the in-context examples have no place in "
                            "the dialogue (ValueError: empty separator)",
                            hint="set ice_token='</E>' and put '</E>' where the examples go",
                        )
                    pieces = item.split(src)
                    for i, piece in enumerate(pieces):
                        if piece:
                            out.append(piece)
                        if i < len(pieces) - 1:
                            out.extend(dst)
            elif isinstance(item, dict):
                new_item = dict(item)
                prompt = item.get("prompt")
                if isinstance(prompt, str) and src in prompt:
                    if not isinstance(dst, str):
                        raise RenderError(
                            f"Found keyword {src} in a dictionary's prompt key. "
                            "Cannot replace with a PromptList.",
                            hint="put the ice_token in a string item of begin/round, "
                            "not inside a role's prompt",
                        )
                    new_item["prompt"] = prompt.replace(src, dst)
                out.append(new_item)
            else:
                out.append(item)
        return out

    def __add__(self, other: Any) -> PromptList:
        if not other:
            return PromptList(self)
        if isinstance(other, str):
            return PromptList([*self, other])
        return PromptList([*self, *other])

    def __radd__(self, other: Any) -> PromptList:
        if not other:
            return PromptList(self)
        if isinstance(other, str):
            return PromptList([other, *self])
        return PromptList([*other, *self])

    def __iadd__(self, other: Any) -> PromptList:
        if not other:
            return self
        if isinstance(other, str):
            self.append(other)
        else:
            self.extend(other)
        return self

    def __getitem__(self, key: Any) -> Any:
        got = list.__getitem__(self, key)
        return PromptList(got) if isinstance(key, slice) else got

    def __str__(self) -> str:
        parts: list[str] = []
        for item in self:
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, dict):
                if "prompt" in item:
                    parts.append(item["prompt"])
            else:
                raise RenderError("Invalid type in prompt list when converting to string")
        return concat(parts)


PromptType = str | PromptList


def to_json(prompt: Any) -> Any:
    """The JSON form of a prompt: strings as text, PromptLists as arrays."""
    if isinstance(prompt, PStr):
        return str(prompt)
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, dict):
        return {str(k) if not isinstance(k, (int, float, bool)) else k: to_json(v)
                for k, v in prompt.items()}
    if isinstance(prompt, (list, tuple)):
        return [to_json(x) for x in prompt]
    return prompt


def iter_texts(prompt: Any) -> Iterable[str]:
    """Every piece of text a prompt holds (strings and role prompts)."""
    if isinstance(prompt, str):
        yield prompt
    elif isinstance(prompt, dict):
        for value in prompt.values():
            yield from iter_texts(value)
    elif isinstance(prompt, (list, tuple)):
        for item in prompt:
            yield from iter_texts(item)


#: A ``{name}`` a fill could replace (no braces or blanks inside): every check of a template's
#: fields reads them with this.
BRACED = re.compile(r"\{([^{}\s]+)\}")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]{2,}\s*$")


def written_fields(text: str) -> list[str]:
    """The ``{name}`` of ``text`` that read as fields a row should fill, in order: a name with a
    letter and no backslash, not a group of LaTeX math (``\\frac{1}{i}``, ``\\sqrt{x-2}``,
    ``a_{i}``, ``x^{n}``, the inner braces of ``{{5-x}}``). Both frameworks fill only the row's
    columns, so any other ``{...}`` is sent as written, as the template means it; a group that
    opens right after a LaTeX command, ``_``, ``^``, another ``{``, or the ``}`` of a math group
    is math."""
    found: list[str] = []
    math_end = -1  # where the last math group closed
    for match in BRACED.finditer(text):
        start, name = match.start(), match.group(1)
        before = text[start - 1] if start else ""
        math = (before in "_^{" and before != "") or (before == "}" and start == math_end) or \
            bool(_LATEX_COMMAND.search(text, max(0, start - 40), start))
        if math:
            math_end = match.end()
        elif any(c.isalpha() for c in name) and "\\" not in name and name not in found:
            found.append(name)
    return found
