"""After a model's template parser: the text the model gets, its tokens, and how OpenCompass measures it.

One :class:`ModelText` per (dataset, model) pair.  From the model's assets (its local
folder's chat templates, special tokens and tokenizer, which the loader read), it renders
``model_text`` for chat-template models the way each wrapper class does (HF ignores
``chat_template_kwargs``, VLLM passes them, TurboMind strips a leading BOS), counts the
tokens of every request by section, and reproduces OpenCompass's
``get_token_len_from_template`` for the ``max_seq_len`` loops.

May import: the core's bottom layer, templates, tokens and the other model modules; not
retrievers, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import BUILDER_FAILURES, RenderError, builder_failed
from ..extras import install_hint
from ..findings import Finding
from ..render_notes import Notes
from ..result import Request
from ..spec import ModelSpec, type_name
from ..templates.prompt_list import is_section_marker
from ..tokens.chat_template import ChatTemplate, ChatTemplateError, builtin_template
from ..tokens.counting import (
    Counter,
    Estimate,
    TokenCount,
    WordCount,
    codes_of,
    count_tokens,
    tokenizers_available,
)
from .model_assets import ModelAssets, ModelFolder, SpecialTokens
from .model_class_info import ModelClassInfo
from .model_input import API, CHAT, LM, ModelAdapter, find_model_class

#: A workbench-only model config key that ``--chat-template`` sets (never read by the frameworks).
OVERRIDE_KEY = "workbench_chat_template"


def oc_prompt_str(parsed: Any) -> str:
    """``str(prompt)`` as OpenCompass does it in ``get_token_len_from_template``.

    A PromptList becomes its items' texts joined with nothing: role names and the
    boundaries between messages are lost.
    """
    if isinstance(parsed, str):
        return parsed
    out = []
    for item in parsed:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, Mapping) and "prompt" in item and not is_section_marker(item):
            out.append(item["prompt"] if isinstance(item["prompt"], str) else str(item["prompt"]))
    return "".join(out)


@dataclass(frozen=True)
class TextLayout:
    """What :meth:`ModelText.finish` makes of a request, as the same for every row: its texts
    with the stand-ins of the row's values still in them."""

    model_text: str | None  # the chat template's output (chat-template models with a template)
    sent: str  # the text whose tokens are counted
    add_special: bool  # counted with the tokenizer's added tokens
    method: str  # how the tokens are counted
    #: the chat template's bound check: the longest content -> whether this layout holds (None:
    #: no chat template)
    fits: Callable[[int], bool] | None
    #: how many leading characters of ``sent`` must be the same for every row (the BOS checks
    #: read them): no value may start within them
    guarded: int
    #: each character's section code (given the request's provenance render; else None)
    codes: str | None = None
    #: where each message content starts in ``model_text`` (None: no chat template, or a
    #: content it copies in more than once, or not at all, or out of order)
    places: tuple[int, ...] | None = None


def _is_openai_family(info: ModelClassInfo | None) -> bool:
    return info is not None and (info.name.startswith("OpenAI") or info.module.endswith("openai_api"))


def uses_tiktoken(spec: ModelSpec) -> bool:
    """OpenCompass counts an OpenAI-style API model's tokens with tiktoken (the loader builds it)."""
    raw_type = spec.cfg.get("type")
    if raw_type is None:
        return False
    info = find_model_class(raw_type if isinstance(raw_type, str) else type_name(raw_type), spec.framework)
    return info is not None and info.kind == API and _is_openai_family(info)


