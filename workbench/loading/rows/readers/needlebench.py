"""NeedleBench: prompts made from haystack files, a needle file and seeded draws.

OpenCompass ships two packages of classes with the same names: ``needlebench`` (v1) and
``needlebench_v2`` (AISBench ships v2 too); the config's import says which one a dataset uses.
Readers here stand in for:

- ``NeedleBenchOriginDataset`` (v1, v2): one needle, drawn from the needle file for the repeat,
  put at ``depth`` percent into the haystack's first tokens;
- ``NeedleBenchMultiDataset`` (v1; AISBench's v2, which reads the data folder): several needles
  ``diff`` percent apart (v1: a reasoning record from the needle file; v2: a family story made
  from ``names.json``);
- ``NeedleBenchATCDataset`` (v1 ``atc_choice``: four rotated choices a story; v2 ``atc``: four
  question kinds).

Not stood in for, so they go by the framework route: ``NeedleBenchParallelDataset`` (it picks
its needles after an unseeded shuffle, so every run of the framework differs), v1
``atc.NeedleBenchATCDataset`` (unseeded draws too) and OpenCompass's v2 Multi (it downloads its
files from the hub).

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ....core.errors import ConfigError
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, json_document, jsonl_values, row_at
from ._needle_haystack import (
    MULTI_FILES,
    MULTI_V2_FILES,
    ORIGIN_FILES,
    Tokens,
    fill,
    folder,
    haystack_tokens,
    haystacks,
    insert_needles,
    prompt_template,
    prompts,
    repeats,
)

V1 = "opencompass.datasets.needlebench"
V2 = "opencompass.datasets.needlebench_v2"
AIS_V2 = "ais_bench.benchmark.datasets.needlebench_v2"
_GUIDE_ZH = "在回答之前，请思考文档中与此问题最相关的内容是什么。"
_GUIDE_EN = "Before answering, please consider what in the document is most relevant to this question."
_FORMAT_EN = "Please answer in the format"


def _origin_needle(path: Path, counter: int, language: str) -> dict[str, str]:
    """A needle of the language, drawn with the repeat's seed."""
    lines = []
    for number, item in enumerate(jsonl_values(path), 1):
        with row_at(path, number):
            if item["language"] == language:
                lines.append(item)
    if not lines:
        raise ConfigError(f"the needle file has no needle in {language}", file=str(path),
                          hint="the loader draws the needle from the lines of that language")
    line = random.Random(counter).choice(lines)
    with row_at(path, None):
        return {"needle": line["needle"], "question": line["retrieval_question"], "keyword": line["arg2"]}


def _v1_question(question: str, language: str, guide: bool) -> str:
    """v1's question: a sentence on reading first put before its answer format; without the
    guide, the format's opening and the end cut off too."""
    if language not in ("Chinese", "English"):
        raise ConfigError(f"Language '{language}' is not supported.", hint="language='English' or 'Chinese'")
    marker = "请按照" if language == "Chinese" else _FORMAT_EN
    parts = question.split(marker)
    if len(parts) < 2:
        raise ConfigError(f"the needle's retrieval_question has no {marker!r}, which the loader splits on",
                          hint="NeedleBench's needle file asks for the answer format")
    if language == "Chinese":
        joined = parts[0] + _GUIDE_ZH + "请按照" + parts[1]
        return joined if guide else joined.replace("请按照'", "")[:-16]
    joined = parts[0] + _GUIDE_EN + " " + _FORMAT_EN + parts[1]
    return joined if guide else joined.replace(_FORMAT_EN + " '", "")[:-10]


def _origin(call: ReaderCall, module: str) -> ReadResult:
    kwargs = call.kwargs
    language = str(kwargs.get("language"))
    v1 = module == V1 + ".origin"
    position = str(kwargs.get("position" if v1 else "quesiton_position", "End"))
    template = prompt_template(module, language, position)
    tokens = Tokens(str(kwargs.get("tokenizer_model")))
    needle_path = Path(folder(call)) / str(kwargs.get("needle_file_name"))
    rows: list[Row] = []
    for path, lines in haystacks(call, ORIGIN_FILES):

        def build(counter: int, lines: list[Any], path: Path = path) -> Row:
            drawn = _origin_needle(needle_path, counter, language)
            needle = "\n" + drawn["needle"] + "\n"
            question = _v1_question(drawn["question"], language, bool(kwargs.get("guide"))) if v1 \
                else drawn["question"]
            target = max(int(kwargs["length"]) - int(kwargs["length_buffer"]) - len(tokens.encode(needle)), 0)
            context = haystack_tokens(lines, path, tokens, target)
            point = int(len(context) * (kwargs["depth"] / 100))
            text = tokens.decode(context[:point] + tokens.encode(needle) + context[point:])
            return {"prompt": fill(template, context=text, retrieval_question=question),
                    "answer": needle + "*" + drawn["keyword"]}

        rows += repeats(call, build, lines)
    return from_list(rows, needle_path)


