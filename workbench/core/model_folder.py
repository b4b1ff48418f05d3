"""A local model folder: its chat templates, special tokens and tokenizer file.

The one place in the core that reads files other than through the loader: a model config
names its folder (``path`` / ``tokenizer_path``) and the frameworks read the tokenizer from
it at run time, so the render does too.  Reads are cached by the files' modification times,
so a render stays a function of what is on disk.  :func:`model_files` lists every file read,
for the watcher.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .chat_template import ChatTemplate, ChatTemplateError, builtin_template

CHAT_TEMPLATE_FILE = "chat_template.jinja"
CHAT_TEMPLATE_DIR = "additional_chat_templates"
TOKENIZER_CONFIG = "tokenizer_config.json"
SPECIAL_TOKENS_MAP = "special_tokens_map.json"
TOKENIZER_JSON = "tokenizer.json"

#: transformers' named special tokens (``SPECIAL_TOKENS_ATTRIBUTES``), the template variables.
NAMED_TOKENS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")


def _token_text(value: Any) -> str | None:
    """A token as tokenizer configs write it: a string, or ``{"content": ...}`` (AddedToken)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("content"), str):
        return value["content"]
    return None


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
    """What a local model folder holds that a render needs."""

    path: Path
    templates: Mapping[str, ChatTemplate]  # by name; a single template is "default"
    single_template: bool  # transformers keeps one template as a string, several as a dict
    special_tokens: SpecialTokens
    tokenizer_json: Path | None
    tokenizer_config: Mapping[str, Any]
    files: tuple[Path, ...]  # every file read

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


def resolve_model_path(value: Any, config_file: str | None,
                       cwd: str | os.PathLike | None = None) -> Path | None:
    """A model's folder: relative paths against the working directory (as the frameworks do), then
    against the folder of the config that defines the model; ``None`` when neither exists."""
    if not isinstance(value, str) or not value.strip():
        return None
    raw = Path(os.path.expanduser(value))
    candidates = [raw] if raw.is_absolute() else [Path(cwd or os.getcwd()) / raw]
    if not raw.is_absolute() and config_file:
        candidates.append(Path(config_file).resolve().parent / raw)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate.resolve()
    return None


