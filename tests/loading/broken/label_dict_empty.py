# broken: a PPL template with no labels
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [
    dict(
        abbr='demo',
        reader_cfg=dict(input_columns=['question'], output_column='label'),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template={}),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=PPLInferencer),
        ),
    )
]