@native_reader("NeedleBenchOriginDataset", modules=(V1 + ".origin",))
def read_origin_v1(call: ReaderCall) -> ReadResult:
    return _origin(call, V1 + ".origin")


@native_reader("NeedleBenchOriginDataset", modules=(V2 + ".origin", AIS_V2 + ".origin"))
def read_origin_v2(call: ReaderCall) -> ReadResult:
    return _origin(call, V2 + ".origin")


def _multi_record(path: Path, counter: int, count: Any) -> dict[str, Any]:
    records = json_document(path)
    with row_at(path, None):
        matching = [r for r in records if r.get("derivation_count") == count]
    if not matching:
        raise ConfigError(f"the needle file has no record with derivation_count {count}", file=str(path),
                          hint="num_needles picks the records the loader draws from")
    return random.Random(counter).choice(matching)


def _with_needles(kwargs: Mapping[str, Any], tokens: Tokens, lines: list[Any], path: Path,
                  needles: list[str]) -> str:
    """Multi's context: the haystack's first tokens, as many as leave room for the needles in
    ``length - length_buffer``, with the needles put in ``diff`` percent apart from ``depth``."""
    needle_tokens = [tokens.encode(needle) for needle in needles]
    target = max(int(kwargs["length"]) - int(kwargs["length_buffer"]) - sum(len(t) for t in needle_tokens), 0)
    context = insert_needles(haystack_tokens(lines, path, tokens, target), needle_tokens,
                             kwargs["depth"], kwargs["diff"])
    return tokens.decode(context)


@native_reader("NeedleBenchMultiDataset", modules=(V1 + ".multi",))
def read_multi_v1(call: ReaderCall) -> ReadResult:
    kwargs = call.kwargs
    language = str(kwargs.get("language"))
    template = prompt_template(V1 + ".multi", language, str(kwargs.get("position", "End")))
    tokens = Tokens(str(kwargs.get("tokenizer_model")))
    needle_path = Path(folder(call)) / str(kwargs.get("needle_file_name"))
    rows: list[Row] = []
    for path, lines in haystacks(call, MULTI_FILES):

        def build(counter: int, lines: list[Any], path: Path = path) -> Row:
            record = _multi_record(needle_path, counter, kwargs.get("num_needles"))
            with row_at(needle_path, None):
                needles = ["\n" + needle + "\n" for needle in record["derivations"]]
                answer, question = record["answer"], record["question"]
            if kwargs.get("guide"):
                question += _GUIDE_ZH if language == "Chinese" else _GUIDE_EN
            context = _with_needles(kwargs, tokens, lines, path, needles)
            return {"prompt": fill(template, context=context, retrieval_question=question),
                    "answer": answer + "*" + answer}

        rows += repeats(call, build, lines)
    return from_list(rows, needle_path)


def _family(rng: random.Random, names: list[str], language: str) -> tuple[list[str], int]:
    """v2's family story over ``names`` (eldest first), its sentences shuffled, and how many
    generations it spans."""
    constants = prompts()[V2 + ".atc"]
    suffix = {"Chinese": "zh_CN", "English": "en"}.get(language)
    if suffix is None:
        raise ConfigError("Unsupported language specified. Please choose either \"Chinese\" or \"English\".",
                          hint="language='English' or 'Chinese'")
    templates = constants[f"relationship_templates_{suffix}"]
    terms = constants[f"relationship_terms_{suffix}"]
    generations = constants["relationship_generation_map_" + ("zh" if language == "Chinese" else "en")]
    story, total = "", 0
    for i in range(len(names) - 1):
        template, term = rng.choice(templates), rng.choice(terms)
        story += template.format(A=names[i], B=names[i + 1], relationship=term) + "*"
        total += generations.get(term, 1)
    fragments = [fragment for fragment in story.split("*") if fragment]
    rng.shuffle(fragments)
    return fragments, total


def _names(path: Path, language: str) -> list[str]:
    data = json_document(path)
    with row_at(path, None):
        return str(data[language]).split(",")


def _sample(rng: random.Random, names: list[str], count: Any, path: Path) -> list[str]:
    with row_at(path, None):
        return rng.sample(names, count)


