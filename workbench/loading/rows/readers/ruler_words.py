"""RULER's CWE (common words) and NIAH (needles in a haystack): their words come from the
``wonderwords`` package's lists, as the loaders take them, so they need that package (as the
loaders do); the rows follow its word lists, so the same version as the framework's gives the
same rows. The search for the sample size is replayed as in ``ruler``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import bisect
import os
import random
import re
import uuid
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError
from ....core.extras import install_hint
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_line, read_text, row_at, text_lines
from .ruler import int_argument, no_files, setup

NEEDLE = "One of the special magic {type_needle_v} for {key} is: {value}."
REPEAT_HAYSTACK = "The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again."
#: np.round(np.linspace(0, 100, num=40)).astype(int)
DEPTHS = [round(i * (100 / 39)) for i in range(39)] + [100]


@cache
def word_list(name: str) -> list[str]:
    """A wonderwords list as ``_get_words_from_text_file`` reads it: its lines, right-stripped."""
    try:
        text = resources.files("wonderwords").joinpath("assets", name).read_text(encoding="utf-8")
    except (ImportError, ModuleNotFoundError):
        raise ConfigError("RULER's CWE and NIAH loaders take their words from the wonderwords package, "
                          "which is not installed",
                          hint=install_hint("generated")) from None
    except OSError as exc:
        raise ConfigError(f"wonderwords has no word list {name}: {exc}",
                          hint=install_hint("generated")) from None
    return [line.rstrip() for line in re.split(r"(?<=\n)", text) if line]


class PairedWords(Sequence[str]):
    """``sorted(set(f'{adj}-{noun}' ...))`` by index, without building its millions of strings.

    Each adjective's strings are its sorted nouns behind ``adj-``, and the adjectives' blocks
    follow each other in sorted order, except where an adjective continues another with a
    character sorting at or before ``-`` (``blue``, ``blue-eyed``): those blocks interleave, so
    such a group is built and sorted as the loader sorts it (a few thousand strings)."""

    def __init__(self, adjectives: list[str], nouns: list[str]) -> None:
        self._nouns = sorted(set(nouns))
        groups: list[list[str]] = []
        for adjective in sorted(set(adjectives)):
            head = groups[-1][0] if groups else None
            if head is not None and adjective.startswith(head) and adjective[len(head)] <= "-":
                groups[-1].append(adjective)
            else:
                groups.append([adjective])
        self._blocks: list[str | list[str]] = [
            group[0] if len(group) == 1 else sorted({f"{a}-{n}" for a in group for n in self._nouns})
            for group in groups]
        self._starts = [0]
        for block in self._blocks:
            size = len(self._nouns) if isinstance(block, str) else len(block)
            self._starts.append(self._starts[-1] + size)

    def __len__(self) -> int:
        return self._starts[-1]

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, int) or not 0 <= index < len(self):
            raise IndexError(index)
        at = bisect.bisect_right(self._starts, index) - 1
        block, offset = self._blocks[at], index - self._starts[at]
        return f"{block}-{self._nouns[offset]}" if isinstance(block, str) else block[offset]


def tolerant(sample: Callable[[int], tuple[str, Any]]) -> Callable[[int], tuple[str, Any] | None]:
    """A draw that fails (more words or positions asked for than there are) counts as a miss,
    as the loaders' bare ``except`` counts it."""

    def draw(size: int) -> tuple[str, Any] | None:
        try:
            return sample(size)
        except ValueError:
            return None

    return draw


def _numbered(words: list[str]) -> str:
    return " ".join(f"{i + 1}. {word}" for i, word in enumerate(words))


@native_reader("RulerCweDataset", data_argument=no_files)
def read_ruler_cwe(call: ReaderCall) -> ReadResult:
    """A numbered list where ``num_cw`` words come often and the rest rarely, after a shorter
    worked example; the answer, the common words."""
    run = setup(call, "RulerCweDataset", 120)
    kwargs, tokens, seed, rng, template = run.kwargs, run.tokens, run.seed, run.rng, run.template
    max_len, to_generate = run.max_len, run.to_generate
    num_cw = int_argument(kwargs, "num_cw", 10)
    words = sorted(set(word_list("nounlist.txt") + word_list("adjectivelist.txt")
                       + word_list("verblist.txt")))
    random.Random(seed).shuffle(words)

    def example(count: int, common_repeats: Any, rare_repeats: Any) -> tuple[str, list[str]]:
        picked = rng.sample(words, count)
        common, rare = picked[:num_cw], picked[num_cw:]
        listed = common * int(common_repeats) + rare * int(rare_repeats)
        random.Random(seed).shuffle(listed)
        return _numbered(listed), common

    def sample(count: int) -> tuple[str, list[str]]:
        if max_len < 4096:
            shown, shown_answer = example(20, 3, 1)
            context, answer = example(count, 6, 1)
        else:
            shown, shown_answer = example(40, 10, 3)
            context, answer = example(count, kwargs.get("freq_cw", 30), kwargs.get("freq_ucw", 3))
        worked = template.format(context=shown, query="") + _numbered(shown_answer)
        return worked + "\n" + template.format(context=context, query=""), answer

    num_words, total = 10, 0
    while total + to_generate < max_len:
        prompt, answer = sample(num_words)
        total = len(tokens.encode(prompt + " " + _numbered(answer)))
        if total + to_generate > max_len:
            num_words -= 10
            break
        num_words += 10
        if num_words > len(words):
            num_words = len(words)
            break
    rows: list[Row] = []
    for _ in range(int_argument(kwargs, "num_samples", 500)):
        rows.append(run.row(*run.first_fit(tolerant(sample), num_words, 10)))
    return from_list(rows, Path("RulerCweDataset"))