class ModelText:
    """Everything after the parser for one model: template text, token counts, length measure."""

    def __init__(self, adapter: ModelAdapter, notes: Notes) -> None:
        self.adapter = adapter
        self.notes = notes
        self.kind = adapter.kind
        spec = adapter.spec
        cfg: Mapping[str, Any] = spec.cfg if spec else {}
        self.cfg = cfg
        self.handling = adapter.info.chat_template if adapter.info else None
        assets = spec.assets if spec is not None else None
        if assets is None:  # a spec built by hand: no files were read for it
            value = cfg.get("tokenizer_path") or cfg.get("path")
            override = cfg.get(OVERRIDE_KEY)
            assets = ModelAssets(folder_value=value if isinstance(value, str) and value.strip() else None,
                                 override=override if isinstance(override, str) and override else None)
        self.assets = assets
        self.folder: ModelFolder | None = assets.folder
        self.folder_value: str | None = assets.folder_value
        if self.folder is not None and self.folder.problem is not None:
            raise self.folder.problem
        self.template: ChatTemplate | None = None
        if self.kind == CHAT:
            self.template = self._pick_template(assets.override)
            if self.template is not None and self.template.reads_clock:
                notes.warn(f"{self.template.origin} reads today's date (strftime_now), so "
                           "model_text changes from day to day")
        self.special: SpecialTokens | None = self.folder.special_tokens if self.folder else None
        self.counter: Counter = self._display_counter()
        self.measure: Counter = self._measure_counter()

    # -- set-up -------------------------------------------------------------------------
    def _where(self) -> str:
        return f"model folder {self.folder_value!r}" if self.folder_value else "the model config (no path)"

    def _pick_template(self, override: ChatTemplate | str | None) -> ChatTemplate | None:
        if isinstance(override, ChatTemplate):  # --chat-template FILE, read by the loader
            return override
        if override:
            if self.folder is not None and override in self.folder.templates:
                return self.folder.templates[override]
            found = builtin_template(override)
            if found is None:
                names = sorted(self.folder.templates) if self.folder else []
                raise RenderError(
                    f"--chat-template {override!r} is neither a file, nor a template of the model, "
                    "nor a built-in template",
                    hint="built-ins: chatml, llama3, mistral, gemma"
                    + (f"; the model's: {', '.join(names)}" if names else ""),
                )
            return found
        if self.cfg.get("fastchat_template") and self.handling and self.handling.honours_fastchat_template:
            self.notes.warn(
                f"fastchat_template={self.cfg['fastchat_template']!r}: the model renders the messages "
                "with FastChat's conversation template, which the workbench does not reproduce, so "
                "model_text is null"
            )
            return None
        if self.folder is None:
            self.notes.warn(
                f"{self._where()} is not a local folder (looked in the working directory, beside the "
                "config, and in the Hugging Face cache), so the chat template is unknown and model_text "
                "is null; --chat-template NAME|FILE renders one"
            )
            return None
        template = self.folder.chat_template()
        if template is None:
            self.notes.warn(
                f"{self.folder.path} has no chat template (no chat_template.jinja, "
                "additional_chat_templates/ or tokenizer_config.json chat_template): the framework "
                "fails here with 'Cannot use chat template functions because tokenizer.chat_template "
                "is not set'; model_text is null"
            )
        return template

    def _tokenizer(self) -> Counter | None:
        return self.folder.tokenizer if self.folder is not None else None

    def _estimate_reason(self) -> str:
        if self.folder is not None and self.folder.tokenizer_json is not None and not tokenizers_available():
            missing = "tokenizer.json found, but the `tokenizers` package is not installed"
            return f"{missing}: {install_hint('tokens')}"
        if self.folder is None:
            return "no local model folder"
        return "no tokenizer.json in the model folder"

    def _display_counter(self) -> Counter:
        if self.kind == API:
            if _is_openai_family(self.adapter.info):
                if self.assets.tiktoken is not None:
                    return self.assets.tiktoken
                return Estimate(self.assets.tiktoken_missing
                                or "tiktoken and its cached encoding are not both available")
            return self._tokenizer() or Estimate("an API model's tokenizer is not local")
        return self._tokenizer() or Estimate(self._estimate_reason())

    def _measure_counter(self) -> Counter:
        if self.kind == API and not _is_openai_family(self.adapter.info):
            return WordCount()  # OpenCompass BaseAPIModel.get_token_len: its own rule, reproduced exactly
        return self.counter

    @property
    def measure_exact(self) -> bool:
        return self.measure.exact or isinstance(self.measure, WordCount)

    # -- special tokens (for the views to highlight) ------------------------------------------
    def token_literals(self) -> tuple[str, ...]:
        """Literal special tokens of this model, longest first: the tokenizer's named and added
        tokens when its folder is local, else the tokens a built-in template was written for."""
        if self.special is not None and (self.special.named or self.special.added):
            return self.special.literals
        if self.template is not None and self.template.default_tokens:
            found = {v for v in self.template.default_tokens.values() if v}
            return tuple(sorted(found, key=lambda t: (-len(t), t)))
        return ()

    # -- the text the model gets ----------------------------------------------------------
    def special_tokens(self) -> Mapping[str, str | None] | None:
        if self.special is not None and self.special.named:
            return self.special.named
        return None

    def render(self, messages: Sequence[Mapping[str, Any]], kwargs: Mapping[str, Any] | None = None) -> str:
        assert self.template is not None
        # imported here, not above, only so that renders without a chat template never import jinja2
        from ..tokens.chat_apply import render_chat_template

        tokens = self.special_tokens()
        return render_chat_template(self.template, messages, add_generation_prompt=True,
                                    special_tokens=tokens, kwargs=kwargs, clock=self.assets.clock)

    def _bos(self) -> str | None:
        tokens = self.special_tokens()
        if tokens is not None:
            return tokens.get("bos_token")
        return self.template.default_tokens.get("bos_token") if self.template else None

    def _kwargs(self) -> Mapping[str, Any] | None:
        """The ``chat_template_kwargs`` the model class passes to the template."""
        configured = self.cfg.get("chat_template_kwargs")
        if self.handling is not None and self.handling.passes_chat_template_kwargs:
            return configured if isinstance(configured, Mapping) else None
        if configured:
            self.notes.warn(
                f"chat_template_kwargs={configured!r} "
                "never reach the chat template: this model class does not pass them (only "
                "VLLMwithChatTemplate does)"
            )
        return None

    def _strip_bos(self, text: str) -> str:
        if self.handling is not None and self.handling.strips_leading_bos_token:
            bos = self._bos()
            if bos and text.startswith(bos):
                text = text[len(bos):]
        return text

    def model_text(self, messages: Any) -> str | None:
        """What the wrapper's ``apply_chat_template(m, add_generation_prompt=True, tokenize=False)`` gives."""
        if self.template is None or not isinstance(messages, list):
            return None
        return self._strip_bos(self.render(messages, self._kwargs()))

    def layout(self, request: Request, traced: Request | None = None) -> TextLayout | None:
        """What :meth:`finish` makes of a request whose texts hold stand-ins for a row's values,
        for every row alike (see inferencers/sample_form.py), with its section codes when
        ``traced`` (its provenance render) is given; None where that is not so: the chat
        template looks at a content, the model class warns, or a BOS check could go either way
        with the row."""
        if self.kind == CHAT and self.cfg.get("chat_template_kwargs") and not (
                self.handling is not None and self.handling.passes_chat_template_kwargs):
            return None  # warned about on every request
        fits, places = None, None
        text = request.model_text
        if self.kind == CHAT:
            text = None
            if self.template is not None and isinstance(request.model_input, list):
                # imported here, not above, only so that renders without a chat template never import jinja2
                from ..tokens.chat_apply import chat_layout

                made = chat_layout(self.template, request.model_input, add_generation_prompt=True,
                                   special_tokens=self.special_tokens(), kwargs=self._kwargs(),
                                   clock=self.assets.clock)
                if made is None:
                    return None
                text, fits = self._strip_bos(made.text), made.fits
                cut = len(made.text) - len(text)
                places = None if made.places is None else tuple(at - cut for at in made.places)
        sent, codes = self._sent(request, traced, text)
        add_special = self._adds_special() and (self.kind != CHAT or text is not None)
        if self._bos_warning(sent, add_special) is not None:
            return None
        bos = self._bos()
        return TextLayout(text, sent, add_special, self._method(text), fits, 2 * len(bos) if bos else 0,
                          codes, places)

    def adds_special_tokens(self, chat_text: bool) -> bool:
        """Whether a request's text is encoded with the tokenizer's added tokens (BOS) when it is
        sent (``chat_text``: a chat template made it)."""
        return self._adds_special() and (self.kind != CHAT or chat_text)

    def _adds_special(self) -> bool:
        """Whether the text is tokenised with special tokens when it is sent."""
        if self.kind == LM:
            return True
        if self.kind == CHAT:
            return bool(self.handling and self.handling.strips_leading_bos_token)
        return False

    # -- counting -----------------------------------------------------------------------------
    def finish(self, request: Request, traced: Request | None) -> Request:
        """The request with ``model_text`` and ``tokens`` filled in (``traced``: its provenance render)."""
        if self.kind == CHAT:
            try:
                text = self.model_text(request.model_input)
            except BUILDER_FAILURES as exc:  # no builder takes a render down: this pair fails
                what = f"{self.adapter.class_name}'s chat template"
                raise builder_failed(what, exc, key_path=("type",)) from None
        else:
            text = request.model_text
        sent, sections = self._sent(request, traced, text)
        add_special = self._adds_special() and (self.kind != CHAT or text is not None)
        tokens = count_tokens(self.counter, sent, sections, add_special)
        method = self._method(text)
        if method != tokens.method:
            tokens = replace(tokens, method=method)
        warning = self._bos_warning(sent, add_special)
        if warning is not None:
            source = self.adapter.spec.source if self.adapter.spec is not None else None
            self.notes.find(Finding(
                "PW203", warning, hint="drop the BOS the template or the rows write: the tokenizer or "
                "chat template adds it", file=source.file if source else None,
                line=source.line if source else None))
        return request.evolve(model_text=text, tokens=tokens)

    def _method(self, text: str | None) -> str:
        """How a request's tokens are counted, given its model text."""
        if text is None and self.kind == CHAT:
            return self.counter.method + "; message contents only, no chat template"
        return self.counter.method

    def _sent(self, request: Request, traced: Request | None,
              text: str | None) -> tuple[str, str | None]:
        """The text counted and its characters' section codes (None: no provenance)."""
        source = traced.model_input if traced is not None else None
        value = request.model_input
        if isinstance(value, str):
            return value, (codes_of(source) if isinstance(source, str) else None)
        traced_contents = [_content(m) for m in source] if isinstance(source, list) else None
        if text is not None:
            return text, (_locate(text, traced_contents) if traced_contents is not None else None)
        joined = "".join(_content(m) for m in value) if isinstance(value, list) else ""
        if traced_contents is None:
            return joined, None
        return joined, "".join([codes_of(piece) for piece in traced_contents])

    def _bos_warning(self, sent: str, add_special: bool) -> str | None:
        """What the text's start says of its BOS tokens (None: nothing to say); it reads the
        first two BOS lengths of the text only."""
        bos = self._bos()
        if not bos:
            return None
        adds = self.special.adds_bos if self.special is not None else None
        if sent.startswith(bos + bos):
            return f"the text the model gets starts with two BOS tokens ({bos}{bos})"
        if add_special and adds and sent.startswith(bos):
            return (f"doubled BOS: the text already starts with {bos} and the tokenizer adds another "
                    "when it encodes with special tokens, so the model sees two")
        return None

    # -- OpenCompass's length measure (max_seq_len loops) ---------------------------------------
    def oc_token_len(self, prompt: Any, mode: str) -> int:
        """``model.get_token_len_from_template(prompt, mode)`` of OpenCompass 0.5.4."""
        parsed = self.adapter.parser.parse(prompt, mode)
        return self.oc_get_token_len(oc_prompt_str(parsed))

    def oc_measured(self, prompt: Any, mode: str) -> tuple[str, bool] | None:
        """The text ``oc_token_len`` counts with ``measure`` and whether with the tokenizer's
        added tokens; None where it counts a chat template's render of it."""
        text = oc_prompt_str(self.adapter.parser.parse(prompt, mode))
        if self.kind == CHAT:
            return (text, False) if self.template is None else None
        return text, self.kind == LM

    def oc_get_token_len(self, text: str) -> int:
        """``model.get_token_len(text)``: chat-template classes wrap it as ONE user message first."""
        if self.kind == CHAT:
            if self.template is None:
                return self.measure.count(text, False)
            rendered = self.render([{"role": "user", "content": text}])
            return self.measure.count(rendered, False)  # apply_chat_template tokenises without specials
        if self.kind == LM:
            return self.measure.count(text, True)
        return self.measure.count(text, False)