@native_reader("NeedleBenchMultiDataset", modules=(AIS_V2 + ".multi",))
def read_multi_v2(call: ReaderCall) -> ReadResult:
    kwargs = call.kwargs
    language = str(kwargs.get("language"))
    template = prompt_template(AIS_V2 + ".multi", language, str(kwargs.get("quesiton_position", "End")))
    tokens = Tokens(str(kwargs.get("tokenizer_model")))
    needle_path = Path(folder(call)) / str(kwargs.get("needle_file_name"))
    rows: list[Row] = []
    for path, lines in haystacks(call, MULTI_V2_FILES, must_exist=True):

        def build(counter: int, lines: list[Any], path: Path = path) -> Row:
            rng = random.Random(counter)
            names = _sample(rng, _names(needle_path, language), int(kwargs["num_needles"]) + 1, needle_path)
            fragments, _ = _family(rng, names, language)
            last = names[-1]
            if language == "Chinese":
                question = f"在上面提供的文本中，'{last}'的能够向上追溯到的最年长的亲人是谁？"
            else:
                question = (f"Given the context described above, who is the eldest relative that '{last}' "
                            "can trace back to in the context?")
            context = _with_needles(kwargs, tokens, lines, path, ["\n" + f + "\n" for f in fragments])
            return {"prompt": fill(template, context=context, retrieval_question=question, last_person=last),
                    "answer": names[0]}

        rows += repeats(call, build, lines)
    return from_list(rows, needle_path)


@native_reader("NeedleBenchATCDataset", modules=(V1 + ".atc_choice",))
def read_atc_choice(call: ReaderCall) -> ReadResult:
    """Each repeat: a family story of ``num_needles`` names, the question who is the eldest,
    the first four names as options, four times with the options rotated."""
    kwargs = call.kwargs
    language = str(kwargs.get("language"))
    path = Path(folder(call)) / str(kwargs.get("file_name"))
    every = _names(path, language)
    data = prompts()[V1 + ".atc_choice"]
    if language not in data["prompts"]:
        raise ConfigError("Unsupported language specified. Please choose either 'Chinese' or 'English'.",
                          hint="language='English' or 'Chinese'")
    templates, terms = data["relationship_templates"][language], data["relationship_terms"][language]
    rows: list[Row] = []
    for repeat in range(int(kwargs.get("repeats", 0))):
        rng = random.Random(repeat)
        names = _sample(rng, every, kwargs.get("num_needles"), path)
        story = ""
        for i in range(len(names) - 1):
            template = rng.choice(templates)
            story += template.format(A=names[i], B=names[i + 1], relationship=rng.choice(terms)) + "*"
        fragments = story.split("*")
        rng.shuffle(fragments)
        question = "".join(fragments) + " " + str(fill(data["prompts"][language], last_person=names[-1]))
        if len(names) < 4:
            names += _sample(rng, [name for name in every if name not in names], 4 - len(names), path)
        options = names[0:4]
        for pattern in ("ABCD", "BCDA", "CDAB", "DABC"):
            with row_at(path, None):
                rotated = [options[ord(letter) - ord("A")] for letter in pattern]
            listed = "".join(f"{chr(ord('A') + i)}. {option}\n" for i, option in enumerate(rotated))
            rows.append({"question": question.strip() + "\n" + listed, "options": rotated,
                         "answer": f"{repeat}--{'ABCD'[pattern.index('A')]}--{pattern}"})
    return from_list(rows, path)


_ATC_KINDS = ("ELDEST_ANCESTOR", "NTH_ANCESTOR", "NTH_DESCENDANT", "RELATIONSHIP_DISTANCE")


@native_reader("NeedleBenchATCDataset", modules=(V2 + ".atc", AIS_V2 + ".atc"))
def read_atc_v2(call: ReaderCall) -> ReadResult:
    """Each of the four question kinds, ``repeats`` times: a family story of ``num_needles + 1``
    names and a question on it."""
    kwargs = call.kwargs
    language = str(kwargs.get("language"))
    path = Path(folder(call)) / str(kwargs.get("file_name"))
    every = _names(path, language)
    constants = prompts()[V2 + ".atc"]
    suffix = "zh_CN" if language == "Chinese" else "en"
    rows: list[Row] = []
    for value, kind in enumerate(_ATC_KINDS):
        for repeat in range(int(kwargs.get("repeats", 0))):
            rng = random.Random((repeat + 1) + 10000 * value)
            names = _sample(rng, every, int(kwargs["num_needles"]) + 1, path)
            fragments, generations = _family(rng, names, language)
            story = "".join(fragments)
            if kind == "ELDEST_ANCESTOR":
                prompt = constants[f"shuffled_story_with_prompt_{suffix}"].format(
                    shuffled_story=story, last_person=names[-1])
                answer = names[0]
            elif kind == "NTH_ANCESTOR":
                prompt = constants[f"nth_ancestor_prompt_{suffix}"].format(
                    shuffled_story=story, person=names[-1], n=generations)
                answer = names[0]
            elif kind == "NTH_DESCENDANT":
                prompt = constants[f"nth_descendant_prompt_{suffix}"].format(
                    shuffled_story=story, person=names[0], n=generations)
                answer = names[-1]
            else:
                prompt = constants[f"relationship_distance_prompt_{suffix}"].format(
                    shuffled_story=story, person_a=names[0], person_b=names[-1])
                answer = str(generations)
            rows.append({"prompt": prompt, "answer": answer, "question_type": kind})
    return from_list(rows, path)

