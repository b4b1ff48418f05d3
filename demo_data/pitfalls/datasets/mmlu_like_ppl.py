# PITFALL: a perplexity (PPL) dataset in an eval whose models include an API model and a
# chat-template model.  The prompt_template is a label dict, one dialogue per choice (the
# model's loss on each is compared), and the in-context examples come from an
# ice_template label dict keyed by each dev row's `target`.  PPL needs the model's own
# token losses: the two local models render four requests a row, while the API model and
# the chat-template model refuse, as OpenCompass does ("does not support ppl-based
# evaluation yet"): two errors.  The fix: a gen config for those models (see the demo's
# datasets/mmlu_like_gen.py), or an eval that pairs PPL only with local models.
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
    train_split='dev',
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
        path='../../data/mmlu_like',
        name='everyday_science',
        reader_cfg=mmlu_like_reader_cfg,
        infer_cfg=mmlu_like_infer_cfg,
        eval_cfg=mmlu_like_eval_cfg,
    )
]
