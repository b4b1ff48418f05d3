"""What the NeedleBench needle-in-a-haystack loaders share: the haystack files, tiktoken, the
seeded shuffles and the needles put in at token positions.

Every loader seeds Python's global ``random`` before each draw; a private ``random.Random``
seeded alike draws the same (same Mersenne Twister, same ``shuffle``/``choice``/``sample``),
and leaves the workbench's own random state alone. The haystack files' lines are shuffled in
place repeat after repeat, so each repeat starts from the last one's order.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError
from . import ReaderCall, Row
from ._files import jsonl_values, row_at
from ._tokens import Tokens

#: The haystack files each loader knows, in the order it reads them (others in file_list are skipped).
ORIGIN_FILES = ("en_un_asr.jsonl", "zh_all.jsonl", "PaulGrahamEssays.jsonl", "multi_needle_reasoning_en.json",
                "multi_needle_reasoning_zh.json", "zh_finance.jsonl", "zh_game.jsonl", "zh_general.jsonl",
                "zh_government.jsonl", "zh_movie.jsonl", "zh_tech.jsonl")
MULTI_FILES = ("PaulGrahamEssays.jsonl", "multi_needle_reasoning_en.json", "multi_needle_reasoning_zh.json",
               "zh_finance.jsonl", "zh_game.jsonl", "zh_general.jsonl", "zh_government.jsonl",
               "zh_movie.jsonl", "zh_tech.jsonl")
MULTI_V2_FILES = ("PaulGrahamEssays.jsonl", "names.json", "zh_finance.jsonl", "zh_game.jsonl",
                  "zh_general.jsonl", "zh_government.jsonl", "zh_movie.jsonl", "zh_tech.jsonl")
_FIELD = re.compile(r"\{(context|retrieval_question|last_person)\}")


@cache
def prompts() -> dict[str, Any]:
    """The loaders' prompt texts, recorded from the frameworks by tools/gen_reader_prompts.py."""
    text = resources.files(__package__).joinpath("data", "needlebench_prompts.json").read_text("utf-8")
    return json.loads(text)


def fill(template: str | list[str], **fields: str) -> str | list[str]:
    """An f-string template with its fields filled (a tuple prompt stays a list)."""
    if isinstance(template, list):
        return [str(fill(part, **fields)) for part in template]
    return _FIELD.sub(lambda m: fields[m.group(1)], template)


def prompt_template(module: str, language: str, position: str) -> str | list[str]:
    """The prompt for a language and question position; the loader's ValueError otherwise."""
    table = prompts()[module]["prompts"]
    if language not in ("Chinese", "English"):
        raise ConfigError(f"Language '{language}' is not supported.", hint="language='English' or 'Chinese'")
    key = f"{language}/{position}"
    if key not in table:
        raise ConfigError(f"Unsupported position {position}. Position must be \"End\" or \"Start\".",
                          hint="the question position is 'End' or 'Start'")
    return table[key]


def folder(call: ReaderCall) -> Path:
    return call.path()


def haystacks(call: ReaderCall, known: tuple[str, ...],
              must_exist: bool = False) -> Iterator[tuple[Path, list[Any]]]:
    """Each haystack file of ``file_list`` the loader knows, in its order, as parsed lines."""
    wanted = call.kwargs.get("file_list") or []
    for name in known:
        if name not in wanted:
            continue
        path = Path(os.path.join(folder(call), name))
        if must_exist and not path.exists():
            raise ConfigError(f"Dataset file does not exist: {path}", file=str(path))
        yield path, jsonl_values(path)


def haystack_tokens(lines: list[Any], path: Path, tokens: Tokens, target: int) -> list[int]:
    """Lines' ``text`` tokens, line after line, until there are ``target`` (then cut to it)."""
    out: list[int] = []
    for line in lines:
        with row_at(path, None):
            out.extend(tokens.encode(line["text"]))
        if len(out) >= target:
            break
    return out[:target]


def repeats(call: ReaderCall, build: Callable[[int, list[Any]], Row], lines: list[Any]) -> Iterator[Row]:
    """One row a repeat: the lines shuffled again with the repeat's seed, then ``build``."""
    for counter in range(int(call.kwargs.get("num_repeats_per_file", 0))):
        random.Random(counter).shuffle(lines)
        yield build(counter, lines)


def insert_needles(context: list[int], needles: list[list[int]], depth: float, diff: float) -> list[int]:
    """NeedleBenchMulti's placement: the first needle at ``depth`` percent, each next one
    ``diff`` percent of the haystack after the previous one's end, none past the end."""
    total = len(context)
    points: list[int] = []
    for i in range(len(needles)):
        if i == 0:
            point = int(total * (depth / 100))
        else:
            point = int(points[i - 1] + len(needles[i - 1]) + total * (diff / 100))
        points.append(min(point, total + sum(len(n) for n in needles[:i])))
    for i, needle in enumerate(needles):
        context = context[:points[i]] + needle + context[points[i]:]
        for j in range(i + 1, len(points)):
            points[j] += len(needle)
    return context
