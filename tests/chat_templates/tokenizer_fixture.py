"""A small, deterministic ``tokenizer.json`` built with ``tokenizers`` (no download, no training).

Word-level: every word or punctuation run of the fixed vocabulary is one token, anything else
is ``[UNK]``; the chat templates' special tokens are added tokens; encoding with special tokens
puts ``<s>`` first (a TemplateProcessing post-processor, as Llama-style tokenizers have).
The golden generator (tools/gen_chat_template_goldens.py) and the tests build the same file.
"""

from __future__ import annotations

import json
from pathlib import Path

SPECIAL = [
    "<s>", "</s>", "<unk>", "<|im_start|>", "<|im_end|>", "<|endoftext|>", "<|begin_of_text|>",
    "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<bos>", "<eos>", "<start_of_turn>",
    "<end_of_turn>", "<|user|>", "<|assistant|>", "<|system|>", "<|end|>",
    "<\uff5cbegin\u2581of\u2581sentence\uff5c>", "<\uff5cUser\uff5c>", "<\uff5cAssistant\uff5c>",
    "<\uff5cend\u2581of\u2581sentence\uff5c>",
]

WORDS = (  # noqa: SIM905
    "a an and answer are as assistant be brief by can cloud created do does for from give helpful hello hi "
    "how i in is it many me model of on one please question system that the there think to two user what "
    "you your qwen alibaba 1 2 3 4 5 6 7 8 9 0 10 + = ? . , ! : ; ' \" ( ) [ ] { } < > / - _ inst sys "
    "apples tom has he ann reads pages day days"
).split()


def vocab() -> dict[str, int]:
    out = {"[UNK]": 0}
    for token in SPECIAL:
        out[token] = len(out)
    for word in WORDS:
        out.setdefault(word, len(out))
        out.setdefault(word.capitalize(), len(out))
    return out


def build_tokenizer_json(path: Path) -> Path:
    """Write the tokenizer to ``path`` (a file) and return it."""
    from tokenizers import AddedToken, Tokenizer, models, pre_tokenizers, processors

    v = vocab()
    tok = Tokenizer(models.WordLevel(v, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL])
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", v["<s>"])])
    path.parent.mkdir(parents=True, exist_ok=True)
    tok.save(str(path))
    return path


def write_model_folder(folder: Path, chat_template: str | list | None, tokens: dict[str, str | None],
                       as_jinja_file: bool = False) -> Path:
    """A model folder as a Hub download has it: tokenizer.json, tokenizer_config.json (+ template)."""
    folder.mkdir(parents=True, exist_ok=True)
    build_tokenizer_json(folder / "tokenizer.json")
    config: dict = {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 4096, **tokens}
    if chat_template is not None and as_jinja_file:
        (folder / "chat_template.jinja").write_text(str(chat_template), encoding="utf-8", newline="")
    elif chat_template is not None:
        config["chat_template"] = chat_template
    (folder / "tokenizer_config.json").write_text(json.dumps(config, ensure_ascii=False, indent=2),
                                                   encoding="utf-8")
    return folder


#: The merges of the BPE fixture: made so the seams the tests look at merge, as real BPE
#: vocabularies do (``": C"`` is one token, as in lm-eval #1053; ``"\n\n"`` is one).
BPE_MERGES = [(":", " "), (": ", "C"), ("\n", "\n"), ("A", "n"), ("An", "s")]
BPE_SPECIAL = ["<s>", "</s>", "<|im_start|>", "<|im_end|>"]


def bpe_vocab() -> dict[str, int]:
    """``[UNK]`` 0, the special tokens 1-4, printable ASCII from 5 (space 5 ... ``~`` 99), ``\\n``
    100, then one token per merge (``": "`` 101, ``": C"`` 102, ``"\\n\\n"`` 103, ``"An"`` 104,
    ``"Ans"`` 105)."""
    out = {"[UNK]": 0}
    for token in BPE_SPECIAL:
        out[token] = len(out)
    for char in [chr(c) for c in range(32, 127)] + ["\n"]:
        out.setdefault(char, len(out))
    for a, b in BPE_MERGES:
        out.setdefault(a + b, len(out))
    return out


def build_bpe_tokenizer_json(path: Path) -> Path:
    """A character-level BPE ``tokenizer.json`` with no pre-tokenizer (so merges cross spaces,
    as SentencePiece-style ones do) and a ``<s>`` post-processor; written to ``path``."""
    from tokenizers import AddedToken, Tokenizer, models, processors

    v = bpe_vocab()
    tok = Tokenizer(models.BPE(v, BPE_MERGES, unk_token="[UNK]"))
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in BPE_SPECIAL])
    tok.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", v["<s>"])])
    path.parent.mkdir(parents=True, exist_ok=True)
    tok.save(str(path))
    return path