def _essay_words(path: Path) -> list[str]:
    """The essay file's lines' ``text``, stripped, joined by spaces, split on whitespace (the
    trailing space leaves an empty last word, as in the loader)."""
    combined = ""
    for number, line in enumerate(text_lines(read_text(path)), 1):
        item = json_line(path, line, number)
        with row_at(path, number):
            combined += item.get("text", "").strip() + " "
    return re.sub(r"\s+", " ", combined).split(" ")


@native_reader("RulerNiahDataset", data_argument=lambda kwargs: "base_path")
def read_ruler_niah(call: ReaderCall) -> ReadResult:
    """Needles (``One of the special magic ... is: ...``) among essay sentences, repeated noise or
    other needles; the question asks for some keys' values."""
    run = setup(call, "RulerNiahDataset", 128)
    kwargs, tokens, seed, rng, template = run.kwargs, run.tokens, run.seed, run.rng, run.template
    max_len, to_generate = run.max_len, run.to_generate
    num_v, num_q = int_argument(kwargs, "num_needle_v", 1), int_argument(kwargs, "num_needle_q", 1)
    num_k = max(int_argument(kwargs, "num_needle_k", 1), num_q)
    kind = kwargs.get("type_haystack", "essay")
    type_k, type_v = str(kwargs.get("type_needle_k", "words")), str(kwargs.get("type_needle_v", "numbers"))
    essay: list[str] = []
    if kind == "essay":
        essay = _essay_words(Path(os.path.join(call.path("base_path"), str(kwargs.get("file_path")))))
    elif kind not in ("repeat", "needle"):
        raise ConfigError(f"{kind} is not implemented.", hint="type_haystack='essay', 'repeat' or 'needle'")
    words = PairedWords(word_list("adjectivelist.txt"), word_list("nounlist.txt"))

    def draw(kind_of_needle: str) -> str:
        if kind_of_needle == "numbers":
            return str(rng.randint(10 ** 6, 10 ** 7 - 1))
        if kind_of_needle == "words":
            return rng.choice(words)
        if kind_of_needle == "uuids":
            return str(uuid.UUID(int=rng.getrandbits(128), version=4))
        raise ConfigError(f"{kind_of_needle} is not implemented.", hint="'numbers', 'words' or 'uuids'")

    def sample(size: int) -> tuple[str, list[str]]:
        keys, values, needles = [], [], []
        for _ in range(num_k):
            keys.append(draw(type_k))
            value = []
            for _ in range(num_v):
                value.append(draw(type_v))
                needles.append(NEEDLE.format(type_needle_v=type_v, key=keys[-1], value=value[-1]))
            values.append(value)
        random.Random(seed).shuffle(needles)
        if kind == "essay":
            sentences = [s.strip() for s in " ".join(essay[:size]).split(". ") if s]
            depths = rng.sample(DEPTHS, len(needles))
            cuts = [0, *sorted(int(len(sentences) * (depth / 100)) for depth in depths), len(sentences)]
            parts = []
            for i in range(1, len(cuts)):
                parts.append(" ".join(sentences[cuts[i - 1]:cuts[i]]))
                if i - 1 < len(needles):
                    parts.append(needles[i - 1])
            context = " ".join(parts)
        else:
            if kind == "repeat":
                lines = [REPEAT_HAYSTACK] * size
            else:
                lines = [NEEDLE.format(type_needle_v=type_v, key=draw(type_k), value=draw(type_v))
                         for _ in range(size)]
            for index, needle in zip(sorted(rng.sample(range(size), len(needles)), reverse=True), needles):
                lines.insert(index, needle)
            context = "\n".join(lines)
        chosen = rng.sample(range(num_k), num_q)
        queries = [keys[i] for i in chosen]
        answers = [a for i in chosen for a in values[i]]
        query = ", ".join(queries[:-1]) + ", and " + queries[-1] if len(queries) > 1 else queries[0]
        shown, named = template, type_v
        if num_q * num_v == 1:
            shown = shown.replace("Some", "A").replace("are all", "is").replace("are", "is")
            shown = shown.replace("answers", "answer")
            named = type_v[:-1]
        return shown.format(type_needle_v=named, context=context, query=query), answers

    step = 500 if kind == "essay" else 25
    if kind != "essay" and max_len < 4096:
        step = 5
    size, total = step, 0
    while total + to_generate < max_len:
        prompt, answer = sample(size)
        total = len(tokens.encode(prompt + " ".join(answer)))
        if total + to_generate > max_len:
            size -= step
            break
        if kind == "essay" and size > len(essay):
            size = len(essay)
            break
        size += step
    rows: list[Row] = []
    for _ in range(int_argument(kwargs, "num_samples", 500)):
        rows.append(run.row(*run.first_fit(tolerant(sample), size, step)))
    return from_list(rows, Path("RulerNiahDataset"))
