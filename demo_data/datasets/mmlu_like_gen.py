# Four-choice questions, generative: the model writes its answer after "Answer:", and
# OpenCompass's `first_capital_postprocess` takes the first capital letter of what it
# wrote.  Two in-context examples from the dev split (FixKRetriever), each with its
# gold letter as the BOT turn; the test turn's BOT prompt is where generation starts.
#
# `type` names the loader the real benchmark uses (MMLUDataset reads the headerless CSVs
# dev/<name>_dev.csv and test/<name>_test.csv under `path`); the workbench reads that
# layout itself, offline.
from opencompass.datasets import MMLUDataset
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever
from opencompass.utils.text_postprocessors import first_capital_postprocess

_hint = 'The following are multiple choice questions (with answers) about everyday science.\n'
_question = '{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer:'

mmlu_like_reader_cfg = dict(
    input_columns=['input', 'A', 'B', 'C', 'D'],
    output_column='target',
    train_split='dev',
)

mmlu_like_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt=_question),
                dict(role='BOT', prompt='{target}\n'),
            ],
        ),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN', prompt=_hint),
                '</E>',
            ],
            round=[
                dict(role='HUMAN', prompt=_question),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
    inferencer=dict(type=GenInferencer, max_out_len=8),
)

mmlu_like_eval_cfg = dict(
    evaluator=dict(type=AccEvaluator),
    pred_postprocessor=dict(type=first_capital_postprocess),
)

mmlu_like_datasets = [
    dict(
        abbr='mmlu-like-everyday-science',
        type=MMLUDataset,
        path='../data/mmlu_like',
        name='everyday_science',
        reader_cfg=mmlu_like_reader_cfg,
        infer_cfg=mmlu_like_infer_cfg,
        eval_cfg=mmlu_like_eval_cfg,
    )
]
