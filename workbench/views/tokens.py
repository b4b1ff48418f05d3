"""Special tokens: the markers a tokenizer treats as one control token.

Shown highlighted so a stray ``<|im_end|>`` in a template (or a row) stands out.
The generic patterns cover the common chat formats; a model's own BOS/EOS/stop
strings come from its config (:func:`model_tokens`).

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

GENERIC = (
    r"<\|[^|<>\s]{1,64}\|>"  # <|im_start|> <|endoftext|> <|start_header_id|>
    r"|<\uff5c[^<>\s]{1,64}\uff5c>"  # <｜begin▁of▁sentence｜> (full-width bars)
    r"|</?s>"  # Llama BOS/EOS
    r"|\[/?INST\]|<</?SYS>>"  # Llama-2 chat
    r"|<(?:bos|eos|pad|unk|mask|start_of_turn|end_of_turn|eot_id|eom_id)>"
    r"|\[(?:gMASK|sMASK)\]|<sop>|<eop>"  # GLM
)

# model config keys that hold literal token strings
TOKEN_KEYS = ("bos_token", "eos_token", "pad_token", "end_str", "stop_words", "stop")


def model_tokens(cfg: Mapping[str, Any] | None) -> tuple[str, ...]:
    """Literal special strings a model config names (its BOS/EOS, end_str, stop words)."""
    if not cfg:
        return ()
    found: list[str] = []
    sources: list[Any] = [cfg.get(k) for k in TOKEN_KEYS]
    for nested in ("generation_kwargs", "tokenizer_kwargs"):
        inner = cfg.get(nested)
        if isinstance(inner, Mapping):
            sources += [inner.get(k) for k in TOKEN_KEYS]
    for value in sources:
        values = value if isinstance(value, (list, tuple)) else [value]
        found += [v for v in values if isinstance(v, str) and v.strip()]
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=64)
def token_pattern(extra: tuple[str, ...] = ()) -> re.Pattern[str]:
    """The generic patterns plus ``extra`` literals, longest literal first."""
    literals = "|".join(re.escape(t) for t in sorted(set(extra), key=len, reverse=True))
    return re.compile(f"{literals}|{GENERIC}" if literals else GENERIC)


def find_tokens(text: str, extra: Iterable[str] = ()) -> list[tuple[int, int]]:
    return [m.span() for m in token_pattern(tuple(extra)).finditer(text) if m.end() > m.start()]
