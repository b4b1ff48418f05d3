"""Dev-only: (re)create the INPUTS of the parity suite.

Writes ``tests/parity/cases/<case_id>/config.py`` and ``data.json`` for

* ``seed_*``  every example of the frameworks' prompt-template docs
  (their prompt-template and meta-template pages, numbered 000-004 in the cases);
* ``oc_*``    real OpenCompass 0.5.4 dataset configs, flattened into
  self-contained configs (1-2 datasets each);
* ``ais_*``   real AISBench 3.1.20260630 dataset configs, flattened likewise;
* ``x_*``     what the workbench claims beyond those (tools/parity_x_cases.py);
* ``r_*``     RawPromptTemplate, the other inferencers and shipped-config quirks
  (tools/parity_r_cases.py).

Each config gets its framework's five model kinds (``Framework.models_block``: three local
models with meta templates, an API model, a chat-template model).
Rows are synthetic and seeded by the case id, so a rerun writes identical files.
Run it with the framework venv (it loads the real configs with mmengine)::

    $FWENV/bin/python tools/make_parity_cases.py [--only CASE ...]

then ``tools/gen_goldens.py`` to refresh ``expected.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import keyword
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _shared import REPO, quiet, write_json

CASES_DIR = REPO / "tests" / "parity" / "cases"

# --------------------------------------------------------------------------
# the two frameworks: where their classes come from, and the models every case renders
# --------------------------------------------------------------------------

_META_TEMPLATES = """
# ---- the five model kinds every parity case renders against ----------------
_internlm_chat_meta = dict(
    round=[
        dict(role='HUMAN', begin='<|im_start|>user\\n', end='<|im_end|>\\n'),
        dict(role='BOT', begin='<|im_start|>assistant\\n', end='<|im_end|>\\n', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\\n', end='<|im_end|>\\n')],
    eos_token_id=92542,
)
_llama2_chat_meta = dict(
    round=[
        dict(role='HUMAN', begin='[INST] ', end=' [/INST]'),
        dict(role='BOT', begin=' ', end=' ', generate=True),
    ],
)
_api_meta = dict(
    round=[
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)
"""


def _models_block(local: str, api_model: str) -> str:
    """The model list: three local models with the meta templates above, the framework's API
    model, and a chat-template model. ``local`` opens each local model's dict (AISBench wants
    ``attr='local'``)."""
    return _META_TEMPLATES + f"""models = [
    dict({local}abbr='internlm-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/internlm-chat',
         meta_template=_internlm_chat_meta, max_out_len=64, batch_size=1),
    dict({local}abbr='llama2-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/llama2-chat',
         meta_template=_llama2_chat_meta, max_out_len=64, batch_size=1),
    dict({local}abbr='plain-base', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/base-model',
         max_out_len=64, batch_size=1),
    {api_model}
    dict({local}abbr='hf-chat-template', type=HuggingFacewithChatTemplate,
         path='/nonexistent/parity/chat-model', max_out_len=64, batch_size=1),
]
"""


@dataclass(frozen=True)
class Framework:
    """What an OpenCompass case and an AISBench case do differently."""

    key: str  # "oc" / "ais": the prefix of its case ids
    configs_package: str  # the package whose configs/datasets/ holds the shipped configs
    public_modules: tuple[str, ...]  # where a flattened config imports classes from, first match wins
    seed_imports: tuple[str, ...]  # what the docs' examples import
    models_import: str
    models_block: str


OPENCOMPASS = Framework(
    key="oc",
    configs_package="opencompass",
    public_modules=(
        "opencompass.openicl.icl_prompt_template",
        "opencompass.openicl.icl_retriever",
        "opencompass.openicl.icl_inferencer",
        "opencompass.openicl.icl_evaluator",
        "opencompass.datasets",
        "opencompass.utils.text_postprocessors",
        "opencompass.evaluator",
        "opencompass.models",
    ),
    seed_imports=(
        "from opencompass.openicl.icl_prompt_template import PromptTemplate",
        "from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever",
        "from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer",
    ),
    models_import="from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI",
    models_block=_models_block(
        local="",
        api_model="""dict(abbr='openai-api', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=_api_meta, max_out_len=64, batch_size=1),""",
    ),
)
AISBENCH = Framework(
    key="ais",
    configs_package="ais_bench.benchmark",
    public_modules=(
        "ais_bench.benchmark.openicl.icl_prompt_template",
        "ais_bench.benchmark.openicl.icl_retriever",
        "ais_bench.benchmark.openicl.icl_inferencer",
        "ais_bench.benchmark.openicl.icl_evaluator",
        "ais_bench.benchmark.datasets",
        "ais_bench.benchmark.utils.postprocess.text_postprocessors",
        "ais_bench.benchmark.models",
    ),
    seed_imports=(
        "from ais_bench.benchmark.openicl.icl_prompt_template import "
        "MMPromptTemplate, MultiTurnPromptTemplate, PromptTemplate",
        "from ais_bench.benchmark.openicl.icl_retriever import FixKRetriever, ZeroRetriever",
        "from ais_bench.benchmark.openicl.icl_inferencer import "
        "GenInferencer, MultiTurnGenInferencer, PPLInferencer",
    ),
    models_import=(
        "from ais_bench.benchmark.models import HuggingFaceCausalLM, "
        "HuggingFacewithChatTemplate, VLLMCustomAPIChat"
    ),
    models_block=_models_block(
        local="attr='local', ",
        api_model="""dict(attr='service', abbr='vllm-api-chat', type=VLLMCustomAPIChat, path='',
         model='parity-model', host_ip='localhost', host_port=8080,
         meta_template=_api_meta, max_out_len=64, batch_size=1),""",
    ),
)
FRAMEWORKS = {fw.key: fw for fw in (OPENCOMPASS, AISBENCH)}

MOSS_MODEL_BLOCK = """
# ---- the meta template of the meta-template design doc (MOSS) ---------------
_moss_meta = dict(
    begin='meta instruction\\nYou are an AI assistant.\\n',
    round=[
        dict(role='HUMAN', begin='<|HUMAN|>:', end='脷\\n'),
        dict(role='THOUGHTS', begin='<|Inner Thoughts|>:', end='茔\\n', prompt='None'),
        dict(role='COMMANDS', begin='<|Commands|>:', end='蝮\\n', prompt='None'),
        dict(role='RESULTS', begin='<|Results|>:', end='兒\\n', prompt='None'),
        dict(role='BOT', begin='<|MOSS|>:', generate=True, end='氡\\n'),
    ],
    end='end of conversion',
    reserved_roles=[dict(role='SYSTEM', begin='<|SYSTEM|>: ', end='\\n')],
    eos_token_id=65605,
)
models.append(
    dict(abbr='moss-meta-template', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/moss',
         meta_template=_moss_meta, max_out_len=64, batch_size=1))
"""

# --------------------------------------------------------------------------
# synthetic rows
# --------------------------------------------------------------------------

UNICODE_SAMPLES = ["café naïve – “quotes”", "数学题：三加四等于几？", "Ωμέγα ≠ ω", "emoji 🙂 ok", "Ünïcödé ß"]


def rng_for(case_id: str) -> random.Random:
    return random.Random(int(hashlib.sha256(case_id.encode()).hexdigest()[:16], 16))


def edge_value(kind: int, col: str, r: int, other: str, rnd: random.Random) -> str:
    kinds = [
        lambda: f"{col} {r}",
        lambda: f"{col} {r} line one\nline two\n",
        lambda: f"{col} {r} with trailing spaces   ",
        lambda: f"{col} {r} has literal {{braces}} and {{}} and }}{{",
        lambda: f"{col} {r} mentions {{{other}}} of another column",
        lambda: f"{col} {r} {rnd.choice(UNICODE_SAMPLES)}",
        lambda: f"\t{col} {r} indented\n  second line",
        lambda: f"{col} {r} ends with newline\n",
    ]
    return kinds[kind % len(kinds)]()


def make_rows(
    case_id: str,
    input_columns: list[str],
    output_column: str | None,
    labels: list | None,
    n: int,
    split_seed: int,
    int_column: str | None,
) -> list[dict]:
    rnd = rng_for(f"{case_id}/{split_seed}")
    cols = list(dict.fromkeys(list(input_columns) + ([output_column] if output_column else [])))
    rows = []
    for r in range(n):
        row: dict[str, Any] = {}
        for c, col in enumerate(cols):
            # a {placeholder} naming a later column gets filled by the sequential
            # replace, one naming an earlier column stays literal: alternate both
            step = 1 if r % 2 == 0 else -1
            other = cols[(c + step) % len(cols)] if len(cols) > 1 else "missing_column"
            if col == output_column and labels:
                row[col] = labels[(r + split_seed) % len(labels)]
            elif col == int_column:
                row[col] = rnd.randint(0, 99) + 1000 * split_seed
            else:
                row[col] = edge_value(r + c + split_seed * 3, col, r, other, rnd)
        rows.append(row)
    return rows


def template_labels(infer_cfg: dict) -> list | None:
    """Keys of a label -> prompt template (PPL style), else None."""
    for name in ("prompt_template", "ice_template"):
        tpl = infer_cfg.get(name)
        if not tpl:
            continue
        t = tpl.get("template")
        if isinstance(t, dict) and not set(t.keys()) <= {"begin", "round", "end"}:
            return list(t.keys())
    return None


def dataset_rows(case_id: str, ds: dict, n_train: int = 8, n_test: int = 3, as_list: bool = False) -> Any:
    reader = ds.get("reader_cfg", {})
    ic = ds.get("infer_cfg", {})
    inputs = reader.get("input_columns", [])
    if isinstance(inputs, str):
        inputs = inputs.split()
    output = reader.get("output_column")
    labels = template_labels(ic)
    fix = ic.get("retriever", {}).get("fix_id_list") or []
    n_train = max(n_train, (max(fix) + 1) if fix else 0)
    non_out = [c for c in inputs if c != output]
    int_column = non_out[-1] if len(non_out) >= 2 else None
    if reader.get("train_split", "train") == reader.get("test_split", "test"):
        n_train = max(n_test, (max(fix) + 1) if fix else 0)
    train = make_rows(case_id, inputs, output, labels, n_train, 0, int_column)
    test = make_rows(case_id, inputs, output, labels, n_test, 1, int_column)
    if as_list:
        return test
    rows: dict[str, Any] = {"train": train, "test": test}
    return rows


def split_named(rows: dict, reader: dict, case_id: str) -> dict:
    """Key the rows by the reader's split names (render-json.md looks those up first).

    Where the names cannot collide with the train/test fallback, half of the cases
    keep the plain train/test keys instead, to exercise the fallback too.
    """
    train_name = reader.get("train_split", "train")
    test_name = reader.get("test_split", "test")
    if (train_name, test_name) == ("train", "test"):
        return rows
    if train_name == test_name:
        return {train_name: rows["train"]}
    collide = train_name == "test" or test_name == "train"
    if not collide and rng_for(case_id + "/splits").random() < 0.5:
        return rows
    return {train_name: rows["train"], test_name: rows["test"]}


# --------------------------------------------------------------------------
# Python source writer for flattened configs
# --------------------------------------------------------------------------

class Unserialisable(Exception):
    pass


class PyWriter:
    """Writes config values back as Python source, importing each class from the first public
    module that has it (so a flattened config reads like a hand-written one)."""

    def __init__(self, public_modules: tuple[str, ...]):
        self.public = public_modules
        self.imports: dict[str, set[str]] = {}

    def import_for(self, obj: Any) -> str:
        name = getattr(obj, "__name__", None)
        if not name or name == "<lambda>":
            raise Unserialisable(repr(obj))
        for mod in [*self.public, obj.__module__]:
            try:
                m = importlib.import_module(mod)
            except Exception:
                continue
            if getattr(m, name, None) is obj:
                self.imports.setdefault(mod, set()).add(name)
                return name
        raise Unserialisable(f"{obj!r} is not importable by name")

    def lit(self, v: Any, indent: int = 0) -> str:
        pad = "    " * (indent + 1)
        end = "    " * indent
        if isinstance(v, type) or callable(v):
            return self.import_for(v)
        if isinstance(v, dict):
            if not v:
                return "dict()"
            if all(isinstance(k, str) and k.isidentifier() and not keyword.iskeyword(k) for k in v):
                items = [f"{pad}{k}={self.lit(x, indent + 1)}," for k, x in v.items()]
                return "dict(\n" + "\n".join(items) + f"\n{end})"
            items = [f"{pad}{self.lit(k)}: {self.lit(x, indent + 1)}," for k, x in v.items()]
            return "{\n" + "\n".join(items) + f"\n{end}}}"
        if isinstance(v, (list, tuple)):
            if not v:
                return "[]" if isinstance(v, list) else "()"
            if (
                all(isinstance(x, (int, str, float, bool)) or x is None for x in v)
                and len(repr(list(v))) < 70
            ):
                return repr(list(v)) if isinstance(v, list) else repr(tuple(v))
            items = [f"{pad}{self.lit(x, indent + 1)}," for x in v]
            o, c = ("[", "]") if isinstance(v, list) else ("(", ")")
            return o + "\n" + "\n".join(items) + f"\n{end}{c}"
        if isinstance(v, (str, int, float, bool)) or v is None:
            return repr(v)
        raise Unserialisable(f"{type(v).__name__}: {v!r}")

    def import_lines(self) -> list[str]:
        return [f"from {m} import {', '.join(sorted(n))}" for m, n in sorted(self.imports.items())]


def plain(v: Any) -> Any:
    """ConfigDict/list trees -> plain dict/list (keeping type objects)."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v] if isinstance(v, list) else tuple(plain(x) for x in v)
    return v


def write_case(
    fw: Framework,
    case_id: str,
    header: str,
    body: str,
    imports: list[str],
    data: Any,
    extra_models: str = "",
) -> None:
    """Write a case's config.py (docstring, imports, datasets, then the framework's models and
    any extra ones) and its data.json."""
    d = CASES_DIR / case_id
    d.mkdir(parents=True, exist_ok=True)
    lines = [f'"""{header}"""', "", *sorted(set([*imports, fw.models_import])), ""]
    text = "\n".join(lines) + "\n" + body.strip("\n") + "\n" + fw.models_block + extra_models
    (d / "config.py").write_text(text, encoding="utf-8")
    write_json(d / "data.json", data)


# --------------------------------------------------------------------------
# seed cases (the docs' examples, verbatim where the docs give code)
# --------------------------------------------------------------------------

# the docs' sample rows
DOC_EX = [
    {"question": "2+2=?", "answer": "4", "irrelavent_infos": "blabla"},
    {"question": "3+3=?", "answer": "6", "irrelavent_infos": "blabla"},
    {"question": "1+1=?", "answer": "2", "irrelavent_infos": "blabla"},
]


def seed_rows(
    case_id: str,
    columns: list[str],
    output: str,
    doc_train: list[dict],
    doc_test: list[dict],
    labels: list | None = None,
    int_column: str | None = None,
) -> dict:
    """The docs' rows first, then synthetic edge-case rows up to 8 train / 3 test."""
    train = [dict(r) for r in doc_train]
    test = [dict(r) for r in doc_test]
    train += make_rows(case_id, columns, output, labels, 8 - len(train), 0, int_column)
    test += make_rows(case_id, columns, output, labels, 3 - len(test), 1, int_column)
    keys = list(dict.fromkeys([k for r in train + test for k in r]))
    fix = []
    for r in train + test:
        fix.append({k: r.get(k, "") for k in keys})
    return {"train": fix[: len(train)], "test": fix[len(train) :]}


def ds_entry(abbr: str | None, reader: str, infer: str, path: str = "parity/seed") -> str:
    """One dataset entry; abbr None leaves it to dataset_abbr_from_cfg (path, name)."""
    abbr_line = f"        abbr={abbr!r},\n" if abbr else ""
    return (
        f"    dict(\n{abbr_line}        type='ParityJsonDataset',\n"
        f"        path={path!r},\n        reader_cfg={reader},\n"
        f"        infer_cfg={infer},\n    ),\n"
    )


def ds_block(var: str, entries: list[str]) -> str:
    return f"{var} = [\n" + "".join(entries) + "]\n"


SEEDS: list[dict] = []

# How the MOSS seeds' extra datasets differ from the doc's example (see build_seed_list).
MOSS_END = 'end="end of dataset prompt template."'
MOSS_END_LIST = 'end=["end of dataset prompt template."]'
MOSS_ROUND_CLOSE = "                    ],\n                )\n"
MOSS_ROUND_CLOSE_WITH_END = f"                    ],\n                    {MOSS_END},\n                )\n"


def replaced_once(text: str, old: str, new: str) -> str:
    """``text`` with ``old``, which must occur exactly once, replaced by ``new``."""
    if text.count(old) != 1:
        raise ValueError(f"{old!r} occurs {text.count(old)} times, not once")
    return text.replace(old, new)


def seed(
    case_id,
    doc,
    infer,
    reader="dict(input_columns=['question'], output_column='answer')",
    rows=None,
    abbr=None,
    fw="oc",
    note="",
    moss=False,
    more=(),
):
    SEEDS.append(
        dict(
            case_id=case_id,
            doc=doc,
            infer=infer,
            reader=reader,
            rows=rows,
            abbr=case_id.replace("seed_", "") if abbr is None else abbr,
            fw=fw,
            note=note,
            moss=moss,
            more=list(more),
        )
    )


def build_seed_list() -> None:
    qa = lambda cid: seed_rows(cid, ["question"], "answer", DOC_EX[:2], DOC_EX[2:])  # noqa: E731

    def qa_list(cid):  # a plain list of rows serves as both splits
        return seed_rows(cid, ["question"], "answer", [], DOC_EX[2:])["test"]

    abc_labels = ["A", "B", "C", "UNK"]

    def abc_rows(cid):
        return seed_rows(
            cid,
            ["A", "B", "C"],
            "answer",
            [{"A": "1+1=2", "B": "1+1=3", "C": "1+1=4", "answer": "A"}],
            [{"A": "2>1", "B": "1>2", "C": "0>1", "answer": "A"}],
            labels=abc_labels,
        )

    for fw in ("oc", "ais"):
        p = "seed_" + ("" if fw == "oc" else "ais_")
        doc = (
            "shared/spec/seeds/001 (OpenCompass prompt_template.md)"
            if fw == "oc"
            else "shared/spec/seeds/000 (AISBench prompt_template, English)"
        )
        seed(
            p + "typical_infer_cfg",
            doc + ": the typical infer_cfg",
            fw=fw,
            infer="""dict(
        ice_template=dict(  # Template used to construct In Context Examples (ice).
            type=PromptTemplate,
            template='{question}\\n{answer}'
        ),
        prompt_template=dict(  # Template used to construct the main prompt.
            type=PromptTemplate,
            template='Solve the following questions.\\n</E>{question}\\n{answer}',
            ice_token="</E>"
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa(p + "typical_infer_cfg"),
        )
        reader_any = (
            "dict(input_columns=['question'], output_column='answer')"
            if fw == "oc"
            else "dict(input_columns=['anything', 'question'], output_column='answer')"
        )
        any_doc = (
            {"question": "1+1=?", "answer": "2", "irrelevant_infos": "blabla"}
            if fw == "oc"
            else {"anything": "blabla", "question": "1+1=?", "answer": "2"}
        )
        any_cols = ["question"] if fw == "oc" else ["anything", "question"]
        seed(
            p + "string_prompt",
            doc + ": string-based prompt",
            fw=fw,
            reader=reader_any,
            abbr="",
            infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template="{anything}\\nQuestion: {question}\\nAnswer: {answer}"
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=seed_rows(p + "string_prompt", any_cols, "answer", [any_doc], [any_doc]),
        )
        seed(
            p + "dialogue_single_round",
            doc + ": dialogue-based prompt, single round",
            fw=fw,
            infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template=dict(
                round=[
                    dict(role="HUMAN", prompt="Question: {question}"),
                    dict(role="BOT", prompt="Answer: {answer}"),
                ]
            )
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa_list(p + "dialogue_single_round"),
        )
        seed(
            p + "dialogue_multi_round",
            doc + ": dialogue-based prompt, multi-round",
            fw=fw,
            infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template=dict(
                round=[
                    dict(role="HUMAN", prompt="Question: 2+2=?"),
                    dict(role="BOT", prompt="Answer: 4"),
                    dict(role="HUMAN", prompt="Question: 3+3=?"),
                    dict(role="BOT", prompt="Answer: 6"),
                    dict(role="HUMAN", prompt="Question: {question}"),
                    dict(role="BOT", prompt="Answer: {answer}"),
                ]
            )
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa(p + "dialogue_multi_round"),
        )
        seed(
            p + "dialogue_system",
            doc + ": dialogue with SYSTEM instruction",
            fw=fw,
            infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template=dict(
                begin=[
                    dict(role='SYSTEM', fallback_role='HUMAN', prompt='Solve the following questions.'),
                ],
                round=[
                    dict(role="HUMAN", prompt="Question: {question}"),
                    dict(role="BOT", prompt="Answer: {answer}"),
                ]
            )
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa_list(p + "dialogue_system"),
        )
        seed(
            p + "ice_dialogue",
            doc + ": ice_template + prompt_template, dialogue-based",
            fw=fw,
            infer="""dict(
        ice_template=dict(
            type=PromptTemplate,
            template=dict(
                round=[
                    dict(role="HUMAN", prompt="{question}"),
                    dict(role="BOT", prompt="{answer}"),
                ]
            )
        ),
        prompt_template=dict(
            type=PromptTemplate,
            template=dict(
                begin=[
                    dict(role='SYSTEM', fallback_role='HUMAN', prompt='Solve the following questions.'),
                    '</E>',
                ],
                round=[
                    dict(role="HUMAN", prompt="{question}"),
                    dict(role="BOT", prompt="{answer}"),
                ],
            ),
            ice_token='</E>',
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa(p + "ice_dialogue"),
        )
        seed(
            p + "abbrev_complete",
            doc + ": abbreviated usage, complete form",
            fw=fw,
            infer="""dict(
        ice_template=dict(
            type=PromptTemplate,
            template="Q: {question}\\nA: {answer}",
        ),
        prompt_template=dict(
            type=PromptTemplate,
            template="</E>Q: {question}\\nA: {answer}",
            ice_token="</E>",
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa(p + "abbrev_complete"),
        )
        seed(
            p + "abbrev_short",
            doc + ": abbreviated usage, abbreviated form",
            fw=fw,
            infer="""dict(
        ice_template=dict(
            type=PromptTemplate,
            template="</E>Q: {question}\\nA: {answer}",
            ice_token="</E>",
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa(p + "abbrev_short"),
        )
        seed(
            p + "abbrev_zero_shot",
            doc + ": ice_template only with ZeroRetriever (documented as valid; the framework raises)",
            fw=fw,
            infer="""dict(
        ice_template=dict(
            type=PromptTemplate,
            template="Q: {question}\\nA: {answer}",
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=qa(p + "abbrev_zero_shot"),
        )
        if fw == "oc":
            seed(
                p + "gen_string",
                doc + ": GenInferencer, string-based prompt",
                infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template='Solve the following questions.\\n{question}\\n{answer}'
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
                rows=qa(p + "gen_string"),
            )
            seed(
                p + "gen_dialogue",
                doc + ": GenInferencer, dialogue-based prompt",
                infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template=dict(
                begin=[
                    dict(role='SYSTEM', fallback_role='HUMAN', prompt='Solve the following questions.'),
                ],
                round=[
                    dict(role="HUMAN", prompt="{question}"),
                    dict(role="BOT", prompt="{answer}"),
                ]
            )
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
                rows=qa(p + "gen_dialogue"),
            )
            seed(
                p + "ppl_string",
                doc + ": PPLInferencer, string-based label templates",
                reader="dict(input_columns=['A', 'B', 'C'], output_column='answer')",
                infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template={
                "A": "Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}\\nAnswer: A",
                "B": "Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}\\nAnswer: B",
                "C": "Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}\\nAnswer: C",
                "UNK": "Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}\\nAnswer: None of them is true.",
            }
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=PPLInferencer),
    )""",
                rows=abc_rows(p + "ppl_string"),
            )
            seed(
                p + "ppl_dialogue",
                doc + ": PPLInferencer, dialogue-based label templates",
                reader="dict(input_columns=['A', 'B', 'C'], output_column='answer')",
                infer="""dict(
        prompt_template=dict(
            type=PromptTemplate,
            template={
                "A": dict(
                    round=[
                        dict(role="HUMAN", prompt="Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}"),
                        dict(role="BOT", prompt="Answer: A"),
                    ]
                ),
                "B": dict(
                    round=[
                        dict(role="HUMAN", prompt="Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}"),
                        dict(role="BOT", prompt="Answer: B"),
                    ]
                ),
                "C": dict(
                    round=[
                        dict(role="HUMAN", prompt="Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}"),
                        dict(role="BOT", prompt="Answer: C"),
                    ]
                ),
                "UNK": dict(
                    round=[
                        dict(role="HUMAN", prompt="Question: Which is true?\\nA. {A}\\nB. {B}\\nC. {C}"),
                        dict(role="BOT", prompt="Answer: None of them is true."),
                    ]
                ),
            }
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=PPLInferencer),
    )""",
                rows=abc_rows(p + "ppl_dialogue"),
            )
            seed(
                p + "fix_id_list_on_inferencer",
                "shared/spec/seeds/002 (OpenCompass prompt_template.md, zh): the typical infer_cfg, "
                "which passes fix_id_list to the inferencer (the framework raises)",
                infer="""dict(
        ice_template=dict(  # 用于构造 In Context Example (ice) 的模板
            type=PromptTemplate,
            template='{question}\\n{answer}'
        ),
        prompt_template=dict(  # 用于构造主干 prompt 的模板
            type=PromptTemplate,
            template='Solve the following questions.\\n</E>{question}\\n{answer}',
            ice_token="</E>"
        ),
        retriever=dict(type=FixKRetriever),  # 定义 in context example 的获取方式
        inferencer=dict(type=GenInferencer, fix_id_list=[0, 1]),  # 使用何种方式推理得到 prediction
    )""",
                rows=qa(p + "fix_id_list_on_inferencer"),
            )

    # 004: meta template design (MOSS), gen and ppl
    mmlu_cols = ["input", "A", "B", "C", "D"]
    doc_q = {
        "input": "Which of the following is NOT a characteristic of an oligotrophic lake?",
        "A": "Low nutrient levels",
        "B": "High altitudes",
        "C": "Shallow water",
        "D": "Sand or gravel bottom",
        "target": "C",
    }

    def moss_rows(cid):
        return seed_rows(
            cid,
            mmlu_cols,
            "target",
            [doc_q],
            [doc_q],
            labels=["A", "B", "C", "D"],
        )

    # the doc's two prompt templates, each with a second dataset that changes only its end:
    # given as a list (gen), or added under every label (ppl)
    moss_gen = """dict(
        ice_template=dict(
            type=PromptTemplate,
            template=dict(
                round=[
                    dict(role='HUMAN', prompt='{input}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: '),
                    dict(role='BOT', prompt='{target}'),
                ],
            ),
        ),
        prompt_template=dict(
            type=PromptTemplate,
            template=dict(
                begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='The following are '
                            'multiple choice questions (with answers) about physics.'),
                       '</E>',
                       ],
                round=[
                    dict(role='HUMAN', prompt='{input}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: '),
                    dict(role='BOT', prompt='{target}'),
                ],
                end="end of dataset prompt template."
            ),
            ice_token='</E>',
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=GenInferencer),
    )"""
    seed(
        "seed_meta_moss_gen",
        "shared/spec/seeds/004 (meta template design): the MOSS meta "
        "template with the dataset prompt template (begin/round/end), generation mode",
        reader="dict(input_columns=['input', 'A', 'B', 'C', 'D'], output_column='target')",
        moss=True,
        infer=moss_gen,
        rows=moss_rows("seed_meta_moss_gen"),
        more=[("meta_moss_gen_end_list", replaced_once(moss_gen, MOSS_END, MOSS_END_LIST))],
    )
    moss_ppl = """dict(
        ice_template=dict(
            type=PromptTemplate,
            template=dict(
                round=[
                    dict(role='HUMAN', prompt='{input}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: '),
                    dict(role='BOT', prompt='{target}'),
                ],
            ),
        ),
        prompt_template=dict(
            type=PromptTemplate,
            template={
                target: dict(
                    begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='The following are '
                                'multiple choice questions (with answers) about physics.'),
                           '</E>',
                           ],
                    round=[
                        dict(role='HUMAN', prompt='{input}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: '),
                        dict(role='BOT', prompt=f'{target}'),
                    ],
                )
                for target in ['A', 'B', 'C', 'D']  # use the actual answer
            },
            ice_token='</E>',
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=PPLInferencer),
    )"""
    seed(
        "seed_meta_moss_ppl",
        "shared/spec/seeds/004 (meta template design): the MOSS meta "
        "template with label -> dialogue templates (the doc's mmlu.py form; a second dataset "
        "adds an end section), perplexity mode",
        reader="dict(input_columns=['input', 'A', 'B', 'C', 'D'], output_column='target')",
        moss=True,
        infer=moss_ppl,
        rows=moss_rows("seed_meta_moss_ppl"),
        more=[("meta_moss_ppl_with_end",
               replaced_once(moss_ppl, MOSS_ROUND_CLOSE, MOSS_ROUND_CLOSE_WITH_END))],
    )

    # AISBench-only: multi-turn (all three modes) and multimodal
    mt_doc = {"question": ["1+1=?", "2+2=?", "3+3=?"], "answer": ["2", "4", "6"]}
    for mode in ("every", "every_with_gt", "last"):
        cid = f"seed_ais_multiturn_{mode}"
        seed(
            cid,
            "shared/spec/seeds/000 (AISBench prompt_template): multi-turn dialogue prompt, "
            f"infer_mode={mode!r}",
            fw="ais",
            reader="dict(input_columns=['question'], output_column='answer')",
            infer=f"""dict(
        prompt_template=dict(
            type=MultiTurnPromptTemplate,
            template=dict(round=[
                dict(role="HUMAN", prompt="{{question}}"),
                dict(role="BOT", prompt="{{answer}}"),
            ])),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=MultiTurnGenInferencer, infer_mode={mode!r}),
    )""",
            rows=multiturn_rows(cid, [mt_doc]),
        )
    for form, _url in (("url", "file://"), ("base64", "data:")):
        cid = f"seed_ais_multimodal_{form}"
        if form == "url":
            mm = """{
                    "text": {"type": "text", "text": "{anything}\\nQuestion: {question}"},
                    "image": {"type": "image_url", "image_url": {"url": "file://{image}"}},
                    "video": {"type": "video_url", "video_url": {"url": "file://{video}"}},
                    "audio": {"type": "audio_url", "audio_url": {"url": "file://{audio}"}}}"""
        else:
            mm = """{
                    "text": {"type": "text", "text": "{anything}\\nQuestion: {question}"},
                    "image": {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,{image}"}},
                    "video": {"type": "video_url", "video_url": {"url": "data:video/jpeg;base64,{video}"}},
                    "audio": {"type": "audio_url", "audio_url": {"url": "data:audio/wav;base64,{audio}"}}}"""
        seed(
            cid,
            f"shared/spec/seeds/000 (AISBench prompt_template): multimodal prompt, {form} data",
            fw="ais",
            reader="dict(input_columns=['anything', 'question'], output_column='answer')",
            infer=f"""dict(
        prompt_template=dict(
            type=MMPromptTemplate,
            template=dict(round=[dict(role="HUMAN", prompt_mm={mm})])
        ),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    )""",
            rows=mm_rows(cid, form),
        )


def multiturn_rows(case_id: str, doc_rows: list[dict], n_test: int = 3) -> list:
    rnd = rng_for(case_id)
    rows = [dict(r) for r in doc_rows]
    while len(rows) < n_test:
        r = len(rows)
        turns = 2 + (r % 2)
        q = [edge_value(r + t, "question", t, "answer", rnd) for t in range(turns)]
        a = [edge_value(r + t + 3, "answer", t, "question", rnd) for t in range(turns)]
        rows.append({"question": q, "answer": a})
    return rows


def mm_rows(
    case_id: str,
    form: str,
    text_col: str = "question",
    extra: tuple = ("anything",),
    n: int = 3,
    with_video: bool = True,
) -> list:
    from_tags = (
        "<AIS_TEXT_START>",
        "<AIS_IMAGE_START>",
        "<AIS_VIDEO_START>",
        "<AIS_AUDIO_START>",
        "<AIS_CONTENT_TAG>",
    )
    t, img, vid, _aud, end = from_tags
    rnd = rng_for(case_id)
    rows = []
    for r in range(n):
        if form == "url":
            image = f"/data/images/img_{r}.jpg"
        else:
            alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789+/"
            image = "".join(rnd.choice(alphabet) for _ in range(24)) + "=="
        q = [
            "What is this?",
            "Describe the {anything} here\nin two lines  ",
            "Qu'est-ce que c'est ? 这是什么？",
        ][r % 3]
        content = f"{t}{q}{end}{img}{image}{end}"
        if r == 2 and with_video:
            video = "/data/videos/v.mp4" if form == "url" else "AAAAIGZ0eXBpc29t"
            content += f"{vid}{video}{end}"
        row = {x: f"{x} {r}" for x in extra}
        row.update({text_col: q, "image": image, "answer": f"answer {r}", "content": content})
        rows.append(row)
    return rows


def emit_seed(s: dict) -> None:
    cid = s["case_id"]
    var = (s["abbr"] or cid.replace("seed_", "")) + "_datasets"
    entries = [ds_entry(s["abbr"] or None, s["reader"], s["infer"])]
    entries += [ds_entry(a, s["reader"], inf) for a, inf in s["more"]]
    fw = FRAMEWORKS[s["fw"]]
    write_case(fw, cid, f"Parity case {cid}: {s['doc']}.", ds_block(var, entries), list(fw.seed_imports),
               s["rows"], MOSS_MODEL_BLOCK if s["moss"] else "")


# --------------------------------------------------------------------------
# real dataset configs, flattened
# --------------------------------------------------------------------------

# (config path relative to the configs/datasets folder, list variable, how many)
OC_REAL = [
    ("gsm8k/gsm8k_gen_1d7fe4.py", "gsm8k_datasets", 1),
    ("gsm_hard/gsmhard_gen_8a1400.py", "gsmhard_datasets", 1),
    ("SuperGLUE_BoolQ/SuperGLUE_BoolQ_few_shot_gen_ba58ea.py", "BoolQ_datasets", 1),
    ("commonsenseqa/commonsenseqa_gen_1da2d0.py", "commonsenseqa_datasets", 1),
    ("winogrande/winogrande_5shot_gen_6447e6.py", "winogrande_datasets", 1),
    ("triviaqa/triviaqa_wiki_1shot_gen_c87d61.py", "triviaqa_datasets", 1),
    ("nq/nq_open_1shot_gen_2e45e5.py", "nq_datasets", 1),
    ("nq/nq_open_1shot_gen_20a989.py", "nq_datasets", 1),
    ("mmlu/mmlu_gen_79e572.py", "mmlu_datasets", 2),
    ("mmlu_pro/mmlu_pro_gen_cdbebf.py", "mmlu_pro_datasets", 1),
    ("commonsenseqa_cn/commonsenseqacn_gen_d380d0.py", "commonsenseqacn_datasets", 1),
    ("wikibench/wikibench_gen_f96ece.py", "wikibench_datasets", 1),
    ("MMLUArabic/MMLUArabic_zero_shot_gen_3523e0.py", "MMLUArabic_datasets", 1),
    ("IFEval/IFEval_gen_353ae7.py", "ifeval_datasets", 1),
    ("CLUE_CMRC/CLUE_CMRC_gen_8484b9.py", "CMRC_datasets", 1),
    ("tydiqa/tydiqa_gen_978d2a.py", "tydiqa_datasets", 2),
    ("cmmlu/cmmlu_gen_c13365.py", "cmmlu_datasets", 1),
    ("crowspairs/crowspairs_gen_381af0.py", "crowspairs_datasets", 1),
    ("MMLUArabic/MMLUArabic_gen_326684.py", "MMLUArabic_datasets", 1),
    ("summscreen/summscreen_gen_653185.py", "summscreen_datasets", 1),
    ("math/math_gen_265cce.py", "math_datasets", 1),
    ("bbh/bbh_gen_5b92b0.py", "bbh_datasets", 1),
    ("mbpp/deprecated_mbpp_gen_1e1056.py", "mbpp_datasets", 1),
    ("race/race_gen_69ee4f.py", "race_datasets", 2),
    ("ARC_c/ARC_c_gen_1e0de5.py", "ARC_c_datasets", 1),
    ("SuperGLUE_BoolQ/SuperGLUE_BoolQ_few_shot_ppl.py", "BoolQ_datasets", 1),
    ("ARC_c/ARC_c_few_shot_ppl.py", "ARC_c_datasets", 1),
    ("commonsenseqa/commonsenseqa_ppl_e51e32.py", "commonsenseqa_datasets", 1, 2),
    ("race/race_few_shot_ppl.py", "race_datasets", 1),
    ("GLUE_CoLA/GLUE_CoLA_ppl_77d0df.py", "CoLA_datasets", 1),
    ("GLUE_MRPC/GLUE_MRPC_ppl_96564c.py", "MRPC_datasets", 1),
    ("ceval/ceval_ppl_1cd8bf.py", "ceval_datasets", 1),
    ("winogrande/winogrande_ppl_55a66e.py", "winogrande_datasets", 1),
    ("SuperGLUE_WSC/SuperGLUE_WSC_ppl_003529.py", "WSC_datasets", 1),
    ("piqa/piqa_ppl_0cfff2.py", "piqa_datasets", 1),
    ("hellaswag/hellaswag_ppl_a6e128.py", "hellaswag_datasets", 1),
    ("commonsenseqa_cn/commonsenseqacn_ppl_971f48.py", "commonsenseqacn_datasets", 1),
    ("winogrande/winogrande_ppl_9307fd.py", "winogrande_datasets", 1),
    ("hellaswag/hellaswag_ppl_9dbb12.py", "hellaswag_datasets", 1),
    ("obqa/obqa_ppl_1defe8.py", "obqa_datasets", 2),
    ("SuperGLUE_RTE/SuperGLUE_RTE_ppl_50f8f6.py", "RTE_datasets", 1),
    ("SuperGLUE_CB/SuperGLUE_CB_ppl_11c175.py", "CB_datasets", 1),
    ("FewCLUE_eprstmt/FewCLUE_eprstmt_ppl_f1e631.py", "eprstmt_datasets", 2),
    ("FewCLUE_bustm/FewCLUE_bustm_ppl_4b16c0.py", "bustm_datasets", 1),
    ("summedits/summedits_ppl_3c30d0.py", "summedits_datasets", 1),
    # found by a sweep of shipped configs with synthetic rows: CLP rows with no choices column,
    # and RawPromptTemplate expanding a column that holds no list (no message: local models too)
    ("civilcomments/civilcomments_clp.py", "civilcomments_datasets", 1),
    ("CLBench/clbench_llmjudge_rawprompt_gen_84a8f0.py", "clbench_datasets", 1),
]

AIS_REAL = [
    ("mtbench/mtbench_gen.py", "mtbench_datasets", 1),
    ("sharegpt/sharegpt_gen.py", "sharegpt_datasets", 1),
    ("textvqa/textvqa_gen.py", "textvqa_datasets", 1),
    ("textvqa/textvqa_gen_base64.py", "textvqa_datasets", 1),
    ("SuperGLUE_BoolQ/SuperGLUE_BoolQ_gen_5_shot_str.py", "BoolQ_datasets", 1),
    ("winogrande/winogrande_gen_5_shot_chat_prompt.py", "winogrande_datasets", 1),
    ("triviaqa/triviaqa_gen_5_shot_chat_prompt.py", "triviaqa_datasets", 1),
    ("ARC_c/ARC_c_gen_0_shot_chat_prompt.py", "ARC_c_datasets", 1),
    ("piqa/piqa_ppl_0_shot_str.py", "piqa_datasets", 1),
    ("FewCLUE_bustm/FewCLUE_bustm_ppl_0_shot_chat.py", "bustm_datasets", 1),
]


def configs_root(fw: Framework) -> Path:
    """The framework's shipped configs/datasets/ folder, in the venv this runs in."""
    package = importlib.import_module(fw.configs_package)
    return Path(package.__file__).parent / "configs" / "datasets"


def flatten_real(fw: Framework, rel: str, var: str, count: int, n_test: int = 3) -> str | None:
    from mmengine.config import Config

    stem = Path(rel).stem
    case_id = f"{fw.key}_{stem}"
    with quiet():
        cfg = Config.fromfile(str(configs_root(fw) / rel))
    dss = [plain(d) for d in cfg[var][:count]]
    w = PyWriter(fw.public_modules)
    out_ds = []
    for d in dss:
        d = dict(d)
        if "eval_cfg" in d:
            try:
                PyWriter(w.public).lit(d["eval_cfg"])
            except Unserialisable:
                d.pop("eval_cfg")
        out_ds.append(d)
    try:
        body = f"{var} = {w.lit(out_ds)}\n"
    except Unserialisable as exc:
        print(f"skip {case_id}: {exc}")
        return None
    # rows: synthetic, from the first dataset's reader (all datasets of a case share rows)
    first = out_ds[0]
    reader = first.get("reader_cfg", {})
    ic = first.get("infer_cfg", {})
    tmpl_types = {
        getattr(ic.get(k, {}).get("type"), "__name__", "") for k in ("prompt_template", "ice_template")
    }
    if "MultiTurnPromptTemplate" in tmpl_types:
        data: Any = multiturn_rows(case_id, [])
    elif "MMPromptTemplate" in tmpl_types:
        form = "base64" if "base64" in stem else "url"
        mm_keys = set()
        for item in ic["prompt_template"]["template"]["round"]:
            mm_keys |= set(item.get("prompt_mm", {}))
        data = mm_rows(
            case_id,
            form,
            extra=tuple(c for c in reader.get("input_columns", []) if c not in ("question", "image")),
            with_video="video" in mm_keys,
        )
    else:
        rows = dataset_rows(case_id, first, n_test=n_test)
        # union of columns of every dataset of the case
        for extra in out_ds[1:]:
            more = dataset_rows(case_id, extra, n_test=n_test)
            for split in rows:
                for r, m in zip(rows[split], more[split]):
                    for k, v in m.items():
                        r.setdefault(k, v)
        data = split_named(rows, reader, case_id)
    src = fw.configs_package.replace(".", "/")
    header = (
        f"Parity case {case_id}: {src}/configs/datasets/{rel} ({var}"
        f"{f'[:{count}]' if count else ''}), flattened by tools/make_parity_cases.py."
    )
    write_case(fw, case_id, header, body, w.import_lines(), data)
    return case_id


def emit_x_case(case: tuple) -> str:
    """One ``x_*`` / ``r_*`` case of tools/parity_x_cases.py / parity_r_cases.py: configs
    written from real classes."""
    cid, key, doc, dsets, rows, *more = case
    fw = FRAMEWORKS[key]
    w = PyWriter(fw.public_modules)
    var = cid.split("_", 1)[1] + "_datasets"
    body = f"{var} = {w.lit(dsets)}\n"
    imports = w.import_lines()
    extra_models = more[0] if more else ""
    if "VLLMCustomAPI," in extra_models:
        imports.append("from ais_bench.benchmark.models import VLLMCustomAPI")
    source = "parity_r_cases" if cid.startswith("r_") else "parity_x_cases"
    header = f"Parity case {cid}: {doc}. Written by tools/{source}.py."
    write_case(fw, cid, header, body, imports, rows, extra_models)
    return cid


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", help="case ids to (re)write")
    args = ap.parse_args(argv)
    only = set(args.only or [])

    build_seed_list()
    written = []
    for s in SEEDS:
        if only and s["case_id"] not in only:
            continue
        emit_seed(s)
        written.append(s["case_id"])
    for fw, table in ((OPENCOMPASS, OC_REAL), (AISBENCH, AIS_REAL)):
        for rel, var, count, *more in table:
            cid = f"{fw.key}_{Path(rel).stem}"
            if only and cid not in only:
                continue
            try:
                got = flatten_real(fw, rel, var, count, *more)
            except Exception as exc:  # a config that does not load is skipped, loudly
                print(f"skip {cid}: {type(exc).__name__}: {exc}")
                continue
            if got:
                written.append(got)
    from parity_r_cases import all_cases as r_cases
    from parity_x_cases import all_cases

    for case in [*all_cases(), *r_cases()]:
        if only and case[0] not in only:
            continue
        written.append(emit_x_case(case))
    print(f"wrote {len(written)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
