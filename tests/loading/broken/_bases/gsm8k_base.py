from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

gsm8k_reader_cfg = dict(input_columns=['question'], output_column='answer')

gsm8k_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template='Question: {question}\nAnswer:'),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)

gsm8k_datasets = [
    dict(abbr='gsm8k', path='openai/gsm8k', reader_cfg=gsm8k_reader_cfg, infer_cfg=gsm8k_infer_cfg),
]
