# PITFALL: an AISBench dataset config in an eval whose models are OpenCompass classes.
# Neither framework runs this mix as written (each imports only its own classes), so the
# workbench warns on every pair and renders with the dataset's templates and the
# model's parser.  The fix: AISBench models for AISBench datasets, or the OpenCompass
# form of the same chat (the demo's datasets/multiturn_chat_gen.py).
#
# AISBench multi-turn chat: MultiTurnPromptTemplate repeats its one round for every
# (question, answer) pair of a row, and MultiTurnGenInferencer with
# infer_mode='every_with_gt' sends one request per turn, each carrying the earlier
# turns with their ground-truth answers.  Rows hold `question` and `answer` lists.
#
# `type` names the loader the real benchmark would use; the workbench never runs it
# and reads the rows from `path` (relative to this file's folder) itself.
from ais_bench.benchmark.datasets import MTBenchDataset
from ais_bench.benchmark.openicl.icl_inferencer import MultiTurnGenInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import MultiTurnPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever

multiturn_demo_reader_cfg = dict(input_columns=['question', 'answer'], output_column='answer')

multiturn_demo_infer_cfg = dict(
    prompt_template=dict(
        type=MultiTurnPromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=MultiTurnGenInferencer, infer_mode='every_with_gt'),
)

multiturn_demo_datasets = [
    dict(
        abbr='multiturn-demo',
        type=MTBenchDataset,
        path='../../data/multiturn_chat.jsonl',
        reader_cfg=multiturn_demo_reader_cfg,
        infer_cfg=multiturn_demo_infer_cfg,
    )
]
