"""Few-shot integrity: a test row among its own examples, repeated shots, fixed shots, label
imbalance, and (``--overlap FILE``) near-duplicates between the pool and a test set.

May import: ``context`` and the core modules it imports.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..findings import Finding
from .context import ROW_LIMIT, LintContext, normalised, plural

RETRIEVER = ("infer_cfg", "retriever")
#: A label column with more distinct values than this is not a class label (free text answers).
MAX_LABELS = 10
#: Word n-grams compared by the overlap check, and the share two texts must have in common.
SHINGLE, NEAR = 5, 0.8


def _keys(ctx: LintContext, rows: Sequence[Any], cache: dict[int, str], idx: int) -> str:
    if idx not in cache:
        row = rows[idx]
        cache[idx] = normalised(ctx.row_text(row)) if isinstance(row, Mapping) else ""
    return cache[idx]


def _checked(ctx: LintContext) -> tuple[int, str]:
    n = min(len(ctx.pair), ROW_LIMIT)
    scope = f"the first {n:,} prompts" if len(ctx.pair) > n else f"{n:,} prompts"
    return n, scope


def own_row(ctx: LintContext) -> Iterator[Finding]:
    """PW301: the answer is in the prompt: a test row's own text among its examples."""
    train, test = ctx.pair.splits.train, ctx.pair.splits.test
    train_keys: dict[int, str] = {}
    n, scope = _checked(ctx)
    hits, first = 0, None
    for i in range(n):
        picks = ctx.pair.picks[i]
        if not picks:
            continue
        own = normalised(ctx.row_text(test[i])) if isinstance(test[i], Mapping) else ""
        if own and any(_keys(ctx, train, train_keys, idx) == own for idx in picks):
            hits += 1
            first = i if first is None else first
    if hits:
        yield Finding("PW301", f"{hits:,} of {scope} contain their own test row among the in-context "
                      f"examples (first: row {first}): the answer is in the prompt",
                      hint="draw examples from another split (reader_cfg train_split/test_split or "
                      "ranges), or a retriever that skips the test row", key_path=RETRIEVER)


def duplicate_shots(ctx: LintContext) -> Iterator[Finding]:
    """PW302: the same example twice in one prompt (by index, or by its normalised text)."""
    train = ctx.pair.splits.train
    keys: dict[int, str] = {}
    n, scope = _checked(ctx)
    hits = 0
    for i in range(n):
        picks = ctx.pair.picks[i]
        if len(picks) < 2:
            continue
        texts = [_keys(ctx, train, keys, idx) for idx in picks]
        if len(set(picks)) < len(picks) or len(set(texts)) < len(texts):
            hits += 1
    if hits:
        yield Finding("PW302", f"{hits:,} of {scope} hold the same in-context example twice",
                      hint="deduplicate the example pool, or pick distinct fix_id_list indices",
                      key_path=RETRIEVER)


def fixed_shots(ctx: LintContext) -> Iterator[Finding]:
    """PW303 (information): the same examples for every row, as a fixed-k retriever gives."""
    picks = ctx.pair.picks
    if len(picks) > 1 and picks[0] and all(p == picks[0] for p in picks):
        yield Finding("PW303", f"all {len(picks):,} rows use the same {plural(len(picks[0]), 'example')} "
                      f"(train rows {', '.join(map(str, picks[0][:8]))}{'…' if len(picks[0]) > 8 else ''})",
                      hint="meant for a fixed prompt; a retriever (Random, BM25...) varies them",
                      key_path=RETRIEVER)


def label_imbalance(ctx: LintContext) -> Iterator[Finding]:
    """PW304: shots that mostly share one label teach the model to answer it."""
    column = ctx.pair.reader.output_column
    train = ctx.pair.splits.train
    if not column or not train:
        return
    labels = {str(r.get(column)) for r in train[:ROW_LIMIT] if isinstance(r, Mapping) and column in r}
    if not 2 <= len(labels) <= MAX_LABELS:
        return
    n, scope = _checked(ctx)
    hits, first = 0, None
    # each distinct example set judged once (a fixed-k retriever gives every row the same)
    dominant: dict[tuple[int, ...], tuple[str, int] | None] = {}
    for i in range(n):
        picks = tuple(ctx.pair.picks[i])
        if len(picks) < 3:
            continue
        if picks not in dominant:
            shot_labels = Counter(str(train[idx].get(column)) for idx in picks
                                  if isinstance(train[idx], Mapping))
            label, count = shot_labels.most_common(1)[0] if shot_labels else ("", 0)
            dominant[picks] = (label, count) if count == len(picks) or count / len(picks) >= 0.8 else None
        found = dominant[picks]
        if found is not None:
            hits += 1
            first = first or (*found, len(picks))
    if first is not None:
        yield Finding("PW304", f"in {hits:,} of {scope}, one label dominates the in-context examples "
                      f"(first: {first[1]} of {first[2]} are {first[0]!r}; the pool has {len(labels)} "
                      "labels)", hint="balance the examples' labels (fix_id_list, or a pool with each "
                      "label)", key_path=RETRIEVER)


def _shingles(text: str) -> set[str]:
    words = text.split()
    if len(words) <= SHINGLE:
        return {text} if text else set()
    return {" ".join(words[i:i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def overlap(ctx: LintContext) -> Iterator[Finding]:
    """PW305: an example of the pool that is a near-duplicate of a row of the --overlap test set."""
    if not ctx.overlap:
        return
    pool = ctx.pair.splits.train[:ROW_LIMIT * 4]
    index: dict[str, list[int]] = {}
    shingles = []
    for j, example in enumerate(pool):
        own = _shingles(normalised(ctx.row_text(example))) if isinstance(example, Mapping) else set()
        shingles.append(own)
        for s in own:
            index.setdefault(s, []).append(j)
    hits, first = 0, None
    rows = ctx.overlap[:ROW_LIMIT * 4]
    for k, row in enumerate(rows):
        theirs = _shingles(normalised(ctx.row_text(row))) if isinstance(row, Mapping) else set()
        shared: Counter = Counter(j for s in theirs for j in index.get(s, ()))
        for j, common in shared.most_common(3):
            if common / max(1, len(theirs | shingles[j])) >= NEAR:
                hits += 1
                first = first or (j, k)
                break
    if first is not None:
        yield Finding("PW305", f"{hits:,} of the {len(rows):,} rows of the --overlap test set are "
                      f"near-duplicates of an example in the pool (first: test row {first[1]} ~ train "
                      f"row {first[0]})",
                      hint="drop those rows from the example pool", key_path=("reader_cfg",))
