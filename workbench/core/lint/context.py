"""What a lint rule sees: one rendered pair, a few of its samples, and where things were written.

May import: ``render`` and every core module below it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..findings import Finding
from ..render import PairRenderer
from ..result import Sample, Stamp
from ..spec import locate
from ..templates.prompt_list import BRACED, iter_texts

#: How many samples the seam rules read (the template's shape, the same for most rows).
SEAM_SAMPLES = 20
#: How many rows the row-scanning rules read at most (said in their message when cut).
ROW_LIMIT = 5000
TEMPLATE_KEYS = ("ice_template", "prompt_template")
_WORDS = re.compile(r"\w+")
T = TypeVar("T")


def normalised(text: str) -> str:
    """Lower-case words, punctuation and spacing dropped: two copies of a row compare equal."""
    return " ".join(_WORDS.findall(text.lower()))


@dataclass
class LintContext:
    pair: PairRenderer
    #: rows of ``lint --overlap FILE``: a test set checked against the example pool
    overlap: Sequence[Mapping[str, Any]] | None = None
    #: ``lint --tokenizer``: the token seams read with it, not with the model's own
    tokenizer: Any = None
    _samples: dict[int, Sample] = field(default_factory=dict)
    #: what rules share about the pair (the token seams, computed once for three rules)
    cache: dict[str, Any] = field(default_factory=dict)
    #: (rule id, why) of a rule that could not look at this pair (no tokenizer...), said once
    not_checked: list[tuple[str, str]] = field(default_factory=list)

    @property
    def infer_cfg(self) -> Mapping[str, Any]:
        return self.pair.infer_cfg

    def sample(self, index: int) -> Sample:
        if index not in self._samples:
            self._samples[index] = self.pair.sample(index)
        return self._samples[index]

    def token_totals(self, index: int) -> Sequence[int]:
        """Each counted request's tokens in sample ``index``. Where a model counts, they come from
        the row's stamp when its form gives one, which makes no requests. A suite's tree marks
        lint every pair, so these are the most rows the lint reads."""
        if index not in self._samples and self.pair.model_text is not None:
            made = self.pair.stamp(index)
            if isinstance(made, Stamp):
                return made.totals
            self._samples[index] = made
        return [r.tokens.total for r in self.sample(index).requests if r.tokens is not None]

    def of_dataset(self, key: str, compute: Callable[[], T]) -> T:
        """What a rule works out from the dataset alone (its rows, the reader's columns, the
        retriever's picks), once for the pairs that share them: a suite lints each dataset once
        a model. Kept with the splits it read (built with the reader of one DatasetSpec, whose
        pairs share them: ``LazyPairs.splits``), and used again for the same picks."""
        memo = self.pair.splits.__dict__.setdefault("lint_memo", {})
        known = memo.get(key)
        if known is not None and known[0] == self.pair.picks:
            return known[1]
        made = compute()
        memo[key] = (self.pair.picks, made)
        return made

    def first_samples(self, n: int = SEAM_SAMPLES) -> Iterator[Sample]:
        for i in range(min(n, len(self.pair))):
            yield self.sample(i)

    def spread(self, n: int) -> list[int]:
        """Up to ``n`` test indices spread evenly over the split (for statistics)."""
        total = len(self.pair)
        if total <= n:
            return list(range(total))
        return sorted({round(i * (total - 1) / (n - 1)) for i in range(n)})

    def templates(self) -> Iterator[tuple[str, Any]]:
        """(key, raw template) of the dataset's ice and prompt templates, as written."""
        for key in TEMPLATE_KEYS:
            body = self.infer_cfg.get(key)
            if isinstance(body, Mapping) and "template" in body:
                yield key, body["template"]

    def template_texts(self) -> Iterator[tuple[tuple, str]]:
        """(key path, text) of every string a template writes itself (no role names)."""
        def walk(value: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
            if isinstance(value, str):
                yield path, value
            elif isinstance(value, Mapping):
                for k, v in value.items():
                    if k not in ("role", "fallback_role", "generate", "pos"):
                        yield from walk(v, (*path, k))
            elif isinstance(value, (list, tuple)):
                for i, v in enumerate(value):
                    yield from walk(v, (*path, i))
        for key, raw in self.templates():
            yield from walk(raw, ("infer_cfg", key, "template"))

    def fields(self) -> set[str]:
        """Every ``{field}`` the templates name."""
        return {m for _, raw in self.templates() for t in iter_texts(raw) for m in BRACED.findall(t)}

    def row_text(self, row: Mapping[str, Any]) -> str:
        columns = [c for c in self.pair.reader.input_columns if c in row] or list(row)
        return "\n".join(str(row[c]) for c in columns if row.get(c) is not None)

    def at(self, finding: Finding) -> Finding:
        """The finding with the file and line of its ``key_path`` in the dataset's config."""
        if finding.file is not None or finding.key_path is None:
            return finding
        found = locate(self.pair.dataset, finding.key_path)
        return replace(finding, file=found.file, line=found.line)

    def model_at(self, key: str) -> tuple[str | None, int | None]:
        """Where the model config wrote ``key`` (else where the model was defined)."""
        spec = self.pair.model_spec
        if spec is None:
            return None, None
        found = locate(spec, (key,))
        return found.file, found.line


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"
