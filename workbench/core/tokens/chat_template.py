"""Chat templates rendered exactly as ``transformers``' ``apply_chat_template`` renders them.

The workbench never imports transformers.  What it reproduces (transformers 5.24, same
results on 4.57; see spec/chat-templates.md):

- an ``ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)`` with the
  loop-controls extension and the ``{% generation %}`` tag (rendered as its body);
- globals ``raise_exception``, ``strftime_now``, a ``dict`` and a ``namespace`` that refuse
  underscore attributes; a ``tojson`` filter that is plain ``json.dumps`` (no key sorting,
  no HTML escaping, non-ASCII kept);
- the variables: ``messages`` (keys whose value is ``None`` dropped), ``tools=None``,
  ``documents=None``, ``add_generation_prompt``, the tokenizer's named special tokens
  (a null token is left undefined), then any extra keyword arguments, which win.

Errors come back as :class:`ChatTemplateError` carrying the template's own message and the
template line it was raised on.

This module holds the data (a template, its error, the built-ins); the rendering is in
:mod:`.chat_apply` over :mod:`.chat_sandbox`, which import jinja2 (as do :mod:`.sandbox_bounds`
and, through it, :mod:`.chat_outline`, which only those two import); see chat_sandbox for who
imports them where, so that a render that needs no chat template never pays for jinja2.
May import: the top of ``workbench.core`` (errors, package_data).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from ..errors import RenderError
from ..package_data import package_text

#: Built-in templates written for the workbench, selectable by name.
BUILTIN_NAMES = ("chatml", "llama3", "mistral", "gemma")

#: The special tokens each built-in template is written for (used when no tokenizer
#: config is at hand; a model folder's own tokens win).
BUILTIN_TOKENS: Mapping[str, Mapping[str, str]] = {
    "chatml": {"eos_token": "<|im_end|>"},
    "llama3": {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"},
    "mistral": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"},
    "gemma": {"bos_token": "<bos>", "eos_token": "<eos>", "pad_token": "<pad>", "unk_token": "<unk>"},
}


class ChatTemplateError(RenderError):
    """A chat template that does not compile, or that raised while rendering."""

    def __init__(self, message: str, *, template: ChatTemplate | None = None,
                 template_line: int | None = None, hint: str | None = None) -> None:
        where = template.origin if template is not None else "chat template"
        located = f"{where}, line {template_line}" if template_line else where
        super().__init__(f"{located}: {message}", hint=hint)
        self.template = template
        self.template_line = template_line
        self.template_message = message
        if template is not None and template.file:
            self.file, self.line = template.file, template_line


@dataclass(frozen=True)
class ChatTemplate:
    """One chat template's source and where it came from."""

    source: str
    origin: str  # for messages: "Qwen2.5/tokenizer_config.json (chat_template)", "built-in chatml"
    name: str = "default"
    file: str | None = None  # the file holding the source, when it is a file of its own
    #: Special tokens the template was written for, used only when no tokenizer config gives any.
    default_tokens: Mapping[str, str] = field(default_factory=dict, hash=False)

    @property
    def reads_clock(self) -> bool:
        return "strftime_now" in self.source


# -- built-in templates ------------------------------------------------------------------


@cache
def builtin_template(name: str) -> ChatTemplate | None:
    """A template written for the workbench (``chatml``, ``llama3``, ``mistral``, ``gemma``)."""
    key = name.lower()
    if key not in BUILTIN_NAMES:
        return None
    source = package_text("tokens", "builtin_chat_templates", f"{key}.jinja")
    return ChatTemplate(source=source, origin=f"built-in {key}", name=key,
                        default_tokens=BUILTIN_TOKENS.get(key, {}))
