"""RULER: synthetic long-context samples grown until they fill ``max_seq_length`` tokens.

Each loader seeds Python's ``random`` (and numpy's legacy generator) with ``random_seed``, grows
a first sample by a fixed step until its token count passes the limit, then draws
``num_samples`` samples of that size; every draw, the trial ones included, moves the random
state, so the search is replayed draw for draw. Tokens are tiktoken's (``tokenizer_model='gpt-4'``,
as every shipped config); another tokenizer is a Hugging Face download, left to the framework
route.

FWE and VT make their rows from their arguments alone (no data files); QA reads SQuAD or
HotpotQA from ``path``. Where the loader would retry for ever (a bare ``except`` around a
sample that never fits), the reader stops with an error instead.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import json
import math
import random
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError
from ....core.replicas.numpy_random import LegacyRandomState
from . import Declined, ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_document, row_at
from ._tokens import Tokens

_VT_NOISE = "The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again.\n"
#: A sample the loader retries until it fits: after this many misses the reader gives up.
MAX_RETRIES = 1000
#: The longest max_seq_length read natively: the search grows with the square of the length (a
#: 16k sample takes seconds, a 64k one most of a minute, 128k and up minutes to hours), and a
#: config is loaded on every reload; longer ones are refused at once.
MAX_LENGTH = 16384
#: Characters tokenized before the reader gives up, whatever the arguments (a 16k config needs
#: under 10M).
TOKENIZE_BUDGET = 40_000_000


@cache
def default_template(class_name: str) -> str:
    """The loader's default ``template`` (recorded from OpenCompass by tools/gen_reader_prompts.py)."""
    text = resources.files(__package__).joinpath("data", "ruler_templates.json").read_text("utf-8")
    return str(json.loads(text)[class_name])


def template_argument(kwargs: Mapping[str, Any], class_name: str) -> str:
    return str(kwargs.get("template", default_template(class_name)))


def no_files(kwargs: Mapping[str, Any]) -> None:
    return None


@dataclass
class Setup:
    """What every RULER loader starts from: its arguments, tiktoken, the seeded ``random``."""

    kwargs: Mapping[str, Any]
    tokens: Tokens
    seed: int
    rng: random.Random
    template: str
    max_len: int
    to_generate: int
    name: str

    def fits(self, prompt: str) -> bool:
        return len(self.tokens.encode(prompt)) + self.to_generate <= self.max_len

    def first_fit(self, sample: Callable[[int], tuple[str, Any] | None], size: int,
                  step: int | None, file: Path | None = None) -> tuple[str, Any]:
        """The loaders' retry of a sample that does not fit (or fails, ``None``): smaller by
        ``step`` while above it (VT: never smaller), then drawn again and again at that size,
        for ever in the loader; after MAX_RETRIES misses here, an error."""
        misses = 0
        while True:
            drawn = sample(size)
            if drawn is not None and self.fits(drawn[0]):
                return drawn
            if step is not None and size > step:
                size -= step
                continue
            misses += 1
            if misses >= MAX_RETRIES:
                raise ConfigError(f"{self.name}: no sample fits max_seq_length {self.max_len}; the "
                                  "framework's load() retries for ever here",
                                  file=str(file) if file else None,
                                  hint="raise max_seq_length or lower tokens_to_generate")

    def row(self, prompt: str, answer: Any) -> Row:
        return {"prompt": flatten(prompt, self.kwargs), "answer": answer}


def setup(call: ReaderCall, class_name: str, to_generate: int) -> Setup:
    kwargs = call.kwargs
    length = int_argument(kwargs, "max_seq_length", 4096)
    if length > MAX_LENGTH:
        raise Declined(f"{class_name} at max_seq_length {length}: the native reader makes samples up to "
                       f"{MAX_LENGTH} tokens (longer ones take the framework's load() minutes of "
                       "tokenizing)", hint="--framework-python PATH runs the real load()")
    seed = int_argument(kwargs, "random_seed", 42)
    return Setup(kwargs, ruler_tokens(kwargs), seed, random.Random(seed),
                 template_argument(kwargs, class_name), int_argument(kwargs, "max_seq_length", 4096),
                 int_argument(kwargs, "tokens_to_generate", to_generate), "RULER " + class_name[5:-7].upper())


def ruler_tokens(kwargs: Mapping[str, Any]) -> Tokens:
    model = kwargs.get("tokenizer_model", "gpt-4")
    if model != "gpt-4":
        raise ConfigError(f"RULER's loader takes the tokenizer {model!r} from Hugging Face; the native "
                          "reader counts tokens with tiktoken's gpt-4 encoding only",
                          hint="--framework-python PATH runs the real load()")
    return Tokens("gpt-4", memo=False, who="RULER", budget=TOKENIZE_BUDGET)