def _read_json(path: Path, files: list[Path]) -> Any:
    files.append(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ChatTemplateError(f"cannot read {path}: {exc}") from None


def _signature(folder: Path) -> tuple:
    names = [CHAT_TEMPLATE_FILE, TOKENIZER_CONFIG, SPECIAL_TOKENS_MAP, TOKENIZER_JSON]
    stamps = []
    for name in names:
        p = folder / name
        stamps.append(p.stat().st_mtime_ns if p.is_file() else None)
    extra = folder / CHAT_TEMPLATE_DIR
    if extra.is_dir():
        stamps += sorted((p.name, p.stat().st_mtime_ns) for p in extra.glob("*.jinja"))
    return tuple(stamps)


_CACHE: dict[Path, tuple[tuple, ModelFolder]] = {}


def load_model_folder(folder: Path) -> ModelFolder:
    """Read a model folder the way ``AutoTokenizer.from_pretrained`` does (cached by mtimes)."""
    folder = folder.resolve()
    signature = _signature(folder)
    cached = _CACHE.get(folder)
    if cached and cached[0] == signature:
        return cached[1]
    files: list[Path] = []
    config: dict[str, Any] = {}
    config_path = folder / TOKENIZER_CONFIG
    if config_path.is_file():
        loaded = _read_json(config_path, files)
        config = loaded if isinstance(loaded, dict) else {}

    templates: dict[str, ChatTemplate] = {}
    single = False
    jinja_file = folder / CHAT_TEMPLATE_FILE
    if jinja_file.is_file():
        files.append(jinja_file)
        templates["default"] = ChatTemplate(jinja_file.read_text(encoding="utf-8"),
                                            origin=str(jinja_file), file=str(jinja_file))
    extra_dir = folder / CHAT_TEMPLATE_DIR
    if extra_dir.is_dir():
        for path in sorted(extra_dir.glob("*.jinja")):
            files.append(path)
            name = path.name.removesuffix(".jinja")
            templates[name] = ChatTemplate(path.read_text(encoding="utf-8"), origin=str(path),
                                           name=name, file=str(path))
    if templates:
        # transformers: template files replace tokenizer_config's chat_template entirely.
        single = len(templates) == 1 and "default" in templates
    else:
        raw = config.get("chat_template")
        where = f"{config_path} (chat_template"
        if isinstance(raw, str):
            templates["default"] = ChatTemplate(raw, origin=where + ")")
            single = True
        elif isinstance(raw, list):
            for entry in raw:
                if isinstance(entry, Mapping) and isinstance(entry.get("template"), str):
                    name = str(entry.get("name"))
                    templates[name] = ChatTemplate(entry["template"], origin=f"{where} {name!r})", name=name)

    named: dict[str, str | None] = {}
    for key in NAMED_TOKENS:
        if key in config:
            named[key] = _token_text(config[key])
    map_path = folder / SPECIAL_TOKENS_MAP
    if "added_tokens_decoder" not in config and map_path.is_file():
        mapping = _read_json(map_path, files)
        if isinstance(mapping, dict):
            for key in NAMED_TOKENS:
                if key in mapping:
                    named[key] = _token_text(mapping[key])

    added: dict[str, AddedToken] = {}
    decoder = config.get("added_tokens_decoder")
    if isinstance(decoder, Mapping):
        for idx, tok in decoder.items():
            text = _token_text(tok)
            if text is not None:
                special = bool(isinstance(tok, Mapping) and tok.get("special"))
                added[text] = AddedToken(int(idx), text, special)
    tokenizer_json = folder / TOKENIZER_JSON
    adds_bos: bool | None = None
    if tokenizer_json.is_file():
        files.append(tokenizer_json)
        try:
            data = json.loads(tokenizer_json.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        for tok in data.get("added_tokens") or []:
            if isinstance(tok, Mapping) and isinstance(tok.get("content"), str):
                token = AddedToken(tok.get("id"), tok["content"], bool(tok.get("special")))
                added.setdefault(tok["content"], token)
        adds_bos = _post_processor_adds_bos(data.get("post_processor"), named.get("bos_token"))
    else:
        tokenizer_json = None  # type: ignore[assignment]
    if adds_bos is None and isinstance(config.get("add_bos_token"), bool):
        adds_bos = config["add_bos_token"]

    result = ModelFolder(
        path=folder, templates=templates, single_template=single,
        special_tokens=SpecialTokens(named=named, added=tuple(added.values()), adds_bos=adds_bos),
        tokenizer_json=tokenizer_json, tokenizer_config=config, files=tuple(files),
    )
    _CACHE[folder] = (signature, result)
    return result


def _post_processor_adds_bos(processor: Any, bos: str | None) -> bool | None:
    """Whether encoding with special tokens puts the BOS first (TemplateProcessing / BertProcessing)."""
    if not isinstance(processor, Mapping):
        return None if processor is not None else False
    kind = processor.get("type")
    if kind == "Sequence":
        results = [_post_processor_adds_bos(p, bos) for p in processor.get("processors") or []]
        return any(r for r in results if r) if results else False
    if kind == "TemplateProcessing":
        single = processor.get("single") or []
        first = single[0] if single else None
        if isinstance(first, Mapping) and "SpecialToken" in first:
            token = first["SpecialToken"].get("id")
            return bos is None or token == bos
        return False
    return kind in ("BertProcessing", "RobertaProcessing")


def named_or_builtin(folder: ModelFolder | None, name: str) -> ChatTemplate | None:
    """``--chat-template NAME``: the model's own template of that name first, then a built-in."""
    if folder is not None and name in folder.templates:
        return folder.templates[name]
    return builtin_template(name)
