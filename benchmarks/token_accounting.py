"""What chat templates, token counts and max_seq_len cost: run ``python benchmarks/token_accounting.py``.

Renders 2000 five-shot samples through no model, a chat-template model (model_text, exact
counts by section with the test tokenizer), and the same model with a max_seq_len loop that
drops examples.  Needs the ``tokens`` extra (``tokenizers``) for the exact counts.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "chat_templates"))

from tokenizer_fixture import write_model_folder  # noqa: E402

from workbench.core.render import PairRenderer  # noqa: E402
from workbench.core.spec import DatasetSpec, ModelSpec  # noqa: E402
from workbench.core.tokens.chat_template import builtin_template  # noqa: E402
from workbench.loading.models.model_assets import attach_assets  # noqa: E402

ROUND = [{"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]
DATASET = {
    "abbr": "qa",
    "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
    "infer_cfg": {
        "ice_template": {"type": "PromptTemplate", "template": {"round": ROUND}},
        "prompt_template": {"type": "PromptTemplate", "ice_token": "</E>",
                            "template": {"begin": "</E>", "round": ROUND}},
        "retriever": {"type": "FixKRetriever", "fix_id_list": [0, 1, 2, 3, 4]},
        "inferencer": {"type": "GenInferencer"},
    },
}
ROWS = {"train": [{"question": f"What is {i} + {i}", "answer": str(2 * i)} for i in range(50)],
        "test": [{"question": f"What is {i} + 3 apples", "answer": "x"} for i in range(2000)]}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_model_folder(Path(tmp) / "model", builtin_template("chatml").source,
                                    {"eos_token": "<|im_end|>", "bos_token": None})
        for label, model in (("no model", None),
                             ("chat template", {"type": "HuggingFacewithChatTemplate", "path": str(folder)}),
                             ("+ max_seq_len", {"type": "HuggingFacewithChatTemplate", "path": str(folder),
                                                "max_seq_len": 60})):
            start = time.perf_counter()
            spec = attach_assets([ModelSpec(abbr="m", cfg=model)])[0] if model else None
            pair = PairRenderer(DatasetSpec(abbr="qa", cfg=DATASET, rows=ROWS), spec)
            n = sum(len(s.requests) for s in pair.samples())
            seconds = time.perf_counter() - start
            print(f"{label:>14}: {n} requests in {seconds:.2f} s ({1000 * seconds / n:.2f} ms each)")


if __name__ == "__main__":
    main()
