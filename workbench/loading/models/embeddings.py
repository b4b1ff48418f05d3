"""The local sentence-embedding model TopK/VoteK rank with (the ``embeddings`` extra).

Never a download: the model is a folder on disk, ``--embedding-model DIR`` for every
retriever or else the config's ``sentence_transformers_model_name`` when it names a folder
(relative to the working directory, as OpenCompass resolves it, or to the config file),
and the Hugging Face hub is switched offline before sentence-transformers is imported.
The core gets an :class:`~workbench.core.retrievers.embedding_retrievers.Embedder` and does the
ranking; this module only finds, loads and calls the model.

May import: the core, loading/files and the other model modules; not loading/config, loading/rows,
the workspace, views or a front end.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import threading
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ...core.errors import RenderError
from ...core.retrievers.embedding_retrievers import INSTALL, Embedder, EmbedderLookup, EmbeddingRequest

_lock = threading.RLock()
_models: dict[str, Any] = {}
_tokenizers: dict[str, Any] = {}
_vectors: dict[tuple[str, tuple[str, ...]], Any] = {}
_MAX_CACHED_BATCHES = 200_000


def extra_installed() -> bool:
    try:
        import sentence_transformers  # noqa: F401  # lazy: the embeddings extra, with torch
    except ImportError:
        return False
    return True


def _offline() -> None:
    # Read by huggingface_hub and transformers when they are imported: set them first.
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Progress bars and warnings of the libraries stay off the terminal (the app draws there)."""
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()), \
            contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def _local_folder(name: str, config_file: str | None) -> Path | None:
    """``name`` as a folder: absolute, or relative to the working directory or the config."""
    path = Path(name).expanduser()
    bases = [Path.cwd(), *([Path(config_file).parent] if config_file else [])]
    for candidate in ([path] if path.is_absolute() else [base / path for base in bases]):
        if candidate.is_dir():
            return candidate.resolve()
    return None


def _model(folder: Path) -> Any:
    key = str(folder)
    with _lock:
        if key not in _models:
            _offline()
            try:
                with _quiet():
                    # lazy: the embeddings extra (torch) loads only when TopK/VoteK rank
                    from sentence_transformers import SentenceTransformer

                    _models[key] = SentenceTransformer(key, device="cpu", local_files_only=True)
            except Exception as exc:  # a broken folder is the user's to fix, not a traceback
                raise RenderError(
                    f"cannot load the sentence-embedding model in {folder}: {type(exc).__name__}: {exc}",
                    hint="the folder must hold a sentence-transformers model (modules.json, config.json, "
                    "weights), as SentenceTransformer(...).save(DIR) writes it") from None
        return _models[key]


def _encoder(folder: Path):
    model = _model(folder)
    key = str(folder)

    def encode(texts: Sequence[str]) -> Any:
        batch = tuple(texts)
        with _lock:
            cached = _vectors.get((key, batch))
            if cached is None:
                # As TopkRetriever.forward calls it: the batch in one call, default settings.
                with _quiet():
                    cached = model.encode(list(batch), show_progress_bar=False)
                if len(_vectors) >= _MAX_CACHED_BATCHES:
                    _vectors.clear()
                _vectors[(key, batch)] = cached
        return cached

    return encode


def _roundtrip(name: str, config_file: str | None, retriever: str):
    """OpenCompass's tokenise-and-decode with ``tokenizer_name``, when that is a local folder."""
    folder = _local_folder(name, config_file)
    if folder is None:
        return None
    key = str(folder)
    with _lock:
        if key not in _tokenizers:
            _offline()
            try:
                with _quiet():
                    # lazy: the embeddings extra (torch) loads only when TopK/VoteK rank
                    from transformers import AutoTokenizer

                    _tokenizers[key] = AutoTokenizer.from_pretrained(key, local_files_only=True)
            except Exception as exc:
                raise RenderError(f"{retriever}: cannot load tokenizer_name={name!r} from {folder}: "
                                  f"{type(exc).__name__}: {exc}",
                                  hint="tokenizer_name must be a tokenizer folder (tokenizer.json or "
                                  "vocab files), or a hub name such as gpt2-xl") from None
        tokenizer = _tokenizers[key]
    if tokenizer.eos_token is None:
        # OpenCompass pads with eos_token; a tokenizer without one cannot pad.
        raise RenderError(f"{retriever}: ValueError: Asking to pad but the tokenizer does not have a "
                          f"padding token (tokenizer_name={name!r} has no eos_token, which OpenCompass "
                          "pads with)", hint="use a tokenizer with an end-of-text token, e.g. gpt2-xl")

    def roundtrip(text: str) -> str:
        with _quiet():
            ids = tokenizer(text, truncation=True)["input_ids"]
            return tokenizer.decode(ids, skip_special_tokens=True)

    return roundtrip


def embedding_lookup(model_dir: str | os.PathLike | None = None) -> EmbedderLookup:
    """The lookup the core calls for each TopK/VoteK retriever (``model_dir``: --embedding-model).

    The same argument gives the same lookup, so renders that use it can be cached."""
    return _lookup_for(str(model_dir) if model_dir else None)


@functools.lru_cache(maxsize=8)
def _lookup_for(model_dir: str | None) -> EmbedderLookup:
    override = Path(model_dir).expanduser() if model_dir else None

    def lookup(request: EmbeddingRequest) -> Embedder:
        if override is not None:
            if not override.is_dir():
                raise RenderError(f"--embedding-model {override}: no such folder",
                                  hint="pass the folder of a local sentence-transformers model")
            folder = override.resolve()
        else:
            found = _local_folder(request.model_name, request.config_file)
            if found is None:
                install = "" if extra_installed() else f"{INSTALL}, then "
                raise RenderError(
                    f"{request.retriever} embeds rows with the sentence-transformers model "
                    f"{request.model_name!r}, which is not a local folder; the workbench never "
                    "downloads models",
                    hint=f"{install}pass --embedding-model DIR (a local copy of {request.model_name}, "
                    "e.g. written by SentenceTransformer(name).save(DIR) where there is a network) "
                    "or set sentence_transformers_model_name to that folder")
            folder = found
        if not extra_installed():
            raise RenderError(f"{request.retriever} needs sentence-transformers to embed rows with {folder}",
                              hint=f"{INSTALL}")
        encode = _encoder(folder)
        roundtrip = _roundtrip(request.tokenizer_name, request.config_file, request.retriever)
        return Embedder(encode=encode, label=f"{folder.name} ({folder})", roundtrip=roundtrip)

    return lookup
