"""A small workspace written into a temporary folder, and the CLI run in-process.

The workspace is plain files (a top config, two dataset files pulling their rows
from ``data/``, two models) so tests can edit it the way a user would: change one
character of a template, add a trailing space, commit it to git.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

from workbench.cli import main
from workbench.core.result import Stamp
from workbench.headless.render_filter import RenderFilter
from workbench.headless.stream import SampleStream, select

QA_GEN = '''\
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

qa_reader_cfg = dict(input_columns=['question'], output_column='answer')
qa_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(round=[
            dict(role='HUMAN', prompt='Q: {question}\\nA:'),
            dict(role='BOT', prompt='{answer}\\n'),
        ]),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='SYSTEM_PROMPT'), '</E>'],
            round=[
                dict(role='HUMAN', prompt='Q: {question}\\nA:'),
                dict(role='BOT', prompt='{answer}\\n'),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0]),
    inferencer=dict(type=GenInferencer),
)
qa_datasets = [dict(abbr='qa', path='../data/qa.json', reader_cfg=qa_reader_cfg, infer_cfg=qa_infer_cfg)]
'''

CHOICE_PPL = '''\
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

choice_reader_cfg = dict(input_columns=['statement'], output_column='label')
choice_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template={
        'yes': 'Statement: {statement}\\nTrue? yes',
        'no': 'Statement: {statement}\\nTrue? no',
    }),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLInferencer),
)
choice_datasets = [dict(abbr='choice', path='../data/choice.jsonl', reader_cfg=choice_reader_cfg,
                        infer_cfg=choice_infer_cfg)]
'''

LM_MODEL = '''\
from opencompass.models import HuggingFaceCausalLM

models = [dict(
    type=HuggingFaceCausalLM, abbr='chat-lm', path='no/such-model',
    meta_template=dict(
        round=[
            dict(role='HUMAN', begin='<|user|>\\n', end='<|end|>\\n'),
            dict(role='BOT', begin='<|assistant|>\\n', end='<|end|>\\n', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', begin='<|system|>\\n', end='<|end|>\\n')],
    ),
)]
'''

API_MODEL = '''\
from opencompass.models import OpenAI

models = [dict(
    type=OpenAI, abbr='api', path='gpt-x', key='ENV',
    meta_template=dict(
        round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
        reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
    ),
)]
'''

EVAL = '''\
from mmengine.config import read_base

with read_base():
    from .datasets.qa_gen import qa_datasets
    from .datasets.choice_ppl import choice_datasets
    from .models.lm import models as lm_models
    from .models.api import models as api_models

datasets = [*qa_datasets, *choice_datasets]
models = [*lm_models, *api_models]
'''

QA_ROWS = {
    "train": [{"question": "What is 2 + 2?", "answer": "4"}],
    "test": [
        {"question": "What is 3 + 4?", "answer": "7"},
        {"question": "Name a colour.\tAny one.", "answer": "blue"},
        {"question": "Ends with a space ", "answer": "ok"},
    ],
}
CHOICE_ROWS = [
    {"statement": "Water is wet.", "label": "yes"},
    {"statement": "Fire is cold.", "label": "no"},
]


def write_workspace(root: Path, system: str = "Answer briefly.", qa_rows=None, choice_rows=None) -> Path:
    """The workspace under ``root``; returns the top config."""
    for folder in ("datasets", "models", "data"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "datasets" / "qa_gen.py").write_text(QA_GEN.replace("SYSTEM_PROMPT", system), encoding="utf-8")
    (root / "datasets" / "choice_ppl.py").write_text(CHOICE_PPL, encoding="utf-8")
    (root / "models" / "lm.py").write_text(LM_MODEL, encoding="utf-8")
    (root / "models" / "api.py").write_text(API_MODEL, encoding="utf-8")
    (root / "eval.py").write_text(EVAL, encoding="utf-8")
    (root / "data" / "qa.json").write_text(json.dumps(qa_rows or QA_ROWS, ensure_ascii=False),
                                           encoding="utf-8")
    rows = choice_rows or CHOICE_ROWS
    # ASCII-escaped: the loader splits .jsonl with str.splitlines, which also breaks at U+2028
    (root / "data" / "choice.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return root / "eval.py"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(*argv: str, cwd: Path | None = None) -> Run:
    """``workbench ARGV`` in this process; argparse's exit becomes the exit code."""
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(old)
    return Run(code, out.getvalue(), err.getvalue())


def write_streamed(result, write, stamps: bool, path=None) -> tuple[str, int, object]:
    """``write(result, out, samples_of)`` over every pair of ``result``, its samples from a
    ``SampleStream`` that hands out stamps where it can (``stamps``) or never: the text written,
    how many stamps were handed out, and the result as written (its warnings and errors).
    ``out`` is a StringIO, or, given ``path``, that file (in UTF-8: what --out opens)."""
    narrowed, entries = select(result, RenderFilter())
    handed = 0
    with SampleStream(entries, RenderFilter(), stamps=stamps) as stream:
        def counted(pair):
            nonlocal handed
            for sample in stream(pair):
                handed += type(sample) is Stamp
                yield sample

        if path is None:
            out = io.StringIO()
            write(narrowed, out, counted)
            return out.getvalue(), handed, narrowed
        with open(path, "w", encoding="utf-8", newline="") as file:
            write(narrowed, file, counted)
    return path.read_bytes().decode("utf-8"), handed, narrowed