def flatten(text: str, kwargs: Mapping[str, Any]) -> str:
    """``remove_newline_tab``: newlines and tabs made spaces, runs of spaces one."""
    if kwargs.get("remove_newline_tab"):
        return " ".join(text.replace("\n", " ").replace("\t", " ").strip().split())
    return text


def int_argument(kwargs: Mapping[str, Any], key: str, default: int) -> int:
    value = kwargs.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{key} must be an int, got {value!r}", hint=f"{key}={default}")
    return value


def _zeta(alpha: float) -> float:
    """``scipy.special.zeta(alpha)``, for the alpha the shipped configs use."""
    if alpha == 2.0:
        return math.pi ** 2 / 6  # the same double scipy returns
    raise ConfigError(f"RULER FWE with alpha={alpha!r} needs scipy's zeta function, which the native reader "
                      "does not reproduce", hint="alpha=2.0, or --framework-python PATH")


@native_reader("RulerFweDataset", data_argument=no_files)
def read_ruler_fwe(call: ReaderCall) -> ReadResult:
    """Coded words drawn with Zipf-like frequencies; the answer, the three most frequent."""
    run = setup(call, "RulerFweDataset", 50)
    kwargs, tokens, seed, rng, template, max_len = (run.kwargs, run.tokens, run.seed, run.rng, run.template,
                                                    run.max_len)
    wordlen = int_argument(kwargs, "coded_wordlen", 6)
    vocab_size = int_argument(kwargs, "vocab_size", -1)
    vocab_size = max_len // 50 if vocab_size == -1 else vocab_size
    alpha = float(kwargs.get("alpha", 2.0))
    zeta = _zeta(alpha)
    step = max_len // 32

    def sample(num_words: int) -> tuple[str, list[str], int]:
        vocab = ["".join(rng.choices(string.ascii_lowercase, k=wordlen)) for _ in range(vocab_size)]
        while len(set(vocab)) < vocab_size:
            vocab.append("".join(rng.choices(string.ascii_lowercase, k=wordlen)))
        vocab = sorted(set(vocab))
        random.Random(seed).shuffle(vocab)
        vocab[0] = "..."  # the top ranked word is noise

        def text(count: int) -> str:
            words = [word for rank, word in enumerate(vocab, 1)
                     for _ in range(int(count * (rank ** -alpha) / zeta))]
            random.Random(seed).shuffle(words)
            return template.format(context=" ".join(words), query="")

        if num_words > 0:
            while len(tokens.encode(text(num_words))) > max_len:
                num_words -= step
        else:
            num_words = max_len // wordlen
            while len(tokens.encode(text(num_words))) < max_len:
                num_words += step
            num_words -= step
        return text(num_words), vocab[1:4], num_words

    _, _, num_words = sample(-1)
    rows: list[Row] = []
    for _ in range(int_argument(kwargs, "num_samples", 500)):
        prompt, answer, _ = sample(num_words)
        rows.append(run.row(prompt, answer))
    return from_list(rows, Path("RulerFweDataset"))


@native_reader("RulerVtDataset", data_argument=no_files)
def read_ruler_vt(call: ReaderCall) -> ReadResult:
    """Chains of variable assignments hidden among noise sentences; the answer, the chain's names."""
    run = setup(call, "RulerVtDataset", 30)
    kwargs, tokens, rng, template = run.kwargs, run.tokens, run.rng, run.template
    max_len, to_generate, np_rng = run.max_len, run.to_generate, LegacyRandomState(run.seed)
    num_chains, num_hops = int_argument(kwargs, "num_chains", 1), int_argument(kwargs, "num_hops", 4)

    def chains() -> tuple[list[list[str]], list[list[str]]]:
        names = ["".join(rng.choices(string.ascii_uppercase, k=5)).upper()
                 for _ in range((num_hops + 1) * num_chains)]
        while len(set(names)) < num_chains * (num_hops + 1):
            names.append("".join(rng.choices(string.ascii_uppercase, k=5)).upper())
        groups, links = [], []
        for i in range(0, len(names), num_hops + 1):
            group = names[i:i + num_hops + 1]
            groups.append(group)
            # np.random.randint(10000, 99999)
            chain = [f"VAR {group[0]} = {10000 + np_rng.random_interval(99999 - 10000 - 1)}"]
            chain += [f"VAR {group[j + 1]} = VAR {group[j]} " for j in range(num_hops)]
            links.append(chain)
        return groups, links

    def sample(num_noises: int) -> tuple[str, list[str]]:
        groups, links = chains()
        sentences = [_VT_NOISE] * num_noises
        if len(sentences) <= len(links[0]):
            sentences = [s + "." if len(s.strip()) > 0 else s
                         for s in (piece for noise in sentences for piece in noise.split("."))]
            if len(sentences) <= len(links[0]):
                links = [chain[:len(sentences) - 1] for chain in links]
        for chain in links:
            positions = sorted(rng.sample(range(len(sentences)), len(chain)))
            for offset, position in enumerate(positions):
                sentences.insert(position + offset, chain[offset])
        context = " ".join(sentences).replace(". \n", ".\n")
        value = links[0][0].split("=")[-1].strip()
        return template.format(context=context, query=value, num_v=num_hops + 1), groups[0]

    num_noises, total = 10, 0
    while total + to_generate < max_len:
        prompt, answer = sample(num_noises)
        total = len(tokens.encode(prompt + f" {answer}"))
        if total + to_generate > max_len:
            num_noises -= 10
            break
        num_noises += 10
    rows: list[Row] = []
    for _ in range(int_argument(kwargs, "num_samples", 500)):
        # the loader retries with the same number of noises (its smaller count goes unused)
        rows.append(run.row(*run.first_fit(sample, num_noises, None)))
    return from_list(rows, Path("RulerVtDataset"))


