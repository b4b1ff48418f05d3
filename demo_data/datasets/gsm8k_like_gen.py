# Few-shot math word problems, generative: a dialogue ice_template, four fixed
# in-context examples, and a SYSTEM instruction that falls back to HUMAN for models
# whose meta template has no SYSTEM role.
#
# `type` names the loader the real benchmark uses (GSM8KDataset reads train.jsonl and
# test.jsonl in the `path` folder); the workbench reads that layout itself, offline.
from opencompass.datasets import GSM8KDataset, Gsm8kEvaluator, gsm8k_postprocess
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

gsm8k_like_reader_cfg = dict(input_columns=['question'], output_column='answer')

gsm8k_like_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt="Question: {question}\nLet's think step by step\nAnswer:"),
                dict(role='BOT', prompt='{answer}\n'),
            ],
        ),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN',
                     prompt='Solve the math word problem. Finish with "The answer is N".'),
                '</E>',
            ],
            round=[
                dict(role='HUMAN', prompt="Question: {question}\nLet's think step by step\nAnswer:"),
                dict(role='BOT', prompt='{answer}\n'),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2, 3]),
    inferencer=dict(type=GenInferencer, max_out_len=512),
)

gsm8k_like_eval_cfg = dict(
    evaluator=dict(type=Gsm8kEvaluator), pred_postprocessor=dict(type=gsm8k_postprocess),
    dataset_postprocessor=dict(type=gsm8k_postprocess),  # the gold ends "The answer is N" too
)

gsm8k_like_datasets = [
    dict(
        abbr='gsm8k-like',
        type=GSM8KDataset,
        path='../data/gsm8k_like',
        reader_cfg=gsm8k_like_reader_cfg,
        infer_cfg=gsm8k_like_infer_cfg,
        eval_cfg=gsm8k_like_eval_cfg,
    )
]
