# Four-choice questions scored by perplexity: the prompt_template is a label dict,
# one dialogue per choice (the model's loss on each is compared), and the
# in-context examples come from an ice_template label dict keyed by each train
# row's `target`.  PPL needs token losses, so API and chat-template models refuse it.
#
# `type` names the loader the real benchmark would use; the workbench never runs it
# and reads the rows from `path` (relative to this file's folder) itself.
from opencompass.datasets import MMLUDataset
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

_hint = 'The following are multiple choice questions (with answers) about everyday science.\n'
_question = '{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '

mmlu_like_reader_cfg = dict(
    input_columns=['input', 'A', 'B', 'C', 'D'],
    output_column='target',
)

mmlu_like_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template={
            opt: dict(
                round=[
                    dict(role='HUMAN', prompt=_question),
                    dict(role='BOT', prompt=f'{opt}\n'),
                ],
            )
            for opt in ['A', 'B', 'C', 'D']
        },
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template={
            opt: dict(
                begin=[
                    dict(role='SYSTEM', fallback_role='HUMAN', prompt=_hint),
                    '</E>',
                ],
                round=[
                    dict(role='HUMAN', prompt=_question),
                    dict(role='BOT', prompt=opt),
                ],
            )
            for opt in ['A', 'B', 'C', 'D']
        },
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
    inferencer=dict(type=PPLInferencer),
)

mmlu_like_eval_cfg = dict(evaluator=dict(type=AccEvaluator))

mmlu_like_datasets = [
    dict(
        abbr='mmlu-like-everyday-science',
        type=MMLUDataset,
        path='../data/mmlu_like.json',
        reader_cfg=mmlu_like_reader_cfg,
        infer_cfg=mmlu_like_infer_cfg,
        eval_cfg=mmlu_like_eval_cfg,
    )
]
