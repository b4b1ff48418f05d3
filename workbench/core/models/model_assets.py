"""What a model's local files hold that a render needs, as data the loader hands over.

The frameworks read a model's tokenizer from its folder at run time (chat templates,
special tokens, ``tokenizer.json``).  The loader (:mod:`workbench.loading.models.model_assets`)
finds and reads those files once and puts the result on the :class:`~.spec.ModelSpec`;
the core only computes from it, so a render stays a pure function of its specs.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..tokens.chat_template import ChatTemplate, ChatTemplateError

#: transformers' named special tokens (``SPECIAL_TOKENS_ATTRIBUTES``), the template variables.
NAMED_TOKENS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")


@dataclass(frozen=True)
class AddedToken:
    id: int | None
    content: str
    special: bool


@dataclass(frozen=True)
class SpecialTokens:
    """A model's special tokens, for template variables and for highlighting.

    ``named`` holds ``bos_token``... with ``None`` for a null token (undefined in templates).
    ``added`` are the tokenizer's added tokens (``<|im_start|>``...), special or not.
    """

    named: Mapping[str, str | None] = field(default_factory=dict)
    added: tuple[AddedToken, ...] = ()
    #: The tokenizer adds BOS when encoding with special tokens (from tokenizer.json's post-processor,
    #: else tokenizer_config's ``add_bos_token``); None when unknown.
    adds_bos: bool | None = None

    @property
    def bos(self) -> str | None:
        return self.named.get("bos_token")

    @property
    def eos(self) -> str | None:
        return self.named.get("eos_token")

    @property
    def literals(self) -> tuple[str, ...]:
        """Every token string worth highlighting, longest first (named tokens and added tokens)."""
        found = {v for v in self.named.values() if v}
        found.update(t.content for t in self.added if t.content.strip())
        return tuple(sorted(found, key=lambda s: (-len(s), s)))

    def template_variables(self) -> dict[str, str]:
        return {k: v for k, v in self.named.items() if v is not None}


@dataclass(frozen=True)
class ModelFolder:
    """What a local model folder holds that a render needs (read by the loader)."""

    path: str
    templates: Mapping[str, ChatTemplate]  # by name; a single template is "default"
    single_template: bool  # transformers keeps one template as a string, several as a dict
    special_tokens: SpecialTokens
    tokenizer_json: str | None  # the tokenizer.json file, when there is one
    tokenizer_config: Mapping[str, Any]
    files: tuple[str, ...] = ()  # every file read
    #: The tokenizer.json as a counter (``tokens.HFTokenizer``); None without the file, without
    #: the ``tokenizers`` package, or when the library cannot read it.
    tokenizer: Any = field(default=None, compare=False, repr=False)
    #: A file of the folder that cannot be read (a render of the model reports it).
    problem: ChatTemplateError | None = field(default=None, compare=False)

    def chat_template(self, name: str | None = None) -> ChatTemplate | None:
        """``tokenizer.get_chat_template(name)``: the named template, else the single one / "default"."""
        if name is not None:
            return self.templates.get(name)
        if self.single_template:
            return next(iter(self.templates.values()), None)
        if "default" in self.templates:
            return self.templates["default"]
        if self.templates:
            raise ChatTemplateError(
                "This model has multiple chat templates with no default specified! Available template "
                f"names are {sorted(self.templates)}.",
                hint="pick one with --chat-template NAME",
            )
        return None


@dataclass(frozen=True)
class ModelAssets:
    """Everything outside the model config that a render of the model reads.

    ``folder_value`` is the ``tokenizer_path`` / ``path`` the config names; ``folder`` the
    local folder it was found as (None: not found).  ``override`` is ``--chat-template``:
    a file's template (already read) or a name to look up in the folder and the built-ins.
    ``tiktoken`` is the counter of an OpenAI-style API model whose encoding is cached locally
    (``tiktoken_missing`` says why there is none).
    ``clock`` is today's date for templates that ask for it.
    """

    folder_value: str | None = None
    folder: ModelFolder | None = None
    override: ChatTemplate | str | None = None
    tiktoken: Any = field(default=None, compare=False, repr=False)
    #: why an OpenAI-style API model has no ``tiktoken`` (the package, or which encoding is missing)
    tiktoken_missing: str | None = None
    #: What a chat template's ``strftime_now`` reads: the loader passes ``datetime.now`` (the core
    #: reads no clock of its own); None for a spec built by hand, where such a template fails.
    clock: Callable[[], datetime] | None = field(default=None, compare=False, repr=False)

    @property
    def files(self) -> tuple[str, ...]:
        """The files read for this model (the watcher watches them)."""
        found = list(self.folder.files) if self.folder else []
        if isinstance(self.override, ChatTemplate) and self.override.file:
            found.append(self.override.file)
        return tuple(found)

    def identity(self) -> Any:
        """What these assets contribute to a render, as plain data (for snapshot hashes);
        None when they contribute nothing.  Paths are left out: moving a folder changes no prompt."""
        parts: dict[str, Any] = {}
        if self.folder is not None:
            folder = self.folder
            parts["templates"] = [[name, t.source] for name, t in folder.templates.items()]
            parts["single_template"] = folder.single_template
            special = folder.special_tokens
            parts["named"] = dict(special.named)
            parts["added"] = [[t.id, t.content, t.special] for t in special.added]
            parts["adds_bos"] = special.adds_bos
            parts["tokenizer"] = getattr(folder.tokenizer, "digest", None)
        if isinstance(self.override, ChatTemplate):
            parts["override"] = self.override.source
        elif self.override is not None:
            parts["override"] = self.override
        if self.tiktoken is not None:
            parts["tiktoken"] = self.tiktoken.method
        return parts or None
