"""RawPromptTemplate: OpenAI-style ``messages`` that bypass PromptList and meta templates.

Behaviour follows OpenCompass 0.5.4 ``openicl/icl_raw_prompt_template.py`` and the parts of
the framework that treat its output specially (``BaseRetriever.generate_ice``'s raw branch,
``APITemplateParser.parse_template``'s raw branch).  The facts that matter:

- a message's ``content`` is filled from the row unless ``format_variables=False``, and the
  output column is *not* masked (``generate_item`` ignores ``output_field``);
- ``{'expand_column': col}`` splices a copy of the row's list of messages, unfilled, and
  nothing when the row's value is not a list;
- a bare string equal to ``ice_token`` becomes the in-context examples only when they are a
  non-empty list; every other bare string is dropped;
- only API models take the messages: their parser returns them as ``{role, content}`` whatever
  a dict meta template says, and merges a *list* meta template in; local models and
  chat-template models fail on them.

AISBench 3.1.20260630 has no RawPromptTemplate.

May import: the core's bottom layer (errors, provenance, render_notes ...) and the other
template modules; nothing above (models, retrievers, inferencers, render) and nothing outside
the core.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import RenderError
from ..provenance import TEMPLATE, Origin, PStr
from ..render_notes import Notes
from .prompt_list import BRACED, FillPairs, PromptList, safe_format, written_fields

ROLES = ("system", "user", "assistant")
Messages = list  # a plain list (not a PromptList) of message dicts: how raw prompts travel


def is_raw_messages(prompt: Any) -> bool:
    """A prompt built by a RawPromptTemplate (a plain list, never a str or PromptList)."""
    if type(prompt) is list:  # the usual answer first
        return True
    return isinstance(prompt, list) and not isinstance(prompt, PromptList)


class RawPromptTemplate:
    """One ``ice_template`` or ``prompt_template`` written as OpenAI-style messages."""

    prompt_type = "raw_messages"
    sep_token = None

    def __init__(self, messages: Any, format_variables: Any = True, ice_token: Any = "</E>", *,
                 name: str = "prompt_template", notes: Notes | None = None,
                 provenance: bool = False) -> None:
        self.name = name
        self.notes = notes if notes is not None else Notes()
        _validate(messages, name)
        self.raw = messages
        self.format_variables = format_variables
        self.ice_token = ice_token
        self.provenance = provenance

    # The framework formats with `safe_format(content, **entry)`, which is our fill pairs.
    def _message(self, item: Mapping[str, Any], pairs: FillPairs, index: int) -> dict:
        msg = copy.deepcopy(dict(item))
        content = msg.get("content")
        if isinstance(content, str):
            if self.provenance:
                content = PStr(content, Origin(TEMPLATE, detail=f"{self.name} · messages[{index}]"))
            if self.format_variables:
                content = safe_format(content, pairs)
            msg["content"] = content
        return msg

    def _expand(self, item: Mapping[str, Any], row: Mapping[str, Any],
                origin: Callable[[str], Origin] | None) -> list:
        column = item["expand_column"]
        try:
            value = row.get(column)
        except TypeError:  # an unhashable column name: `col in entry` raises in the framework too
            raise RenderError(f"{self.name}: expand_column {column!r} is not a column name") from None
        if not isinstance(value, list):
            self.notes.warn(
                f"{self.name}: expand_column {column!r} splices the row's list of messages, and the "
                f"row's value is {'missing' if column not in row else type(value).__name__}, so "
                "nothing is inserted"
            )
            return []
        out = copy.deepcopy(value)
        if origin is not None:
            for msg in out:
                if isinstance(msg, dict) and isinstance(msg.get("content"), str):
                    msg["content"] = PStr(msg["content"], origin(str(column)))
        return out

    def generate_item(self, pairs: FillPairs, row: Mapping[str, Any], ice: Any = "",
                      origin: Callable[[str], Origin] | None = None) -> Messages:
        """The messages for one test row (``ice`` from ``generate_ice``)."""
        out: list = []
        for i, item in enumerate(self.raw):
            if isinstance(item, str):
                # Only the ICE placeholder, and only with a non-empty list of examples.
                if item == self.ice_token and ice and isinstance(ice, list):
                    out.extend(ice)
            elif "expand_column" in item:
                out.extend(self._expand(item, row, origin))
            else:
                out.append(self._message(item, pairs, i))
        return out

    def generate_ice_item(self, pairs: FillPairs, row: Mapping[str, Any],
                          origin: Callable[[str], Origin] | None = None) -> Messages:
        """One in-context example: every dict element, string placeholders ignored."""
        out: list = []
        for i, item in enumerate(self.raw):
            if isinstance(item, str):
                continue
            if "expand_column" in item:
                out.extend(self._expand(item, row, origin))
            else:
                out.append(self._message(item, pairs, i))
        return out

    def warn_fields(self, columns: set[str], output_column: str | None) -> None:
        """The fields the framework leaves as written, and the unmasked output column."""
        found: list[str] = []
        fieldlike: set[str] = set()  # not LaTeX math (written_fields): a typo'd column, or meant literally
        for item in self.raw:
            content = item.get("content") if isinstance(item, dict) else None
            if isinstance(content, str):
                found += [m for m in BRACED.findall(content) if m not in found]
                fieldlike.update(written_fields(content))
        for name in found:
            if name not in columns and name not in fieldlike:
                continue  # math the template sends as it means to
            if not self.format_variables:
                self.notes.warn(f"{self.name}: format_variables=False, so {{{name}}} is sent as written")
            elif name == output_column and name in columns:
                self.notes.warn(
                    f"{self.name}: RawPromptTemplate does not mask the output column, so {{{name}}} "
                    "is filled with the row's own answer"
                )
            elif name not in columns:
                self.notes.warn(f"{self.name}: {{{name}}} matches no column of the rows, so it is sent "
                                "as written")

    @property
    def uses_ice_token(self) -> bool:
        return any(isinstance(m, str) and m == self.ice_token for m in self.raw)


def _validate(messages: Any, name: str) -> None:
    """``RawPromptTemplate._validate_messages``: the framework's own refusals, word for word."""
    if not isinstance(messages, list):
        raise RenderError(f"{name}: messages must be a list, got {type(messages)}",
                          hint="messages=[{'role': 'user', 'content': '{question}'}]")
    for i, msg in enumerate(messages):
        if isinstance(msg, str):
            continue
        if not isinstance(msg, dict):
            raise RenderError(f"{name}: messages[{i}] must be a dict or str, got {type(msg)}")
        if "expand_column" in msg:
            continue
        if "role" not in msg:
            raise RenderError(f"{name}: messages[{i}] missing 'role' key")
        if "content" not in msg:
            raise RenderError(f"{name}: messages[{i}] missing 'content' key")
        if msg["role"] not in ROLES:
            raise RenderError(f"{name}: messages[{i}] has invalid role: {msg['role']}",
                              hint="RawPromptTemplate roles are 'system', 'user' and 'assistant'")


