# broken: the inferencer dict names no type
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [
    dict(
        abbr='demo',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='Q: {question}\nA:'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(max_out_len=64),
        ),
    )
]
