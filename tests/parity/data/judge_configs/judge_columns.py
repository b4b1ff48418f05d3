"""Which columns a judge's template can read: a GenericLLMEvaluator with its own judge_cfg
and a CascadeEvaluator (parallel) with the fallback judge, both asking for every column the
evaluators add ({prediction}, {obj_gold}, {reference}) and the dataset's own."""
from opencompass.datasets import GSM8KDataset
from opencompass.evaluator import CascadeEvaluator, GenericLLMEvaluator
from opencompass.models import OpenAISDK
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

reader_cfg = dict(input_columns=['question'], output_column='answer')
infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='{question}')])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)
JUDGE = 'Q: {question}\nA (column): {answer}\nGold: {obj_gold}\nRef: {reference}\nPred: {prediction}\nVerdict?'
judge_template = dict(
    type=PromptTemplate,
    template=dict(
        begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='You grade answers.')],
        round=[dict(role='HUMAN', prompt=JUDGE)],
    ),
)
own_judge = dict(
    type=OpenAISDK, abbr='my-judge', path='judge-x', key='sk-never-shown',
    openai_api_base='http://127.0.0.1:9/v1/',
    meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                              dict(role='BOT', api_role='BOT', generate=True)],
                       reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')]),
    max_out_len=1024, tokenizer_path='gpt-4',
)
dataset_cfg = dict(type=GSM8KDataset, path='opencompass/gsm8k', reader_cfg=reader_cfg)

judge_datasets = [
    dict(abbr='columns-generic', type=GSM8KDataset, path='opencompass/gsm8k', reader_cfg=reader_cfg,
         infer_cfg=infer_cfg,
         eval_cfg=dict(evaluator=dict(type=GenericLLMEvaluator, prompt_template=judge_template,
                                      dataset_cfg=dataset_cfg, judge_cfg=own_judge))),
    dict(abbr='columns-cascade', type=GSM8KDataset, path='opencompass/gsm8k', reader_cfg=reader_cfg,
         infer_cfg=infer_cfg,
         eval_cfg=dict(evaluator=dict(
             type=CascadeEvaluator, rule_evaluator=dict(type=AccEvaluator),
             llm_evaluator=dict(type=GenericLLMEvaluator, prompt_template=judge_template,
                                dataset_cfg=dataset_cfg, judge_cfg=dict())))),
]