def build_raw_template(cfg: Mapping[str, Any], name: str, notes: Notes,
                       provenance: bool = False) -> RawPromptTemplate:
    # a key RawPromptTemplate does not take is refused before this, by the table read from
    # OpenCompass (core/config_keys.py, finding PW101)
    if "messages" not in cfg:
        raise RenderError(
            f"{name}: RawPromptTemplate.__init__() missing 1 required positional argument: 'messages'",
            hint="messages=[{'role': 'user', 'content': '{question}'}]",
        )
    return RawPromptTemplate(cfg["messages"], cfg.get("format_variables", True),
                             cfg.get("ice_token", "</E>"), name=name, notes=notes,
                             provenance=provenance)


# -- what an API model's parser does with the messages ---------------------------------------

def parse_for_api(messages: Sequence[Any], meta: Any) -> Any:
    """``APITemplateParser.parse_template``'s raw branch (OpenCompass 0.5.4).

    A dict meta template is ignored; a list meta template is merged in: a meta message whose
    role matches the prompt's message at the same point has its content prepended, a meta
    message whose role does not come later in the prompt is inserted (so a meta system message
    goes first when the prompt has none), and meta messages left over are appended.
    """
    if not messages:
        return []  # the framework maps parse_template over an empty list
    if not all(isinstance(m, Mapping) and "role" in m and "content" in m for m in messages):
        raise RenderError(
            "the messages are not all {role, content} dicts, so OpenCompass's APITemplateParser "
            "takes them for a batch and fails on a dict (AssertionError)",
            hint="every message of an expand_column list needs 'role' and 'content'",
        )
    prompt = copy.deepcopy(list(messages))
    if not isinstance(meta, list) or not meta:
        return prompt
    result: list = []
    m = p = 0
    while m < len(meta):
        if p < len(prompt) and meta[m]["role"] == prompt[p]["role"]:
            merged = copy.deepcopy(prompt[p])
            if "content" not in meta[m]:
                raise RenderError(
                    f"meta template message {m} ({meta[m]['role']}) has no 'content' (KeyError: 'content')",
                    hint="a list meta template is [{'role': 'system', 'content': '...'}, ...]",
                )
            merged["content"] = meta[m]["content"] + merged["content"]
            result.append(merged)
            m += 1
            p += 1
        elif p < len(prompt):
            if not any(prompt[j]["role"] == meta[m]["role"] for j in range(p, len(prompt))):
                result.append(copy.deepcopy(meta[m]))
                m += 1
            else:
                result.append(copy.deepcopy(prompt[p]))
                p += 1
        else:
            result.append(copy.deepcopy(meta[m]))
            m += 1
    result.extend(copy.deepcopy(prompt[p:]))
    return result


def check_list_meta_template(meta: list) -> None:
    """``APITemplateParser.__init__``'s assertion on a list meta template."""
    if not all(isinstance(item, dict) and "role" in item and item["role"] in ROLES for item in meta):
        raise RenderError(
            f"meta_template is {meta}, not a list of dicts (AssertionError in APITemplateParser)",
            hint="a list meta template holds {'role': 'system'|'user'|'assistant', 'content': ...} dicts",
        )