def _content(message: Any) -> str:
    if isinstance(message, Mapping):
        body = message.get("content", message.get("prompt"))
        return body if isinstance(body, str) else ""
    return message if isinstance(message, str) else ""


def _locate(text: str, contents: Sequence[str]) -> str:
    """The section codes of a chat template's output: each message's text where it is found, in order;
    everything else is the template's own markup (counted with the meta template)."""
    codes: list[str] = []
    pos = 0
    for piece in contents:
        # found as plain text; only the codes of the part found are kept
        found, offset, length = _find(text, piece if type(piece) is str else str.__str__(piece), pos)
        if found >= 0:
            codes += ("m" * (found - pos), codes_of(piece)[offset:offset + length])
            pos = found + length
    codes.append("m" * (len(text) - pos))
    return "".join(codes)


def _find(text: str, plain: str, pos: int) -> tuple[int, int, int]:
    """Where a message's text is in the template's output from ``pos`` on, whole or stripped:
    (where, offset of the part found in the message, its length); where is -1 if nowhere."""
    if plain and (found := text.find(plain, pos)) >= 0:  # the usual case: no copy stripped
        return found, 0, len(plain)
    stripped = plain.strip()
    if stripped and stripped != plain and (found := text.find(stripped, pos)) >= 0:
        return found, len(plain) - len(plain.lstrip()), len(stripped)
    return -1, 0, 0


__all__ = ["OVERRIDE_KEY", "ChatTemplateError", "ModelText", "TokenCount", "oc_prompt_str", "uses_tiktoken"]

