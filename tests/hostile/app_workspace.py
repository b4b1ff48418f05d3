"""A small workspace for the app's hostile tests: one dataset, one chat-template model whose
template is a file of its own (so a test can turn it hostile the way an editor saves it)."""

from __future__ import annotations

from pathlib import Path

from .helpers import write

CONFIG = """\
from opencompass.models import HuggingFacewithChatTemplate
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [dict(
    abbr='qa',
    path='data/qa.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type=PromptTemplate, template=dict(round=[
            dict(role='HUMAN', prompt='Answer briefly. {question}'),
            dict(role='BOT', prompt='{answer}'),
        ])),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer),
    ),
)]
models = [dict(type=HuggingFacewithChatTemplate, abbr='tpl-chat', path='tpl')]
"""

CHATML = ("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")

SPINNING = "{% macro f(n) %}{% if n > 0 %}{{ f(n-1) }}{{ f(n-1) }}{% endif %}{% endmacro %}{{ f(60) }}"

KILLPG = "import os, signal\nos.killpg(os.getpgid(0), signal.SIGTERM)\n"

ROWS = '{"question": "What is 2 + 2?", "answer": "4"}\n{"question": "Capital of France?", "answer": "Paris"}\n'


def make_workspace(root: Path) -> Path:
    """The workspace's config (``eval.py``), its rows and its model folder."""
    write(root / "data" / "qa.jsonl", ROWS)
    write(root / "tpl" / "tokenizer_config.json", '{"eos_token": "<|im_end|>"}\n')
    write(root / "tpl" / "chat_template.jinja", CHATML)
    return write(root / "eval.py", CONFIG)


def save(path: Path, text: str) -> None:
    """Save as most editors do: a temporary file renamed over the old one."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
