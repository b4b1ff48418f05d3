"""The token seams of a rendered pair's requests: which text, which tokenizer, which split.

:mod:`workbench.core.tokens.seams` finds the seams of one provenance string and the tokens
around them; this module decides, for each request of a sample rendered with provenance, what
that string is (the chat template's output with the messages' provenance put back, the plain
input, or the API messages' contents), whether the tokenizer adds its special tokens, where a
generating request's generation point and a scored continuation start. ``render --format tokens``
and the app's token seams screen both read it.

May import: the rest of the core; nothing outside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RenderError
from .extras import install_hint
from .inferencers.lmeval_plan import TaskPlan
from .prefix import shared_prefix
from .provenance import META, ROW, Origin, PStr, concat
from .result import Request, Sample
from .tokens.counting import tokenizers_available
from .tokens.seams import PieceSource, RequestSeams, request_seams, traced_chat_text

CHAT_MARKUP = Origin(META, detail="chat template")
#: What a tokenizer raises when it cannot encode a text (a lone surrogate, a broken vocabulary).
TOKENIZER_FAILURES = (RenderError, ValueError, RuntimeError, OverflowError)
GENERATION_PROMPT_END = "the end of the chat template's generation prompt"


@dataclass(frozen=True)
class PairTokenizer:
    """The tokenizer a pair's seams are shown with, or why there is none."""

    source: PieceSource | None
    why_not: str | None = None  # said once per pair when there is no tokenizer


def pair_tokenizer(pair: Any, override: PieceSource | None = None) -> PairTokenizer:
    """``--tokenizer``'s, else the model's own real tokenizer (its folder's tokenizer.json, an
    OpenAI model's tiktoken encoding); never an estimate: an estimate has no pieces to show."""
    if override is not None:
        return PairTokenizer(override)
    text = getattr(pair, "model_text", None)
    counter = getattr(text, "counter", None)
    if counter is not None and getattr(counter, "exact", False) and hasattr(counter, "pieces"):
        return PairTokenizer(counter)
    why = str(getattr(counter, "method", "no model")).removeprefix("estimate (").removesuffix(")")
    why = why.split("; ~4 characters", 1)[0]
    if not tokenizers_available():
        why = f"{why}; the `tokenizers` package is not installed: {install_hint('tokens')}"
    return PairTokenizer(None, f"no tokenizer to show the token seams with ({why}); "
                               "give one with --tokenizer PATH (a tokenizer.json or a model folder)")


def tokenizer_failed(method: str, where: str, exc: Exception) -> str:
    """What is said, once, when a tokenizer cannot encode a sample's text."""
    return f"{method} failed on {where}, so its seams are not shown: {getattr(exc, 'message', None) or exc}"


def _content(message: Any) -> str:
    if isinstance(message, Mapping):
        body = message.get("content", message.get("prompt"))
        return body if isinstance(body, str) else ""
    return message if isinstance(message, str) else ""


def request_text(request: Request) -> tuple[str, bool]:
    """The text the model gets, with provenance, and whether a chat template made it."""
    value = request.model_input
    if request.model_text is not None:
        contents = [_content(m) for m in value] if isinstance(value, list) else []
        return traced_chat_text(request.model_text, contents, CHAT_MARKUP), True
    if isinstance(value, str):
        return value, False
    return concat([_content(m) for m in value]) if isinstance(value, list) else "", False


def _continuation(request: Request) -> str | None:
    for key, value in request.extra:
        if key == "continuation" and isinstance(value, str):
            return value
    return None


def sample_seams(pair: Any, sample: Sample, source: PieceSource) -> list[RequestSeams]:
    """Each request's seams (the sample rendered with provenance: ``pair.sample(i, provenance=True)``).

    A PPL label's continuation starts where the sample's label texts part (their shared prefix
    is the context); a loglikelihood continuation is the row's ``cont`` where the text ends with
    it; a request with neither generates, at the end of its text.
    """
    texts = [request_text(r) for r in sample.requests]
    labelled = [str.__str__(t) for (t, _), r in zip(texts, sample.requests)
                if r.label is not None and _continuation(r) is None]
    context = min(shared_prefix(labelled[0], t) for t in labelled[1:]) if len(labelled) > 1 else None
    model_text = getattr(pair, "model_text", None)
    out = []
    # lm-eval scores (context, continuation) pairs: the whole is the context, then the continuation
    # (an OpenCompass LLInferencer prompt already ends with its row's cont)
    appended = isinstance(getattr(pair, "plan", None), TaskPlan)
    for request, (text, chat) in zip(sample.requests, texts):
        add_special = model_text.adds_special_tokens(chat) if model_text is not None else False
        continuation = _continuation(request)
        at = None
        if continuation and appended:
            at = len(text)
            text = concat([text, PStr(continuation, Origin(ROW, column="continuation"))])
        elif continuation and text.endswith(continuation):
            at = len(text) - len(continuation)
        elif request.label is not None and context is not None:
            at = context
        generation = None
        if request.label is None and continuation is None:
            generation = GENERATION_PROMPT_END if chat else "the generation point"
        out.append(request_seams(source, text, add_special, generation, at))
    return out