def _squad(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    data = json_document(path)
    with row_at(path, None):
        docs = sorted({p["context"] for d in data["data"] for p in d["paragraphs"]})
        index = {doc: i for i, doc in enumerate(docs)}
        questions = []
        for d in data["data"]:
            more = [index[p["context"]] for p in d["paragraphs"]]
            for p in d["paragraphs"]:
                for qa in p["qas"]:
                    if not qa["is_impossible"]:
                        own = index[p["context"]]
                        questions.append({"query": qa["question"],
                                          "outputs": [a["text"] for a in qa["answers"]],
                                          "context": [own], "more_context": [i for i in more if i != own]})
    return questions, docs


def _hotpotqa(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    data = json_document(path)
    with row_at(path, None):
        docs = sorted({f"{title}\n{''.join(sentences)}" for d in data for title, sentences in d["context"]})
        index = {doc: i for i, doc in enumerate(docs)}
        questions = [{"query": d["question"], "outputs": [d["answer"]],
                      "context": [index[f"{t}\n{''.join(s)}"] for t, s in d["context"]]} for d in data]
    return questions, docs


@native_reader("RulerQaDataset")
def read_ruler_qa(call: ReaderCall) -> ReadResult:
    """SQuAD or HotpotQA questions, each among as many shuffled documents as fit."""
    run = setup(call, "RulerQaDataset", 32)
    kwargs, tokens, seed, rng, template = run.kwargs, run.tokens, run.seed, run.rng, run.template
    max_len, to_generate = run.max_len, run.to_generate
    kind = kwargs.get("dataset", "squad")
    if kind not in ("squad", "hotpotqa"):
        raise ConfigError(f"{kind} is not implemented.", hint="dataset='squad' or 'hotpotqa'")
    path = call.path()
    questions, docs = (_squad if kind == "squad" else _hotpotqa)(path)

    def sample(index: int, num_docs: int) -> tuple[str, list[str]]:
        question = questions[index]
        own, more = question["context"], question.get("more_context", [])
        if num_docs < len(docs):
            if num_docs - len(own) > len(more):
                others = [i for i in range(len(docs)) if i not in own + more]
                chosen = own + more + rng.sample(others, max(0, num_docs - len(own) - len(more)))
            else:
                chosen = own + rng.sample(more, num_docs - len(own))
            shown = [docs[i] for i in chosen]
        else:
            shown = docs
        random.Random(seed).shuffle(shown)
        context = "\n\n".join(f"Document {i + 1}:\n{doc}" for i, doc in enumerate(shown))
        return template.format(context=context, query=question["query"]), question["outputs"]

    step, num_docs, total = 10, 10, 0
    if not questions:
        raise ConfigError("no answerable question in the file", file=str(path),
                          hint="the loader builds every sample around a question")
    while total + to_generate < max_len:
        with row_at(path, None):
            prompt, answer = sample(0, num_docs)
        total = len(tokens.encode(prompt + f" {answer}"))
        if total + to_generate > max_len:
            num_docs -= step
            break
        num_docs += step
        if num_docs > len(docs):
            num_docs = len(docs)
            break
    rows: list[Row] = []
    first = int_argument(kwargs, "pre_samples", 0)
    for index in range(int_argument(kwargs, "num_samples", 500)):
        if index + first >= len(questions):
            raise ConfigError(f"num_samples asks for question {index + first + 1}, but the file has "
                              f"{len(questions)} answerable questions; the framework's load() retries for "
                              "ever here", file=str(path), hint=f"num_samples={len(questions) - first}")

        def located(size: int, index: int = index + first) -> tuple[str, Any]:
            with row_at(path, None):
                return sample(index, size)

        rows.append(run.row(*run.first_fit(located, num_docs, step, path)))
    return from_list(rows, path)
